"""A Redis outage strands no race: a countdown or a time limit that falls due while Redis is
away is carried out once it is back, the room's copy never runs ahead of Redis, and the log
says so in a line every few seconds, not a traceback a request.

Each test has a Redis of its own (killed with SIGKILL and started again on the same
append-only file), not the one the other tests share."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Any, cast

import pytest

from server.app import store
from server.app.domain import games as g
from server.app.settings import Settings
from server.app.store import room_channel
from server.app.store.bus import Bus
from server.app.store.connect import open_redis

from .client import Client
from .conftest import Outage, Running, running, until, with_settings
from .test_resume import lobby, stored


@pytest.fixture
async def server_on_own_redis(outage: Outage, settings: Settings) -> AsyncIterator[Running]:
    # (a host going away hands over at once: the retries of that while Redis is away)
    own = with_settings(
        settings, redis_url=outage.redis.url, countdown=1.0, lock_wait=2.0, host_grace=0
    )
    async with running(own) as handle:
        yield handle


def tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.exc_info]


async def until_failed(caplog: pytest.LogCaptureFixture, kind: str) -> None:
    """Wait until the server has logged that ``kind`` failed (Redis away): it has tried."""
    await until(lambda: any(r.getMessage().startswith(f"{kind} failed") for r in caplog.records))


async def test_a_countdown_ending_while_redis_is_away_starts_the_race_once_it_is_back(
    server_on_own_redis: Running, outage: Outage, caplog: pytest.LogCaptureFixture
) -> None:
    server = server_on_own_redis
    (ann, bob), code = await lobby(server.url, ["ann", "bob"], game="nestor")
    counting = await ann.call("start")
    outage.kill()
    server.clock.advance(5)  # the start falls due, and passes, with Redis away
    await until_failed(caplog, "room timer")  # the room's timer tries, and fails, meanwhile
    room = server.service.rooms[code]
    assert room.state == "countdown"  # the copy is not ahead of Redis
    assert not [e for e in ann.events + bob.events if e["type"] == "race_start"]
    away = await ann.request("ready")  # a request while Redis is away: answered
    assert away["type"] == "error"

    outage.restart()
    starts = [await c.event("race_start", timeout=15) for c in (ann, bob)]
    assert starts[0]["race"] == starts[1]["race"] == 1
    # the race starts when its start could be written: its racers lose no time
    assert starts[0]["start_at"] == starts[1]["start_at"] > counting["start_at"] + 4000
    racing = await stored(server.redis, store.room_key(code))
    assert racing["state"] == "racing" and racing["start_at"] == starts[0]["start_at"]
    moved = await ann.call("move", move=starts[0]["legal"][0])
    assert moved["type"] == "moved"
    assert tracebacks(caplog) == []


async def test_a_time_limit_passing_while_redis_is_away_ends_the_race_once_it_is_back(
    server_on_own_redis: Running, outage: Outage, caplog: pytest.LogCaptureFixture
) -> None:
    server = server_on_own_redis
    clients, code = await lobby(server.url, ["ann", "bob"], game="nestor", time_limit=10)
    ann, bob = clients
    await ann.call("start")
    starts = [await c.event("race_start") for c in clients]
    await ann.call("move", move=starts[0]["legal"][0])
    server.clock.advance(8)
    outage.kill()
    server.clock.advance(5)  # the limit passes with Redis away
    await until_failed(caplog, "room timer")
    assert server.service.rooms[code].state == "racing"
    assert not [e for e in ann.events + bob.events if e["type"] == "results"]

    outage.restart()
    results = [await c.event("results", timeout=15) for c in clients]
    assert results[0] == results[1]
    assert [r["status"] for r in results[0]["results"]] == ["timeout", "timeout"]
    moves = {r["player"]: r["moves"] for r in results[0]["results"]}
    assert moves == {"ann": 1, "bob": 0}
    ended = await stored(server.redis, store.room_key(code))
    assert ended["state"] == "finished"
    for start in starts:  # the time-outs are in the logs: a restart rebuilds them ended
        log = cast(list[bytes], await server.redis.lrange(store.log_key(start["game"]), 0, -1))
        assert log[-1].decode().endswith(" " + g.TIMEOUT_ENTRY)
    again = await ann.call("rematch")
    assert again["state"] == "countdown"
    assert tracebacks(caplog) == []


async def test_an_outage_is_logged_a_line_a_kind_every_few_seconds(
    server_on_own_redis: Running, outage: Outage, caplog: pytest.LogCaptureFixture
) -> None:
    server = server_on_own_redis
    clients = [await Client.connect(server.url) for _ in range(3)]
    for n, client in enumerate(clients):
        await client.call("hello", protocol=1)
        await client.call("register", name=f"p{n}")
    caplog.set_level(logging.INFO)
    outage.kill()
    replies = await asyncio.gather(
        *(c.request("new_game", game="gate") for c in clients for _ in range(10))
    )
    assert {r["code"] for r in replies} == {"internal_error"}
    # said as what it is, not as a fault of the server's own ("could not handle this
    # request (it is logged)" left a player wondering whether their move counted)
    assert all("cannot reach its database just now" in r["message"] for r in replies), replies
    await server.service.housekeeping.run_once()  # which meets the outage too
    outage.restart()
    failing = [r for r in caplog.records if "redis unavailable" in r.getMessage()]
    assert failing, [r.getMessage() for r in caplog.records]
    kinds = [r.getMessage().partition(" failed")[0] for r in failing]
    assert len(kinds) == len(set(kinds)), kinds  # one line a kind in these few seconds
    assert tracebacks(caplog) == []
    back = await clients[0].call("new_game", game="gate")
    assert back["type"] == "game"


async def test_a_host_leaving_while_redis_is_away_hands_over_once_it_is_back(
    server_on_own_redis: Running, outage: Outage, caplog: pytest.LogCaptureFixture
) -> None:
    server = server_on_own_redis
    (ann, bob), code = await lobby(server.url, ["ann", "bob"], game="nestor")
    outage.kill()
    await ann.close()  # the lobby's host goes, with Redis away
    await until_failed(caplog, "a host going away")
    held = server.service.rooms[code]
    assert held.racers[held.host].name == "ann"  # not handed over in the copy alone
    outage.restart()
    handed = await bob.event("room", lambda e: e["host"] == "bob", timeout=15)
    assert handed["state"] == "lobby"
    written = await stored(server.redis, store.room_key(code))
    assert {r["pid"]: r["name"] for r in written["racers"]}[written["host"]] == "bob"
    assert tracebacks(caplog) == []


async def test_a_channel_subscribed_while_redis_is_away_is_heard_once_it_is_back(
    outage: Outage, caplog: pytest.LogCaptureFixture
) -> None:
    redis = open_redis(outage.redis.url)
    heard: list[tuple[str, dict[str, Any]]] = []

    async def handler(channel: str, data: dict[str, Any]) -> None:
        heard.append((channel, data))

    bus = Bus(redis, "here", handler)
    await bus.start()
    try:
        outage.kill()
        # a room held while Redis is away: its subscription cannot be sent now
        await asyncio.wait_for(bus.subscribe(room_channel("ABCDEF")), 5)
        outage.restart()
        other = open_redis(outage.redis.url)
        try:
            message = store.pack({"o": "elsewhere", "k": "room"})
            for _ in range(100):  # until the reader has subscribed again
                if await other.publish(room_channel("ABCDEF"), message):
                    break
                await asyncio.sleep(0.05)
            await until(lambda: heard, timeout=5)
        finally:
            await other.aclose()
        assert heard == [("room:ABCDEF", {"o": "elsewhere", "k": "room"})]
    finally:
        await bus.stop()
        await redis.aclose()
    assert tracebacks(caplog) == []


async def test_a_request_in_hand_too_long_is_logged_with_where_it_waits(
    outage: Outage, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    own = with_settings(settings, redis_url=outage.redis.url, slow_request=0.3)
    async with running(own) as server:
        client = await Client.connect(server.url)
        await client.call("hello", protocol=1)
        await client.call("register", name="ann")
        caplog.set_level(logging.INFO)
        outage.freeze()  # what is sent to Redis waits, unanswered
        asked = asyncio.ensure_future(client.request("new_game", timeout=30, game="gate"))
        await until(lambda: any(r.getMessage() == "request slow" for r in caplog.records))
        outage.thaw()
        assert (await asked)["type"] == "game"
        (slow,) = [r for r in caplog.records if r.getMessage() == "request slow"]
        assert slow.request == "new_game"  # type: ignore[attr-defined]
        where = slow.where  # type: ignore[attr-defined]
        assert " -> ws.py:" in where and "play.py:" in where and "on_new_game" in where
