"""The server's Redis client: one Redis (a blocking pool, commands packed by hiredis) or
a Redis Cluster."""

from __future__ import annotations

import asyncio

from redis.asyncio import BlockingConnectionPool, Redis, RedisCluster

from .commit import RedisClient, hiredis_packing
from .ready import loading_retry


def open_redis(url: str, cluster: bool = False) -> RedisClient:
    """The client of the Redis at ``url``; with ``cluster``, of the Redis Cluster that
    ``url`` is a node of (the others are found from it).

    A command Redis answers ``LOADING`` (it has restarted and is reading its data) is
    sent again for a few seconds (:func:`~server.app.store.ready.loading_retry`): it had
    not run. One whose connection failed is not, as it may have run. The cluster
    client keeps its own policy (``MOVED``, ``ASK``, a node lost)."""
    if cluster:
        # a pool per node; past its connections a command fails at once (the cluster
        # client has no blocking pool), so a node gets more than the one Redis below
        return RedisCluster.from_url(url, max_connections=500)
    # past its connections a request waits for one: redis-py's default pool fails it with
    # "Too many connections" (100), which a burst of sign-ins reaches
    pool = BlockingConnectionPool.from_url(
        url, max_connections=100, timeout=20, retry=loading_retry()
    )
    return Redis.from_pool(hiredis_packing(pool))


async def answers(redis: RedisClient, timeout: float) -> bool:
    """Whether Redis answers a ping within ``timeout`` seconds (every primary of a
    cluster, not just one node)."""
    try:
        if isinstance(redis, RedisCluster):
            ping = redis.ping(target_nodes=RedisCluster.PRIMARIES)
        else:
            ping = redis.ping()
        await asyncio.wait_for(ping, timeout=timeout)
    except Exception:
        return False
    return True
