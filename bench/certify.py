"""Certifying daily deals: how long each game's day takes to certify, and how many of
its candidates it takes (``server.solver.certify``, as the server's worker runs it).

    .venv/bin/python bench/certify.py [--days 20] [--budget 10] [--candidates 20]
                                      [--jobs 2] [--games gate,nestor,...]

For each game and each of ``--days`` days from 2026-11-24 (a fixed secret), the
candidates are tried in order as the server tries them; the table gives, per game, the
days certified, the time to certify (median, worst: the whole search, candidates that
failed included) and the candidates it took (median, most). Days with no candidate
proved winnable in the budget count as uncertified, at their full time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server.app.domain.daily import candidate_seed, next_day  # noqa: E402
from server.engine import GAMES  # noqa: E402
from server.solver.certify import certify  # noqa: E402

SECRET = b"bench-secret"


def one(game_id: str, day: str, budget: float, candidates: int) -> dict[str, Any]:
    seeds = [candidate_seed(SECRET, day, game_id, n) for n in range(candidates)]
    started = time.perf_counter()
    found = certify(game_id, seeds, budget)
    return {
        "game": game_id,
        "seconds": time.perf_counter() - started,
        "tried": found["tried"] if found else candidates,
        "certified": found is not None,
        "par": found["par"] if found else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=20)
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--candidates", type=int, default=20)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    games = args.games.split(",")
    days = ["2026-11-24"]
    while len(days) < args.days:
        days.append(next_day(days[-1]))
    print(
        f"{args.days} days a game, {args.budget:g} s a candidate, up to {args.candidates}"
        f" candidates, {args.jobs} processes",
        flush=True,
    )
    print("| game | certified | median s | worst s | candidates: median | most | median par |")
    print("|---|---|---|---|---|---|---|", flush=True)
    with ProcessPoolExecutor(args.jobs) as pool:
        for game in games:  # a row a game, as soon as its days are done
            futures = [pool.submit(one, game, day, args.budget, args.candidates) for day in days]
            mine = [f.result() for f in futures]
            seconds = [r["seconds"] for r in mine]
            tried = [r["tried"] for r in mine]
            pars = [r["par"] for r in mine if r["par"] is not None]
            print(
                f"| `{game}` | {sum(r['certified'] for r in mine)}/{len(mine)} "
                f"| {statistics.median(seconds):.2f} | {max(seconds):.2f} "
                f"| {statistics.median(tried):g} | {max(tried)} "
                f"| {statistics.median(pars) if pars else '-'} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
