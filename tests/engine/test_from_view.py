"""A position rebuilt from a player's view and an order of the cards it does not show
(``Game.unseen_cards``, ``Game.from_view``): what hints search instead of the game."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from server.engine import GAMES, Game, new_game

GAME_IDS = sorted(GAMES)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def hidden_in_order(game: Game) -> list[int]:
    """The game's face-down cards as ``from_view`` takes them: hidden piles in pile order,
    each from its bottom card to its top."""
    return [c for i in sorted(game.HIDDEN) for c in game.p[i]]


def played(game_id: str, seed: int, steps: int, pick: random.Random) -> Game:
    """The deal of ``seed`` after up to ``steps`` legal moves, plays home preferred (so that
    long games reach their later stages: redeals, the grace, the conveyor's end)."""
    game = new_game(game_id, seed=seed)
    for _ in range(steps):
        legal = game.legal_moves()
        if not legal:
            break
        home = [m for m in legal if m.text.endswith((">f", ">u", ">d")) or "+" in m.text]
        game.play(pick.choice(home if home and pick.random() < 0.8 else legal))
    return game


@pytest.mark.parametrize("game_id", GAME_IDS)
@SETTINGS
@given(seed=st.integers(0, 2**64 - 1), steps=st.integers(0, 400), salt=st.integers(0, 99))
def test_the_real_order_rebuilds_the_position(
    game_id: str, seed: int, steps: int, salt: int
) -> None:
    game = played(game_id, seed, steps, random.Random(salt))
    view = game.view()
    cls = type(game)
    assert cls.unseen_cards(view) == sorted(hidden_in_order(game))
    rebuilt = cls.from_view(view, hidden_in_order(game))
    assert rebuilt.p == game.p
    assert rebuilt.sc == game.sc
    assert rebuilt.moves == game.moves
    assert [m.text for m in rebuilt.legal_moves()] == [m.text for m in game.legal_moves()]


@pytest.mark.parametrize("game_id", GAME_IDS)
@SETTINGS
@given(seed=st.integers(0, 2**64 - 1), steps=st.integers(0, 400), salt=st.integers(0, 99))
def test_any_order_of_the_unseen_cards_shows_the_same_view(
    game_id: str, seed: int, steps: int, salt: int
) -> None:
    game = played(game_id, seed, steps, random.Random(salt))
    view = game.view()
    cls = type(game)
    order = cls.unseen_cards(view)
    random.Random(salt).shuffle(order)
    other = cls.from_view(view, order)
    other_view = other.view()
    # the undo flag is the journal's, which a rebuilt position has not got
    assert {**other_view, "can_undo": view["can_undo"]} == view
    assert [m.text for m in other.legal_moves()] == [m.text for m in game.legal_moves()]


def test_a_view_of_another_game_is_refused() -> None:
    view = new_game("gate", seed=1).view()
    with pytest.raises(ValueError, match="not a view of nestor"):
        GAMES["nestor"].cls.unseen_cards(view)


def test_hidden_cards_other_than_the_unseen_ones_are_refused() -> None:
    game = new_game("nestor", seed=1)
    view = game.view()
    wrong = hidden_in_order(game)
    wrong[0] = (wrong[0] + 1) % 52
    with pytest.raises(ValueError, match="not the ones the view does not show"):
        type(game).from_view(view, wrong)
    with pytest.raises(ValueError, match="not the ones"):
        type(game).from_view(view, hidden_in_order(game)[1:])


def test_a_view_that_does_not_add_up_is_refused() -> None:
    game = new_game("doubles-and-quits", seed=1)
    view = game.view()
    view["piles"][0]["cards"] = view["piles"][0]["cards"] * 2
    with pytest.raises(ValueError, match="not in 1 pack"):
        type(game).unseen_cards(view)
    view = game.view()
    next(p for p in view["piles"] if p["down"])["down"] += 1
    with pytest.raises(ValueError, match="face-down"):
        type(game).unseen_cards(view)


def test_a_face_down_count_on_a_face_up_pile_is_refused() -> None:
    game = new_game("doubles-and-quits", seed=1)
    view = game.view()
    stock = next(p for p in view["piles"] if p["down"])
    moved = stock["down"]
    stock["down"] = 0
    view["piles"][0]["down"] = moved
    with pytest.raises(ValueError, match="never face down"):
        type(game).from_view(view, type(game).unseen_cards(view))


def test_a_view_without_its_counters_is_refused() -> None:
    game = new_game("babette", seed=1)
    view = game.view()
    del view["redeals"]
    with pytest.raises(ValueError, match="redeals"):
        type(game).from_view(view, type(game).unseen_cards(view))
