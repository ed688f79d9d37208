"""The solver's benchmark: per game, how many deals get a verdict within the budget, how
fast, and at how many positions a second. Prints a Markdown table for
``docs/performance.md``.

    .venv/bin/python bench/solver.py [--deals 100] [--budget 10] [--games gate,nestor]

Each game's deals are seeds 0..N-1, solved one after another on one core (the header says
whether the engine ran compiled). *decided* is the share with a verdict (won, or proved
lost); *nodes/s* is positions entered over the time spent, all deals together.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server import native
from server.engine import GAMES
from server.solver import solve


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--budget", type=float, default=10.0, help="seconds a deal")
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    state = native.status()
    print(f"solver, {args.deals} deals a game, {args.budget:g} s a deal, engine {state['mode']}")
    print()
    print(
        "| game | won | lost | unknown | decided | median s | p95 s | longest s "
        "| nodes/s | median line |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for game_id in args.games.split(","):
        results = []
        started = time.perf_counter()
        for seed in range(args.deals):
            results.append(solve(game_id, seed=seed, budget_s=args.budget))
        spent = time.perf_counter() - started
        won = sum(r.verdict == "won" for r in results)
        lost = sum(r.verdict == "lost" for r in results)
        unknown = len(results) - won - lost
        times = sorted(r.seconds for r in results)
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        nodes = sum(r.nodes for r in results)
        lines = [len(r.line) for r in results if r.line]
        print(
            f"| `{game_id}` | {won} | {lost} | {unknown} | "
            f"{100 * (won + lost) / len(results):.0f}% | {statistics.median(times):.3f} | "
            f"{p95:.3f} | {times[-1]:.3f} | {nodes / spent:,.0f} | "
            f"{statistics.median(lines) if lines else '-'} |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
