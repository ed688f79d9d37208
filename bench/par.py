"""Pars proved shortest: per game, over daily-like deals, how many of the certifier's
searches for par (``server.solver.certify.shortest_line``, as the server's worker runs
it, with its budget) prove the book line the shortest.

    .venv/bin/python bench/par.py [--days 20] [--budget 10] [--jobs 1]
                                  [--games gate,nestor,...] [--out FILE] [--lines FILE]

For each game and each of ``--days`` days from 2026-11-24 (a fixed secret), the day's
deal is fixed as the server fixes it (``first_winnable`` over its candidates, 10 s each),
and then its par searched for with ``--budget`` seconds, bounded by the line that
certified it. The table gives, per game, the deals certified, the pars proved shortest
(and their share), the median par and first line, and the median and worst seconds of
the search for par. ``--out`` writes one JSON line a deal (with the certifying line), and
``--lines`` reads such a file back to skip ``first_winnable``: so a change to the bounds
can be measured before and after on the same deals and lines.
"""

from __future__ import annotations

import argparse
import json
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
from server.solver.certify import first_winnable, shortest_line  # noqa: E402

SECRET = b"bench-secret"
#: the certifier's own: seconds a candidate gets, and how many candidates a day has
CANDIDATE_BUDGET = 10.0
CANDIDATES = 20


def one(game_id: str, day: str, budget: float, known: dict[str, Any] | None) -> dict[str, Any]:
    """The day's deal fixed (or read from ``known``), then its search for par."""
    if known is None:
        seeds = [candidate_seed(SECRET, day, game_id, n) for n in range(CANDIDATES)]
        known = first_winnable(game_id, seeds, CANDIDATE_BUDGET)
    out: dict[str, Any] = {"game": game_id, "day": day, "certified": known is not None}
    if known is None:
        return out
    started = time.process_time()
    found = shortest_line(game_id, known["seed"], list(known["line"]), budget)
    return {
        **out,
        "seed": known["seed"],
        "line": list(known["line"]),
        "first": len(known["line"]),
        "par": found["par"],
        "shortest": found["shortest"],
        "seconds": found["seconds"],
        "cpu": round(time.process_time() - started, 3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=20)
    parser.add_argument("--budget", type=float, default=10.0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--out", type=Path, help="write a JSON line a deal here")
    parser.add_argument("--lines", type=Path, help="deals and lines from an --out file")
    args = parser.parse_args()
    games = args.games.split(",")
    days = ["2026-11-24"]
    while len(days) < args.days:
        days.append(next_day(days[-1]))
    known: dict[tuple[str, str], dict[str, Any] | None] = {}
    if args.lines:
        for text in args.lines.read_text().splitlines():
            row = json.loads(text)
            known[row["game"], row["day"]] = row if row["certified"] else None
    out = args.out.open("w") if args.out else None
    print(
        f"{args.days} days a game, {args.budget:g} s for each par, {args.jobs} processes",
        flush=True,
    )
    print(
        "| game | certified | proved shortest | share | median par | median first line "
        "| median s | worst s |"
    )
    print("|---|---|---|---|---|---|---|---|", flush=True)
    with ProcessPoolExecutor(args.jobs) as pool:
        for game in games:  # a row a game, as soon as its days are done
            futures = []
            for day in days:
                if args.lines and known.get((game, day), {}) is None:
                    continue  # not certified then either
                futures.append(pool.submit(one, game, day, args.budget, known.get((game, day))))
            rows = [f.result() for f in futures]
            if out is not None:
                for row in rows:
                    out.write(json.dumps(row) + "\n")
                out.flush()
            done = [r for r in rows if r["certified"]]
            proved = sum(r["shortest"] for r in done)
            seconds = [r["seconds"] for r in done] or [0.0]
            print(
                f"| `{game}` | {len(done)}/{len(days)} | {proved} "
                f"| {proved / len(done) if done else 0:.0%} "
                f"| {statistics.median(r['par'] for r in done) if done else '-'} "
                f"| {statistics.median(r['first'] for r in done) if done else '-'} "
                f"| {statistics.median(seconds):.2f} | {max(seconds):.2f} |",
                flush=True,
            )
    if out is not None:
        out.close()


if __name__ == "__main__":
    main()
