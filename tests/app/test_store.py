"""The group commit on one Redis, when its connection must go: the scripts load again on
the next, and the pool gets the old one back."""

from __future__ import annotations

import asyncio

import pytest
from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError

from server.app import games as g
from server.app import store

from .client import player
from .conftest import Running


async def test_a_connection_that_lost_its_scripts_is_replaced(redis_url: str) -> None:
    # two connections: the group commit's and one for this test's own commands, so a
    # dropped connection the pool never got back would leave this test none
    pool = BlockingConnectionPool.from_url(redis_url, max_connections=2, timeout=2)
    redis = Redis.from_pool(pool)
    commit = store.GroupCommit(redis)
    try:
        await redis.set(store.fence_key("g1"), 1)
        await commit.submit(lambda c: c.append_fenced("g1", 1, "1 a"))
        for n in range(3):
            await redis.script_flush()  # as a failover to a replica without them would
            with pytest.raises(NoScriptError):
                await commit.submit(lambda c: c.append_fenced("g1", 1, "lost"))
            await commit.submit(lambda c, n=n: c.append_fenced("g1", 1, f"{n + 2} b"))
        log = await redis.lrange(store.log_key("g1"), 0, -1)
        assert log == [b"1 a", b"2 b", b"3 b", b"4 b"]
    finally:
        await commit.close()
        await redis.aclose()


async def test_the_group_commit_makes_a_new_connection_when_redis_drops_it(
    server: Running,
) -> None:
    """Redis closes every client connection (a restart, a failover): a move on the dead
    connection fails as not applied, or goes through on a new one; the next ones do, and
    the log holds exactly the moves acknowledged."""
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game="gate", seed=3)
    reply = await ann.call("move", move=game["legal"][0])
    acknowledged = [game["legal"][0]]
    await server.redis.execute_command("CLIENT", "KILL", "TYPE", "normal")
    for _ in range(3):
        move = reply["legal"][0]
        answer = await ann.request("move", move=move)
        if answer["type"] == "moved":
            acknowledged.append(move)
            reply = answer
        else:
            assert answer["code"] == "internal_error", answer
    assert len(acknowledged) >= 3
    log = await g.read_log(server.redis, game["game"])
    assert [what for _, what in log] == acknowledged


async def test_a_batch_redis_does_not_answer_in_time_fails_and_the_next_goes_through(
    redis_url: str,
) -> None:
    """Redis stops answering (paused): the batch with it fails after the connection's
    ``socket_timeout``, well before Redis answers again; writes after that go through on
    a new connection."""
    pool = BlockingConnectionPool.from_url(
        redis_url, max_connections=3, timeout=5, socket_timeout=0.5
    )
    redis = Redis.from_pool(pool)
    admin = Redis.from_url(redis_url)
    commit = store.GroupCommit(redis)
    loop = asyncio.get_running_loop()
    try:
        await redis.set(store.fence_key("g2"), 1)
        await commit.submit(lambda c: c.append_fenced("g2", 1, "1 a"))
        await admin.execute_command("CLIENT", "PAUSE", 2000, "ALL")
        started = loop.time()
        with pytest.raises(RedisConnectionError, match="did not answer in time"):
            await commit.submit(lambda c: c.append_fenced("g2", 1, "2 unknown"))
        waited = loop.time() - started
        assert 0.4 < waited < 1.5, waited
        await asyncio.sleep(2.1 - waited)
        await commit.submit(lambda c: c.append_fenced("g2", 1, "3 b"))
        log = await redis.lrange(store.log_key("g2"), 0, -1)
        # the write that timed out may or may not have been applied once Redis went on
        assert log[0] == b"1 a" and log[-1] == b"3 b" and len(log) in (2, 3), log
    finally:
        await commit.close()
        await redis.aclose()
        await admin.aclose()
