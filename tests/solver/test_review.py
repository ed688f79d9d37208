"""Reviews of finished games (``server/solver/review.py``): where a lost game was lost,
checked against searches of the tests' own, and a won game's par and detours."""

from __future__ import annotations

import random

import pytest

from server.engine import Game, new_game
from server.solver import LOST, WON, Hooks, check_line, solve
from server.solver.review import (
    BETWEEN,
    DEAL_LOST,
    LOST_AT,
    STILL_WINNABLE,
    UNDECIDED,
    over_par,
    where_lost,
    without_detours,
)
from server.solver.search import search


def random_loss(game_id: str, seed: int, cap: int = 400) -> list[str] | None:
    """A line of random legal moves from the deal that ends lost, or None."""
    game = new_game(game_id, seed=seed)
    rnd = random.Random(seed)
    line: list[str] = []
    while game.status == "playing" and len(line) < cap:
        move = rnd.choice(game.legal_moves())
        game.play(move)
        line.append(move.text)
    return line if game.status == LOST else None


def position(game_id: str, seed: int, line: list[str]) -> Game:
    game = new_game(game_id, seed=seed)
    for move in line:
        game.play(move)
    return game


def plain_verdict(game: Game) -> str:
    """The plain search's verdict (no game's knowledge, no dominance): the tests'
    independent check."""
    return search(game, Hooks(), budget_s=30).verdict


@pytest.mark.parametrize("game_id", ["nestor", "doubles-and-quits"])
def test_the_last_winnable_position_is_winnable_and_the_next_is_lost(game_id: str) -> None:
    kinds = set()
    for seed in range(1, 40):
        line = random_loss(game_id, seed)
        if line is None:
            continue
        found = where_lost(game_id, seed, line, budget_s=10)
        kinds.add(found["found"])
        # the pairing games are decided exhaustively: never unknown
        assert found["found"] in (LOST_AT, DEAL_LOST), found
        assert plain_verdict(new_game(game_id, seed=seed)) == found["deal"]
        if found["found"] == DEAL_LOST:
            assert found["at"] is None and found["lost_by"] == 0
            continue
        at = found["at"]
        assert found["played"] == line[at] and found["better"] != line[at]
        assert found["continuation"][0] == found["better"]
        check_line(game_id, line[:at] + found["continuation"], seed=seed)
        assert plain_verdict(position(game_id, seed, line[:at])) == WON
        assert plain_verdict(position(game_id, seed, line[: at + 1])) == LOST
        assert found["lost_by"] == at + 1
    assert kinds == {LOST_AT, DEAL_LOST}


def test_winnability_is_monotone_along_a_line() -> None:
    """Every position of a few lost lines solved: won up to a point, lost after it,
    and the review's point is that one."""
    for seed in (1, 3, 9, 13):
        line = random_loss("nestor", seed)
        assert line is not None
        verdicts = [plain_verdict(position("nestor", seed, line[:k])) for k in range(len(line) + 1)]
        last = max(k for k, v in enumerate(verdicts) if v == WON)
        assert verdicts == [WON] * (last + 1) + [LOST] * (len(line) - last)
        assert where_lost("nestor", seed, line, budget_s=10)["at"] == last


@pytest.mark.parametrize("game_id", ["wedge", "gate-narrow", "blockade-ten", "labyrinth"])
def test_every_continuation_shown_wins(game_id: str) -> None:
    for seed in (1, 2, 3):
        line = random_loss(game_id, seed)
        if line is None:
            continue
        found = where_lost(game_id, seed, line, budget_s=3)
        assert found["found"] in (LOST_AT, BETWEEN, DEAL_LOST, UNDECIDED)
        if found["at"] is not None:
            check_line(game_id, line[: found["at"]] + found["continuation"], seed=seed)
            assert found["deal"] == WON, found
        if found["found"] == LOST_AT:
            assert found["lost_by"] == found["at"] + 1


def test_a_game_given_up_while_it_could_be_won() -> None:
    line = random_loss("nestor", 1)
    assert line is not None
    found = where_lost("nestor", 1, line[:3], budget_s=5)
    assert found["found"] == STILL_WINNABLE and found["at"] == 3
    assert found["played"] is None and found["lost_by"] is None
    # the line played and the continuation win from the deal: the deal is won (it was
    # "unknown", its own position never searched once the end was found winnable)
    assert found["deal"] == WON
    check_line("nestor", line[:3] + found["continuation"], seed=1)


def test_what_the_budget_leaves_undecided_is_said_so() -> None:
    """Light and Shade within a tiny budget: what is claimed is checked, and nothing
    is called lost that was not proved."""
    line = random_loss("light-and-shade", 1)
    assert line is not None
    found = where_lost("light-and-shade", 1, line, budget_s=0.05)
    assert found["found"] in (BETWEEN, UNDECIDED, LOST_AT)
    if found["found"] == UNDECIDED:
        assert found["at"] is None and found["continuation"] is None
    else:
        check_line("light-and-shade", line[: found["at"]] + found["continuation"], seed=1)
    if found["found"] == LOST_AT:  # only with the next position proved lost
        assert found["lost_by"] == found["at"] + 1


def test_a_known_winning_line_saves_the_deals_solve() -> None:
    line = random_loss("nestor", 1)
    assert line is not None
    book = solve("nestor", seed=1).line
    alone = where_lost("nestor", 1, line, budget_s=5)
    helped = where_lost("nestor", 1, line, budget_s=5, known=book)
    assert helped["at"] == alone["at"] and helped["solves"] < alone["solves"]


def test_detours_are_cut_and_the_longest_reported() -> None:
    won = solve("blockade", seed=1, budget_s=30)
    assert won.verdict == WON
    line = [*won.line[:9], "j1>l2", "l2>j1", *won.line[9:]]
    direct, detour = without_detours("blockade", 1, line)
    assert direct == won.line and detour == {"from": 10, "moves": 2}
    assert without_detours("blockade", 1, won.line) == (won.line, None)
    found = over_par("blockade", 1, line, budget_s=1)
    assert found["detour"] == detour and found["par_from"] == "found"
    assert found["over"] == len(line) - found["par"] >= 2
    check_line("blockade", found["par_line"], seed=1)
    # a daily's book line gives par: no search
    book = over_par("blockade", 1, line, budget_s=1, par=150, shortest=False)
    assert (book["par"], book["over"], book["par_from"], book["par_line"]) == (
        150,
        len(line) - 150,
        "book",
        None,
    )


def test_the_pairing_games_par_is_proved() -> None:
    won = solve("doubles-and-quits", seed=3)
    assert won.verdict == WON
    found = over_par("doubles-and-quits", 3, won.line, budget_s=5)
    assert (found["par"], found["over"], found["shortest"]) == (26, 0, True)
