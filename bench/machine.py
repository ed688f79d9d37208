"""How fast this machine runs Python right now: one line to read a timing beside.

    .venv/bin/python bench/machine.py [--tries 3] [--json-out FILE]

The machine the project runs on is shared, and its speed moves by a third between
sittings and within one (docs/performance.md, "The test suite"): the same tests took
8:00 in one hour and 5:56 in the next. A timing means little without the speed it was
taken at, so ``.ci/run`` prints this line before and after ``make test``. It times a
plain loop of ten million additions in the interpreter, the best of ``--tries`` (the
best, since anything else running only slows a try down), and prints it with the
load average::

    machine: 10M additions in 0.742 s (best of 3: 0.742, 0.801, 0.77), load 0.12
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

#: additions a try times
N = 10_000_000


def one_try(n: int = N) -> float:
    """Seconds for ``n`` additions in a plain loop."""
    started = time.perf_counter()
    total = 0
    for i in range(n):
        total += i
    return time.perf_counter() - started


def measure(tries: int, n: int = N) -> dict[str, Any]:
    times = [round(one_try(n), 3) for _ in range(tries)]
    return {"additions": n, "best_s": min(times), "tries_s": times, "load": os.getloadavg()[0]}


def line(figures: dict[str, Any]) -> str:
    """The figures as :func:`main` prints them.

    >>> line({"additions": 10_000_000, "best_s": 0.7, "tries_s": [0.7, 0.8], "load": 1.5})
    'machine: 10M additions in 0.7 s (best of 2: 0.7, 0.8), load 1.5'
    """
    tries = ", ".join(str(t) for t in figures["tries_s"])
    return (
        f"machine: {figures['additions'] // 1_000_000}M additions in {figures['best_s']} s "
        f"(best of {len(figures['tries_s'])}: {tries}), load {figures['load']:.2g}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tries", type=int, default=3, help="loops to time (default 3)")
    parser.add_argument("--json-out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    if args.tries < 1:
        parser.error("--tries: at least 1")
    figures = measure(args.tries)
    print(line(figures), flush=True)
    if args.json_out:
        args.json_out.write_text(json.dumps(figures) + "\n")


if __name__ == "__main__":
    main()
