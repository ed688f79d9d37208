"""Light and Shade's proof of a lost position (:mod:`server.solver.games.light_and_shade_dead`)
and the beam's use of it, checked against a search written here from the rules alone.

The search below knows nothing of the solver or its hooks: it reads the position off the
engine's piles and plays the rules of ``RULINGS.md`` ("Light and Shade") on its own
tuples, every position once, no symmetry merged. Wherever it finishes, a position the
proof calls dead must be lost, and the beam (with the proof, and its shortcut past the
deal) must reach the same verdict.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from typing import Any, ClassVar

import pytest

from server.engine import Game, Move, new_game
from server.engine.cards import CODE, RANK, RED
from server.engine.games.light_and_shade import (
    ACES,
    AUX,
    FOUNDATIONS,
    RIVALS,
    STOCK,
    TALON,
    LightAndShade,
)
from server.solver import Hooks, portfolio, solve
from server.solver.beam import beam
from server.solver.games import light_and_shade_fast
from server.solver.games.light_and_shade import DEAD_STOCK, LightAndShadeHooks
from server.solver.games.light_and_shade_dead import dead, never_home
from server.solver.search import Outcome

#: positions the search here may enter before a case is left out as too big for it
LIMIT = 60_000

Card = tuple[int, bool]  # rank, red


def _group(card: Card) -> int:
    """Which four foundations take ``card``: 0 those of the red aces (black twos, red
    threes, ...), 1 those of the black aces."""
    rank, red = card
    return 0 if red == (rank % 2 == 1) else 1


def lost_by_rules(game: Game) -> str:
    """``won`` or ``lost`` by an exhaustive search of the rules, ``unknown`` past LIMIT."""
    p = game.p

    def card(c: int) -> Card:
        return RANK[c], RED[c]

    # a red ace's pile takes the black twos, the red threes: group 0
    heights: list[list[int]] = [[], []]
    for f in FOUNDATIONS:
        heights[0 if RED[p[f][0]] else 1].append(len(p[f]))
    stock = tuple(card(c) for c in reversed(p[STOCK]))  # in the order dealt
    start = (
        tuple(tuple(card(c) for c in p[j]) for j in AUX),
        tuple(card(p[i][0]) if p[i] else None for i in RIVALS),
        tuple(card(c) for c in p[TALON]),
        0,
        (tuple(sorted(heights[0])), tuple(sorted(heights[1]))),
    )
    State = tuple[Any, ...]

    def fits_home(c: Card, h: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...] | None:
        g = _group(c)
        if c[0] - 1 not in h[g]:
            return None
        pile = list(h[g])
        pile[pile.index(c[0] - 1)] += 1
        out = list(h)
        out[g] = tuple(sorted(pile))
        return (out[0], out[1])

    def builds(c: Card, onto: tuple[Card, ...]) -> bool:
        return bool(onto) and onto[-1][0] == c[0] + 1 and onto[-1][1] != c[1]

    seen: set[State] = {start}
    todo: list[State] = [start]
    while todo:
        if len(seen) > LIMIT:
            return "unknown"
        aux, rivals, talon, dealt, h = todo.pop()
        if not any(aux) and rivals == (None,) * 4 and not talon and dealt == len(stock):
            return "won"
        nxt: list[State] = []
        for j, pile in enumerate(aux):
            if pile:
                after = fits_home(pile[-1], h)
                if after is not None:
                    a = list(aux)
                    a[j] = pile[:-1]
                    nxt.append((tuple(a), rivals, talon, dealt, after))
        for i, r in enumerate(rivals):
            if r is None:
                continue
            for j, pile in enumerate(aux):
                if not pile or builds(r, pile):
                    a, rv = list(aux), list(rivals)
                    a[j], rv[i] = (*pile, r), None
                    nxt.append((tuple(a), tuple(rv), talon, dealt, h))
        if talon:
            top = talon[-1]
            for j, pile in enumerate(aux):
                if builds(top, pile):
                    a = list(aux)
                    a[j] = (*pile, top)
                    nxt.append((tuple(a), rivals, talon[:-1], dealt, h))
            for i, r in enumerate(rivals):
                if r is None:
                    rv = list(rivals)
                    rv[i] = top
                    nxt.append((aux, tuple(rv), talon[:-1], dealt, h))
        if dealt < len(stock):
            nxt.append((aux, rivals, (*talon, stock[dealt]), dealt + 1, h))
        for state in nxt:
            if state not in seen:
                seen.add(state)
                todo.append(state)
    return "lost"


def case(seed: int) -> Game:
    """Every foundation built to a random height from 9 to 11; the cards left shuffled,
    laid one to an Auxiliary and a Rival (some left empty), then a few on the talon, the
    rest in the stock. High cards buried under low ones lock up often enough."""
    rng = random.Random(seed)
    pool = [c for c in range(52) for _ in range(2) if RANK[c] != 1]
    layout: dict[str, list[int]] = {}
    for k, ace in enumerate(ACES):
        pile = [ace]
        for r in range(2, rng.randint(9, 11) + 1):
            red = RED[ace] == (r % 2 == 1)
            card = next(c for c in pool if RANK[c] == r and RED[c] == red)
            pool.remove(card)
            pile.append(card)
        layout[f"f{k + 1}"] = pile
    rng.shuffle(pool)
    for label in ("a1", "a2", "a3", "a4", "r1", "r2", "r3", "r4"):
        if rng.random() < 0.8:
            layout[label] = [pool.pop()]
    talon = rng.randint(0, len(pool))
    layout["t"] = pool[:talon]
    layout["s"] = pool[talon:]
    return LightAndShade.from_layout({k: " ".join(CODE[c] for c in v) for k, v in layout.items()})


@functools.cache
def near_the_end() -> tuple[list[Game], list[Game]]:
    """Positions of real deals with at most 12 cards in the stock, as a narrow beam meets
    them (deals 1 and 6, which it cannot win): every tenth it finds dead, and every
    tenth it does not, at most 30 of each."""
    found: tuple[list[Game], list[Game]] = ([], [])
    seen = [0, 0]

    class Collect(LightAndShadeHooks):
        def stage_score(self, game: Game, move: Move) -> float | None:
            return None  # score every position after a deal, below

        def score(self, game: Game) -> float:
            if len(game.p[STOCK]) <= DEAD_STOCK:
                kind = 0 if dead(game) else 1
                seen[kind] += 1
                if seen[kind] % 10 == 0 and len(found[kind]) < 30:
                    found[kind].append(game.copy())
            return super().score(game)

    for seed in (1, 6):
        beam(new_game("light-and-shade", seed=seed), Collect(), 32)
    return found


def test_dead_positions_of_real_deals_are_lost_by_the_rules() -> None:
    """Near the end of real deals, every position the proof calls dead that the search
    here finishes is lost, most of them with legal moves left (a lock, not the end)."""
    dead_ones, _ = near_the_end()
    checked = Counter(lost_by_rules(game) for game in dead_ones)
    assert set(checked) <= {"lost", "unknown"}, checked
    assert checked["lost"] >= 20, checked
    assert sum(1 for game in dead_ones if game.legal_moves()) >= 20


def test_a_locked_position() -> None:
    """The red two the 3C waits for lies under a king on the talon; every Rival holds a
    king and no Auxiliary can empty for one. The QH still moves (onto a king), and no move
    gets the two out: dead, and lost by the rules. With the two on top instead, it is
    not dead (and wins)."""
    aces = {f"f{k + 1}": CODE[ace] for k, ace in enumerate(ACES)}
    kings = {"a2": "KS", "a3": "KH", "a4": "KD", "r1": "KC", "r2": "KS", "r3": "KH", "r4": "KD"}
    game = LightAndShade.from_layout(aces | kings | {"a1": "3C", "t": "2D KC QH"})
    assert [m.text for m in game.legal_moves()] == ["t>a2"]
    assert dead(game) and LightAndShadeHooks().dead(game)
    assert lost_by_rules(game) == "lost"
    free = LightAndShade.from_layout(aces | {"a1": "3C", "t": "2D"})
    assert not dead(free) and lost_by_rules(free) == "won"


def test_never_dead_along_winning_lines() -> None:
    """Every position of a real winning line, from the deal, is not dead (it can be won)."""
    lines = 0
    for seed in (0, 2, 8):  # deals the beam wins within a second or two
        result = solve("light-and-shade", seed=seed, budget_s=20)
        if result.verdict != "won":
            continue
        lines += 1
        game = new_game("light-and-shade", seed=seed)
        for move in result.line:
            assert not never_home(game), f"deal {seed} before {move}"
            game.play(move)
    assert lines == 3


def test_the_beam_agrees_with_the_rules() -> None:
    """The beam, with the proof and the shortcut past the deal, says ``lost`` only when it
    dropped nothing but dead positions; where it says anything, it agrees with the search
    here, on endgames built at random (mostly won) and on positions near the end of real
    deals (mostly lost)."""
    dead_ones, alive = near_the_end()
    found: Counter[str] = Counter()
    for n, game in enumerate([case(seed) for seed in range(40)] + dead_ones[:10] + alive):
        verdict = lost_by_rules(game)
        if verdict == "unknown":
            continue
        out = beam(game, LightAndShadeHooks(), 64, max_nodes=20_000)
        if out.verdict != "unknown":
            assert out.verdict == verdict, f"case {n}: beam {out.verdict}, rules {verdict}"
            found[verdict] += 1
    assert found["won"] >= 10 and found["lost"] >= 10, found


def test_stage_score_is_the_score_after_the_deal() -> None:
    hooks = LightAndShadeHooks()
    game = new_game("light-and-shade", seed=4)
    rng = random.Random(4)
    deal = game.parse("deal")
    for _ in range(150):
        legal = game.legal_moves()
        if deal in legal:
            told = hooks.stage_score(game, deal)
            game.play(deal)
            assert told == hooks.score(game)
            game.pop()
        if not legal:
            break
        game.play(rng.choice(legal))


def test_dead_is_asked_only_near_the_end() -> None:
    hooks = LightAndShadeHooks()
    game = new_game("light-and-shade", seed=4)
    assert len(game.p[STOCK]) > DEAD_STOCK and not hooks.dead(game)


def test_the_passes_start_wide_and_grow_fourfold(monkeypatch: pytest.MonkeyPatch) -> None:
    """Light and Shade's beam passes take widths 64, 256, 1,024, ... (``BEAM_WIDTH``,
    ``BEAM_GROWTH``); hooks that leave them alone, 16, 32, 64 (the real beam runs each;
    deal 6 is won by none of them)."""
    widths: list[int] = []

    def counted(game: Game, hooks: Hooks, width: int, **kwargs: Any) -> Outcome:
        widths.append(width)
        return beam(game, hooks, width, **kwargs)

    def own(game: Game, width: int, deadline: float | None, max_nodes: int | None) -> Outcome:
        widths.append(width)
        return light_and_shade_fast.beam(game, width, deadline, max_nodes)

    monkeypatch.setattr(portfolio, "beam", counted)
    monkeypatch.setattr(LightAndShadeHooks, "own_beam", lambda _, *args: own(*args))
    portfolio.run(new_game("light-and-shade", seed=6), LightAndShadeHooks(), max_nodes=150_000)
    assert widths[:3] == [64, 256, 1024]
    widths.clear()
    portfolio.run(new_game("light-and-shade", seed=6), Doubling(), max_nodes=40_000)
    assert widths[:3] == [16, 32, 64]


class Doubling(LightAndShadeHooks):
    BEAM_WIDTH: ClassVar[int] = Hooks.BEAM_WIDTH
    BEAM_GROWTH: ClassVar[int] = Hooks.BEAM_GROWTH
