"""A ranked daily whose final log entry is in Redis, but whose board entries, replay and
streak could not be written then (Redis went away at that very moment): the move or
resignation was applied, so it is answered as applied, and housekeeping writes the rest
once Redis is back, once.

Each test has a Redis of its own, killed (SIGKILL) the moment the group commit has the
reply to the batch holding the final entry, before the request waiting on it goes on,
and started again on the same append-only file."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any, cast

import pytest
from redis import Redis as SyncRedis
from redis.asyncio import Redis

from server.app import store
from server.app.domain import games as g
from server.app.domain.boards import parse_board
from server.app.domain.daily import daily_seed, day_of
from server.app.settings import Settings
from server.app.store.games import Games
from server.engine import new_game

from .client import Client, player
from .conftest import Outage, Running, running, with_settings
from .test_daily import GAME, PERSON_GAP, next_day, secret_winning_on


@pytest.fixture
async def daily_server(outage: Outage, settings: Settings) -> AsyncIterator[Running]:
    """A server on the test's own Redis, with a secret whose Doubles and Quits deal of
    the day is won by always playing the first legal move, and housekeeping left to the
    test (it calls ``Service.sweep``)."""
    secret = secret_winning_on(day_of(settings.clock.now_ms()))
    own = with_settings(settings, redis_url=outage.redis.url, secret=secret, sweep_interval=3600.0)
    async with running(own) as handle:
        yield handle


@pytest.fixture
async def admin(outage: Outage) -> AsyncIterator[Redis]:
    """A client of the test's own, to look at Redis (it reconnects after a restart)."""
    client = Redis.from_url(outage.redis.url)
    yield client
    await client.aclose()


def winning_line(server: Running, day: str) -> list[str]:
    """The day's deal won, always playing the first legal move."""
    game = new_game(GAME, seed=daily_seed(server.service.daily.secret, day, GAME))
    line = []
    while game.legal_moves():
        move = game.legal_moves()[0]
        game.play(move)
        line.append(move.text)
    assert game.status == "won"
    return line


def kill_after_the_next_batch(server: Running, outage: Outage) -> None:
    """Kill Redis the moment the group commit's next batch of writes has its replies:
    what the batch wrote is in Redis (its append-only file), and whatever the request waiting on
    it does next finds Redis gone."""
    commit = server.service.commit
    flush = commit.after_batch
    writes = commit.writes

    def killed() -> None:
        if commit.writes == writes:  # a batch of other commands only (store/direct.py)
            if flush is not None:
                flush()
            return
        commit.after_batch = flush
        outage.kill()
        if flush is not None:
            flush()

    commit.after_batch = killed


async def standing(admin: store.RedisClient, ann: Client, day: str) -> dict[str, Any]:
    """What the finish wrote for ann, as Redis has it."""
    pid = cast(bytes, await admin.get(store.name_key("ann"))).decode()
    daily = f"lb:{{daily/{GAME}/{day}}}"
    return {
        "daily": await admin.zcard(daily),
        "best": await admin.zcard(f"lb:{{best/{GAME}}}"),
        "wins": await admin.hget(f"lbc:{{wins/{GAME}}}", pid),
        "streak": await admin.hgetall(store.streak_key(pid)),
    }


def results(client: Client) -> list[dict[str, Any]]:
    return [e for e in client.events if e["type"] == "daily_result"]


async def test_a_daily_won_as_redis_goes_away_is_answered_moved_and_finished_later(
    daily_server: Running, outage: Outage, admin: Redis
) -> None:
    server = daily_server
    day = day_of(server.clock.now_ms())
    line = winning_line(server, day)
    ann = await player(server.url, "ann")
    gid = (await ann.call("daily", game=GAME))["game"]
    for move in line[:-1]:  # (at a person's pace: the boards take it)
        server.clock.advance(PERSON_GAP)
        await ann.call("move", move=move, game=gid)
    kill_after_the_next_batch(server, outage)
    final = await ann.request("move", move=line[-1], game=gid)
    # the final entry is logged: the move was applied, and is answered so
    assert final["type"] == "moved", final
    assert final["status"] == "won" and final["legal"] == []
    assert results(ann) == []  # nothing written yet: no result to tell

    outage.restart()
    log = await Games(admin).read_log(gid)
    assert [what for _, what in log] == line
    await server.service.housekeeping.sweep()
    result = await ann.event("daily_result")
    assert result["game"] == gid and result["status"] == "won" and result["rank"] == 1
    assert result["streak"]["game"] == {"current": 1, "best": 1}
    entry = (await ann.call("top", board=f"daily/{GAME}/{day}"))["entries"][0]
    assert (entry["player"], entry["won"], entry["replay"]) == ("ann", True, gid)
    wins = (await ann.call("top", board=f"wins/{GAME}"))["entries"]
    assert [(e["player"], e["count"]) for e in wins] == [("ann", 1)]
    replay = (await ann.call("replay", replay=gid))["replay"]
    assert replay["result"]["status"] == "won" and [m for _, m in replay["moves"]] == line
    written = await standing(admin, ann, day)
    assert written["daily"] == written["best"] == 1 and written["wins"] == b"1"
    assert written["streak"][f"{GAME}:cur".encode()] == b"1"

    # the next pass finds nothing owed: nothing counts twice, nothing is told twice
    await server.service.housekeeping.sweep()
    assert await standing(admin, ann, day) == written
    assert results(ann) == []


async def test_a_daily_resigned_as_redis_goes_away_is_answered_resigned_and_finished_later(
    daily_server: Running, outage: Outage, admin: Redis
) -> None:
    server = daily_server
    day = day_of(server.clock.now_ms())
    ann = await player(server.url, "ann")
    reply = await ann.call("daily", game=GAME)
    await ann.call("move", move=reply["legal"][0], game=reply["game"])
    kill_after_the_next_batch(server, outage)
    resigned = await ann.request("resign", game=reply["game"])
    assert resigned["type"] == "resigned", resigned
    assert resigned["status"] == "resigned"

    outage.restart()
    await server.service.housekeeping.sweep()
    result = await ann.event("daily_result")
    assert result["game"] == reply["game"] and result["status"] == "resigned"
    entry = (await ann.call("top", board=f"daily/{GAME}/{day}"))["entries"][0]
    assert (entry["player"], entry["won"], entry["moves"]) == ("ann", False, 1)
    assert (await ann.call("replay", replay=reply["game"]))["replay"]["result"]["status"] == (
        "resigned"
    )
    await server.service.housekeeping.sweep()
    assert results(ann) == []
    assert (await ann.call("top", board=f"daily/{GAME}/{day}"))["size"] == 1


async def test_a_daily_ended_by_the_reset_as_redis_goes_away_is_finished_later(
    daily_server: Running, outage: Outage, admin: Redis
) -> None:
    """The day's reset ends a ranked daily still in play (a time-out), when its player
    next sends a request on it: that request gets its usual answer."""
    server = daily_server
    ann = await player(server.url, "ann")
    reply = await ann.call("daily", game=GAME)
    day = reply["day"]
    await ann.call("move", move=reply["legal"][0], game=reply["game"])
    next_day(server.clock)
    kill_after_the_next_batch(server, outage)
    late = await ann.request("move", move=reply["legal"][0], game=reply["game"])
    assert late["type"] == "error" and late["code"] == "game_over", late
    assert "the day is over" in late["message"]

    outage.restart()
    log = await Games(admin).read_log(reply["game"])
    assert log[-1][1] == g.TIMEOUT_ENTRY
    await server.service.housekeeping.sweep()
    result = await ann.event("daily_result")
    assert result["status"] == "timeout" and result["day"] == day
    board = await ann.call("top", board=f"daily/{GAME}/{day}")
    assert board["size"] == 1 and board["entries"][0]["moves"] == 1
    await server.service.housekeeping.sweep()
    assert results(ann) == []


async def test_the_final_entrys_write_owes_the_finish_of_a_ranked_daily_only(
    daily_server: Running, admin: Redis
) -> None:
    """The group commit's batch that logs a ranked daily's final entry marks its finish
    owed (a crash right after it loses nothing); the finish, once written, takes the mark
    off. A practice daily and a solo game have no finish to owe."""
    server = daily_server
    owed_then: list[set[bytes]] = []
    watcher = SyncRedis.from_url(server.settings.redis_url or "")

    def look_after_the_next_batch() -> None:
        commit = server.service.commit
        flush = commit.after_batch
        writes = commit.writes

        def looked() -> None:
            if commit.writes == writes:  # a batch of other commands only (store/direct.py)
                if flush is not None:
                    flush()
                return
            commit.after_batch = flush
            owed_then.append(cast(set[bytes], watcher.smembers(store.DAILIES_OWED)))
            if flush is not None:
                flush()

        commit.after_batch = looked

    try:
        ann = await player(server.url, "ann")
        ranked = await ann.call("daily", game=GAME)
        look_after_the_next_batch()
        await ann.call("resign", game=ranked["game"])
        practice = await ann.call("daily", game=GAME)
        assert not practice["ranked"]
        look_after_the_next_batch()
        await ann.call("resign", game=practice["game"])
        solo = await ann.call("new_game", game=GAME)
        look_after_the_next_batch()
        await ann.call("resign", game=solo["game"])
    finally:
        watcher.close()
    assert owed_then == [{ranked["game"].encode()}, set(), set()]
    assert await admin.smembers(store.DAILIES_OWED) == set()
    assert [e["game"] for e in results(ann)] == [ranked["game"]]


async def test_a_finish_written_again_counts_nothing_twice(
    settings: Settings, redis_url: str
) -> None:
    """A finish whose writes all landed but that was not taken off the owed set (its
    process died then, or Redis went away before the removal) is written again by
    housekeeping: the wins count, the streak and the boards stay as they were. It is
    written by the process its player is connected to (which tells them), or by any
    process when they are connected nowhere."""
    day = day_of(settings.clock.now_ms())
    two_servers = with_settings(settings, secret=secret_winning_on(day), sweep_interval=3600.0)
    async with running(two_servers) as one, running(two_servers) as two:
        ann = await player(one.url, "ann")
        gid = (await ann.call("daily", game=GAME))["game"]
        for move in winning_line(one, day):
            one.clock.advance(PERSON_GAP)
            await ann.call("move", move=move, game=gid)
        assert (await ann.event("daily_result"))["status"] == "won"
        written = await standing(one.redis, ann, day)
        assert written["wins"] == b"1" and written["daily"] == written["best"] == 1

        await one.redis.sadd(store.DAILIES_OWED, gid)  # as if never taken off
        await two.service.housekeeping.sweep()  # ann is connected to one: left to it
        assert await one.redis.smembers(store.DAILIES_OWED) == {gid.encode()}
        await one.service.housekeeping.sweep()
        again = await ann.event("daily_result")
        assert again["rank"] == 1 and again["streak"]["game"] == {"current": 1, "best": 1}
        assert await one.redis.smembers(store.DAILIES_OWED) == set()
        assert await standing(one.redis, ann, day) == written

        await ann.close()
        await until_offline(one, "ann")
        await one.redis.sadd(store.DAILIES_OWED, gid)
        await two.service.housekeeping.sweep()  # connected nowhere: any process writes it
        assert await one.redis.smembers(store.DAILIES_OWED) == set()
        assert await standing(one.redis, ann, day) == written
        wins = await one.service.boards.top(parse_board(f"wins/{GAME}", day, "2026-W01"))
        assert [(e["player"], e["count"]) for e in wins["entries"]] == [("ann", 1)]


async def until_offline(server: Running, name: str) -> None:
    pid = cast(bytes, await server.redis.get(store.name_key(name))).decode()
    for _ in range(250):
        if not await server.redis.exists(store.online_key(pid)):
            return
        await asyncio.sleep(0.02)
    raise TimeoutError(f"{name} still marked online")


async def test_a_game_counts_once_on_a_counting_board_and_a_late_day_changes_no_streak(
    server: Running,
) -> None:
    boards, dailies = server.service.boards, server.service.dailies
    wins = parse_board(f"wins/{GAME}", "2026-11-22", "2026-W47")
    counted = [
        await boards.submit_count(wins, "p1", {"player": "ann"}, 1_000, game="g1"),
        await boards.submit_count(wins, "p1", {"player": "ann"}, 2_000, game="g1"),
        await boards.submit_count(wins, "p1", {"player": "ann"}, 3_000, game="g2"),
        await boards.submit_count(wins, "p1", {"player": "ann"}, 4_000),  # a race: uncounted
    ]
    assert counted == [1, 1, 2, 3]
    assert await server.redis.ttl(store.counted_key(wins.id, "g1")) > 30 * 86400

    await dailies.count_win("p1", GAME, "2026-11-22", "2026-11-21")
    await dailies.count_win("p1", GAME, "2026-11-23", "2026-11-22")
    after = await dailies.streak_fields("p1")
    assert after[f"{GAME}:cur"] == after["all:cur"] == "2"
    # the same day again, or an earlier day's win written late: nothing changes
    await dailies.count_win("p1", GAME, "2026-11-23", "2026-11-22")
    await dailies.count_win("p1", GAME, "2026-11-22", "2026-11-21")
    await dailies.count_win("p1", "gate", "2026-11-20", "2026-11-19")
    assert (await dailies.streak_fields("p1")) == {
        **after,
        "gate:cur": "1",
        "gate:last": "2026-11-20",
        "gate:best": "1",
    }
