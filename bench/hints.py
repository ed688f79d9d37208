"""The hints' benchmark: per game, what one hint costs (CPU in the search, and the latency
a server's request sees through a worker process), and how good hints are (games played
by following them, against games played at random). Prints Markdown tables for
``docs/performance.md``.

    .venv/bin/python bench/hints.py [--positions 40] [--games gate,nestor] [--play 3]

Positions: seeds 0..N-1 of each game, each after a random number (0 to 60) of random
legal moves (taken back to before the end where they end the game), so that openings,
middle games and ends all count. Each is hinted twice:
in this process, timing the CPU the hint took (``time.process_time``; the CPU cap alone,
so that a busy machine does not hide what the search costs), and through
``server.app.workers.Workers`` as the server asks (``suggest``, the CPU and the wall
clock capped: a fork-server process, the view pickled there and the answer back),
timing the wall clock from the call to the answer, as the request handler awaits it.
The first hint through the pool (its process starting) is left out of the latency and
reported on its own. *Ended by the clock*: the hints (in this process) whose search the
CPU cap ended before its positions did, which the same view and seed may not repeat.

``--play N`` then plays N deals of each game to the end by following the hints (and the
same deals at random), at the server's budget: how much hints help (0 to skip it).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server import native
from server.app.handlers.hints import hint_seed
from server.app.workers import Workers
from server.engine import GAMES, Game, new_game
from server.solver.hints import BUDGET_S, hint, suggest


def positions(game_id: str, count: int) -> list[Game]:
    out = []
    for seed in range(count):
        game = new_game(game_id, seed=seed)
        pick = random.Random(seed)
        for _ in range(pick.randrange(61)):
            legal = game.legal_moves()
            if not legal:
                break
            game.play(pick.choice(legal))
        while game.status != "playing":
            game.pop()  # back to before the end: a hint is asked of a game in play
        out.append(game)
    return out


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def through_workers(views: list[dict[str, Any]], game_id: str) -> tuple[float, list[float]]:
    """The first hint's latency (its process starting), then every hint's, in ms."""
    workers = Workers()
    try:
        latencies = []
        first = 0.0
        for n, view in enumerate([views[0], *views]):
            started = time.perf_counter()
            await workers.run("hints", suggest, view, game_id, hint_seed(view), BUDGET_S)
            spent = 1000 * (time.perf_counter() - started)
            if n == 0:
                first = spent
            else:
                latencies.append(spent)
        return first, latencies
    finally:
        workers.close()


def cost_table(games: list[str], count: int) -> None:
    print(
        f"hints, {count} positions a game, budget {BUDGET_S * 1000:.0f} ms of CPU, "
        f"engine {native.status()['mode']}"
    )
    print()
    print(
        "| game | hints | CPU ms median | CPU ms p95 | CPU ms max | latency ms median "
        "| latency ms p95 | first (pool start) ms | positions searched | ended by the clock |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for game_id in games:
        games_at = positions(game_id, count)
        views = [g.view() for g in games_at]
        cpu = []
        nodes = []
        clocked = 0
        for view in views:
            started = time.process_time()
            found = hint(view, game_id, hint_seed(view))
            cpu.append(1000 * (time.process_time() - started))
            nodes.append(found.nodes if found else 0)
            clocked += found is not None and found.stopped != ""
        first, latency = asyncio.run(through_workers(views, game_id))
        print(
            f"| `{game_id}` | {len(views)} | {statistics.median(cpu):.1f} | "
            f"{percentile(cpu, 0.95):.1f} | {max(cpu):.1f} | {statistics.median(latency):.1f} | "
            f"{percentile(latency, 0.95):.1f} | {first:.0f} | {statistics.mean(nodes):,.0f} | "
            f"{clocked} |",
            flush=True,
        )


def play_table(games: list[str], deals: int) -> None:
    print()
    print(f"following hints to the end, {deals} deals a game (seeds 0..{deals - 1})")
    print()
    print("| game | won by hints | cards home by hints | won at random | cards home at random |")
    print("|---|---|---|---|---|")
    for game_id in games:
        hinted_won = random_won = 0
        hinted_home = random_home = 0
        for seed in range(deals):
            game = new_game(game_id, seed=seed)
            while game.status == "playing" and game.moves < 1000:
                found = hint(game.view(), game_id, hint_seed(game.view()))
                assert found is not None
                game.play(found.move)
            hinted_won += game.status == "won"
            hinted_home += game.cards_home()
            game = new_game(game_id, seed=seed)
            pick = random.Random(seed)
            while game.status == "playing" and game.moves < 1000:
                game.play(pick.choice(game.legal_moves()))
            random_won += game.status == "won"
            random_home += game.cards_home()
        total = new_game(game_id, seed=0).total
        print(
            f"| `{game_id}` | {hinted_won}/{deals} | {hinted_home / deals:.1f}/{total} | "
            f"{random_won}/{deals} | {random_home / deals:.1f}/{total} |",
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--play", type=int, default=3, help="deals a game played by hints")
    args = parser.parse_args()
    games = args.games.split(",")
    cost_table(games, args.positions)
    if args.play:
        play_table(games, args.play)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
