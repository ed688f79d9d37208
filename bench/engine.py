"""Engine micro-benchmarks: random playouts per second, and median microseconds of
``legal_moves()`` (computed afresh, as after every move) and of ``play()`` + ``pop()``.

    .venv/bin/python bench/engine.py [--seconds S] [--games gate,nestor] [--json]

A random playout plays uniformly random legal moves from a seeded deal until the game
ends or 1,000 moves have been played (a pile moved back and forth between two of The
Wedge's vacancies can go round in circles for ever). ``pop`` is ``undo`` without the check
that refuses to go back past a deal; a solver uses it, and it costs the same.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server import native
from server.engine import GAMES, new_game

CAP = 1000


def playouts(game_id: str, seconds: float) -> tuple[float, float, float]:
    """(playouts/s, moves/s, share won) over ``seconds`` of random playouts."""
    rng = random.Random(1)
    n = moves = won = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = new_game(game_id, seed=rng.getrandbits(64))
        for _ in range(CAP):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(legal[rng.randrange(len(legal))])
            moves += 1
        won += game.status == "won"
        n += 1
    elapsed = time.perf_counter() - start
    return n / elapsed, moves / elapsed, won / n


def micro(game_id: str, samples: int) -> tuple[float, float, float, float]:
    """Median µs of a fresh ``legal_moves()``, of ``play()`` + ``pop()``, of ``view()``
    and of ``snapshot()``."""
    rng = random.Random(2)
    gen: list[int] = []
    play_undo: list[int] = []
    views: list[int] = []
    snaps: list[int] = []
    clock = time.perf_counter_ns
    while len(play_undo) < samples:
        game = new_game(game_id, seed=rng.getrandbits(64))
        for _ in range(200):
            game._legal = None  # as after a move: the list is built afresh
            t0 = clock()
            legal = game.legal_moves()
            gen.append(clock() - t0)
            if not legal:
                break
            move = legal[rng.randrange(len(legal))]
            t0 = clock()
            game.play(move)
            game.pop()
            play_undo.append(clock() - t0)
            game.play(move)
            t0 = clock()
            game.view()
            views.append(clock() - t0)
            t0 = clock()
            game.snapshot()
            snaps.append(clock() - t0)
    gen_us, play_us, view_us, snap_us = (
        statistics.median(x) / 1000 for x in (gen, play_undo, views, snaps)
    )
    return gen_us, play_us, view_us, snap_us


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="playout time per game")
    parser.add_argument("--samples", type=int, default=20000, help="timed calls per game")
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated game ids")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    rows = []
    for game_id in args.games.split(","):
        per_s, moves_s, won = playouts(game_id, args.seconds)
        gen_us, play_us, view_us, snap_us = micro(game_id, args.samples)
        rows.append(
            {
                "game": game_id,
                "playouts_per_s": round(per_s, 1),
                "moves_per_s": round(moves_s),
                "random_wins": round(won, 3),
                "legal_moves_us": round(gen_us, 2),
                "play_undo_us": round(play_us, 2),
                "view_us": round(view_us, 1),
                "snapshot_us": round(snap_us, 1),
            }
        )
    if args.json:
        mode = native.status()["mode"]
        print(
            json.dumps(
                {"python": platform.python_version(), "engine": mode, "rows": rows}, indent=2
            )
        )
        return
    print(
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"the engine {native.status()['mode']}"
    )
    head = (
        "game",
        "playouts/s",
        "moves/s",
        "random wins",
        "legal_moves µs",
        "play+undo µs",
        "view µs",
        "snapshot µs",
    )
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for r in rows:
        print(
            f"| {r['game']} | {r['playouts_per_s']:.1f} | {r['moves_per_s']:,} | "
            f"{r['random_wins']:.1%} | {r['legal_moves_us']:.2f} | {r['play_undo_us']:.2f} | "
            f"{r['view_us']:.1f} | {r['snapshot_us']:.1f} |"
        )


if __name__ == "__main__":
    main()
