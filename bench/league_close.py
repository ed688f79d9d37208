"""What closing a week of weekly leagues costs: time, and Redis memory.

    .venv/bin/python bench/league_close.py [--players 100000] [--dailies 5] [--games 1]

A Redis of its own (embedded, on a unix socket, no persistence). ``--players`` join one
week's event through the placing script (``JOIN_LEAGUE``: leagues of 30), spread over
the tiers as a server's would be after some weeks; each then has ``--dailies`` ranked
daily results of each of ``--games`` games that week (won four times in five, at random
times), written as the daily's finish writes them (``SCORE_LEAGUE``). The table: Redis's
``used_memory`` before the event, with it, and after its close (when its keys are set to
expire, not yet gone), and the time to join, to score, to close the week (the server's
own ``close_week``: read every league, work out its standings, write the moved tiers, mark
it closed), and to read one league's standings as ``event`` does. Figures go to
``docs/performance.md`` ("Weekly leagues"), never into a test.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections.abc import Awaitable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server.app.domain import leagues as lg  # noqa: E402
from server.app.embedded_redis import EmbeddedRedis  # noqa: E402
from server.app.handlers.leagues import close_week  # noqa: E402
from server.app.store.connect import open_redis  # noqa: E402
from server.app.store.leagues import Leagues  # noqa: E402

WEEK = "2026-W48"
#: how the players stand in the tiers, lowest first (a pyramid)
SPREAD = (0.40, 0.27, 0.18, 0.10, 0.05)
#: requests in flight at once
CONCURRENCY = 256


async def used(redis: object) -> int:
    info = await redis.info("memory")  # type: ignore[attr-defined]
    return int(info["used_memory"])


async def in_flight(jobs: Sequence[Awaitable[object]]) -> None:
    """Run the coroutines ``CONCURRENCY`` at a time."""
    for start in range(0, len(jobs), CONCURRENCY):
        await asyncio.gather(*jobs[start : start + CONCURRENCY])


async def run(players: int, dailies: int, games: int, url: str) -> list[tuple[str, str]]:
    redis = open_redis(url)
    store = Leagues(redis)
    rng = random.Random(48)
    pids = [f"p{n:07d}" for n in range(players)]
    tiers = rng.choices(lg.TIERS, weights=SPREAD, k=players)
    rows: list[tuple[str, str]] = []
    await redis.flushall()
    before = await used(redis)

    t0 = time.perf_counter()
    await in_flight([store.join(WEEK, pid, tier) for pid, tier in zip(pids, tiers, strict=True)])
    joined = time.perf_counter() - t0
    leagues = await store.leagues(WEEK)

    days = lg.days_of(WEEK)
    jobs = []
    for pid in pids:
        for game in [f"game{g}" for g in range(games)]:
            for day in rng.sample(days, dailies):
                won = rng.random() < 0.8
                time_ms = rng.randrange(60_000, 900_000)
                details = {"day": day, "game": game, "won": won, "time_ms": time_ms}
                jobs.append(store.score(WEEK, pid, {**details, "moves": 100, "at": 0}))
    t0 = time.perf_counter()
    await in_flight(jobs)
    scored = time.perf_counter() - t0
    with_event = await used(redis)

    t0 = time.perf_counter()
    one = leagues[0]
    lg.standings(await store.members(WEEK, one), await store.results(WEEK, one))
    standing = time.perf_counter() - t0

    t0 = time.perf_counter()
    closed = await close_week(store, WEEK, "bench")
    closing = time.perf_counter() - t0
    after = await used(redis)
    await redis.aclose()

    mib = 1024 * 1024
    rows += [
        ("players joined", f"{players:,} in {len(leagues):,} leagues"),
        ("results (ranked dailies)", f"{len(jobs):,} ({dailies} days x {games} game(s) each)"),
        ("joining, all", f"{joined:.1f} s ({players / joined:,.0f} joins/s)"),
        ("scoring, all", f"{scored:.1f} s ({len(jobs) / scored:,.0f} results/s)"),
        ("one league's standings (event)", f"{standing * 1000:.1f} ms"),
        ("closing the week", f"{closing:.1f} s"),
        ("moved up / down", f"{closed.up:,} / {closed.down:,}"),
        ("Redis used_memory before", f"{before / mib:.1f} MiB"),
        (
            "with the week's event",
            f"{with_event / mib:.1f} MiB (+{(with_event - before) / mib:.1f})",
        ),
        ("after the close", f"{after / mib:.1f} MiB (+{(after - with_event) / mib:.1f}: ev:tier)"),
        ("a player, all in", f"{(after - before) / players:.0f} bytes"),
    ]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--dailies", type=int, default=5, help="days played of 7")
    parser.add_argument("--games", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        redis = EmbeddedRedis(Path(tmp), appendonly=False)
        url = redis.start()
        try:
            rows = asyncio.run(run(args.players, args.dailies, args.games, url))
        finally:
            redis.stop()
    width = max(len(k) for k, _ in rows)
    print(f"| {'what':<{width}} | figure |")
    print(f"|{'-' * (width + 2)}|---|")
    for key, value in rows:
        print(f"| {key:<{width}} | {value} |")


if __name__ == "__main__":
    main()
