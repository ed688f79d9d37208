"""The difficulty of daily deals: how long grading takes (one game's deal, and a day's
ten), and what the measurements and grades are, per game (``server.solver.difficulty``).

    .venv/bin/python bench/difficulty.py [--days 50] [--jobs 1] [--games gate,...]
                                         [--budget 5] [--out FILE] [--thresholds]

For each game and each of ``--days`` days from 2026-12-01 (a fixed secret), the day's
deal is picked as the server picks it (the first candidate the solver proves winnable
within ``--budget`` s: ``first_winnable``; the first candidate when none is), then graded
as the server's worker grades it (``grade_deal``). Each deal's figures go to ``--out`` as
a JSON line (a run stopped part way resumes there). The tables: per game, the time to
grade (median, worst; the board-only player's and the searches' shares), the board-only
player's wins and the searches' wins (their distributions over the deals), the grades
given; and a day's ten games graded one after another (median, worst), over the days
every game has. With ``--thresholds``, per game the thresholds that would split the
measured figures into grades nearest a quarter each.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server.app.domain.daily import candidate_seed, next_day  # noqa: E402
from server.engine import GAMES  # noqa: E402
from server.solver import difficulty as df  # noqa: E402
from server.solver.certify import first_winnable  # noqa: E402

SECRET = b"bench-secret"
FIRST_DAY = "2026-12-01"
CANDIDATES = 20


def one(game_id: str, day: str, budget: float) -> dict[str, Any]:
    """Pick the day's deal as the certifier does, and grade it (timing each part)."""
    seeds = [candidate_seed(SECRET, day, game_id, n) for n in range(CANDIDATES)]
    found = first_winnable(game_id, seeds, budget)
    seed = seeds[0] if found is None else int(found["seed"])
    started = time.process_time()
    tries = df.board_tries(game_id, seed)
    board_s = time.process_time() - started
    lines = sum(df.solver_lines(game_id, seed, n) for n in range(df.SEARCHES))
    lines_s = time.process_time() - started - board_s
    figure = df.ease(tries, lines, df.SEARCHES)
    board = sum(1 for t in tries if t == 1.0)
    return {
        "game": game_id,
        "day": day,
        "seed": seed,
        "certified": found is not None,
        "board_wins": board,
        "tries": tries,
        "line_wins": lines,
        "ease": figure,
        "grade": df.grade(game_id, figure),
        "board_s": round(board_s, 3),
        "lines_s": round(lines_s, 3),
        "version": df.VERSION,
    }


def spread(values: list[int], most: int) -> str:
    """How many deals had each count 0..most: ``0:3 1:5 ...``."""
    counts = Counter(values)
    return " ".join(f"{n}:{counts[n]}" for n in range(most + 1) if counts[n])


def cuts(figures: list[float]) -> tuple[float, float, float]:
    """Thresholds (easy, medium, hard: each the least figure of its grade) splitting
    ``figures`` into four grades as near a quarter each as their ties allow: of every
    three distinct values, the three whose grades' sizes are nearest a quarter (least
    sum of squares; the higher cuts first among equals). Each grade gets at least one
    deal where there are four distinct values."""
    # (rounded: the same figure summed in another order differs in its last bits)
    ordered = sorted((round(f, 6) for f in figures), reverse=True)
    values = sorted(set(ordered), reverse=True)
    quarter = len(ordered) / 4
    best: tuple[float, tuple[float, float, float]] | None = None
    for a in range(len(values)):
        for b in range(a + 1, len(values)):
            for c in range(b + 1, len(values)):
                cut = (values[a], values[b], values[c])
                sizes = [
                    sum(1 for f in ordered if f >= cut[0]),
                    sum(1 for f in ordered if cut[0] > f >= cut[1]),
                    sum(1 for f in ordered if cut[1] > f >= cut[2]),
                    sum(1 for f in ordered if f < cut[2]),
                ]
                if min(sizes) == 0:
                    continue
                spread = sum((n - quarter) ** 2 for n in sizes)
                if best is None or spread < best[0]:
                    best = (spread, cut)
    if best is None:
        raise ValueError("fewer than four distinct figures: no four grades")
    # each cut moved down to a round figure halfway to the next lower value: the same
    # split of these deals, and a deal between two measured ones falls to the nearer
    found = []
    for least in best[1]:
        lower = max((v for v in values if v < least), default=0.0)
        middle = round((least + lower) / 2, 3)
        found.append(middle if lower < middle <= least else (least + lower) / 2)
    return found[0], found[1], found[2]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=50)
    parser.add_argument("--budget", type=float, default=5.0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--thresholds", action="store_true")
    args = parser.parse_args()
    games = args.games.split(",")
    days = [FIRST_DAY]
    while len(days) < args.days:
        days.append(next_day(days[-1]))
    done: dict[tuple[str, str], dict[str, Any]] = {}
    if args.out is not None and args.out.exists():
        for line in args.out.read_text().splitlines():
            row = json.loads(line)
            if row.get("version") == df.VERSION:
                done[(row["game"], row["day"])] = row
    todo = [(g, day) for g in games for day in days if (g, day) not in done]
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(one, g, day, args.budget) for g, day in todo]
        for future in futures:
            row = future.result()
            done[(row["game"], row["day"])] = row
            if args.out is not None:
                with args.out.open("a") as out:
                    out.write(json.dumps(row) + "\n")
    print(
        f"{args.days} days a game from {FIRST_DAY}, {df.TRIES} tries of the board-only player"
        f" (hints of {'/'.join(map(str, df.RUNGS))} positions), {df.SEARCHES} searches of"
        f" {df.SEARCH_NODES:,} positions; CPU seconds, one process"
    )
    print()
    print(
        f"| game | deals | grade s: median | worst | board share | player wins (of {df.TRIES}) "
        f"| search wins (of {df.SEARCHES}) | easy | medium | hard | expert |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for g in games:
        rows = [done[(g, day)] for day in days if (g, day) in done]
        if not rows:
            continue
        took = [r["board_s"] + r["lines_s"] for r in rows]
        share = sum(r["board_s"] for r in rows) / max(sum(took), 1e-9)
        grades = Counter(df.grade(g, r["ease"]) for r in rows)
        print(
            f"| `{g}` | {len(rows)} | {statistics.median(took):.1f} | {max(took):.1f} "
            f"| {share:.0%} | {spread([r['board_wins'] for r in rows], df.TRIES)} "
            f"| {spread([r['line_wins'] for r in rows], df.SEARCHES)} | "
            + " | ".join(str(grades[name]) for name in df.GRADES)
            + " |"
        )
    whole = [d for d in days if all((g, d) in done for g in games)]
    if whole:
        per_day = [
            sum(done[(g, d)]["board_s"] + done[(g, d)]["lines_s"] for g in games) for d in whole
        ]
        print()
        print(
            f"a day's {len(games)} games, one after another, over {len(whole)} days: "
            f"median {statistics.median(per_day):.0f} s, worst {max(per_day):.0f} s"
        )
    if args.thresholds:
        print()
        print("| game | easy from | medium from | hard from | easy | medium | hard | expert |")
        print("|---|---|---|---|---|---|---|---|")
        for g in games:
            rows = [done[(g, day)] for day in days if (g, day) in done]
            if rows:
                figures = [r["ease"] for r in rows]
                a, b, c = cuts(figures)
                split = [
                    sum(1 for f in figures if f >= a),
                    sum(1 for f in figures if a > f >= b),
                    sum(1 for f in figures if b > f >= c),
                    sum(1 for f in figures if f < c),
                ]
                print(
                    f"| `{g}` | {a:.3f} | {b:.3f} | {c:.3f} | " + " | ".join(map(str, split)) + " |"
                )


if __name__ == "__main__":
    main()
