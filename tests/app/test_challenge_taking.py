"""Taking challenges, one at a time and to the end: a second challenge is refused while
the taker's first is played (it would drop out of ``resume``); a challenge taken near
the end of its days is kept until the taker's game can be over; the ghost says the hints
its player took, and its entry when its game started."""

from __future__ import annotations

import asyncio
import random

from server.app.store.keys import challenge_key

from .client import player, signed_in
from .conftest import Running, running, with_settings
from .test_challenges import made, play_out, solo_won


async def test_a_second_challenge_waits_for_the_first_to_be_over(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    first = await made(ann, await solo_won(ann))
    second = await made(ann, await solo_won(ann))
    assert first["id"] != second["id"]
    taken = await bob.call("challenge_take", challenge=first["id"])
    # refused in its countdown, and once it is under way
    early = await bob.request("challenge_take", challenge=second["id"])
    assert early["code"] == "challenge_in_play", early
    start = await bob.event("challenge_start")
    await bob.call("move", game=taken["game"], move=start["legal"][0])
    refused = await bob.request("challenge_take", challenge=second["id"])
    assert refused["code"] == "challenge_in_play", refused
    assert "ann's challenge on The Gate" in refused["message"], refused
    # nothing taken: not in the second's table, and the first is the one to come back to
    assert (await bob.call("challenge_show", challenge=second["id"]))["taken"] is None
    await bob.close()
    again = await signed_in(server.url, bob.token or "")
    resume = again.welcome["resume"]  # type: ignore[attr-defined]
    assert resume["challenge"]["game"] == taken["game"]
    # over: the next may be taken
    await again.call("resign", game=taken["game"])
    await again.event("challenge_result")
    taken_next = await again.call("challenge_take", challenge=second["id"])
    assert taken_next["type"] == "challenge_taken"


async def test_a_challenge_taken_at_its_end_is_kept_until_the_game_is_over(
    server: Running,
) -> None:
    # a challenge of a second's life, taken at once: its game outlives the second
    async with running(with_settings(server.settings, challenge_ttl=1)) as short:
        ann, bob = await player(short.url, "ann"), await player(short.url, "bob")
        challenge = await made(ann, await solo_won(ann))
        taken = await bob.call("challenge_take", challenge=challenge["id"])
        start = await bob.event("challenge_start")
        lasts = await short.redis.pttl(challenge_key(challenge["id"]))
        assert lasts > (short.settings.idle_ttl - 60) * 1000, lasts
        shown = (await bob.call("challenge_show", challenge=challenge["id"]))["challenge"]
        assert shown["expires_at"] >= taken["now"] - 1000 + short.settings.idle_ttl * 1000
        await asyncio.sleep(1.2)  # (past the challenge's own second, in Redis's time)
        await bob.call("move", game=taken["game"], move=start["legal"][0])
        await bob.call("resign", game=taken["game"])
        result = await bob.event("challenge_result")
        assert [e["player"] for e in result["table"]] == ["ann", "bob"]
        news = await ann.event("challenge_news")
        assert news["result"]["player"] == "bob"
        assert (await bob.call("challenge_show", challenge=challenge["id"]))["taken"]


async def test_the_ghost_says_its_hints_and_its_entry_its_start(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    game = await ann.call("new_game", game="gate", seed=3)
    assert (await ann.call("hint", game=game["game"]))["type"] == "hint"
    end = await play_out(ann, game["game"], game["legal"], random.Random(1))
    assert end["status"] == "won", end
    server.clock.advance(5)
    challenge = await made(ann, game["game"])
    replay = (await ann.call("replay", replay=game["game"]))["replay"]
    assert challenge["result"]["hints"] == 1
    assert challenge["result"]["taken_ms"] == replay["start_ms"] < challenge["created_at"]
    taken = await bob.call("challenge_take", challenge=challenge["id"])
    assert taken["ghosts"][0]["hints"] == 1
    start = await bob.event("challenge_start")
    assert start["ghosts"][0]["hints"] == 1
