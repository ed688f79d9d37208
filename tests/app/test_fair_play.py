"""Fair play: no frame ever carries a card that was face down or in the stock.

Racers and a spectator record every frame they receive while the racers play random
legal moves, deals, undos and illegal moves. Each racer's game is replayed beside the
race with the engine (the test chose the seed), so at every reply the test knows which
cards were in view, and checks the frames against that.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest

from server.engine import Game, new_game
from server.engine.cards import CODE

from .client import Client, player
from .conftest import Running

CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[A2-9TJQK])[CDHS](?![A-Za-z0-9])")


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        # a token is random text, which can spell a card ("7H_I_UOi..."): not a name
        return [s for k, v in value.items() if k != "token" for s in strings(k) + strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v)]
    return []


def codes_in(frame: dict[str, Any]) -> list[str]:
    return [code for text in strings(frame) for code in CARD.findall(text)]


def visible(game: Game) -> Counter[str]:
    return Counter(CODE[c] for i, pile in enumerate(game.p) if i not in game.HIDDEN for c in pile)


def assert_fair(frames: list[dict[str, Any]], replica: Game | None, who: str) -> None:
    """Every card named in these frames is in view in ``replica`` (the recipient's own
    game); with no game of their own (a spectator, the lobby), no card at all."""
    seen = visible(replica) if replica is not None else Counter()
    for frame in frames:
        for code in codes_in(frame):
            assert seen[code] > 0, f"{who} was sent {code}, not in view: {frame}"
        view = frame.get("view")
        if view is not None:
            shown = Counter(code for pile in view["piles"] for code in pile["cards"])
            assert shown == seen, f"{who}'s view differs from the cards in view"
        assert "seed" not in frame and "deck" not in frame


class Racer:
    """A player playing random moves, undos and illegal moves, their game replayed beside
    it by the engine (the test knows the seed) to know what is in view; ``gid``: the game
    to name in each request (none: the race's, the default)."""

    def __init__(self, client: Client, game_id: str, seed: int, gid: str | None = None) -> None:
        self.client = client
        self.replica = new_game(game_id, seed=seed)
        self.checked = 0
        self.named: dict[str, Any] = {"game": gid} if gid is not None else {}

    def check(self) -> None:
        assert_fair(self.client.frames[self.checked :], self.replica, self.client.name or "")
        self.checked = len(self.client.frames)

    async def step(self, rng: random.Random, legal: list[str]) -> list[str]:
        roll = rng.random()
        if roll < 0.1:
            reply = await self.client.request("undo", **self.named)
            if reply["type"] == "undone":
                self.replica.undo()
        elif roll < 0.2:
            # an illegal move: its message must not name a hidden card either
            illegal = [m.text for m in self.replica.MOVES.values() if m.text not in legal]
            reply = await self.client.request("move", move=rng.choice(illegal), **self.named)
            assert reply["code"] == "illegal_move"
        else:
            reply = await self.client.request("move", move=rng.choice(legal), **self.named)
            assert reply["type"] == "moved", reply
            self.replica.play(reply["move"])
        self.check()
        if reply["type"] in ("moved", "undone"):
            return list(reply["legal"])
        return [m.text for m in self.replica.legal_moves()]


@pytest.mark.parametrize(("game_id", "seed"), [("gate", 11), ("nestor", 5), ("babette", 3)])
async def test_no_frame_carries_a_hidden_card(server: Running, game_id: str, seed: int) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    watcher = await player(server.url, "watcher")
    code = (await ann.call("room_create", game=game_id, seed=seed))["code"]
    await bob.call("room_join", code=code)
    await watcher.call("room_watch", code=code)
    await bob.call("ready")
    await ann.call("start")
    # before the start: the lobby and the countdown name no card
    for client in (ann, bob, watcher):
        await client.event("room", lambda e: e["state"] == "countdown")
        assert_fair(client.frames, None, client.name or "")
    racers = [Racer(ann, game_id, seed), Racer(bob, game_id, seed)]
    legal = []
    for racer in racers:
        start = await racer.client.event("race_start")
        legal.append(start["legal"])
        racer.check()
    rng = random.Random(seed)
    for _ in range(60):
        for n, racer in enumerate(racers):
            if legal[n] and racer.replica.status == "playing":
                legal[n] = await racer.step(rng, legal[n])
    for racer in racers:
        if racer.replica.status == "playing":
            await racer.client.call("resign")
    await watcher.event("results")
    # the spectator sees progress and results, never a card
    assert_fair(watcher.frames, None, "watcher")
    assert any(f["type"] == "progress" for f in watcher.frames)
    for racer in racers:
        racer.check()
