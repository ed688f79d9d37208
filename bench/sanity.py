"""Random-playout sanity table: does every game end, and is any game won by chance alone
(or never)? Prints the Markdown table kept in ``docs/games/README.md``.

    .venv/bin/python bench/sanity.py [--seeds 1000] [--games gate,nestor]

Two random players, on seeds 0..N-1 (player randomness seeded by the deal seed):

- *uniform*: each turn a legal move chosen uniformly at random;
- *deal last*: the same, but ``deal``, ``redeal`` and ``reserve`` only when nothing else
  is legal (closer to how a person plays).

Neither ever returns to a position it has already been in during that game (it picks
among the other moves, and ends the game as stuck when every move would go back): some
games allow moves that undo each other (a pile moved into a vacancy and back), so
without this a random player can go round in circles for ever. With it every playout
ends, since positions are finite; but where runs can be shuffled among many cells (The
Wedge) the walk can be very long, so a playout also stops at ``CAP`` moves ("capped").
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.engine import GAMES, Game, Move, new_game

STOCK_MOVES = {"deal", "redeal", "reserve"}
CAP = 2000


def choose(game: Game, legal: list[Move], rng: random.Random, seen: set[object]) -> bool:
    """Play a random move of ``legal`` that leads somewhere new; False if none does."""
    order = list(legal)
    rng.shuffle(order)
    for move in order:
        game.play(move)
        key = game.key()
        if key not in seen:
            seen.add(key)
            return True
        game.pop()
    return False


def playout(game_id: str, seed: int, deal_last: bool) -> tuple[str, int]:
    """(how it ended: won/lost/cycle/capped, moves played)."""
    rng = random.Random(seed)
    game = new_game(game_id, seed=seed)
    seen: set[object] = {game.key()}
    while True:
        if game.moves >= CAP:
            return "capped", game.moves
        legal = game.legal_moves()
        if not legal:
            return game.status, game.moves
        if deal_last:
            other = [m for m in legal if m.text not in STOCK_MOVES]
            if other and choose(game, other, rng, seen):
                continue
            stock = [m for m in legal if m.text in STOCK_MOVES]
            if stock and choose(game, stock, rng, seen):
                continue
            return "cycle", game.moves
        if not choose(game, legal, rng, seen):
            return "cycle", game.moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=1000)
    parser.add_argument("--games", default=",".join(GAMES))
    args = parser.parse_args()
    print(f"Seeds 0..{args.seeds - 1}, per game and player.\n")
    print(
        "| game | uniform: won | median moves | longest | stuck by repetition | capped "
        "| deal last: won | median moves | longest | stuck by repetition | capped |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for game_id in args.games.split(","):
        start = time.perf_counter()
        cells = []
        for deal_last in (False, True):
            results = [playout(game_id, seed, deal_last) for seed in range(args.seeds)]
            won = sum(end == "won" for end, _ in results) / len(results)
            cycles = sum(end == "cycle" for end, _ in results) / len(results)
            capped = sum(end == "capped" for end, _ in results) / len(results)
            lengths = [n for _, n in results]
            cells += [
                f"{won:.1%}",
                f"{statistics.median(lengths):.0f}",
                str(max(lengths)),
                f"{cycles:.1%}",
                f"{capped:.1%}",
            ]
        print(f"| `{game_id}` | " + " | ".join(cells) + " |", flush=True)
        print(f"{game_id}: {time.perf_counter() - start:.1f}s", file=sys.stderr)


if __name__ == "__main__":
    main()
