"""The pairing games against searches written here from the rules alone: the solver's
verdict must agree, deal after deal (the deal itself is the engine's, read off its piles)."""

from __future__ import annotations

from functools import cache

import pytest

from server.engine import new_game
from server.engine.cards import RANK
from server.solver import solve

SEEDS = range(300)


def doubles_winnable(seed: int) -> bool:
    """Doubles and Quits: pairs of equal rank touching in a 4x5 grid; when none is left the
    cards close up in order and the stock fills the end."""
    game = new_game("doubles-and-quits", seed=seed)
    grid = tuple(RANK[game.p[i][0]] for i in range(20))
    stock = tuple(RANK[c] for c in reversed(game.p[20]))  # the next card first

    def touching(i: int, j: int) -> bool:
        return abs(i // 5 - j // 5) <= 1 and abs(i % 5 - j % 5) <= 1

    def pairs(cells: tuple[int, ...]) -> list[tuple[int, int]]:
        return [
            (i, j)
            for i in range(20)
            for j in range(i + 1, 20)
            if cells[i] and cells[i] == cells[j] and touching(i, j)
        ]

    @cache
    def wins(cells: tuple[int, ...], dealt: int) -> bool:
        if not any(cells) and dealt == len(stock):
            return True
        for i, j in pairs(cells):
            after = list(cells)
            after[i] = after[j] = 0
            rest = tuple(after)
            if not pairs(rest):
                left = [c for c in rest if c]
                more = stock[dealt : dealt + 20 - len(left)]
                rest = tuple(left + list(more) + [0] * (20 - len(left) - len(more)))
                if wins(rest, dealt + len(more)):
                    return True
            elif wins(rest, dealt):
                return True
        return False

    return wins(grid, 0)


def nestor_winnable(seed: int) -> bool:
    """Nestor: pair equal ranks among the columns' lowest cards and the turned reserve
    cards; turn the next reserve card only when no pair is left."""
    game = new_game("nestor", seed=seed)
    columns = tuple(tuple(RANK[c] for c in game.p[i]) for i in range(8))
    reserve = tuple(RANK[c] for c in reversed(game.p[8]))  # turned first, first

    @cache
    def wins(cols: tuple[tuple[int, ...], ...], turned: tuple[int, ...], used: int) -> bool:
        if not any(cols) and not turned and used == len(reserve):
            return True
        free = [("c", i, col[-1]) for i, col in enumerate(cols) if col]
        free += [("r", i, rank) for i, rank in enumerate(turned)]
        found = False
        for n, (ka, ia, ra) in enumerate(free):
            for kb, ib, rb in free[n + 1 :]:
                if ra != rb:
                    continue
                found = True
                new_cols = list(cols)
                new_turned = list(turned)
                gone = []
                for kind, i in ((ka, ia), (kb, ib)):
                    if kind == "c":
                        new_cols[i] = new_cols[i][:-1]
                    else:
                        gone.append(i)
                for i in sorted(gone, reverse=True):
                    del new_turned[i]
                if wins(tuple(new_cols), tuple(sorted(new_turned)), used):
                    return True
        if not found and used < len(reserve):
            return wins(cols, tuple(sorted((*turned, reserve[used]))), used + 1)
        return False

    return wins(columns, (), 0)


@pytest.mark.parametrize(
    ("game_id", "by_hand"), [("doubles-and-quits", doubles_winnable), ("nestor", nestor_winnable)]
)
def test_verdicts_agree_with_a_search_written_from_the_rules(game_id: str, by_hand: object) -> None:
    assert callable(by_hand)
    verdicts = {}
    for seed in SEEDS:
        result = solve(game_id, seed=seed, budget_s=None)
        assert result.verdict in ("won", "lost"), (seed, result)
        assert (result.verdict == "won") == by_hand(seed), seed
        verdicts[seed] = result.verdict
    # both answers occur, so agreeing is not agreeing on a constant
    assert {"won", "lost"} <= set(verdicts.values())
