"""Checks every game must pass at every step, shared by the property tests."""

from __future__ import annotations

from collections import Counter
from itertools import chain
from typing import Any

from server.engine import Game, restore
from server.engine.cards import CODE
from server.engine.deal import sorted_deck


def assert_conserved(game: Game) -> None:
    """Every card exactly once (twice with two packs), somewhere."""
    assert Counter(chain.from_iterable(game.p)) == Counter(sorted_deck(game.packs))


def assert_plain(value: Any) -> None:
    """Only what msgpack carries: dicts with str keys, lists, str, int, bool, None."""
    if isinstance(value, dict):
        for key, item in value.items():
            assert isinstance(key, str)
            assert_plain(item)
    elif isinstance(value, list):
        for item in value:
            assert_plain(item)
    else:
        assert value is None or isinstance(value, str | int | bool), repr(value)


def visible_cards(game: Game) -> Counter[str]:
    return Counter(CODE[c] for i, pile in enumerate(game.p) if i not in game.HIDDEN for c in pile)


def assert_view_hides(game: Game) -> None:
    """The view shows exactly the face-up cards: no stock or face-down card, no seed."""
    view = game.view()
    assert_plain(view)
    shown = Counter(code for pile in view["piles"] for code in pile["cards"])
    assert shown == visible_cards(game)
    shown_piles = list(game._shown())
    assert len(shown_piles) == len(view["piles"])
    for i, pile in zip(shown_piles, view["piles"], strict=True):
        spec, cards = game.PILES[i], game.p[i]
        assert pile["label"] == spec.label
        if spec.hidden:
            assert pile["cards"] == []
            assert pile["down"] == len(cards)
    for i in set(range(len(game.PILES))) - set(shown_piles):
        assert not game.p[i], f"pile {game.PILES[i].label} holds cards but is not shown"
    assert "seed" not in view
    assert "deck" not in view


def assert_status(game: Game) -> None:
    legal = game.legal_moves()
    home, total = game.progress
    if home == total:
        assert game.status == "won"
    elif legal:
        assert game.status == "playing"
    else:
        assert game.status == "lost"


def assert_every_legal_move_plays(game: Game) -> None:
    """Each listed move is accepted, and taking it back restores the position."""
    before = game.key()
    legal = [m.text for m in game.legal_moves()]
    assert len(legal) == len(set(legal)), "a legal move is listed twice"
    for text in legal:
        move = game.play(text)
        assert str(move) == text
        assert_conserved(game)
        game.pop()
        assert game.key() == before
        assert [m.text for m in game.legal_moves()] == legal


def assert_snapshot_round_trip(game: Game) -> None:
    copy = restore(game.snapshot())
    assert type(copy) is type(game)
    assert copy.key() == game.key()
    assert copy.view() == game.view()
    assert copy.moves == game.moves
    assert copy.can_undo() == game.can_undo()
    assert [m.text for m in copy.legal_moves()] == [m.text for m in game.legal_moves()]
    if game.can_undo():
        # the moves that can still be undone survive the round trip
        original = game.key()
        move = game.undo()
        assert copy.undo().text == move.text
        assert copy.key() == game.key()
        assert [m.text for m in copy.legal_moves()] == [m.text for m in game.legal_moves()]
        game.play(move)
        assert game.key() == original


def check_all(game: Game) -> None:
    assert_conserved(game)
    assert_view_hides(game)
    assert_status(game)
