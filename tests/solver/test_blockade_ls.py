"""The Blockade's and Light and Shade's hooks against the plain search: on small positions
built by hand (most cards already home), wherever the plain search reaches a verdict, the
hooks' search (its key, its safe play home, its order) must reach the same one."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from server.engine import Game
from server.engine.cards import CODE, RANK, RED
from server.engine.games.blockade import Blockade
from server.engine.games.light_and_shade import ACES, LightAndShade
from server.solver import Hooks, solve
from server.solver.games.blockade import BlockadeHooks
from server.solver.games.light_and_shade import LightAndShadeHooks
from server.solver.search import search

RANKS = "A23456789TJQK"
#: positions the plain search may enter before a case is left out as too big for it
PLAIN_NODES = 25_000


def agree(cases: list[Game], hooks: Hooks) -> Counter[str]:
    """The verdicts of the cases the plain search decides, checked against ``hooks``."""
    verdicts: Counter[str] = Counter()
    for n, game in enumerate(cases):
        plain = search(game, Hooks(), max_nodes=PLAIN_NODES)
        if plain.verdict == "unknown":
            continue
        found = search(game, hooks, max_nodes=10 * PLAIN_NODES)
        assert found.verdict == plain.verdict, f"case {n}: {plain.verdict}, hooks {found.verdict}"
        verdicts[plain.verdict] += 1
    return verdicts


# -- Light and Shade ---------------------------------------------------------------------


def light_and_shade_case(seed: int) -> Game:
    """Every foundation at its eight; of the other cards the four highest on the
    Auxiliaries, the next four on the Rivals (high cards clog them), the rest the stock."""
    rng = random.Random(seed)
    pool = [c for c in range(52) for _ in range(2) if RANK[c] != 1]
    rng.shuffle(pool)
    layout: dict[str, list[int]] = {}
    for k, ace in enumerate(ACES):
        pile = [ace]
        for r in range(2, 9):
            red = RED[ace] == (r % 2 == 1)
            card = next(c for c in pool if RANK[c] == r and RED[c] == red)
            pool.remove(card)
            pile.append(card)
        layout[f"f{k + 1}"] = pile
    pool.sort(key=lambda c: RANK[c])
    low = pool[:-8]
    rng.shuffle(low)
    pool[:-8] = low
    for label in ("a1", "a2", "a3", "a4", "r1", "r2", "r3", "r4"):
        layout[label] = [pool.pop()]
    layout["s"] = pool
    return LightAndShade.from_layout({k: " ".join(CODE[c] for c in v) for k, v in layout.items()})


def test_light_and_shade_hooks_agree_with_the_plain_search() -> None:
    verdicts = agree([light_and_shade_case(seed) for seed in range(100)], LightAndShadeHooks())
    assert verdicts["won"] >= 20 and verdicts["lost"] >= 2, verdicts


def test_light_and_shade_safe_home() -> None:
    game = LightAndShade.from_layout(
        {"f1": "AD 2C", "f2": "AD 2S", "f3": "AH", "f4": "AH", "a1": "3H", "a2": "2S"}
    )
    card = game.p[0][-1]
    # only two of the four black twos are home: a third might still want the 3H
    assert not LightAndShadeHooks.safe_home(game, card)
    assert LightAndShadeHooks.safe_home(game, game.p[1][-1])  # a two: the aces are all home
    game = LightAndShade.from_layout(
        {"f1": "AD 2C", "f2": "AD 2S", "f3": "AH 2C", "f4": "AH 2S", "a1": "3H"}
    )
    assert LightAndShadeHooks.safe_home(game, game.p[0][-1])
    assert [m.text for m in LightAndShadeHooks().expand(game)] == ["a1>f"]


def test_light_and_shade_key_forgets_suits_and_places() -> None:
    hooks = LightAndShadeHooks()
    one = LightAndShade.from_layout({"a1": "9H 8S", "a2": "5D", "r1": "7C", "t": "4H", "s": "3C"})
    two = LightAndShade.from_layout({"a3": "9D 8C", "a1": "5H", "r4": "7S", "t": "4D", "s": "3C"})
    other = LightAndShade.from_layout({"a1": "9H 8S", "a2": "5D", "r1": "7C", "t": "4S"})
    assert hooks.key(one) == hooks.key(two) != hooks.key(other)


# -- The Blockade ------------------------------------------------------------------------


def blockade_case(seed: int, stock: int) -> Game:
    """Foundations at random heights from 9; the other cards one to a cell of two rows
    (the first row full, the second as far as they go), the last ``stock`` of them in the
    stock."""
    rng = random.Random(seed)
    layout: dict[str, str] = {}
    rest: list[str] = []
    for suit in "CDHS":
        for k in (1, 2):
            height = rng.randint(9, 13)
            layout[f"f{suit.lower()}{k}"] = " ".join(RANKS[r] + suit for r in range(height))
            rest += [RANKS[r] + suit for r in range(height, 13)]
    rng.shuffle(rest)
    stocked, rest = rest[:stock], rest[stock:]
    lower = list(range(12, 24))
    rng.shuffle(lower)
    for cell, card in zip([*range(12), *lower], rest, strict=False):
        layout[Blockade.cell_label(cell)] = card
    layout["s"] = " ".join(stocked)
    return Blockade.from_layout(layout, {"rows": 2})


@pytest.mark.parametrize("stock", [0, 4])
def test_blockade_hooks_agree_with_the_plain_search(stock: int) -> None:
    verdicts = agree([blockade_case(seed, stock) for seed in range(25)], BlockadeHooks())
    assert verdicts["won"] >= 20, verdicts


def test_blockade_safe_home() -> None:
    layout = {f"{c}1": "KS" for c in "abcdefghijkl"}
    layout.update(a2="6H 5H", b2="5H", c2="5C", fh1="AH 2H 3H 4H", fh2="AH 2H 3H 4H")
    layout.update(fc1="AC 2C 3C 4C", fc2="AC 2C 3C", s="9D")
    game = Blockade.from_layout(layout, {"rows": 2})
    a2, b2, c2 = (Blockade.LABELS[x] for x in ("a2", "b2", "c2"))
    assert BlockadeHooks.safe_home(game, a2)  # both fours home, and the 6H stays behind
    assert not BlockadeHooks.safe_home(game, b2)  # alone: its gap would take the 9D
    assert not BlockadeHooks.safe_home(game, c2)  # a 4C is out: it might want the 5C
    assert [m.text for m in BlockadeHooks().expand(game)] == ["a2>f"]


def test_blockade_key_sorts_the_columns_once_the_stock_is_out() -> None:
    hooks = BlockadeHooks()
    one = Blockade.from_layout({"a1": "9H", "b1": "7S", "b2": "5C"}, {"rows": 2})
    two = Blockade.from_layout({"a1": "7S", "a2": "5C", "l1": "9H"}, {"rows": 2})
    assert hooks.key(one) == hooks.key(two)
    one.p[Blockade.STOCK].append(3)
    two.p[Blockade.STOCK].append(3)
    assert hooks.key(one) != hooks.key(two)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_blockade_deals_are_won(seed: int) -> None:
    result = solve("blockade", seed=seed, budget_s=None, max_nodes=20_000)
    assert result.verdict == "won" and result.checked
    assert result.hooks == BlockadeHooks.NAME
