"""What a race's end and its rematch cost the server: CPU milliseconds a race cycle.

    .venv/bin/python bench/race_cycle.py [--rooms 16] [--cycles 30] [--runs 2]
                                         [--server-tree DIR ...]

It starts a Redis of its own and the race server (``bench/load/``'s server: no rate
limit, rematches at once), gathers ``--rooms`` rooms of 4 racers (The Gate), then every
room runs ``--cycles`` race cycles, all rooms at once: each racer resigns its race game
(no moves: what is measured is the race around them), the room's ``results`` come, the
host calls ``rematch``, and the new race starts (``race_start`` to each racer). A cycle
is 4 resignations, ranking and results (stored, replays kept, times to live set), the
rematch's 4 games dealt and written, the room written by compare-and-set 3 times, and
the room events and replies. The figure is the server's CPU time (user and system, from
/proc) over the cycles, after 5 cycles a room of warm-up. Each ``--server-tree`` (a
checkout: before/after) is measured ``--runs`` times, alternating; a tree without its
compiled move path runs from source, so compare trees built alike (or set
``PATIENCE_NATIVE=0`` for all).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import secrets
import sys
import time
from pathlib import Path

import msgpack
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load.client import Stats  # noqa: E402
from bench.load.racers import Racer, open_room  # noqa: E402
from bench.load.servers import (  # noqa: E402
    Children,
    alternate,
    move_path,
    start_server,
    tree_options,
)

WARM = 5


async def _cycles(rooms: list[list[Racer]], pid: int, cycles: int) -> tuple[float, float]:
    """Run ``cycles`` race cycles in every room at once: (server CPU s, wall s)."""
    proc = psutil.Process(pid)

    async def one(room: list[Racer]) -> None:
        host = room[0]
        for _ in range(cycles):
            for racer in room:
                assert racer.pending_race is not None
                racer.gid = racer.pending_race[0]
                racer.pending_race = None
            for racer in room:
                await racer.must("resign", game=racer.gid)
            while not host.rematch:
                host.on_event(msgpack.unpackb(await host.ws.recv(), raw=False))
            host.rematch = False
            await host.must("rematch")
            for racer in room:
                await racer.wait_race()

    before = proc.cpu_times()
    start = time.perf_counter()
    await asyncio.gather(*(one(room) for room in rooms))
    wall = time.perf_counter() - start
    after = proc.cpu_times()
    return (after.user + after.system) - (before.user + before.system), wall


def measure(tree: Path | None, redis_url: str, tmp: Path, rooms: int, cycles: int) -> float:
    """One run: the server's CPU milliseconds a race cycle."""
    children = Children()
    try:
        server, url = start_server(children, redis_url, tmp, str(tree) if tree else None)

        async def drive() -> float:
            stats = Stats()
            rng = random.Random(1)
            sem = asyncio.Semaphore(64)
            prefix = f"rc{secrets.token_hex(3)}"  # one Redis for every run: new names
            groups = await asyncio.gather(
                *(
                    open_room(url, [f"{prefix}r{r}x{i}" for i in range(4)], rng, stats, sem)
                    for r in range(rooms)
                )
            )
            await _cycles(groups, server.pid, WARM)
            cpu, _ = await _cycles(groups, server.pid, cycles)
            for racer in (r for group in groups for r in group):
                await racer.ws.close()
            return cpu * 1000 / (rooms * cycles)

        import uvloop

        return uvloop.run(drive())
    finally:
        children.stop_all()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=16)
    parser.add_argument("--cycles", type=int, default=30, help="measured cycles a room")
    tree_options(parser)
    args = parser.parse_args()
    results = alternate(
        args,
        "patience-cycle-",
        lambda tree, redis_url, tmp: measure(tree, redis_url, tmp, args.rooms, args.cycles),
    )
    print(f"{args.rooms} rooms of 4, {args.cycles} race cycles each a run (The Gate)")
    print("| server tree | move path | runs | server CPU ms a race cycle (each run) | mean |")
    print("|---|---|---|---|---|")
    for tree, each in results.items():
        runs = ", ".join(f"{ms:.2f}" for ms in each)
        mean = sum(each) / len(each)
        print(f"| {tree or ROOT} | {move_path(tree)} | {len(each)} | {runs} | {mean:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
