"""The quick race's matcher where a match and something else meet, on two processes
sharing one Redis: a player who asks for another game in the moment their match's room
is being made (they were put in two races at once), and a match whose room never came
(its process, or Redis, failed as it made it: its players were dropped from the queue
without a word)."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import pytest

from server.app.settings import Settings
from server.app.store.keys import QUICK_WAITING, online_key, player_key

from .client import Client, player, signed_in
from .conftest import Running, ServerProcess, running, with_settings
from .test_quick import GAME, rated


async def waiting_pair(bobs: Running, anns: Running) -> tuple[Client, Client, str]:
    """bob waiting for a quick race of The Gate through ``bobs``, ann through ``anns``,
    both rated alike: the two, and ann's id."""
    bob, _ = await rated(bobs, "bob", 10.0)
    ann, apid = await rated(anns, "ann", 10.0)
    await bob.call("quick", game=GAME)
    await ann.call("quick", game=GAME)
    return bob, ann, apid


async def test_asking_for_another_game_as_a_match_is_made_leaves_that_race(
    settings: Settings,
) -> None:
    """bob waits on one process, ann on the other; a match takes both out of the queue,
    and before its room is made ann asks for The Wedge. She is in one thing only: her
    place in the race is resigned as ``quick`` resigns a race, and she waits for The
    Wedge (she had been left racing The Gate and waiting for The Wedge at once)."""
    quiet = with_settings(settings, quick_tick=3600.0)  # (the passes here: the test's)
    async with running(quiet) as one, running(quiet) as two:
        bob, ann, apid = await waiting_pair(one, two)
        one.clock.advance(3)
        quick = one.service.quick
        groups, _ = await quick.queue.match(GAME, quick.now(), quick.window_of())
        assert len(groups) == 1 and len(groups[0]) == 2
        asking = asyncio.create_task(ann.request("quick", game="wedge"))
        await asyncio.sleep(0.2)  # (asked before the room is made)
        await quick.make_room(GAME, groups[0])
        waiting = await asyncio.wait_for(asking, 10)
        assert waiting["type"] == "quick_waiting" and waiting["game"] == "wedge", waiting
        matched = await bob.event("quick_matched")
        gone = await bob.event("progress", lambda e: e["player"] == "ann")
        assert gone["status"] == "resigned", gone
        assert (await one.redis.hget(QUICK_WAITING, apid)) == b"wedge"
        room = await bob.call("room_watch", code=matched["code"])
        assert [p["name"] for p in room["players"]] == ["bob"], room  # (left in its countdown)


async def test_a_match_whose_room_never_came_is_matched_again(settings: Settings) -> None:
    """A match takes ann and bob out of the queue and its room is never made (its
    process died, or Redis went away, as it made it): once a match's room is overdue,
    their processes put them back in the queue as they were, and they are matched."""
    fast = with_settings(settings, quick_tick=0.05, quick_ghosts_after=600.0)
    async with running(fast) as one, running(fast) as two:
        ann, bob = await player(one.url, "ann"), await player(two.url, "bob")
        await ann.call("quick", game=GAME)
        await bob.call("quick", game=GAME)
        quick = one.service.quick
        # (the match of a pass run 3 s on, whose room is never made)
        groups, _ = await quick.queue.match(GAME, quick.now() + 3000, quick.window_of())
        assert len(groups) == 1 and len(groups[0]) == 2
        one.clock.advance(10)
        first = await ann.event("quick_matched", timeout=5)
        second = await bob.event("quick_matched", timeout=5)
        assert first["code"] == second["code"]
        assert sorted(first["players"]) == ["ann", "bob"]


async def test_waiters_of_a_process_killed_are_not_matched(
    settings: Settings, tmp_path: Path
) -> None:
    """ann waits on a process killed -9 (her online mark lasts its 45 s, her wait in the
    queue longer); bob and cy, waiting on a live one, are matched together, without her:
    a match keeps only waiters whose process still runs its matcher."""
    assert settings.redis_url is not None
    dead = ServerProcess(settings.redis_url, tmp_path, PATIENCE_QUICK_TICK="0.2")
    dead.start()
    try:
        ann = await player(dead.url, "ann")
        await ann.call("quick", game=GAME)
        await asyncio.sleep(0.5)  # (its matcher's passes, saying it runs)
    finally:
        dead.stop(signal.SIGKILL)
    await asyncio.sleep(1.5)  # (its mark of a running matcher lapses)
    async with running(with_settings(settings, quick_tick=0.05)) as live:
        bob, cy = await player(live.url, "bob"), await player(live.url, "cy")
        await bob.call("quick", game=GAME)
        await cy.call("quick", game=GAME)
        live.clock.advance(3)
        matched = await bob.event("quick_matched")
        assert sorted(matched["players"]) == ["bob", "cy"], matched


async def test_quick_matched_comes_before_the_room_on_every_process(
    settings: Settings,
) -> None:
    """Players matched by another process are told ``quick_matched`` first, then the
    room (as protocol.md says): the room's events had come first to some of them."""
    fast = with_settings(settings, quick_tick=0.05)
    async with running(fast) as one, running(fast) as two:
        here = [await player(one.url, f"a{n}") for n in range(2)]
        there = [await player(two.url, f"b{n}") for n in range(6)]
        for client in [*here, *there]:
            await client.call("quick", game=GAME)
        one.clock.advance(3)
        for client in [*here, *there]:
            await client.event("race_start")
            kinds = [f.get("type") for f in client.frames]
            told = [k for k in kinds if k in ("quick_matched", "room", "race_start")]
            assert told[0] == "quick_matched", (client.name, kinds)


async def test_a_waiter_is_matched_before_their_process_first_pass(
    settings: Settings,
) -> None:
    """ann asks on a process with nobody else waiting, whose matcher has not passed yet;
    a match another process makes at once keeps her (her process says it runs the matcher
    as she joins: she had been left out as if it had died)."""
    quiet = with_settings(settings, quick_tick=3600.0)  # (no pass: the test's own)
    async with running(quiet) as one, running(quiet) as two:
        bob = await player(one.url, "bob")
        ann = await player(two.url, "ann")
        await bob.call("quick", game=GAME)
        await ann.call("quick", game=GAME)
        one.clock.advance(3)
        quick = one.service.quick
        groups, _ = await quick.queue.match(GAME, quick.now(), quick.window_of())
        await quick.make_room(GAME, groups[0])
        for client in (ann, bob):
            matched = await client.event("quick_matched")
            assert sorted(matched["players"]) == ["ann", "bob"], matched


async def test_a_room_made_as_the_match_is_told_leaves_the_quick_race(
    settings: Settings,
) -> None:
    """ann, told of her match by the process she is on (the match made by the other),
    makes a room of her own at once: she has chosen it, and leaves the quick race (she
    had been left racing it, sitting in her own lobby)."""
    fast = with_settings(settings, quick_tick=0.05)
    async with running(fast) as one, running(fast) as two:
        bob, _ = await rated(one, "bob", 10.0)
        ann, _ = await rated(two, "ann", 10.0)
        await bob.call("quick", game=GAME)
        await asyncio.sleep(0.2)  # (bob's process makes the match: he has waited longest)
        await ann.call("quick", game=GAME)
        one.clock.advance(3)
        matched = await ann.event("quick_matched")
        lobby = await ann.call("room_create", game="wedge")
        assert lobby["state"] == "lobby" and lobby["code"] != matched["code"]
        # (gone from the room: in its countdown, or as the race starts, among those left)
        await bob.event("room", lambda e: "ann" not in [p["name"] for p in e["players"]])
        await ann.close()
        again = await signed_in(two.url, ann.token or "")
        resume = again.welcome["resume"]  # type: ignore[attr-defined]
        assert resume["room"]["code"] == lobby["code"] and "race" not in resume, resume


@pytest.mark.parametrize("maker", ["bobs", "anns"])
async def test_quicks_asked_at_once_as_a_match_is_made_are_answered_in_turn(
    settings: Settings, maker: str
) -> None:
    """Three ``quick``s of ann's in flight as a match takes her: each in turn, the first
    leaving the match's room, the last one's game the one she waits for (they had waited
    out the room's five seconds, each for a room another had left)."""
    quiet = with_settings(settings, quick_tick=3600.0)
    async with running(quiet) as one, running(quiet) as two:
        _, ann, apid = await waiting_pair(one, two)
        one.clock.advance(3)
        quick = (one if maker == "bobs" else two).service.quick  # (whose process makes it)
        groups, _ = await quick.queue.match(GAME, quick.now(), quick.window_of())
        asked = [
            asyncio.create_task(ann.request("quick", game=game))
            for game in ("wedge", "nestor", "babette")
        ]
        await asyncio.sleep(0.2)
        await quick.make_room(GAME, groups[0])
        replies = await asyncio.wait_for(asyncio.gather(*asked), 4)
        assert [r["game"] for r in replies] == ["wedge", "nestor", "babette"], replies
        assert (await one.redis.hget(QUICK_WAITING, apid)) == b"babette"


async def test_a_quick_after_the_match_s_room_is_made_leaves_it_at_once(
    settings: Settings,
) -> None:
    """The match's room made (on ann's own process) before her ``quick`` for another game
    comes: it leaves that room and joins at once (it waited five seconds for a room it
    had just left; here, on a clock that stands still, it would wait for ever)."""
    quiet = with_settings(settings, quick_tick=3600.0)
    async with running(quiet) as one:
        one.clock.freeze()
        bob, ann, apid = await waiting_pair(one, one)
        one.clock.advance(3)
        quick = one.service.quick
        groups, _ = await quick.queue.match(GAME, quick.now(), quick.window_of())
        await quick.make_room(GAME, groups[0])
        await ann.event("quick_matched")
        waiting = await asyncio.wait_for(ann.request("quick", game="wedge"), 10)
        assert waiting["type"] == "quick_waiting" and waiting["game"] == "wedge", waiting
        assert (await one.redis.hget(QUICK_WAITING, apid)) == b"wedge"
        gone = await bob.event("progress", lambda e: e["player"] == "ann")
        assert gone["status"] == "resigned"


async def test_a_match_s_room_whose_news_was_lost_is_taken_up(settings: Settings) -> None:
    """A match's room made, its news lost on the way to ann's process and her record of
    it never written (Redis went away as the room was made): her process takes the room
    up for her once the room is overdue, rather than put her back in the queue (she was
    matched again, and the room, taken up later by the housekeeping, raced her twice)."""
    fast = with_settings(settings, quick_tick=0.05, quick_ghosts_after=600.0)
    async with running(fast) as one, running(fast) as two:
        bob, ann, apid = await waiting_pair(one, two)
        quick = one.service.quick
        # (ann's news goes to a process that hears nothing)
        await one.redis.set(online_key(apid), "gone", ex=60)
        await quick.queue.alive("gone", 60)
        groups, _ = await quick.queue.match(GAME, quick.now() + 3000, quick.window_of())
        await quick.make_room(GAME, groups[0])
        made = (await bob.event("quick_matched"))["code"]
        await one.redis.hdel(player_key(apid), "room")
        one.clock.advance(10)
        told = await ann.event("quick_matched", timeout=5)
        assert told["code"] == made, told
        await ann.event("room", lambda e: e["code"] == made)


async def test_a_matchs_news_heard_twice_tells_the_player_once(settings: Settings) -> None:
    """On a busy machine a process may take up a waiter's match from Redis (``find_lost``:
    missing from the queue two passes running, the room noted) before the matcher's
    notice reaches it; the notice, coming after, told the player ``quick_matched`` again
    (seen in the two processes' test, one of sixteen players told twice)."""
    quiet = with_settings(settings, quick_tick=3600.0)  # (the passes here: the test's)
    async with running(quiet) as one, running(quiet) as two:
        _bob, ann, apid = await waiting_pair(one, two)
        one.clock.advance(3)
        two.clock.advance(3)
        quick = one.service.quick
        groups, _ = await quick.queue.match(GAME, quick.now(), quick.window_of())
        await quick.make_room(GAME, groups[0])
        told = await ann.event("quick_matched")
        await ann.event("room", lambda e: e["code"] == told["code"])
        # the news again, as the notice that came after the room was taken up
        await two.service.quick.matched_here(
            {"pid": apid, "code": told["code"], "joined": 0, "rating": 10.0,
             "game": GAME, "players": told["players"], "start_at": told["start_at"]}
        )  # fmt: skip
        await ann.call("ping")
        assert not [e for e in ann.events if e.get("type") == "quick_matched"]
        start = await ann.event("race_start", timeout=10)
        assert start["code"] == told["code"]
