"""The processes hear each other again soon after Redis restarts, and what was published
while a process could not hear it is not lost for good.

The bus used to leave reconnecting to the client library, which kept counting the old
subscriptions: the reader skipped subscribing again and a process stayed deaf to the
others for about half a minute after Redis was back (a room made meanwhile heard no
join from the other process, a racer there never got the results).

Each test has a Redis of its own, killed with SIGKILL and started again."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.app import store
from server.app.settings import Settings
from server.app.store import room_channel
from server.app.store.bus import Bus
from server.app.store.connect import open_redis

from .client import player, racing
from .conftest import RETRY_PAUSE, Outage, Running, ServerProcess, running, until, with_settings
from .test_redis_outage import tracebacks

#: how soon after Redis is back a process must hear the others again, at the latest
#: (the bus tries every ``retry`` seconds; the tests allow for a slow, busy machine)
HEARS_AGAIN_S = 5.0


async def test_the_bus_subscribes_again_as_soon_as_redis_is_back(
    outage: Outage, caplog: pytest.LogCaptureFixture
) -> None:
    redis = open_redis(outage.redis.url)
    heard: list[tuple[str, dict[str, Any]]] = []

    async def handler(channel: str, data: dict[str, Any]) -> None:
        heard.append((channel, data))

    bus = Bus(redis, "here", handler, retry=RETRY_PAUSE)
    await bus.start()
    await bus.subscribe(room_channel("ABCDEF"))
    other = None
    try:
        outage.kill()
        await until(lambda: bus.deaf)  # the reader finds the connection gone
        outage.restart()
        back = time.monotonic()
        other = open_redis(outage.redis.url)
        message = store.pack({"o": "elsewhere", "k": "room"})
        while not await other.publish(room_channel("ABCDEF"), message):
            assert time.monotonic() - back < HEARS_AGAIN_S, "the bus did not subscribe again"
            await asyncio.sleep(0.05)
        while not heard:
            assert time.monotonic() - back < HEARS_AGAIN_S, "the bus did not hear it"
            await asyncio.sleep(0.02)
        assert heard == [("room:ABCDEF", {"o": "elsewhere", "k": "room"})]
    finally:
        if other is not None:
            await other.aclose()
        await bus.stop()
        await redis.aclose()
    assert tracebacks(caplog) == []


@pytest.fixture
async def two_on_own_redis(outage: Outage, settings: Settings) -> AsyncIterator[list[Running]]:
    own = with_settings(settings, redis_url=outage.redis.url, countdown=0.3, lock_wait=2.0)
    async with running(own) as one, running(own) as two:
        yield [one, two]


async def test_a_room_made_after_redis_came_back_hears_the_other_process(
    two_on_own_redis: list[Running], outage: Outage
) -> None:
    one, two = two_on_own_redis
    ann = await player(one.url, "ann")
    bob = await player(two.url, "bob")
    outage.kill()
    await until(lambda: one.service.bus.deaf and two.service.bus.deaf)  # both find it gone
    outage.restart()
    back = time.monotonic()
    while True:  # the first request on a fresh connection once Redis answers
        reply = await ann.request("room_create", game="gate", seed=3)
        if reply["type"] != "error":
            break
        assert time.monotonic() - back < 10, reply
        await asyncio.sleep(0.1)
    code = reply["code"]
    await bob.call("room_join", code=code)
    # ann hears of bob's join (made on the other process) through the bus
    joined = await ann.event(
        "room", lambda e: any(p["name"] == "bob" for p in e["players"]), timeout=HEARS_AGAIN_S
    )
    assert joined["code"] == code
    await bob.call("ready")
    await ann.event(
        "room",
        lambda e: any(p["name"] == "bob" and p["ready"] for p in e["players"]),
        timeout=HEARS_AGAIN_S,
    )


async def test_results_published_while_a_process_was_deaf_reach_its_racers(
    two_on_own_redis: list[Running], outage: Outage
) -> None:
    """The race ends on one process while the other cannot hear the bus: once it hears
    again, it reads its rooms from Redis and tells its racers what they missed."""
    one, two = two_on_own_redis
    ann = await player(one.url, "ann")
    bob = await player(two.url, "bob")
    code = await racing(ann, bob)
    await bob.call("resign")
    # bob's process stops hearing the bus (its subscriptions dropped, as a Redis restart
    # drops them) while ann's race ends on the other
    outage.kill()
    # (a second: restarted as soon as the buses are deaf, the race's end met a dead
    # pooled connection on ann's process and her results never came, 2 runs in 8)
    await asyncio.sleep(1)
    outage.restart()
    while (await ann.request("resign"))["type"] == "error":
        await asyncio.sleep(0.1)
    results = await ann.event("results", timeout=10)
    missed = await bob.event("results", timeout=10)
    assert missed["results"] == results["results"]
    room = await bob.event("room", lambda e: e["state"] == "finished", timeout=10)
    assert room["code"] == code


async def test_board_updates_missed_while_deaf_are_read_from_the_feed(
    settings: Settings,
) -> None:
    """A board update is kept in the board feed as well as published: a process that
    hears the bus again relays to its watchers those published since shortly before it
    went deaf (and none of its own)."""
    async with running(settings) as one, running(settings) as two:
        watcher = await player(two.url, "watcher")
        await watcher.call("board_watch", board="daily/nestor")
        two.service.bus.deaf_since_ms = int(time.time() * 1000)  # as when it went deaf
        ann = await player(one.url, "ann")
        await ann.call("daily", game="nestor")
        await ann.call("resign")
        live = await watcher.event("board_update")  # through the bus
        assert live["entry"]["player"] == "ann"
        cat = await player(two.url, "cat")  # an update made here: not read again
        await cat.call("daily", game="nestor")
        await cat.call("resign")
        await watcher.event("board_update", lambda e: e["entry"]["player"] == "cat")
        await two.service.leaderboards.catch_up()
        await watcher.call("ping")
        again = [e for e in watcher.events if e["type"] == "board_update"]
        assert again == [live]


async def test_a_race_another_process_ended_unheard_is_told_here_once(settings: Settings) -> None:
    """The other process ends the race and its ``results`` never reach this one (its bus
    missed them); this process's own try at the end then finds the room changed, reads it
    and tells its racers the results itself, once, and the bus's copy arriving late is
    not told again."""
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        bob = await player(two.url, "bob")
        code = await racing(ann, bob)
        await ann.call("resign")
        await until(lambda: not one.service.ctx.background)  # (its try at the end: too soon)
        channel = room_channel(code)
        await one.service.bus.unsubscribe(channel)  # one hears nothing of the room now
        await bob.call("resign")  # the last: two ends the race
        results = await bob.event("results")
        room = one.service.rooms[code]
        assert room.state == "racing"  # one missed it
        await one.service.steps.maybe_end_race(room)  # as a racer's finish here would
        told = await ann.event("results")
        assert told["results"] == results["results"] and room.state == "finished"
        # the bus's copy, published again as it came from two, is not told twice here
        await one.service.bus.subscribe(channel)
        await one.service.on_bus(channel, {"k": "results", "race": 1, "f": [b"\x80"]})
        await ann.call("ping")
        assert [e for e in ann.events if e["type"] == "results"] == []


async def test_a_process_stalled_past_the_margin_still_relays_the_updates_it_missed(
    outage: Outage, tmp_path: Path
) -> None:
    """The updates a process relays when it hears again were read from 2 s before it
    *found* its bus dead: a process stalled (SIGSTOP here; a VM paused, a long pause
    under load) while its connection was cut found out only when it ran again, and the
    update published in between, more than 2 s before, never reached its watchers (an
    outside probe: ``top --watch`` stayed without a result ``top`` showed). They are read
    from 2 s before it last heard the bus."""
    secret = {"PATIENCE_SECRET": "the-stalled-bus-test"}  # (one secret for both)
    one = ServerProcess(outage.redis.url, tmp_path / "one", **secret)
    two = ServerProcess(outage.redis.url, tmp_path / "two", **secret)
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one.start()
    two.start()
    try:
        watcher = await player(one.url, "watcher")
        await watcher.call("board_watch", board="daily/nestor")
        assert one.process is not None
        redis = open_redis(outage.redis.url)
        one.process.send_signal(signal.SIGSTOP)
        try:
            await redis.execute_command("CLIENT", "KILL", "TYPE", "pubsub")  # its bus cut
            await asyncio.sleep(2.5)  # (the stall outlasts the margin before the update)
            ann = await player(two.url, "ann")
            await ann.call("daily", game="nestor")
            await ann.call("resign")
            await asyncio.sleep(2.5)  # (and after it, before the process runs again)
        finally:
            one.process.send_signal(signal.SIGCONT)
            await redis.aclose()
        update = await watcher.event("board_update", timeout=20)
        assert update["entry"]["player"] == "ann", update
    finally:
        for proc in (one, two):
            if proc.process is not None:
                proc.stop(signal.SIGKILL)
