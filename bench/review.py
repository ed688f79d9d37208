"""The reviews' benchmark: per game, how long a finished game's review takes
(``server.solver.review``, as the server's ``review`` pool runs it, at its budget) and
what it finds. Prints a Markdown table for ``docs/performance.md``.

    .venv/bin/python bench/review.py [--lost 3] [--won 2] [--games gate,nestor] [--budget 10]

Lost games: seeds 1..N of each game played by random legal moves to their end (at most
600 moves; a game that does not end so is resigned there), reviewed for where they were
lost. Won games: seeds 1..M whose deal the solver wins within 10 s, its winning line played
as the player's (the first line depth first or the beam finds: long, as a player's often
is), reviewed for its moves over par (A* from the deal, bounded by the line). The time is
the wall clock of the whole review in this process (one at a time: ``--jobs`` is 1), as a
worker process of the pool spends it; ``found`` counts what each review said.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server import native
from server.app.handlers.review import BUDGET_S
from server.engine import GAMES, new_game
from server.solver import WON, solve
from server.solver.review import review

#: the longest random game played before it is resigned
CAP = 600


def random_game(game_id: str, seed: int) -> list[str]:
    """A game of random legal moves from the deal of ``seed``, to its end (or :data:`CAP`)."""
    game = new_game(game_id, seed=seed)
    pick = random.Random(seed)
    line: list[str] = []
    while game.status == "playing" and len(line) < CAP:
        move = pick.choice(game.legal_moves())
        game.play(move)
        line.append(move.text)
    return line


def row(game_id: str, kind: str, seconds: list[float], found: Counter[str]) -> str:
    if not seconds:
        return f"| {game_id} | {kind} | 0 | | | |"
    said = ", ".join(f"{what} {n}" for what, n in sorted(found.items()))
    return (
        f"| {game_id} | {kind} | {len(seconds)} | {statistics.median(seconds):.2f} | "
        f"{max(seconds):.2f} | {said} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lost", type=int, default=3, help="random lost games a game")
    parser.add_argument("--won", type=int, default=2, help="won games a game")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated rules ids")
    parser.add_argument("--budget", type=float, default=BUDGET_S, help="seconds a review")
    args = parser.parse_args(argv)
    print(f"native: {native.status()}; budget {args.budget:g} s a review", file=sys.stderr)
    print("| game | reviewed | games | p50 s | max s | found |")
    print("|---|---|---|---|---|---|")
    for game_id in args.games.split(","):
        seconds: list[float] = []
        found: Counter[str] = Counter()
        for seed in range(1, args.lost + 1):
            line = random_game(game_id, seed)
            game = new_game(game_id, seed=seed)
            for move in line:
                game.play(move)
            won = game.status == WON
            started = time.perf_counter()
            said = review(game_id, seed, line, won, args.budget)
            seconds.append(time.perf_counter() - started)
            found[said.get("found", "over_par")] += 1
        print(row(game_id, "random play", seconds, found), flush=True)
        seconds, found = [], Counter()
        seed = 0
        while len(seconds) < args.won and seed < 10 * args.won:
            seed += 1
            won_line = solve(game_id, seed=seed, budget_s=10)
            if won_line.verdict != WON:
                continue
            started = time.perf_counter()
            said = review(game_id, seed, won_line.line, True, args.budget)
            seconds.append(time.perf_counter() - started)
            over = said["over"]
            found["proved" if said["shortest"] else "found"] += 1
            found[f"over {over}"] += 1
        print(row(game_id, "won (solver's line)", seconds, found), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
