"""The Wedge's search knowledge: its key's symmetry, its dominance and its order, checked
against the plain search."""

from __future__ import annotations

from server.engine.games.wedge import Wedge
from server.solver import solve
from server.solver.games.wedge import HOOKS
from server.solver.hooks import hooks_for

from .against_plain import dominances, verdicts

#: a middle row emptied but for its first cell, the Wedge in 16 and the conveyor running
_BOARD = {
    "1": "KS",
    "5": "QH JS",
    "2": "9D",
    "10": "4C",
    "16": "TH",
    "21": "8C",
    "17": "7D",
    "22": "6S 5H",
    "19": "",
    "24": "QC",
    "20": "JD",
    "s": "2C 3C",
}


def test_the_wedge_searches_with_its_hooks() -> None:
    assert hooks_for("wedge") is HOOKS
    assert solve("wedge", seed=3, budget_s=None).hooks == HOOKS.NAME


def test_the_key_ignores_which_pair_holds_which_piles() -> None:
    key = HOOKS.key
    board = Wedge.from_layout(_BOARD, {"conveyor": 1})
    # the lower pairs of columns 2 and 4 swapped: the same position
    swapped = {**_BOARD, "17": "", "22": "QC", "19": "7D", "24": "6S 5H"}
    assert key(board) == key(Wedge.from_layout(swapped, {"conveyor": 1}))
    # the upper pair of column 2 is still above a middle-row card: not in play
    upper = {**_BOARD, "2": "", "7": "9D"}
    assert key(board) != key(Wedge.from_layout(upper, {"conveyor": 1}))
    # a pair's two cells are not interchangeable
    flipped = {**_BOARD, "17": "6S 5H", "22": "7D"}
    assert key(board) != key(Wedge.from_layout(flipped, {"conveyor": 1}))
    # cells 16 and 21 join the pairs only once the conveyor has stopped
    first = {**_BOARD, "16": "", "21": "", "17": "TH", "22": "8C", "19": "7D", "24": "6S 5H"}
    first = {**first, "18": "", "23": "QC", "10": ""}
    stopped = {**first, "16": "TH", "21": "8C", "17": "", "22": ""}
    assert key(Wedge.from_layout(first)) == key(Wedge.from_layout(stopped))
    assert key(Wedge.from_layout(first, {"conveyor": 1})) != key(
        Wedge.from_layout(stopped, {"conveyor": 1})
    )


def test_a_safe_card_goes_home_alone_but_not_from_cell_21_while_the_conveyor_runs() -> None:
    # 2H on the 3S in cell 22: nothing is ever built on a two
    game = Wedge.from_layout({"22": "3S 2H", "20": "4D", "s": "5S", "fh": "AH"})
    assert [m.text for m in HOOKS.expand(game)] == ["22>f"]
    # the waste's top, too
    game = Wedge.from_layout({"20": "4D", "w": "2H", "s": "5S", "fh": "AH"})
    assert [m.text for m in HOOKS.expand(game)] == ["w>f"]
    # a lone two in 21 with the conveyor running: its going would step the conveyor
    game = Wedge.from_layout({"21": "2H", "16": "4D", "20": "5C", "s": "5S", "fh": "AH"})
    game.sc[0] = 1
    assert len(HOOKS.expand(game)) > 1
    # a 5H with a black four still in play may be wanted as a target: no dominance
    game = Wedge.from_layout({"22": "6S 5H", "20": "4C", "fh": "AH 2H 3H 4H"})
    assert len(HOOKS.expand(game)) > 1


def test_verdicts_agree_with_the_plain_search() -> None:
    found = verdicts("wedge", HOOKS, range(30), moves=100, max_nodes=1_000)
    assert found["won"] and found["lost"], found


def test_no_dominance_turns_a_win_into_a_loss() -> None:
    found = dominances("wedge", HOOKS, range(30), moves=range(40, 100), max_nodes=1_000)
    assert found["won>won"] >= 20 and found["lost>lost"], found


def test_deals_are_decided() -> None:
    # seeds 3 and 4 are lost (the plain search proves it too, in a few thousand positions)
    verdicts_found = [solve("wedge", seed=s, budget_s=None).verdict for s in range(6)]
    assert verdicts_found == ["won", "won", "won", "lost", "lost", "won"]
