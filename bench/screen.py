"""What a terminal client's screen costs to draw: every game's solo screen and race
screen at 80x24, from positions of real play, through :func:`render_screen` (with the
mouse's hit map) and :func:`ansi` (the text the terminal gets). The client redraws at
most four times a second while the clock runs (and on every change), so the figure that
matters is the share of a core that takes.

    .venv/bin/python bench/screen.py [--positions 40]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from client_cli.clicks import Hit
from client_cli.lines import ansi
from client_cli.model import Model
from client_cli.screen import render_screen
from server.engine import GAMES
from tests.client_cli.test_screen import NOW, racing, solo
from tests.client_cli.views import played

WIDTH, ROWS = 80, 23
REDRAWS_A_SECOND = 4


def _time(model: Model) -> float:
    start = time.perf_counter()
    hits: list[Hit] = []
    ansi(render_screen(model, WIDTH, ROWS, NOW, hits), WIDTH)
    return (time.perf_counter() - start) * 1000


def measure(game_id: str, positions: int) -> dict[str, Any]:
    solo_ms, race_ms = [], []
    for n in range(positions):
        game = played(game_id, seed=n + 1, moves=5 + 3 * n)
        solo_ms.append(_time(solo(game)))
        race_ms.append(_time(racing(game_id, moves=5 + 3 * n)))
    both = sorted(solo_ms + race_ms)
    return {
        "game": game_id,
        "solo": statistics.mean(solo_ms),
        "race": statistics.mean(race_ms),
        "p95": both[int(len(both) * 0.95) - 1],
        "core": statistics.mean(both) * REDRAWS_A_SECOND / 10,  # % of a core
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    args = parser.parse_args()
    print(f"{'game':<20}{'solo ms':>9}{'race ms':>9}{'p95 ms':>9}{'% core at 4/s':>15}")
    for game_id in GAMES:
        row = measure(game_id, args.positions)
        print(
            f"{row['game']:<20}{row['solo']:>9.2f}{row['race']:>9.2f}{row['p95']:>9.2f}"
            f"{row['core']:>15.2f}"
        )


if __name__ == "__main__":
    main()
