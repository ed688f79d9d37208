"""The Gate's search knowledge (``gate`` and ``gate-narrow``): its key's symmetry, its
dominance and its order, checked against the plain search."""

from __future__ import annotations

import pytest

from server.engine.games.gate import Gate, GateNarrow
from server.solver import solve
from server.solver.games.gate import HOOKS, GateHooks
from server.solver.hooks import hooks_for

from .against_plain import dominances, verdicts


def test_both_widths_search_with_the_gates_hooks() -> None:
    assert isinstance(hooks_for("gate"), GateHooks)
    assert isinstance(hooks_for("gate-narrow"), GateHooks)
    assert solve("gate-narrow", seed=0, budget_s=None).hooks == HOOKS.NAME


def test_the_key_ignores_which_bar_cell_holds_which_pile() -> None:
    piles = {"l": "KS QH", "t1": "9S 8D", "t3": "5C", "b2": "JD", "w": "3H", "s": "4C 2D"}
    swapped = {**piles, "t1": "JD", "b2": "5C", "t3": "9S 8D"}
    moved_on = {**piles, "t3": "5C 4D"}
    key = HOOKS.key
    assert key(Gate.from_layout(piles)) == key(Gate.from_layout(swapped))
    assert key(Gate.from_layout(piles)) != key(Gate.from_layout(moved_on))
    # the posts are not interchangeable: the left one is filled first
    assert key(Gate.from_layout(piles)) != key(Gate.from_layout({**piles, "l": "", "r": "KS QH"}))


def test_a_safe_bar_top_goes_home_alone_and_no_other() -> None:
    # 2H on 3S in t1: a two, nothing is ever built on it
    game = GateNarrow.from_layout({"t1": "3S 2H", "t2": "4D", "l": "3C", "s": "5S", "fh": "AH"})
    assert [m.text for m in HOOKS.expand(game)] == ["t1>f"]
    # the same two alone in its cell: going home would make a vacancy, so no dominance
    game = GateNarrow.from_layout({"t1": "2H", "t2": "4D", "l": "3C", "s": "5S", "fh": "AH"})
    assert len(HOOKS.expand(game)) > 1
    # 3H on 4S with the black twos in play: it waits behind the builds, before the fills
    game = GateNarrow.from_layout({"t1": "4S 3H", "t2": "4D", "l": "3C", "fh": "AH 2H"})
    order = [m.text for m in HOOKS.expand(game)]
    assert order[0] == "l>t2" and order.index("t1>f") > 0 and order[-1] == "l>t3"


@pytest.mark.parametrize("game_id", ["gate", "gate-narrow"])
def test_verdicts_agree_with_the_plain_search(game_id: str) -> None:
    found = verdicts(game_id, HOOKS, range(40), moves=60, max_nodes=2_000)
    assert found["won"] and found["lost"], found


@pytest.mark.parametrize("game_id", ["gate", "gate-narrow"])
def test_no_dominance_turns_a_win_into_a_loss(game_id: str) -> None:
    found = dominances(game_id, HOOKS, range(30), moves=range(10, 60), max_nodes=2_000)
    assert found["won>won"] >= 20 and found["lost>lost"], found


@pytest.mark.parametrize(
    ("game_id", "seed"), [("gate", 0), ("gate", 7), ("gate-narrow", 0), ("gate-narrow", 33)]
)
def test_deals_are_won(game_id: str, seed: int) -> None:
    assert solve(game_id, seed=seed, budget_s=None, max_nodes=100_000).verdict == "won"
