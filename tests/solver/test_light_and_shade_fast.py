"""Light and Shade's beam on a compact position (:mod:`server.solver.games.light_and_shade_fast`)
is the generic beam with the game's hooks, faster: the same moves in the same order, the
same keys and scores, the same positions after each move, and so the same verdicts, lines
and counts of positions, deal for deal."""

from __future__ import annotations

import random
from typing import Any

import pytest

from server.engine import Game, new_game
from server.solver import Hooks, portfolio, solve
from server.solver.beam import beam
from server.solver.games import light_and_shade_fast as fast
from server.solver.games.light_and_shade import HOOKS, LightAndShadeHooks
from server.solver.search import Outcome
from tests.solver.test_light_and_shade_dead import case, near_the_end


def agree_along(game: Game, rng: random.Random, steps: int = 400) -> int:
    """Play ``game`` at random (the hooks' moves; the deal, last of them, one time in five
    when there is a choice, so that games go deep), checking at every position that the
    compact one has the hooks' moves, key and score (and, at every fourth, their dead
    test: near the end it costs tens of milliseconds), and that each move
    offered leads to the compact position of the engine's after it. Returns the
    positions checked."""
    state, stock = fast.state_of(game)
    checked = 0
    for _ in range(steps):
        moves = HOOKS.expand(game)
        offered = fast.expand(state)
        assert [fast.TEXT[m] for m in offered] == [m.text for m in moves]
        assert fast.key(state) == HOOKS.key(game)
        assert fast.score(state) == HOOKS.score(game)
        if checked % 4 == 0:  # (the count with the stock's order costs 30 ms a position)
            assert fast.dead(state, stock) == HOOKS.dead(game)
        for move, code in zip(moves, offered, strict=True):
            game.play(move)
            assert fast.play(state, code, stock) == fast.state_of(game)[0], move.text
            game.pop()
        checked += 1
        if not moves:
            break
        k = len(moves) - 1
        if k and rng.random() < 0.8:
            k = rng.randrange(k)
        game.play(moves[k])
        state = fast.play(state, offered[k], stock)
    return checked


def test_the_compact_position_follows_the_engine() -> None:
    """Random games from real deals and from endgames built at random (the dead test's
    cases), every position checked."""
    checked = 0
    for seed in range(12):
        checked += agree_along(new_game("light-and-shade", seed=seed), random.Random(seed))
        checked += agree_along(case(seed), random.Random(seed))
    assert checked > 2_000


def test_the_compact_dead_test_agrees_near_the_end() -> None:
    dead_ones, alive = near_the_end()
    assert dead_ones and alive
    for game in dead_ones + alive:
        state, stock = fast.state_of(game)
        assert fast.dead(state, stock) == HOOKS.dead(game)


def same(a: Outcome, b: Outcome) -> bool:
    return (a.verdict, a.line, a.nodes, a.why) == (b.verdict, b.line, b.nodes, b.why)


@pytest.mark.parametrize("seed", [0, 2, 4])
def test_the_same_beam_on_real_deals(seed: int) -> None:
    """Won or not, the same line after the same number of positions."""
    game = new_game("light-and-shade", seed=seed)
    assert same(fast.beam(game, 64), beam(game, HOOKS, 64))
    assert same(fast.beam(game, 16, max_nodes=5_000), beam(game, HOOKS, 16, max_nodes=5_000))


def test_the_same_beam_on_endgames() -> None:
    """Endgames built at random and positions near the end of real deals, beams of
    widths 8 and 1: the same verdicts, lines and counts, ``lost`` among them (a pass that
    dropped only dead positions, some of them dropped by the dead test)."""
    dead_ones, alive = near_the_end()
    verdicts: list[str] = []
    for game in [case(seed) for seed in range(30)] + dead_ones[:10] + alive[:10]:
        for width in (8, 1):
            mine, theirs = fast.beam(game, width), beam(game, HOOKS, width)
            assert same(mine, theirs)
            verdicts.append(mine.verdict)
    assert {"won", "lost"} <= set(verdicts), verdicts


def test_a_solve_runs_it_and_its_line_wins() -> None:
    """``solve`` takes the compact beam for the game's hooks (its line replayed through
    the engine, as every line is); a subclass that changes the search gets the generic
    beam."""
    assert isinstance(HOOKS.own_beam(new_game("light-and-shade", seed=0), 16, None, 10), Outcome)

    class Other(LightAndShadeHooks):
        def score(self, game: Game) -> float:
            return float(game.cards_home())

    assert Other().own_beam(new_game("light-and-shade", seed=0), 16, None, 10) is None
    assert Hooks().own_beam(new_game("light-and-shade", seed=0), 16, None, 10) is None
    result = solve("light-and-shade", seed=0, budget_s=30)
    assert result.verdict == "won" and result.checked


def test_the_portfolio_calls_the_compact_beam(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []

    def counted(game: Game, width: int, *args: Any) -> Outcome:
        calls.append(width)
        return Outcome("unknown", nodes=400, why="nodes")

    monkeypatch.setattr(fast, "beam", counted)
    portfolio.run(new_game("light-and-shade", seed=6), HOOKS, max_nodes=1_000)
    assert calls == [64, 256, 1024]


def test_a_solve_proves_deal_130_lost() -> None:
    """Deal 130 is lost, and the beams prove it: the second (width 256) drops only
    positions the dead test proves lost, the count of the Rivals among them, within
    about 6,000 positions (with the lock proof alone, 94,515)."""
    result = solve("light-and-shade", seed=130, budget_s=None, max_nodes=20_000)
    assert result.verdict == "lost"
