"""Deals driven to their largest board, for the browser's fit-the-screen test: for each
game a seed and a line of moves, found with the engine, after which the board is as tall
as this search could make it (the most garden rows, the longest fans). The lines are kept
in ``largest.json`` beside this file, for the search takes a while; run
``python -m tests.web.largest`` to search again (after a rules change that breaks a line).

The size is the board's height in card heights as the browser lays it out before it
compresses anything: a row is as tall as its tallest pile, a pile fanned down one card
and a quarter more for each card past the first, an empty grid row a fifth of a card.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

from server.engine import GAMES, Game, new_game

LINES = Path(__file__).with_name("largest.json")
#: a fanned card shows this much of itself, in card heights (board.js's natural step)
STEP = 0.28
#: an empty grid row, in card heights
GAP_ROW = 0.2


def size(view: dict[str, Any]) -> float:
    """The board's natural height, in card heights."""
    rows: dict[int, float] = {}
    for p in view["piles"]:
        shown = len(p["cards"]) or (1 if p["down"] else 0)
        tall = 1 + (STEP * (shown - 1) if p["fan"] == "down" and shown > 1 else 0)
        rows[p["y"]] = max(rows.get(p["y"], 0.0), tall)
    return sum(rows.get(y, GAP_ROW) for y in range(max(rows) + 1))


def playout(game: Game, rng: random.Random, depth: int) -> tuple[float, list[str]]:
    """Play at random, mostly keeping cards off the foundations and mostly taking the
    move that makes the board tallest; the tallest board met and the line to it."""
    best, at = size(game.view()), 0
    played: list[str] = []
    for _ in range(depth):
        if game.status != "playing":
            break
        legal = [m for m in game.legal_moves() if not game.goes_home(m)] or game.legal_moves()
        if not legal:
            break
        if rng.random() < 0.3:
            scored = []
            for move in legal:
                trial = game.copy()
                trial.play(move)
                scored.append((size(trial.view()), rng.random(), move))
            move = max(scored)[2]
        else:
            move = rng.choice(legal)
        game.play(move)
        played.append(str(move))
        now = size(game.view())
        if now > best:
            best, at = now, len(played)
    return best, played[:at]


def search(game_id: str, seeds: range, playouts: int, depth: int = 300) -> dict[str, Any]:
    rng = random.Random(game_id)
    found: dict[str, Any] = {"size": 0.0, "seed": 0, "moves": []}
    for seed in seeds:
        for _ in range(playouts):
            best, line = playout(new_game(game_id, seed=seed), rng, depth)
            if best > found["size"]:
                found = {"size": round(best, 2), "seed": seed, "moves": line}
    return found


def lines() -> dict[str, dict[str, Any]]:
    kept: dict[str, dict[str, Any]] = json.loads(LINES.read_text())
    return kept


if __name__ == "__main__":
    wanted = sys.argv[1:] or list(GAMES)
    kept = lines() if LINES.exists() else {}
    for game_id in wanted:
        kept[game_id] = search(game_id, range(1, 5), 6)
        print(game_id, kept[game_id]["size"], len(kept[game_id]["moves"]), flush=True)
    LINES.write_text(json.dumps(kept, indent=1) + "\n")
