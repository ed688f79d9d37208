"""Waiting for a Redis that is loading its data, and the one error the server may answer
by trying again.

A Redis that starts accepts connections before it has read its append-only file (or
RDB), and answers every data command with ``LOADING`` until it has: seconds for a few
tens of megabytes. The server waits for that at startup (:func:`wait_until_loaded`, up
to ``Settings.redis_load_timeout``, then :class:`RedisNotReady`), and afterwards, when
Redis restarts under it, its commands are sent again while Redis answers ``LOADING``
(:func:`loading_retry`): ``LOADING`` is answered before a command runs, so sending it
again cannot apply it twice. A connection that fails or times out is not tried again,
since a command sent on it may have run (an ``INCR``, a log append); its caller hears
of it as before.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from redis.asyncio import Redis, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import BusyLoadingError, ResponseError

log = logging.getLogger("patience.redis")

#: seconds between two looks at a loading Redis
POLL = 0.1

#: a command answered ``LOADING`` is sent again after 0.1, 0.2, 0.4, then every 0.5 s,
#: up to 20 times (about 9 s in all), then fails with ``BusyLoadingError``
LOADING_RETRIES = 20
LOADING_BACKOFF_CAP = 0.5


def loading_retry() -> Retry:
    """The retry policy of the server's Redis connections: on ``LOADING`` only."""
    return Retry(
        ExponentialBackoff(cap=LOADING_BACKOFF_CAP, base=0.05),
        LOADING_RETRIES,
        supported_errors=(BusyLoadingError,),
    )


class RedisNotReady(Exception):
    """Redis was still loading its data when the time allowed ran out."""


def loading(exc: BaseException) -> bool:
    """Whether ``exc`` is Redis answering ``LOADING``, as such or as the cause of a
    cluster client's failure to read the slot map ("Redis Cluster cannot be
    connected")."""
    seen: BaseException | None = exc
    for _ in range(5):
        if isinstance(seen, BusyLoadingError):
            return True
        if seen is None:
            return False
        seen = seen.__cause__ or seen.__context__
    return False


class LoadWait:
    """The bookkeeping of one wait: a log line when it starts, one when Redis has loaded
    (with how long it took), and :class:`RedisNotReady` past ``timeout`` seconds."""

    def __init__(self, timeout: float, what: str) -> None:
        self.timeout = timeout
        self.what = what
        self.started = time.monotonic()
        self.waiting = False

    def still_loading(self) -> None:
        """Redis answered ``LOADING``: log the first time; raise once time is up."""
        if not self.waiting:
            self.waiting = True
            log.info(
                "waiting for redis to load its data",
                extra={"redis": self.what, "timeout": self.timeout},
            )
        waited = time.monotonic() - self.started
        if waited > self.timeout:
            raise RedisNotReady(
                f"Redis ({self.what}) was still loading its data after {waited:.1f} s; "
                "see its log, or allow longer with --redis-load-timeout "
                "(PATIENCE_REDIS_LOAD_TIMEOUT)"
            )

    def loaded(self) -> None:
        if self.waiting:
            waited = round(time.monotonic() - self.started, 3)
            log.info("redis loaded its data", extra={"redis": self.what, "waited": waited})


async def wait_until_loaded(redis: Any, timeout: float, what: str) -> None:
    """``PING`` until Redis answers it rather than ``LOADING`` (a Redis Cluster: every
    primary, once the slot map is read), every :data:`POLL` seconds for up to
    ``timeout``; ``what`` names the Redis in the log. Any other failure is raised at
    once."""
    wait = LoadWait(timeout, what)
    attempt = _ping_cluster if isinstance(redis, RedisCluster) else _ping_once
    while True:
        try:
            await attempt(redis)
        except Exception as exc:
            if not loading(exc):
                raise
            wait.still_loading()
            await asyncio.sleep(POLL)
            continue
        wait.loaded()
        return


async def _ping_once(redis: Redis) -> None:
    """One ``PING`` on a connection of the pool's, past the client's own retries on
    ``LOADING`` (which would keep the wait from being logged as it starts)."""
    pool = redis.connection_pool
    conn = await pool.get_connection()  # type: ignore[no-untyped-call]
    try:
        await conn.send_command("PING")
        await conn.read_response()
    finally:
        await pool.release(conn)


async def _ping_cluster(redis: RedisCluster) -> None:
    await redis.initialize()  # the slot map, read from a node that has loaded
    await redis.ping(target_nodes=RedisCluster.PRIMARIES)


#: what a Redis must be set to for an acknowledged write to survive it being killed: its
#: append-only file on, and written and fsynced before it answers (``appendfsync
#: everysec`` answers writes it has not written yet while a slow fsync is under way)
DURABLE = {"appendonly": "yes", "appendfsync": "always"}


async def check_durability(redis: Any, what: str) -> dict[str, str] | None:
    """Warn, once at startup, when Redis's persistence settings can lose a write it has
    answered; return them (None: Redis would not say: ``CONFIG`` renamed or not allowed,
    as on some managed Redis, which is logged too)."""
    try:
        if isinstance(redis, RedisCluster):
            raw = await redis.config_get("append*", target_nodes=RedisCluster.RANDOM)
        else:
            raw = await redis.config_get("append*")
    except ResponseError as exc:
        log.info("redis's persistence settings could not be read", extra={"reason": str(exc)})
        return None
    found = {name: str(raw.get(name, "")) for name in DURABLE}
    if found != DURABLE:
        log.warning(
            "redis may lose acknowledged moves if it is killed: run it with appendonly yes "
            "and appendfsync always",
            extra={"redis": what, **found},
        )
    return found


async def redis_time(redis: Redis | RedisCluster) -> tuple[int, int]:
    """Redis's ``TIME`` (seconds, microseconds), the server clock's source
    (``server/app/clock.py``): on a Redis Cluster, its first node's (one clock for every
    process: the nodes' own may disagree)."""
    if isinstance(redis, RedisCluster):
        node = redis.get_default_node()
        seconds, micros = await redis.execute_command("TIME", target_nodes=node)
    else:
        seconds, micros = await redis.time()
    return int(seconds), int(micros)
