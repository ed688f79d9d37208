"""The server's words name cards by their codes ("8D cannot go on KD"); the screen draws
them as the board draws the cards (``8♦``), or leaves them be with ``--ascii``."""

from __future__ import annotations

from server.engine import new_game

from .test_screen import screen, solo

REFUSED = "illegal move 'l>t1': 8D cannot go on KD: bars build down in alternate colours"


def test_a_refusal_names_the_cards_as_the_board_draws_them() -> None:
    shown = screen(solo(new_game("gate", seed=1234), message=REFUSED))
    assert "8♦ cannot go on K♦: bars build down" in shown, shown
    assert "8D" not in shown


def test_with_ascii_the_codes_stay() -> None:
    model = solo(new_game("gate", seed=1234), message=REFUSED)
    model.ascii = True
    assert "8D cannot go on KD: bars build down" in screen(model)
