"""Fair play in challenges, in every game: no frame a taker receives, from the challenge
shown to its result, names a card the taker has not uncovered (the ghost is counts only),
and someone who only looks at a challenge is sent no card at all."""

from __future__ import annotations

import random

import pytest

from server.engine import GAMES

from .client import Client, player
from .conftest import Running
from .test_fair_play import Racer, assert_fair


async def recorded(client: Client, game_id: str, seed: int, rng: random.Random) -> str:
    """A solo game of random moves, then resigned: its id."""
    game = await client.call("new_game", game=game_id, seed=seed)
    legal = game["legal"]
    for _ in range(40):
        if not legal:
            break
        reply = await client.call("move", game=game["game"], move=rng.choice(legal))
        if reply["status"] != "playing":
            return str(game["game"])
        legal = reply["legal"]
    await client.call("resign", game=game["game"])
    return str(game["game"])


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_no_challenge_frame_carries_a_card_the_taker_has_not_uncovered(
    server: Running, game_id: str
) -> None:
    seed = 17
    ann, bob, cy = [await player(server.url, n) for n in ("ann", "bob", "cy")]
    rng = random.Random(seed)
    gid = await recorded(ann, game_id, seed, rng)
    cid = (await ann.call("challenge_create", replay=gid))["challenge"]["id"]
    await cy.call("challenge_show", challenge=cid)
    taken = await bob.call("challenge_take", challenge=cid)
    taker = Racer(bob, game_id, seed, taken["game"])
    assert_fair(bob.frames, None, "bob before the start")  # the ghost, the table: no card
    start = await bob.event("challenge_start")
    taker.check()
    legal = start["legal"]
    for _ in range(40):
        if not legal or taker.replica.status != "playing":
            break
        legal = await taker.step(rng, legal)
    if taker.replica.status == "playing":
        await bob.call("resign", game=taken["game"])
    result = await bob.event("challenge_result")
    taker.check()
    assert result["you"]["player"] == "bob"
    # one who only looks: the table after bob's race, and the challenge, name no card
    await cy.call("challenge_show", challenge=cid)
    assert_fair(cy.frames, None, "cy")
