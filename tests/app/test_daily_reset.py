"""The daily reset ends every ranked attempt still open, whether or not its player comes
back: at 00:00 UTC it ends as it stood (``timeout``, at the reset's millisecond), its
replay and its entry on its own day's board are written, and its player, if connected,
gets one ``daily_result``; exactly once, across processes and restarts.

The quick cases run on one server in this process, on the manual clock; then three
servers in this process sharing that clock, one of them stopped before midnight and
started again after it; then three real server processes on a clock shifted to just
before a midnight (``clock_offset``), across it."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any, cast

import pytest
from redis import Redis as SyncRedis

from server.app.domain.daily import day_of, day_start_ms, next_reset_ms
from server.app.settings import Settings
from server.app.store.keys import DAILIES_OPEN, DAILIES_OWED, log_key

from .client import Client, player
from .conftest import Outage, Running, ServerProcess, running, until, with_settings
from .test_daily import next_day
from .test_daily_owed import kill_after_the_next_batch

GAME = "gate"


async def eventually(check: Callable[[], Awaitable[Any]], timeout: float = 10.0) -> Any:
    """Poll ``check()`` until it returns something true; that."""
    deadline = time.monotonic() + timeout
    while True:
        found = await check()
        if found:
            return found
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met")
        await asyncio.sleep(0.05)


async def board_of(client: Client, day: str) -> list[dict[str, Any]]:
    page = await client.call("top", board=f"daily/{GAME}/{day}")
    entries: list[dict[str, Any]] = page["entries"]
    return entries


async def entries_of(client: Client, day: str, count: int, timeout: float = 10.0) -> Any:
    """The day's board once it has ``count`` entries."""

    async def enough() -> list[dict[str, Any]] | None:
        entries = await board_of(client, day)
        return entries if len(entries) >= count else None

    return await eventually(enough, timeout)


async def started(client: Client) -> dict[str, Any]:
    """The player's ranked attempt at today's daily, one move into it."""
    reply = await client.call("daily", game=GAME)
    assert reply["ranked"] is True
    await client.call("move", move=reply["legal"][0])
    return reply


async def watcher(url: str) -> Client:
    client = await Client.connect(url)
    await client.call("hello", protocol=1)
    return client


@pytest.fixture
async def own_server(outage: Outage, settings: Settings) -> AsyncIterator[Running]:
    """A server on the test's own Redis, its housekeeping passes left to the test."""
    own = with_settings(settings, redis_url=outage.redis.url, sweep_interval=3600.0)
    async with running(own) as handle:
        yield handle


def timeouts_logged(redis: SyncRedis, gid: str) -> int:
    entries = cast(list[bytes], redis.lrange(log_key(gid), 0, -1))
    return sum(entry.endswith(b" !timeout") for entry in entries)


async def daily_results(client: Client) -> list[dict[str, Any]]:
    """Every ``daily_result`` the client got up to now (a ping's answer comes after
    whatever the server queued to it before)."""
    await client.call("ping")
    return [f for f in client.frames if f.get("type") == "daily_result"]


async def test_a_connected_player_hears_of_the_timeout_at_the_reset(server: Running) -> None:
    ann = await player(server.url, "ann")
    reply = await started(ann)
    reset = next_reset_ms(server.clock.now_ms())
    next_day(server.clock)
    # no request from ann: the reset alone ends her attempt and tells her
    result = await ann.event("daily_result")
    assert result["status"] == "timeout" and result["game"] == reply["game"]
    assert result["day"] == reply["day"]
    (entry,) = await board_of(ann, reply["day"])
    assert entry["player"] == "ann" and entry["won"] is False and entry["moves"] == 1
    assert entry["time_ms"] == reset - reply["started_at"]  # as it stood at the reset
    # (the result says its time and moves: a client stops its clock there)
    assert (result["time_ms"], result["moves"]) == (entry["time_ms"], 1)
    late = await ann.request("move", move=reply["legal"][0], game=reply["game"])
    assert late["code"] == "game_over" and "the day is over" in late["message"]
    assert len(await daily_results(ann)) == 1


async def test_an_attempt_nobody_comes_back_to_reaches_its_board_at_the_reset(
    server: Running,
) -> None:
    bob = await player(server.url, "bob")
    reply = await started(bob)
    await bob.close()
    day = next_day(server.clock)
    cat = await watcher(server.url)
    (entry,) = await entries_of(cat, reply["day"], 1)
    assert entry["player"] == "bob" and entry["moves"] == 1 and entry["replay"] == reply["game"]
    # the replay is kept (and public: the day is over)
    shown = (await cat.call("replay", replay=reply["game"]))["replay"]
    assert shown["result"]["status"] == "timeout" and shown["seed"] is not None
    assert shown["result"]["moves"] == 1
    assert day != reply["day"]


async def test_an_ending_cut_short_is_finished_by_the_next_look_once(
    own_server: Running, outage: Outage
) -> None:
    """Redis goes away the moment the attempt's time-out is logged, before anything else
    of the ending is written (as if the process ending it died there): a later look
    writes the rest, and nothing is done twice."""
    server = own_server
    ann = await player(server.url, "ann")
    reply = await started(ann)
    kill_after_the_next_batch(server, outage)
    next_day(server.clock)
    await server.service.housekeeping.end_dailies()
    await until(lambda: outage.redis.process is None)  # (the reset's own look may do it)
    outage.restart()
    await server.service.housekeeping.sweep()
    result = await ann.event("daily_result")
    assert result["status"] == "timeout" and result["game"] == reply["game"]
    await server.service.housekeeping.sweep()
    await server.service.housekeeping.end_dailies()
    assert [r["status"] for r in await daily_results(ann)] == ["timeout"]
    assert len(await board_of(ann, reply["day"])) == 1
    redis = SyncRedis.from_url(outage.redis.url)
    assert timeouts_logged(redis, reply["game"]) == 1
    assert redis.zcard(DAILIES_OPEN) == redis.scard(DAILIES_OWED) == 0
    redis.close()


async def test_a_stopped_wait_for_the_reset_ends_when_its_cancel_is_lost(
    server: Running,
) -> None:
    """Stopped while it ends the dailies at a reset, housekeeping's wait for the reset
    ends, also when the cancel is lost in a Redis call (CPython 3.11's ``wait_for``:
    server/app/periodic.py). The wait looped on the clock until the next reset, a day
    away, and a test's server (or a server's ``asyncio.run``) waited on it for ever at
    its end (seen once in about thirty runs of a test that moved the clock on)."""
    housekeeping = server.service.housekeeping
    looking = asyncio.Event()

    async def close_ended() -> int:
        looking.set()
        with contextlib.suppress(asyncio.CancelledError):  # (lost, as wait_for loses it)
            await asyncio.sleep(0.3)
        return 0

    await until(lambda: housekeeping.next_reset is not None)  # (the first look is over)
    housekeeping.daily.close_ended = close_ended  # type: ignore[method-assign]
    next_day(server.clock)  # the reset comes: the next look ends the dailies
    await asyncio.wait_for(looking.wait(), 10)
    tasks = housekeeping.stop()
    assert tasks
    # (a deadline for a hang, not a timing: the step under way ends, then the wait)
    _, pending = await asyncio.wait(tasks, timeout=10)
    assert not pending, "the wait for the reset went on after it was stopped"


async def test_three_servers_one_restarted_over_midnight_close_each_attempt_once(
    settings: Settings,
) -> None:
    """ann stays connected to one server, bob leaves the second, and the third server,
    cat's, stops before midnight and starts again after it (they share one clock)."""
    redis = SyncRedis.from_url(settings.redis_url or "")
    async with running(settings) as one, running(settings) as two:
        clock = one.clock
        ann, bob = await player(one.url, "ann"), await player(two.url, "bob")
        async with running(settings) as three:
            cat = await player(three.url, "cat")
            replies = {"ann": await started(ann), "bob": await started(bob)}
            replies["cat"] = await started(cat)
            await bob.close()
        day = replies["ann"]["day"]
        assert {r["day"] for r in replies.values()} == {day}
        next_day(clock)
        async with running(settings) as three:
            result = await ann.event("daily_result")
            assert result["status"] == "timeout" and result["game"] == replies["ann"]["game"]
            dan = await watcher(three.url)
            entries = await entries_of(dan, day, 3)
            assert sorted(e["player"] for e in entries) == ["ann", "bob", "cat"]
            assert all(e["moves"] == 1 and e["won"] is False for e in entries)
            for name in ("bob", "cat"):
                shown = (await dan.call("replay", replay=replies[name]["game"]))["replay"]
                assert shown["result"]["status"] == "timeout", name
            # more passes on every server find nothing left to do
            for server in (one, two, three):
                await server.service.housekeeping.run_once()
            assert len(await board_of(dan, day)) == 3
            assert [r["status"] for r in await daily_results(ann)] == ["timeout"]
            for name, reply in replies.items():
                assert timeouts_logged(redis, reply["game"]) == 1, name
            assert redis.zcard(DAILIES_OPEN) == redis.scard(DAILIES_OWED) == 0
    redis.close()


def shifted(redis_url: str, tmp_path: Path, name: str, offset_s: float) -> ServerProcess:
    data = tmp_path / name
    data.mkdir(exist_ok=True)
    return ServerProcess(
        redis_url,
        data,
        PATIENCE_SECRET="one-secret",
        PATIENCE_SWEEP_INTERVAL="2",
        PATIENCE_CLOCK_OFFSET=f"{offset_s:.3f}",
    )


async def test_three_server_processes_across_a_midnight(redis_url: str, tmp_path: Path) -> None:
    """Real server processes on a clock shifted to a few seconds before a midnight: ann
    stays connected to the first, bob leaves the second, and the third (cat's) is stopped
    before midnight and started again after it. The shift is chosen before the processes
    start; if setting up took past that midnight, it is tried again with more time."""
    redis = SyncRedis.from_url(redis_url)
    lead_s = 6.0
    for _ in range(3):
        redis.flushall()
        midnight = next_reset_ms(time.time_ns() // 1_000_000) + 86_400_000
        offset_s = (midnight - time.time_ns() // 1_000_000) / 1000 - lead_s
        procs = [shifted(redis_url, tmp_path, n, offset_s) for n in ("a", "b", "c")]
        try:
            await asyncio.gather(*(asyncio.to_thread(p.start) for p in procs))
            ann, bob, cat = [
                await player(p.url, n) for p, n in zip(procs, ("ann", "bob", "cat"), strict=True)
            ]
            replies = {"ann": await started(ann), "bob": await started(bob)}
            replies["cat"] = await started(cat)
            await bob.close()
            # (from a thread: the stopping server waits for cat's closing handshake, which
            # this loop answers)
            await asyncio.to_thread(procs[2].stop, signal.SIGTERM)
            if {r["reset_at"] for r in replies.values()} != {midnight}:
                lead_s *= 2  # set up too slowly: past that midnight already
                continue
            day = day_of(midnight - 1)
            assert day_start_ms(day) + 86_400_000 == midnight
            # over midnight (the servers' clock), the third server starts again
            virtual_now = time.time_ns() // 1_000_000 + round(offset_s * 1000)
            await asyncio.sleep(max(0.0, (midnight - virtual_now) / 1000) + 0.2)
            procs[2].start()
            result = await ann.event("daily_result", timeout=20)
            assert result["status"] == "timeout" and result["day"] == day
            dan = await watcher(procs[2].url)
            entries = await entries_of(dan, day, 3, timeout=20)
            assert sorted(e["player"] for e in entries) == ["ann", "bob", "cat"]
            for name in ("bob", "cat"):
                shown = (await dan.call("replay", replay=replies[name]["game"]))["replay"]
                assert shown["result"]["status"] == "timeout", name

            async def settled() -> bool:
                return bool(redis.scard(DAILIES_OWED) == 0)

            await eventually(settled)
            assert [r["status"] for r in await daily_results(ann)] == ["timeout"]
            for name, reply in replies.items():
                assert timeouts_logged(redis, reply["game"]) == 1, name
            assert len(await board_of(dan, day)) == 3
            break
        finally:
            for proc in procs:
                if proc.process is not None:
                    proc.stop(signal.SIGKILL)
    else:
        raise AssertionError(f"setting up took longer than {lead_s / 2} s three times")
    redis.close()


def test_the_clock_offset_setting_shifts_the_server_clock() -> None:
    settings = Settings.load([], {"PATIENCE_CLOCK_OFFSET": "-90"})
    shift = settings.clock.now_ms() - time.time_ns() // 1_000_000
    assert -90_500 < shift <= -90_000
    assert Settings.load([], {}).clock_offset == 0.0
