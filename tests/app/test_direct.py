"""The store's client (``store/direct.py``): everyday commands and pipelines go in the
group commit's batches and read back exactly as redis-py's pool reads them; what may
block, holds state on a connection or is a transaction goes the pool's way, and so does
everything once the group commit is closed."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from server.app import store
from server.app.store.connect import open_redis
from server.app.store.direct import DIRECT, DirectRedis


@pytest.fixture
async def clients(redis_url: str) -> AsyncIterator[tuple[DirectRedis, Redis, store.GroupCommit]]:
    """The server's client with a group commit of its own, and redis-py's plain client."""
    direct = open_redis(redis_url)
    assert isinstance(direct, DirectRedis)
    commit = store.GroupCommit(direct)
    direct.direct(commit)
    plain = Redis.from_url(redis_url)
    try:
        yield direct, plain, commit
    finally:
        await commit.close()
        await direct.aclose()
        await plain.aclose()


async def everyday(r: Redis, p: str) -> list[Any]:
    """A round of commands of every kind the store sends, on keys under ``p``."""
    return [
        await r.set(f"{p}s", "v", ex=60),
        await r.get(f"{p}s"),
        await r.get(f"{p}missing"),
        await r.incrby(f"{p}n", 5),
        await r.hset(f"{p}h", mapping={"a": 1, "b": "two"}),
        await r.hgetall(f"{p}h"),
        await r.hmget(f"{p}h", ["a", "zz", "b"]),
        await r.zadd(f"{p}z", {"x": 1.5, "y": 2, "w": -3}),
        await r.zrange(f"{p}z", 0, -1, withscores=True),
        await r.zrank(f"{p}z", "y"),
        await r.zscore(f"{p}z", "x"),
        await r.rpush(f"{p}l", "1", "2", "3"),
        await r.lrange(f"{p}l", 0, -1),
        await r.sadd(f"{p}set", "a", "b"),
        await r.smembers(f"{p}set"),
        await r.expire(f"{p}h", 100),
        await r.exists(f"{p}h", f"{p}missing"),
        await store.DELETE_IF_OURS(r, keys=[f"{p}s"], args=["v"]),
        await r.delete(f"{p}n", f"{p}missing"),
    ]


async def test_everyday_commands_go_in_the_batches_and_read_as_the_pool_reads_them(
    clients: tuple[DirectRedis, Redis, store.GroupCommit],
) -> None:
    direct, plain, commit = clients
    await plain.script_flush()
    asked = commit.asked
    mine = await everyday(direct, "d:")
    # every command of the round, and the script's source after its NOSCRIPT
    assert commit.asked - asked == 20
    assert commit.writes == 0  # (what counts as a write is the group commit's own)
    assert mine == await everyday(plain, "p:")


async def test_a_pipeline_goes_in_one_batch_with_its_errors_as_redis_py_gives_them(
    clients: tuple[DirectRedis, Redis, store.GroupCommit],
) -> None:
    direct, plain, commit = clients

    async def round(r: Redis, p: str, raise_on_error: bool) -> list[Any]:
        async with r.pipeline(transaction=False) as pipe:
            pipe.hset(f"{p}h", "a", 1)
            pipe.incrby(f"{p}h", 1)  # WRONGTYPE
            pipe.zadd(f"{p}z", {"m": 4})
            pipe.zrange(f"{p}z", 0, -1, withscores=True)
            return list(await pipe.execute(raise_on_error=raise_on_error))

    batches = commit.batches
    mine = await round(direct, "d:", False)
    assert commit.batches == batches + 1
    theirs = await round(plain, "p:", False)
    assert isinstance(mine[1], ResponseError) and isinstance(theirs[1], ResponseError)
    assert str(mine[1]) == str(theirs[1])
    assert [mine[0], *mine[2:]] == [theirs[0], *theirs[2:]] == [1, 1, [(b"m", 4.0)]]
    with pytest.raises(ResponseError) as raised:
        await round(direct, "d2:", True)
    assert str(raised.value).startswith("Command # 2 (INCRBY d2:h 1) of pipeline"), raised.value


async def test_what_is_no_everyday_command_goes_the_pools_way(
    clients: tuple[DirectRedis, Redis, store.GroupCommit],
) -> None:
    direct, _, commit = clients
    asked = commit.asked
    assert "PING" not in DIRECT and "CLIENT" not in DIRECT
    assert await direct.ping()
    assert isinstance(await direct.execute_command("CLIENT", "ID"), int)
    async with direct.pipeline(transaction=True) as pipe:  # MULTI/EXEC: a connection's own
        pipe.set("t:a", 1)
        pipe.incr("t:a")
        assert await pipe.execute() == [True, 2]
    assert commit.asked == asked
    await commit.close()  # closed: everything the pool's way, and still answered
    assert await direct.get("t:a") == b"2"
    async with direct.pipeline(transaction=False) as pipe:
        pipe.get("t:a")
        assert await pipe.execute() == [b"2"]
    assert commit.asked == asked


async def test_a_script_redis_lost_is_sent_by_its_source_and_the_connection_kept(
    clients: tuple[DirectRedis, Redis, store.GroupCommit],
) -> None:
    direct, plain, commit = clients
    await plain.set("k", "ours")
    assert await direct.get("k") == b"ours"  # (the group commit's connection made)
    await plain.script_flush()  # as a failover to a replica without them would
    asked, batches = commit.asked, commit.batches
    # NOSCRIPT comes back to the script, which sends its source (EVAL): the group
    # commit's connection, which the moves share, is not made afresh for it
    assert await store.DELETE_IF_OURS(direct, keys=["k"], args=["ours"]) == 1
    assert await plain.exists("k") == 0
    assert (commit.asked - asked, commit.batches - batches) == (2, 2)
    await plain.set(store.fence_key("g"), 1)
    # a write of the group commit's own script is sent again on a connection that loads it
    await commit.submit(lambda c: c.append_fenced("g", 1, "1 a"))
    assert await plain.lrange(store.log_key("g"), 0, -1) == [b"1 a"]
