"""Hints (``server.solver.hints``): worked out from the player's view alone."""

from __future__ import annotations

import inspect
import random
import typing
from typing import Any

import pytest

from server.engine import GAMES, Game, new_game
from server.solver import hints
from server.solver.hints import hint, reason, suggest
from server.solver.hooks import hooks_for

GAME_IDS = sorted(GAMES)


def midgame(game_id: str, seed: int, steps: int) -> Game:
    """The deal of ``seed`` after ``steps`` random legal moves (fewer if it ends)."""
    game = new_game(game_id, seed=seed)
    pick = random.Random(seed)
    for _ in range(steps):
        legal = game.legal_moves()
        if not legal or game.status != "playing":
            break
        game.play(pick.choice(legal))
    return game


def two_games_one_view(game: Game, salt: int) -> tuple[Game, Game]:
    """Two positions a player cannot tell apart: the view of ``game`` with two different
    orders of its face-down cards."""
    cls = type(game)
    view = game.view()
    first = cls.unseen_cards(view)
    second = list(first)
    random.Random(salt).shuffle(first)
    shuffler = random.Random(salt + 1)
    while second == first:
        shuffler.shuffle(second)
    return cls.from_view(view, first), cls.from_view(view, second)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_same_view_gets_the_same_hint_whatever_the_hidden_order(game_id: str) -> None:
    for seed in (1, 2):
        # the latest position of a few with two face-down cards or more to tell apart
        game = next(
            g
            for g in (midgame(game_id, seed, steps) for steps in (8 * seed, 3, 0))
            if g.status == "playing" and len(set(type(g).unseen_cards(g.view()))) > 1
        )
        a, b = two_games_one_view(game, seed)
        assert a.view() == b.view()
        assert a.p != b.p, "the two hidden orders differ"
        # a node budget alone (no clock): the answer is a function of view and seed
        first = hint(a.view(), game_id, seed=5, budget_s=None, max_nodes=3000)
        second = hint(b.view(), game_id, seed=5, budget_s=None, max_nodes=3000)
        assert first is not None and first.stopped == ""  # the positions ended it
        assert first == second
        assert first.move in [m.text for m in a.legal_moves()]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_hint_is_a_legal_move_with_a_reason(game_id: str) -> None:
    for steps in (0, 15, 40):
        game = midgame(game_id, 3, steps)
        if game.status != "playing":
            continue
        found = suggest(game.view(), game_id, seed=1)
        assert found is not None
        move, why = found
        assert move in [m.text for m in game.legal_moves()]
        assert why and isinstance(why, str)
        # the smallest budget still gives a legal move
        tiny = hint(game.view(), game_id, seed=1, max_nodes=1)
        assert tiny is not None and tiny.move in [m.text for m in game.legal_moves()]


def test_no_legal_move_no_hint() -> None:
    stuck = GAMES["doubles-and-quits"].cls.from_layout({"1": "9S", "2": "8D", "x": ""})
    view = stuck.view()
    # the other 50 cards face down would not be a position of the game: make them home
    view["piles"][-1]["cards"] = [c for c in _codes(1) if c not in ("9S", "8D")]
    assert stuck.legal_moves() == []
    assert hint(view, "doubles-and-quits", seed=1) is None
    assert suggest(view, "doubles-and-quits", seed=1) is None


def _codes(packs: int) -> list[str]:
    from server.engine.cards import CODE
    from server.engine.deal import sorted_deck

    return [CODE[c] for c in sorted_deck(packs)]


def test_one_legal_move_is_the_hint() -> None:
    game = new_game("doubles-and-quits", seed=0)
    assert [m.text for m in game.legal_moves()] == ["4+5"]
    found = hint(game.view(), "doubles-and-quits", seed=1)
    assert found is not None and found.move == "4+5" and found.nodes == 0


def test_a_win_in_view_is_found_and_said() -> None:
    # the last cards of a Gate: nothing face down, so the search knows everything
    cls = GAMES["gate"].cls
    game = cls.from_layout(
        {
            "t1": "KS",
            "t2": "KH",
            "fc": " ".join(f"{r}C" for r in "A23456789TJQK"),
            "fd": " ".join(f"{r}D" for r in "A23456789TJQK"),
            "fh": " ".join(f"{r}H" for r in "A23456789TJQ"),
            "fs": " ".join(f"{r}S" for r in "A23456789TJQ"),
        }
    )
    found = hint(game.view(), "gate", seed=1)
    assert found is not None
    assert found.move in ("t1>f", "t2>f")
    assert found.reason.endswith("it leads to a win")


def test_reasons_say_what_the_player_will_see() -> None:
    def why(game: Game, text: str) -> str:
        return reason(game.view(), game, game.parse(text))

    gate = new_game("gate", seed=1)
    assert why(gate, "t1>t3") == "frees a space"
    assert why(gate, "l>t4") == "uncovers a card"
    assert why(gate, "deal") == "deals from the stock"
    doubles = new_game("doubles-and-quits", seed=0)
    assert why(doubles, "4+5") == "pairs off two 2s"
    nestor = GAMES["nestor"].cls.from_layout({"1": "9S", "reserve": "8D"})
    assert why(nestor, "reserve") == "turns up the next reserve card"
    wedge = new_game("wedge", seed=1)
    homes = [m.text for m in wedge.legal_moves() if m.text.endswith(">f")]
    for text in homes:
        assert why(wedge, text).startswith("moves a card home")


def test_a_reason_says_nothing_of_the_cards_a_move_turns_up() -> None:
    """An outside tester: in The Blockade in rows of ten a hinted ``deal`` was said to
    move a card home, which no one can know before its cards are face up (the rows of ten
    put aces and kings home by themselves). Only cards the player could see count: here
    the real position's deals do put cards home, and are said as deals all the same."""

    def why(game: Game, text: str) -> str:
        return reason(game.view(), game, game.parse(text))

    sent = 0
    for seed in range(5):
        game = new_game("blockade-ten", seed=seed)
        for _ in range(2):  # (the first two deals: each of these seeds sends one home)
            while "deal" not in [m.text for m in game.legal_moves()]:
                game.play(game.legal_moves()[0])
            home = game.view()["home"]
            said = why(game, "deal")
            game.play(game.parse("deal"))
            sent += game.view()["home"] > home
            assert "home" not in said, (seed, said)
    assert sent >= 5


def test_a_labyrinth_gap_is_no_space_freed_but_cards_made_available() -> None:
    """In The Labyrinth no gap is the player's to fill (``deal`` refills the lowest row;
    one higher up stays empty): a card home from the lowest row said "frees a space",
    which the next deal filled. A gap there makes the cards beside it available."""

    def why(game: Game, text: str) -> str:
        return reason(game.view(), game, game.parse(text))

    first = new_game("labyrinth", seed=0)
    assert first.view()["rows"] == 1
    assert why(first, "f1>u") == "moves a card home"
    later = new_game("labyrinth", seed=0)
    for _ in range(16):  # (the first legal move each time: j3>u then opens j2's card)
        later.play(later.legal_moves()[0])
    assert why(later, "j3>u") == "moves a card home and makes a card available"
    while "deal" not in [m.text for m in first.legal_moves()]:  # (once nothing goes home)
        first.play(first.legal_moves()[0])
    assert why(first, "deal") == "deals from the stock"  # (not the cards it lays)


def test_no_gap_is_a_space_freed_in_babette_nor_the_rows_of_ten() -> None:
    """An outside tester: Babette's ``b1>u`` (deal 13) and the rows of ten's ``h1>u``
    (deal 9) were said to "free a space", where no gap is ever the player's to fill
    (Babette never fills one; the rows of ten fill the lowest row's by a deal only)."""
    for game_id, seed, text in (("babette", 13, "b1>u"), ("blockade-ten", 9, "h1>u")):
        game = new_game(game_id, seed=seed)
        said = reason(game.view(), game, game.parse(text))
        assert said.startswith("moves a card home"), (game_id, said)
        assert "space" not in said, (game_id, said)


def test_hints_do_not_go_round_in_a_circle() -> None:
    """Followed for a while, hints never come back to a position (a run moved to a space
    and back is as good as a deal to a search that wins either way: a hint must still
    make progress)."""
    for seed, hints_given in ((3, 40), (2, 60)):  # they went round from hints 26 and 53
        follow(new_game("blockade", seed=seed), hints_given)


def follow(game: Game, hints_given: int) -> None:
    seen = set()
    for n in range(hints_given):
        if game.status != "playing":
            break
        key = (tuple(map(tuple, game.p)), tuple(game.sc))
        assert key not in seen, f"back at a position after {n} hints"
        seen.add(key)
        found = hint(game.view(), "blockade", seed=n, budget_s=None, max_nodes=2000)
        assert found is not None
        game.play(found.move)


def test_the_worker_task_takes_and_gives_plain_data_only() -> None:
    """What a server hands the worker is a view and plain values: no parameter can take
    a game."""
    hinted = typing.get_type_hints(suggest)
    assert hinted == {
        "view": dict[str, Any],
        "game_id": str,
        "seed": int,
        "budget_s": float | None,
        "max_nodes": int | None,
        "return": tuple[str, str] | None,
    }
    assert list(inspect.signature(suggest).parameters) == [
        "view",
        "game_id",
        "seed",
        "budget_s",
        "max_nodes",
    ]


def test_a_game_is_not_a_view() -> None:
    game = new_game("gate", seed=1)
    with pytest.raises((TypeError, AttributeError, KeyError)):
        suggest(game, "gate", seed=1)  # type: ignore[arg-type]


def test_a_view_of_another_game_is_refused() -> None:
    with pytest.raises(ValueError, match="not a view of nestor"):
        suggest(new_game("gate", seed=1).view(), "nestor", seed=1)
    with pytest.raises(ValueError, match="no such game"):
        suggest(new_game("gate", seed=1).view(), "snap", seed=1)


def test_the_budget_is_the_documented_one() -> None:
    assert hints.BUDGET_S == 0.2
    game = midgame("blockade", 2, 30)
    found = hint(game.view(), "blockade", seed=1, max_nodes=10**9)
    # the CPU cap stops a search with no node bound, and the hint says so
    assert found is not None and found.stopped == "cpu" and found.nodes < 10**9


def many_moves(game_id: str, most: int) -> Game:
    """A position of ``game_id`` in play where the search tries ``most`` moves or more
    (no dominance picks one), from the positions of random play of its first deals."""
    hooks = hooks_for(game_id)
    for seed in range(40):
        for steps in range(0, 120, 5):
            game = midgame(game_id, seed, steps)
            if game.status == "playing" and len(hooks.expand(game)) >= most:
                return game
    raise AssertionError(f"no {game_id} position with {most} legal moves")


def test_the_clock_stops_a_search_of_many_moves_each_given_few_positions() -> None:
    """Each move of a sample gets its share of the positions: with many moves, a few
    each. The clock is looked at as the positions pass, over the whole search, so a
    budget that its positions would outrun many times over still ends it (it was looked
    at only every 64 positions of one move: a Blockade hint took 513 ms of CPU)."""
    game = many_moves("blockade", 40)
    moves = len(hooks_for("blockade").expand(game))
    # 60 positions a move in every sample (one sample when nothing is face down): the
    # old look every 64 never came
    orders = hints.SAMPLES if len(set(type(game).unseen_cards(game.view()))) > 1 else 1
    max_nodes = orders * moves * 60
    found = hint(game.view(), "blockade", seed=1, budget_s=0.001, max_nodes=max_nodes)
    assert found is not None
    assert found.nodes < max_nodes // 10
    assert found.stopped == "cpu"
    assert found.move in [m.text for m in game.legal_moves()] and found.reason


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_hint_out_of_time_is_still_a_legal_move_with_a_reason(game_id: str) -> None:
    """However soon the clock ends the search (before the first move is searched, in
    the first sample, or while choosing), the answer is a legal move with a reason, and
    the hint says which clock ended it."""
    for steps in (0, 20, 45):
        game = midgame(game_id, 4, steps)
        if game.status != "playing" or len(game.legal_moves()) < 2:
            continue
        legal = [m.text for m in game.legal_moves()]
        for budget_s, wall_s, clock in ((1e-9, None, "cpu"), (None, 1e-9, "wall")):
            found = hint(game.view(), game_id, seed=2, budget_s=budget_s, wall_s=wall_s)
            assert found is not None
            assert found.move in legal and found.reason
            assert found.stopped == clock
        # the worker's task: its budget caps the CPU and the wall clock
        found_task = suggest(game.view(), game_id, seed=2, budget_s=1e-9)
        assert found_task is not None and found_task[0] in legal and found_task[1]


class SpentAfter(hints._Clock):
    """A clock whose search share ends at its ``looks``-th look, whatever the time."""

    def __init__(self, looks: int) -> None:
        super().__init__(None, None)
        self.looks = looks

    def search_over(self) -> bool:
        self.looks -= 1
        if self.looks < 0:
            self.stopped = "cpu"
        return self.looks < 0


def test_a_first_sample_cut_short_counts_as_one_guess() -> None:
    """When the clock ends the search inside its first sample, the moves searched so far
    are all it has, from one guess at the face-down cards: a win among them was said to
    be "a win in 1 of 0 guesses" (a Wedge hint on a loaded phone's server)."""
    game = new_game("wedge", seed=1)
    assert len(set(type(game).unseen_cards(game.view()))) > 1
    said = set()
    for looks in range(1, 400, 7):
        found = hint(game.view(), "wedge", seed=1, budget_s=None, clock=SpentAfter(looks))
        assert found is not None and found.stopped == "cpu"
        assert found.wins <= found.samples, (looks, found)
        assert " of 0 " not in found.reason, (looks, found.reason)
        said.add(found.reason.split("; ")[-1])
    assert "a win in 1 of 1 guesses" in said, said


@pytest.mark.parametrize("game_id", ["blockade", "gate"])
def test_a_hint_the_positions_ended_says_no_clock_did(game_id: str) -> None:
    game = midgame(game_id, 2, 10)
    found = hint(game.view(), game_id, seed=3, budget_s=None, max_nodes=500)
    assert found is not None and found.stopped == ""
    assert found.nodes <= 500 + len(game.legal_moves()) * hints.SAMPLES


#: a Labyrinth position the solver's dead test calls lost while moves are left (its
#: hooks offer nothing to search): seed 1, reached by a random playout
DEAD_LABYRINTH = (
    "deal c2>d j2>d d2>d i2>d deal j2>d i2>d f1>d c2>d deal deal a3>d deal deal j4>u e4>u "
    "h4>d h3>u d4>d f2>u c4>u deal d4>u deal deal j5>d e5>d deal e5>u j1>u h1>u b5>u d1>u "
    "d2>u i1>u h5>u deal deal b6>u e6>u c1>u c6>u i6>u a1>u f6>u deal deal g7>d c7>u e7>d "
    "b7>d h2>d h7>d c2>d j2>d i2>d g1>d d3>d g6>d h6>d i3>u i4>u i5>u"
)


def test_a_position_the_hooks_call_dead_still_gets_a_legal_hint() -> None:
    """Every sample of a dead position is skipped (its hooks offer no move to search):
    the hint is then the first legal move, not an IndexError (the daily grader's
    board-only player met one, and a player asking for a hint there would have)."""
    game = new_game("labyrinth", seed=1)
    for move in DEAD_LABYRINTH.split():
        game.play(move)
    hooks = hooks_for("labyrinth")
    assert game.legal_moves() and not hooks.expand(game)
    found = hint(game.view(), "labyrinth", 0)
    assert found is not None and found.move in [m.text for m in game.legal_moves()]
    assert found.reason


#: a Labyrinth of seed 7 at the grace: the stock out, nothing face down, nothing to play,
#: 72 cards home; lost whichever card is taken (the dead test proves it)
GRACE_LABYRINTH = (
    "b1>u h1>d deal b1>u c1>u deal b1>u deal deal f2>d i2>u e2>u deal f2>d deal f2>u d1>u "
    "i1>u f1>u i2>u deal deal d3>d a1>d f3>d h3>u b1>u deal d3>u f3>u deal f3>u d2>u g3>u "
    "b3>u b2>u deal b3>u f3>u c1>u e1>u i2>u h1>u deal deal a4>u c4>d c3>d e4>u j1>u f4>u "
    "a2>u e2>u j2>u g4>d f2>d g1>d deal f4>u j3>u f3>u a3>u deal deal a5>u c4>u a4>u b5>d "
    "e5>u i3>u g5>d deal deal b6>d c6>u h6>d f4>d deal b6>d a5>d c5>d deal deal a7>u h6>u"
)


def home_after(game: Game, move: str) -> int:
    """The cards home after ``move`` and every play home after it, the first each time."""
    after = game.copy()
    after.play(move)
    while after.status == "playing" and after.home_moves():
        after.play(after.home_moves()[0])
    return after.cards_home()


def test_a_lost_position_hints_the_move_that_gets_the_most_cards_home() -> None:
    """An outside tester: at The Labyrinth's grace, in a position lost whatever card is
    taken, the hint named one that freed nothing (72 home and over) where four others
    took 27 more cards home. The dead test had left nothing to search, and the first
    legal move was given; "else the one that gets the most cards home" (protocol.md)."""
    game = new_game("labyrinth", seed=7)
    for move in GRACE_LABYRINTH.split():
        game.play(move)
    assert game.cards_home() == 72 and not hooks_for("labyrinth").expand(game)
    most = max(home_after(game, m.text) for m in game.legal_moves())
    assert most == 99
    found = hint(game.view(), "labyrinth", 1)
    assert found is not None
    assert home_after(game, found.move) == most, found
