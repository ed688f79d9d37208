"""The ratings' benchmark: what rating a race costs (``docs/ratings.md``): the model's
update alone (openskill's Plackett-Luce, ``server.app.domain.ratings.update``) for 2 to 8
racers, and the whole write (``Ratings.rate``: the read, the update, the ``RATE`` script,
one round trip each) on a Redis started here, with its memory per rated player. Prints a
Markdown table for ``docs/performance.md``.

    .venv/bin/python bench/ratings.py [--races 2000] [--players 10000]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from redis.asyncio import Redis

from server.app.domain import ratings as rt
from server.app.embedded_redis import EmbeddedRedis
from server.app.store.ratings import Ratings


def update_cost(racers: int, races: int) -> float:
    """Seconds of one update of ``racers`` new players, the mean of ``races``."""
    before, ranks = [rt.DEFAULT] * racers, list(range(1, racers + 1))
    start = time.perf_counter()
    for _ in range(races):
        rt.update(before, ranks)
    return (time.perf_counter() - start) / races


async def write_cost(url: str, racers: int, races: int, players: int) -> tuple[float, int]:
    """Seconds of one race rated through Redis (racers drawn from ``players``), and the
    bytes Redis holds per rated player once every player has raced."""
    redis = Redis.from_url(url)
    await redis.flushall()
    store, pick = Ratings(redis), random.Random(racers)
    base = int((await redis.info("memory"))["used_memory"])

    def work_out(before: dict[str, rt.Rating]) -> tuple[dict[str, rt.Rating], dict[str, object]]:
        pids = list(before)
        after = dict(
            zip(
                pids,
                rt.update([before[p] for p in pids], list(range(1, len(pids) + 1))),
                strict=True,
            )
        )
        return after, {p: after[p].to_dict() for p in pids}

    for n in range(players // racers):  # every player rated once (not timed)
        pids = [f"{(n * racers + k):016x}" for k in range(racers)]
        await store.rate("gate", f"fill:{n}", pids, work_out)
    memory = int((await redis.info("memory"))["used_memory"]) - base
    start = time.perf_counter()
    for n in range(races):
        pids = [f"{k:016x}" for k in pick.sample(range(players), racers)]
        await store.rate("gate", f"bench:{n}", pids, work_out)
    spent = (time.perf_counter() - start) / races
    await redis.aclose()
    return spent, memory // players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--races", type=int, default=2000)
    parser.add_argument("--players", type=int, default=10_000)
    args = parser.parse_args()
    print(
        "| racers | update (openskill) | rated through Redis "
        "| Redis bytes per rated player (marks included) |"
    )
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder, EmbeddedRedis(Path(folder)) as redis:
        for racers in (2, 4, 8):
            update = update_cost(racers, args.races)
            write, memory = asyncio.run(write_cost(redis.url, racers, args.races, args.players))
            print(f"| {racers} | {update * 1e6:.0f} µs | {write * 1e3:.2f} ms | {memory} |")


if __name__ == "__main__":
    main()
