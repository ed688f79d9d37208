"""The quick race's matcher: what a match costs with 1,000 and 10,000 players waiting in
one game's queue (``store/queue.py``, the ``QUICK_MATCH`` script), on a real Redis of its
own (the embedded one, a unix socket).

    .venv/bin/python bench/matchmaker.py [--sizes 1000,10000] [--spread 60] [--repeat 3]

For each size: the queue filled with that many players (ratings spread evenly over
``--spread`` ordinal points, joined over the last 20 s), then

- **idle pass**: one pass of the matcher when nobody may race yet (every waiter joined
  under ``quick_gather`` ago, no window holds a full room): what every process pays
  every ``quick_tick`` for a queue this long;
- **draining**: passes until the queue is empty (every waiter gathered), each taking up
  to 200 of the longest waiting: per match (a room of 2 to 8), the wall time of the
  pass's call, Redis's own time in the script (``INFO commandstats``), and the commands
  the script runs inside Redis (``ZRANGEBYSCORE``, ``ZREM``, ...) per match;
- the queue's memory in Redis, per waiter (``MEMORY USAGE`` of its three keys).

Matching a room then costs its making (the room's claim and write, the racers' games in
one pipeline, each racer's place, the bus's notice: ``handlers/quick.py``), the same as a
room any host starts.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server.app.domain import quick as q  # noqa: E402
from server.app.embedded_redis import EmbeddedRedis  # noqa: E402
from server.app.store.connect import open_redis  # noqa: E402
from server.app.store.keys import (  # noqa: E402
    QUICK_WAITING,
    quick_joined_key,
    quick_ratings_key,
)
from server.app.store.queue import QuickQueue, Window  # noqa: E402

GAME = "gate"
RULE = q.Rule(base=3.0, widen=2.0, every_ms=5000, most=8, gather_ms=3000)
STALE_MS = 60_000


async def stats(redis: Any) -> tuple[int, int, int]:
    """Commands run and microseconds spent by ``EVALSHA`` (the scripts), and every
    command's calls (those the scripts run inside included)."""
    info = await redis.info("commandstats")
    calls = sum(int(v["calls"]) for v in info.values())
    script = info.get("cmdstat_evalsha", {"calls": 0, "usec": 0})
    return int(script["calls"]), int(script["usec"]), calls


async def fill(
    queue: QuickQueue, redis: Any, size: int, spread: float, now: int, rng: random.Random
) -> None:
    await redis.flushall()
    for start in range(0, size, 500):
        await asyncio.gather(
            *(
                queue.join(
                    f"p{n:06}",
                    GAME,
                    round(rng.uniform(0, spread), 2),
                    now - rng.randrange(20_000),
                    0,
                )
                for n in range(start, min(start + 500, size))
            )
        )


async def one_size(redis: Any, size: int, spread: float, repeat: int) -> dict[str, Any]:
    queue = QuickQueue(redis)
    rng = random.Random(size)
    window = Window(RULE.base, RULE.widen, RULE.every_ms, RULE.most, RULE.gather_ms, STALE_MS)
    idle_window = Window(RULE.base, RULE.widen, RULE.every_ms, 10**6, 10**9, STALE_MS)
    now = 1_800_000_000_000
    idle: list[float] = []
    per_match: list[float] = []
    in_redis: list[float] = []
    commands: list[float] = []
    sizes: list[float] = []
    memory = 0.0
    for _ in range(repeat):
        await fill(queue, redis, size, spread, now, rng)
        used = 0
        for key in (quick_ratings_key(GAME), quick_joined_key(GAME), QUICK_WAITING):
            used += int(await redis.execute_command("MEMORY", "USAGE", key, "SAMPLES", "0") or 0)
        memory = used / size
        # an idle pass: nobody has gathered long enough, no room is full
        started = time.perf_counter()
        groups, _ = await queue.match(GAME, now, idle_window)
        idle.append((time.perf_counter() - started) * 1000)
        assert not groups
        matches = 0
        wall = 0.0
        calls0, usec0, all0 = await stats(redis)
        while True:
            started = time.perf_counter()
            groups, _ = await queue.match(GAME, now + RULE.gather_ms, window)
            wall += time.perf_counter() - started
            if not groups:
                break
            matches += len(groups)
            sizes += [len(g) for g in groups]
        calls1, usec1, all1 = await stats(redis)
        per_match.append(wall * 1e6 / max(matches, 1))
        in_redis.append((usec1 - usec0) / max(matches, 1))
        # commands the scripts ran inside Redis (the INFO calls themselves not counted)
        commands.append((all1 - all0 - (calls1 - calls0) - 1) / max(matches, 1))
    return {
        "size": size,
        "idle_ms": statistics.median(idle),
        "match_us": statistics.median(per_match),
        "redis_us": statistics.median(in_redis),
        "commands": statistics.median(commands),
        "room": statistics.mean(sizes) if sizes else 0.0,
        "bytes": memory,
    }


async def run(sizes: list[int], spread: float, repeat: int) -> None:
    tmp = Path(tempfile.mkdtemp(prefix="patience-matchmaker-"))
    server = EmbeddedRedis(tmp / "redis")
    url = server.start()
    redis = open_redis(url)
    try:
        print(
            f"one game's queue, ratings over {spread:g} points, window ±{RULE.base:g} "
            f"(+{RULE.widen:g} every {RULE.every_ms // 1000} s), rooms up to {RULE.most}; "
            f"median of {repeat}"
        )
        print()
        print(
            "| waiting | idle pass | per match (wall) | per match (in Redis) "
            "| commands per match | mean room | queue memory per waiter |"
        )
        print("|---|---|---|---|---|---|---|")
        for size in sizes:
            row = await one_size(redis, size, spread, repeat)
            print(
                f"| {row['size']:,} | {row['idle_ms']:.2f} ms | {row['match_us']:.0f} µs "
                f"| {row['redis_us']:.0f} µs | {row['commands']:.1f} | {row['room']:.1f} "
                f"| {row['bytes']:.0f} B |"
            )
    finally:
        await redis.aclose()
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--spread", type=float, default=60.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(run([int(s) for s in args.sizes.split(",")], args.spread, args.repeat))


if __name__ == "__main__":
    main()
