"""bench/matchmaker.py runs: a small queue drained into full rooms (no figure asserted)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from server.app.settings import Settings
from server.app.store.connect import open_redis

BENCH = Path(__file__).resolve().parents[2] / "bench" / "matchmaker.py"


async def test_the_bench_drains_a_queue_into_rooms(settings: Settings) -> None:
    spec = importlib.util.spec_from_file_location("matchmaker", BENCH)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert settings.redis_url is not None
    redis = open_redis(settings.redis_url)
    try:
        row = await bench.one_size(redis, 300, 60.0, 1)
    finally:
        await redis.aclose()
    assert row["size"] == 300 and 2 <= row["room"] <= 8
    assert row["commands"] > 0 and row["bytes"] > 0
