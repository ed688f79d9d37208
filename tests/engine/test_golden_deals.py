"""Deals are a promise: these (game, seed) layouts change only with a game's rules.

A failure here means the shuffle, a game's deal order, its rules or its notation changed.
The shuffle and the order in which a game deals the shuffled cards are never changed:
old replays and daily results name deals by seed (a new deal algorithm is a new
``DEAL_VERSION``). A rules change may change what a deal looks like (an ace put out at
once, a foundation named anew): it bumps the game class's ``rules_version`` and updates
that game's blocks of the golden file in the same change, and nothing else's. To
regenerate the file when adding a game:
``python -m tests.engine.test_golden_deals > tests/engine/golden_deals.txt``; for one
game, replace its four blocks with :func:`render` of each seed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from server.engine import GAMES, Game, new_game
from server.engine.cards import CODE

GOLDEN = Path(__file__).with_name("golden_deals.txt")
SEEDS = (0, 1, 42, 2**64 - 1)


def render(game: Game) -> str:
    """The layout, the hidden piles in the order they will be dealt, and the legal moves."""
    lines = [game.text()]
    for i in sorted(game.HIDDEN):
        order = " ".join(CODE[c] for c in reversed(game.p[i]))
        lines.append(f"{game.PILES[i].label} order {order}")
    lines.append("legal " + " ".join(m.text for m in game.legal_moves()))
    return "\n".join(lines)


def render_all(game_ids: list[str]) -> str:
    parts = []
    for game_id in game_ids:
        for seed in SEEDS:
            parts.append(f"== {game_id} {seed}\n{render(new_game(game_id, seed=seed))}\n")
    return "\n".join(parts)


def pinned() -> dict[str, str]:
    blocks = {}
    for block in GOLDEN.read_text().split("\n== ")[0:]:
        head, _, body = block.removeprefix("== ").partition("\n")
        blocks[head] = body.strip("\n")
    return blocks


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_deals_are_pinned(game_id: str) -> None:
    blocks = pinned()
    for seed in SEEDS:
        key = f"{game_id} {seed}"
        assert key in blocks, f"no golden deal for {key}: add the game to golden_deals.txt"
        assert render(new_game(game_id, seed=seed)) == blocks[key], key


if __name__ == "__main__":
    print(render_all(sorted(GAMES)), end="")
