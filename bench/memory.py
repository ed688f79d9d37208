"""What a held racer costs the race server in memory, and what it is made of.

    .venv/bin/python bench/memory.py [--racers 2000] [--room 4] [--parts]
                                     [--runs 1] [--server-tree DIR ...]

A smaller, quicker cousin of the load test's scale mode (``bench/load/``): a Redis of its
own, a fresh server (as ``make run`` starts it), its idle RSS; then ``--racers`` racers
connect from two load processes, register, gather in rooms of ``--room``, start their
races and play one move each (each holds a game, its journal and its encoded view), and
after 2 s idle the server's RSS again: the growth over the racers is what one costs, all
in (the figure the scale mode prints for 10,000).

With ``--parts`` the server also counts, before and after the racers, every object the
garbage collector tracks by type (its ``sys.getsizeof``, the size of the object alone)
and every block ``tracemalloc`` saw allocated, by the module that allocated it; the
differences over the racers say what a racer's connection, session, game and room each
cost. ``tracemalloc`` slows the server and costs memory of its own: those runs' RSS is
not the figure to quote. The compiled modules allocate without Python frames of their
own, so their blocks count against their caller: run ``--parts`` with
``PATIENCE_NATIVE=0`` for the allocating module's own name.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load.servers import (  # noqa: E402
    Children,
    alternate,
    move_path,
    server_env,
    tree_options,
)
from bench.load.workers import raise_nofile, start_workers, stop_workers  # noqa: E402

#: the server, with a SIGUSR1 handler that writes what it holds (``--parts``) to a file
HOOK = """
import gc, json, os, signal, sys, tracemalloc
from collections import Counter
out = os.environ["PATIENCE_BENCH_PARTS"]
tracemalloc.start(1)
made = [0]
def dump(signum, frame):
    counts, sizes = Counter(), Counter()
    for obj in gc.get_objects():
        name = type(obj).__module__ + "." + type(obj).__qualname__
        counts[name] += 1
        sizes[name] += sys.getsizeof(obj)
    files, lines = Counter(), Counter()
    for stat in tracemalloc.take_snapshot().statistics("lineno"):
        where = stat.traceback[0]
        files[where.filename] += stat.size
        lines[where.filename + ":" + str(where.lineno)] += stat.size
    made[0] += 1
    # (written whole, then named: read as it was being written on a loaded machine, a
    # dump had been cut short)
    name = out + "." + str(made[0])
    with open(name + ".tmp", "w") as f:
        json.dump({"counts": counts, "sizes": sizes, "files": files, "lines": lines}, f)
    os.replace(name + ".tmp", name)
signal.signal(signal.SIGUSR1, dump)
from server.cli import main
sys.exit(main())
"""


def _listening(server: subprocess.Popen[bytes], log: Path) -> str:
    assert server.stdout is not None
    for raw in server.stdout:
        line = raw.decode()
        if "listening on " in line:
            return line.split("listening on ", 1)[1].split()[0]
    raise RuntimeError(f"the server exited; see {log}:\n{log.read_text()[-2000:]}")


def _dumps(tmp: Path) -> list[Path]:
    """The server's dumps written whole (``parts.N``), first first."""
    found = [p for p in tmp.glob("parts.*") if p.suffix[1:].isdigit()]
    return sorted(found, key=lambda p: int(p.suffix[1:]))


def _parts(tmp: Path) -> tuple[dict[str, Any], dict[str, Any]] | None:
    dumps = _dumps(tmp)
    if len(dumps) < 2:
        return None
    return json.loads(dumps[-2].read_text()), json.loads(dumps[-1].read_text())


def _dump(pid: int, tmp: Path) -> None:
    before = len(_dumps(tmp))
    os.kill(pid, signal.SIGUSR1)
    deadline = time.monotonic() + 120
    while len(_dumps(tmp)) == before and time.monotonic() < deadline:
        time.sleep(0.2)


def measure(
    tree: Path | None, redis_url: str, tmp: Path, racers: int, room: int, parts: bool
) -> dict[str, Any]:
    import psutil
    from redis import Redis

    Redis.from_url(redis_url).flushall()
    children = Children()
    run_dir = tmp / f"run{time.monotonic_ns()}"
    run_dir.mkdir()
    env = server_env(redis_url, run_dir, tree)
    argv = [sys.executable, "-c", "import sys; from server.cli import main; sys.exit(main())"]
    if parts:
        env["PATIENCE_BENCH_PARTS"] = str(run_dir / "parts")
        argv = [sys.executable, "-c", HOOK]
    try:
        server = subprocess.Popen(
            argv,
            cwd=tree or ROOT,
            env=env,
            stdout=subprocess.PIPE,
            stderr=(run_dir / "log").open("ab"),
            stdin=subprocess.DEVNULL,
        )
        children.popen.append(server)
        url = _listening(server, run_dir / "log")
        time.sleep(1.0)
        proc = psutil.Process(server.pid)
        if parts:
            _dump(server.pid, run_dir)
        idle = proc.memory_info().rss
        cfg = {
            "url": url,
            "echo_url": None,
            "room": room,
            "seed": 1,
            "prefix": secrets.token_hex(2),
            "one_move": True,
        }
        t0 = time.perf_counter()
        pipes, ready = start_workers(children, cfg, 2, racers)
        setup = time.perf_counter() - t0
        time.sleep(2.0)
        rss = proc.memory_info().rss
        held = sum(r["ready"] for r in ready)
        result: dict[str, Any] = {
            "racers": held,
            "setup_s": round(setup, 1),
            "idle_rss_mib": round(idle / 2**20, 1),
            "rss_mib": round(rss / 2**20, 1),
            "kib_per_racer": round((rss - idle) / held / 1024, 2),
        }
        if parts:
            _dump(server.pid, run_dir)
            found = _parts(run_dir)
            if found is not None:
                result["parts"] = _per_racer(*found, held)
        stop_workers(children, pipes)
        return result
    finally:
        children.stop_all()


def _per_racer(before: dict[str, Any], after: dict[str, Any], n: int) -> dict[str, Any]:
    def grew(key: str) -> list[tuple[str, float, float]]:
        rows = []
        for name, size in after[key].items():
            gain = size - before[key].get(name, 0)
            if gain > 0:
                count = after["counts"].get(name, 0) - before["counts"].get(name, 0)
                rows.append((name, gain / n, count / n if key == "sizes" else 0.0))
        return sorted(rows, key=lambda row: -row[1])[:200]

    return {"by_type": grew("sizes"), "by_file": grew("files"), "by_line": grew("lines")}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--racers", type=int, default=2000)
    parser.add_argument("--room", type=int, default=4)
    parser.add_argument("--parts", action="store_true", help="what a racer is made of")
    parser.add_argument("--json-out", help="also write every figure as JSON to this file")
    tree_options(parser)
    args = parser.parse_args()
    args.runs = args.runs if "--runs" in sys.argv else 1
    raise_nofile()
    for tree in args.server_tree or [None]:
        print(f"{tree or ROOT}: the move path {move_path(tree)}")
    results = alternate(
        args,
        "patience-mem-",
        lambda tree, redis_url, tmp: measure(
            tree, redis_url, tmp, args.racers, args.room, args.parts
        ),
    )
    print(f"{args.racers:,} racers in rooms of {args.room}, one move each, then 2 s idle")
    print("| server tree | idle RSS | RSS | KiB a racer (each run) |")
    print("|---|---|---|---|")
    for tree, runs in results.items():
        each = ", ".join(f"{r['kib_per_racer']:.1f}" for r in runs)
        last = runs[-1]
        print(f"| {tree or ROOT} | {last['idle_rss_mib']} MiB | {last['rss_mib']} MiB | {each} |")
    for tree, runs in results.items():
        parts = runs[-1].get("parts")
        if not parts:
            continue
        print(f"\n{tree or ROOT}: objects a racer adds, by type (sys.getsizeof, count)")
        for name, size, count in parts["by_type"][:30]:
            print(f"  {size:9.0f} B  {count:6.2f}  {name}")
        print(f"\n{tree or ROOT}: bytes a racer adds, by allocating file (tracemalloc)")
        for name, size, _ in parts["by_file"][:30]:
            print(f"  {size:9.0f} B  {name}")
        print(f"\n{tree or ROOT}: bytes a racer adds, by allocating line (tracemalloc)")
        for name, size, _ in parts["by_line"][:30]:
            print(f"  {size:9.0f} B  {name}")
    if args.json_out:
        Path(args.json_out).write_text(
            json.dumps({str(tree or ROOT): runs for tree, runs in results.items()}, indent=1)
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
