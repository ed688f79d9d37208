"""The server clock (``server/app/clock.py``): Redis's time, read as the server starts and
kept on the process's monotonic clock, never going back, read again while the server runs,
on one Redis and on a Redis Cluster (its first node's). A running server's clock is
tested against a machine clock set back in ``test_clock_skew.py``."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from server.app.clock import RedisClock, keep_in_step
from server.app.store.connect import open_redis

from .cluster import LocalCluster
from .test_cluster import cluster, local_cluster  # noqa: F401

#: a reading's error on this machine, with room for a busy one (ms)
CLOSE_MS = 200


async def test_it_tells_redis_time(redis_url: str) -> None:
    redis = open_redis(redis_url)
    try:
        clock = RedisClock(shift_ms=86_400_000)
        ahead = await clock.read(redis)
        seconds, micros = await redis.time()
        redis_now = seconds * 1000 + micros // 1000
        assert abs(clock.redis_ms() - redis_now) < CLOSE_MS
        assert clock.now_ms() - clock.redis_ms() in range(86_400_000, 86_400_000 + CLOSE_MS)
        # (Redis runs on this machine: their clocks are one)
        assert abs(ahead) < CLOSE_MS
        assert 0 <= clock.round_trip_ms < CLOSE_MS
    finally:
        await redis.aclose()


async def test_it_never_goes_back_and_keeps_in_step(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    redis = open_redis(redis_url)
    try:
        clock = RedisClock()
        await clock.read(redis)
        assert clock.base_ms is not None
        # Redis's clock found 5 s behind what was told: the clock waits, not goes back
        told = clock.now_ms()
        clock.base_ms -= 5000
        later = [clock.now_ms() for _ in range(3)]
        assert later == [told] * 3
        # read again while it runs: in step with Redis, and the jump said
        with caplog.at_level(logging.WARNING, logger="patience.main"):
            keeper = asyncio.create_task(keep_in_step(clock, redis, every=0.05))
            try:
                deadline = time.monotonic() + 10
                while clock.redis_ms() == told and time.monotonic() < deadline:
                    await asyncio.sleep(0.05)
            finally:
                keeper.cancel()
        seconds, micros = await redis.time()
        assert abs(clock.redis_ms() - (seconds * 1000 + micros // 1000)) < CLOSE_MS
        assert any(r.getMessage() == "Redis's clock moved" for r in caplog.records)
    finally:
        await redis.aclose()


async def test_on_a_redis_cluster_it_reads_one_node(cluster: LocalCluster) -> None:  # noqa: F811
    redis = open_redis(cluster.url, cluster=True)
    try:
        clock = RedisClock()
        assert abs(await clock.read(redis)) < CLOSE_MS
        assert abs(clock.redis_ms() - time.time() * 1000) < CLOSE_MS
    finally:
        await redis.aclose()
