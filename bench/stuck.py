"""The stuck check's benchmark: what one check costs in CPU, over many positions of a
game, against its budget (``server.solver.stuck.MAX_SECONDS``). Prints a Markdown table
for ``docs/performance.md``.

    .venv/bin/python bench/stuck.py [--games blockade] [--seeds 30] [--moves 400]

Positions: seeds 0..N-1 of each game, each played by random legal moves (at most
``--moves`` of them); every position on the way where no legal move plainly gets the
game on (``Game.plain_progress`` False, when the server asks for a check) is checked as
a worker runs it (``server.app.domain.stuck.verdict``: the view as the server encodes
it, decoded, rebuilt, searched), timing the CPU it took (``time.process_time``).
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
from server.app.domain.stuck import verdict
from server.app.domain.views import ViewEncoder
from server.engine import new_game
from server.solver.stuck import MAX_POSITIONS, MAX_SECONDS


def checks(game_id: str, seeds: int, most_moves: int) -> list[tuple[float, str, int, int]]:
    """(CPU seconds, why, seed, moves played) of every check along the playouts."""
    out = []
    for seed in range(seeds):
        game = new_game(game_id, seed=seed)
        pick = random.Random(seed)
        while game.status == "playing" and game.moves < most_moves:
            legal = game.legal_moves()
            if not legal:
                break
            if not game.plain_progress():
                data = ViewEncoder(game).encode_bytes()
                started = time.process_time()
                found = verdict(data)
                out.append((time.process_time() - started, found.why, seed, game.moves))
            game.play(pick.choice(legal))
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="blockade")
    parser.add_argument("--seeds", type=int, default=30)
    parser.add_argument("--moves", type=int, default=400, help="most moves a playout")
    args = parser.parse_args()
    print(
        f"stuck checks along random playouts, seeds 0..{args.seeds - 1}, budget "
        f"{MAX_SECONDS:g} s and {MAX_POSITIONS:,} positions, engine {native.status()['mode']}"
    )
    print()
    print(
        "| game | checks | CPU ms median | CPU ms p99 | CPU s max | the three slowest (s) "
        "| over budget | verdicts |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for game_id in args.games.split(","):
        found = checks(game_id, args.seeds, args.moves)
        if not found:
            print(f"| `{game_id}` | 0 | | | | | | |")
            continue
        cpu = [spent for spent, *_ in found]
        slowest = sorted(found, reverse=True)[:3]
        whys = Counter(why for _, why, *_ in found)
        over = sum(spent > MAX_SECONDS for spent in cpu)
        print(
            f"| `{game_id}` | {len(found):,} | {1000 * statistics.median(cpu):.1f} | "
            f"{1000 * percentile(cpu, 0.99):.0f} | {max(cpu):.3f} | "
            + ", ".join(f"{s:.3f} (seed {seed}, move {moves})" for s, _, seed, moves in slowest)
            + f" | {over} | "
            + ", ".join(f"{why} {n:,}" for why, n in whys.most_common())
            + " |",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
