"""The server's Redis client: one Redis (a blocking pool, commands packed by hiredis) or
a Redis Cluster.

A connection that has stood idle in the pool for :data:`IDLE_CHECK` seconds is asked
``PING`` before it carries a command: Redis restarted behind a network that does not say
so (a container's bridge, a NAT, a load balancer) leaves pooled connections that look
open and are reset by the first command written on them. ``PING`` is safe to send again:
when it fails, the connection is made afresh and asked again, and only then is the
command sent (:class:`_Checked`). The subscribing connection of the bus is asked as well
(redis-py's pub/sub health check), so a bus whose connection died without a word finds
out within a second or two and subscribes again (``bus.py``)."""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio import BlockingConnectionPool, ConnectionPool, RedisCluster
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .commit import IDLE_CHECK, RedisClient
from .direct import DirectRedis
from .ready import loading_retry
from .redis_internals import pack_command as hiredis_pack
from .redis_internals import send_ping

#: (mixin, connection class) -> the class made of both, made once
_MIXED: dict[tuple[type, type], type] = {}


def _mixed(pool: ConnectionPool, mixin: type, prefix: str) -> ConnectionPool:
    """The pool, its connections (not made yet) of its class with ``mixin`` before it."""
    base = pool.connection_class
    cls = _MIXED.get((mixin, base))
    if cls is None:
        cls = _MIXED[mixin, base] = type(f"{prefix}{base.__name__}", (mixin, base), {})
    pool.connection_class = cls
    return pool


class _HiredisPacking:
    """A redis-py connection whose commands hiredis packs, in C: redis-py 8's asyncio
    connections pack in Python, a tenth of a race's end and rematch (its pipelines of
    dozens of arguments). The bytes are the same: hiredis encodes str as UTF-8 and numbers
    as redis-py does; only a command name of several words is split here first."""

    def pack_command(self, *args: Any) -> list[bytes]:
        assert hiredis_pack is not None
        first = args[0]
        if isinstance(first, (str, bytes)) and len(words := first.split()) > 1:
            args = (*words, *args[1:])
        return [hiredis_pack(args)]


def hiredis_packing(pool: ConnectionPool) -> ConnectionPool:
    r"""The pool, its connections to be made packing with hiredis when it is installed
    (call it before the pool makes a connection).

    >>> from redis.asyncio import ConnectionPool
    >>> pool = hiredis_packing(ConnectionPool.from_url("unix:///tmp/r.sock"))
    >>> conn = pool.make_connection()
    >>> type(conn).__name__
    'HiredisUnixDomainSocketConnection'
    >>> b"".join(conn.pack_command("SCRIPT LOAD", "return 1"))
    b'*3\r\n$6\r\nSCRIPT\r\n$4\r\nLOAD\r\n$8\r\nreturn 1\r\n'
    """
    if hiredis_pack is None:  # pragma: no cover
        return pool
    return _mixed(pool, _HiredisPacking, "Hiredis")


class _Checked:
    """A redis-py connection whose health check (``PING`` once idle
    ``health_check_interval`` seconds) makes the connection afresh when the ``PING``
    fails, rather than failing the command that was about to be sent: the ``PING`` ran on
    a connection Redis no longer knows, so nothing was done."""

    async def on_connect_check_health(self, check_health: bool = True) -> None:
        # a connection just made needs no PING (and one sent in its handshake would meet
        # a loading Redis's LOADING inside redis-py's retries, unseen by the wait for it)
        conn: Any = self
        await super().on_connect_check_health(check_health=False)  # type: ignore[misc]
        conn.next_health_check = asyncio.get_running_loop().time() + conn.health_check_interval

    async def check_health(self) -> None:
        conn: Any = self
        interval = conn.health_check_interval
        if not interval or asyncio.get_running_loop().time() <= conn.next_health_check:
            return
        try:
            await send_ping(conn)
        except (RedisConnectionError, RedisTimeoutError, OSError):
            await conn.disconnect()
            await conn.connect_check_health(check_health=False)
            await send_ping(conn)  # (raises if Redis is away: the caller hears of it)


def checked(pool: ConnectionPool) -> ConnectionPool:
    """The pool, its connections made :class:`_Checked` (call before it makes one)."""
    return _mixed(pool, _Checked, "Checked")


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
        url,
        max_connections=100,
        timeout=20,
        retry=loading_retry(),
        health_check_interval=IDLE_CHECK,
    )
    return DirectRedis.from_pool(checked(hiredis_packing(pool)))


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
