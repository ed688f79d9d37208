"""The garden games' hooks (Babette, The Labyrinth, The Blockade in rows of ten): their
dominance agrees with the plain search on small endgames built by hand, and a few deals
are decided.

An endgame: some of each suit's cards already home (the foundations at random heights),
the rest shuffled into a few columns of the garden, with gaps, and the stock. Small enough
for the plain search to finish, crowded enough (few columns, many rows) that both verdicts
occur.
"""

from __future__ import annotations

import random

import pytest

from server.engine import Game, Move
from server.engine.cards import CODE
from server.engine.games.babette import Babette
from server.engine.games.blockade import BlockadeTen
from server.engine.games.grid import GridGame
from server.engine.games.labyrinth import Labyrinth
from server.solver import Hooks, solve
from server.solver.hooks import hooks_for
from server.solver.search import LOST, UNKNOWN, WON, search

GAMES: dict[str, type[GridGame]] = {
    "babette": Babette,
    "labyrinth": Labyrinth,
    "blockade-ten": BlockadeTen,
}


def _foundations(
    cls: type[GridGame], rng: random.Random, suits: int
) -> tuple[dict[str, str], list[int]]:
    """Foundations at random heights for the first ``suits`` suits, the others complete,
    and the cards not on them."""
    piles: dict[str, str] = {}
    rest: list[int] = []
    for s, suit in enumerate("cdhs"):
        if cls is BlockadeTen:
            while True:  # four piles from their aces and kings, no rank home three times
                ups = [rng.randint(1, 12) for _ in range(2)]
                downs = [rng.randint(1, 12) for _ in range(2)]
                if s >= suits:
                    downs = [13 - h for h in ups]
                home = [
                    sum(h >= r for h in ups) + sum(h >= 14 - r for h in downs) for r in range(14)
                ]
                if max(home[1:]) <= 2:
                    break
            for k in range(2):
                piles[f"u{suit}{k + 1}"] = " ".join(CODE[13 * s + r] for r in range(ups[k]))
                piles[f"d{suit}{k + 1}"] = " ".join(CODE[13 * s + 12 - r] for r in range(downs[k]))
            rest += [13 * s + r - 1 for r in range(1, 14) for _ in range(2 - home[r])]
        else:
            low = 1 if cls is Labyrinth else 0  # The Labyrinth's aces and kings start home
            up, down = (rng.randint(low, 13), rng.randint(low, 13)) if s < suits else (13, 13)
            piles[f"u{suit}"] = " ".join(CODE[13 * s + r] for r in range(up))
            piles[f"d{suit}"] = " ".join(CODE[13 * s + 12 - r] for r in range(down))
            rest += [13 * s + r for r in range(up, 13)] + [13 * s + r for r in range(13 - down)]
    return piles, rest


def endgame(
    cls: type[GridGame], rng: random.Random, cards: int, columns: int, suits: int = 4
) -> Game:
    """A position with about ``cards`` cards of ``suits`` suits out of the foundations,
    the garden's in its first ``columns`` columns."""
    while True:
        piles, rest = _foundations(cls, rng, suits)
        if cards - 4 <= len(rest) <= cards:
            break
    rng.shuffle(rest)
    w = cls.WIDTH
    garden = rest[rng.randint(0, min(len(rest) // 2, w)) :]
    rows = 0
    while garden and rows < cls.MAX_ROWS - 3:  # room for the stock to be dealt
        for c in range(columns):
            if garden and rng.random() < 0.9:
                piles[cls.cell_label(rows * w + c)] = CODE[garden.pop()]
        rows += 1
    # the stock: the cards not laid out (its last card is dealt first)
    laid = set(piles)
    stock = [CODE[c] for c in rest]
    for label in laid:
        if label in cls.LABELS and cls.LABELS[label] < cls.CELLS:
            stock.remove(piles[label])
    if stock:
        piles["s"] = " ".join(stock)
    counters = {"rows": max(rows, 1)}
    if cls is Babette:
        counters["redeals"] = rng.randint(0, 2)
    elif cls is Labyrinth:
        counters["grace"] = rng.randint(0, 1)
    return cls.from_layout(piles, counters)


#: per game, each a batch: endgames tried, cards out, columns used, suits not complete
CASES = {
    "babette": [(80, 26, 3, 4), (150, 24, 3, 2)],
    "labyrinth": [(60, 30, 4, 4), (150, 24, 3, 2)],
    "blockade-ten": [(80, 34, 3, 4), (200, 20, 2, 1)],
}


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_dominance_agrees_with_the_plain_search(game_id: str) -> None:
    assert game_id == hooks_for(game_id).NAME

    class Counting(type(hooks_for(game_id))):  # type: ignore[misc]
        """The game's hooks, counting the positions where the dominance chose alone."""

        chosen_alone = 0

        def expand(self, game: Game) -> list[Move]:
            moves: list[Move] = super().expand(game)
            self.chosen_alone += len(moves) == 1 < len(game.legal_moves())
            return moves

    hooks = Counting()
    rng = random.Random(game_id)
    verdicts = {WON: 0, LOST: 0}
    for count, cards, columns, suits in CASES[game_id]:
        for _ in range(count):
            game = endgame(GAMES[game_id], rng, cards, columns, suits)
            plain = search(game, Hooks(), max_nodes=20_000)
            if plain.verdict == UNKNOWN:
                continue
            hooked = search(game, hooks)
            assert hooked.verdict == plain.verdict, game.text()
            verdicts[plain.verdict] += 1
    assert min(verdicts.values()) >= 10, verdicts
    assert hooks.chosen_alone >= 100, hooks.chosen_alone  # the dominance was put to the test


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_few_deals_are_won(game_id: str) -> None:
    for seed in (0, 2, 3):
        result = solve(game_id, seed=seed, budget_s=None, max_nodes=5_000)
        assert result.verdict == WON and result.checked, (seed, result)
        assert result.hooks == game_id
