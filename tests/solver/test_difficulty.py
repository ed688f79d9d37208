"""The difficulty of a deal (``server.solver.difficulty``): its figures the same every
time for the same deal, every winning line it counts checked through the engine, the
randomized searches trying exactly the moves the game's hooks would, the board-only
player playing legal moves from the view to the game's end, and bad input refused."""

from __future__ import annotations

import random

import msgpack
import pytest

from server.engine import GAMES, Game, Move, new_game
from server.solver import CertificateError, Hooks, hooks_for
from server.solver import difficulty as df


def test_the_same_deal_gets_the_same_figures() -> None:
    first = df.grade_deal("nestor", 12)
    again = df.grade_deal("nestor", 12)
    assert {k: v for k, v in first.items() if k != "seconds"} == {
        k: v for k, v in again.items() if k != "seconds"
    }
    assert first["tries"] == df.TRIES and first["searches"] == df.SEARCHES
    assert first["grade"] == df.grade("nestor", first["ease"])
    # plain data: what a worker process hands back and Redis keeps
    assert msgpack.unpackb(msgpack.packb(first)) == first
    assert df.board_tries("gate", 5) == df.board_tries("gate", 5)


def test_the_board_only_player_plays_legal_moves_to_the_end() -> None:
    for game_id in ("gate", "doubles-and-quits", "wedge"):
        found = df.board_play(game_id, 3, 0, df.RUNGS[0])
        assert found["home"] <= found["total"] and 0 < found["moves"] <= df.MAX_MOVES
        assert found["won"] == (found["home"] == found["total"])
    # a try that is won scores 1; one lost, its share of the cards home, less
    scores = df.board_tries("doubles-and-quits", 3)
    assert len(scores) == df.TRIES
    assert all(s == 1.0 or 0 <= s <= df.LOSS_WEIGHT for s in scores)


def test_a_line_the_search_calls_winning_is_checked_before_it_counts() -> None:
    class Faulty(Hooks):
        """Plays a move of its own behind the search's back: the line recorded misses it."""

        def expand(self, game: Game) -> list[Move]:
            legal = game.legal_moves()
            if game.moves == 0 and legal:
                game.play(legal[0])
            return game.legal_moves()

    assert df.solver_lines("gate", 0, 0, hooks=Hooks())
    with pytest.raises(CertificateError, match="gate: move"):
        df.solver_lines("gate", 0, 0, hooks=Faulty())


@pytest.mark.parametrize("game_id", list(GAMES))
def test_the_randomized_searches_try_the_moves_the_hooks_would(game_id: str) -> None:
    """Shuffled, never more nor fewer: a dominance's one move stays alone (the search's
    ``lost`` keeps its meaning), along a random playout."""
    inner = hooks_for(game_id)
    shuffled = df.randomized(inner, random.Random(1))
    game = new_game(game_id, seed=4)
    pick = random.Random(2)
    orders = set()
    many = False
    for _ in range(60):
        expected = [m.text for m in inner.expand(game)]
        got = [m.text for m in shuffled.expand(game)]
        assert sorted(got) == sorted(expected)
        orders.add(got == expected)
        many = many or len(expected) > 2
        assert shuffled.key(game) == inner.key(game)
        legal = game.legal_moves()
        if not legal:
            break
        game.play(pick.choice(legal))
    inner.order = 0
    assert not many or False in orders  # (where there was a choice, it was shuffled)


def test_searches_differ_and_each_is_reproducible() -> None:
    # a Wedge deal one of whose searches does not win in its positions, the others do
    results = [df.solver_lines("wedge", 10, n) for n in range(df.SEARCHES)]
    assert set(results) == {True, False}
    assert results == [df.solver_lines("wedge", 10, n) for n in range(df.SEARCHES)]


def test_the_grades_run_from_easy_to_expert_in_every_game() -> None:
    for game_id in GAMES:
        easy, medium, hard = df.THRESHOLDS[game_id]
        assert 1.0 >= easy > medium > hard > 0.0, game_id
        assert df.grade(game_id, 1.0) == "easy"
        assert df.grade(game_id, 0.0) == "expert"
        grades = [df.grade(game_id, n / 100) for n in range(101)]
        assert grades == sorted(grades, key=df.GRADES.index, reverse=True)
        assert set(grades) == set(df.GRADES)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("nosuch", 1), "no such game: 'nosuch'"),
        (("gate", -1), "a seed is 0 to 2\\*\\*64 - 1, not -1"),
        (("gate", 2**64), "a seed is 0 to 2\\*\\*64 - 1"),
        (("gate", 1, 0), "at least one search, not 0"),
    ],
)
def test_bad_input_is_refused(args: tuple[object, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        df.grade_deal(*args)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="no such game"):
        df.grade("nosuch", 0.5)


def test_the_cards_home_are_the_mean_of_the_tries() -> None:
    """``home_pct``: the board-only player's cards home, as a percentage of the deal's, on
    average over its tries (a won try 100), from the tries themselves. What tells apart
    deals of a game whose tries all lose (Light and Shade): a deal graded easy there is
    one whose tries came nearest."""
    found = df.grade_deal("light-and-shade", 4, searches=1)
    nodes = [n for n in df.RUNGS for _ in range(df.TRIES_PER_RUNG)]
    tries = [df.board_play("light-and-shade", 4, k, n) for k, n in enumerate(nodes)]
    shares = [1.0 if t["won"] else t["home"] / t["total"] for t in tries]
    assert found["home_pct"] == round(100 * sum(shares) / len(shares))
    assert 0 < found["home_pct"] < 100 and found["board_wins"] == sum(t["won"] for t in tries)
