"""A typed line that means nothing where it is typed is told the keys of the state on the
table, in the very words of its keys line. It was told the context's keys: a finished
ranked daily, "'foo' means nothing here: n new deal · new GAME · c challenge a friend ·
review · h help · q quit", under a keys line of "n the same deal again (practice) · new
GAME · c challenge a friend · q quit" (a daily's game is reviewed after the day's reset);
a lost game, without the ``u undo`` its keys line offered. The real screens, drawn from
models, and the line read as the client reads it (the terminal's own, in
test_nothing_here_terminal.py)."""

from __future__ import annotations

import pytest

from client_cli.commands import Action
from client_cli.keys_line import understood
from client_cli.lines import plain
from client_cli.model import Model
from client_cli.screen import render_screen
from server.engine import new_game

from .test_keys_width import STATES, over
from .test_screen import NOW, ROWS, solo
from .test_screen_daily import daily_over

#: wide enough that no keys line is narrowed
WIDE = 200
SAID = "'foo' means nothing here: "


def keys_line(model: Model) -> str:
    return plain(render_screen(model, WIDE, ROWS, NOW)).splitlines()[-1].strip()


def test_a_finished_ranked_daily_is_told_its_own_keys() -> None:
    model = daily_over()
    line = keys_line(model)
    assert line.startswith("n the same deal again (practice) · ") and "review" not in line
    assert understood(model, "foo") == Action("say", note=SAID + line)


def test_a_lost_game_that_can_be_undone_is_told_u_undo() -> None:
    model = over(undo=True)
    line = keys_line(model)
    assert line.startswith("u undo · n new deal · ")
    assert understood(model, "foo") == Action("say", note=SAID + line)


def test_a_running_solo_game_sends_the_line_for_the_server_to_read() -> None:
    """Playing, a line that is no key is a move (or no move: the server says why, as it
    says of any illegal one): no list of keys to agree with the keys line."""
    model = solo(new_game("gate", seed=5))
    # (a fresh deal has nothing to undo: no ``u undo``)
    assert keys_line(model).startswith("move or its # · Tab · + home · ? hint · F4 rules")
    assert understood(model, "foo") == Action("move", "foo")


@pytest.mark.parametrize("state", [state for state in STATES if state != "a page"])
def test_every_state_tells_the_keys_its_keys_line_shows(state: str) -> None:
    model = STATES[state][0]()
    said = understood(model, "foo")
    if model.context() == "play":
        assert said == Action("move", "foo"), said
    else:
        assert said == Action("say", note=SAID + keys_line(model)), state


def test_a_game_with_nothing_to_undo_offers_no_undo() -> None:
    """Where the view says nothing can be undone (a deal that brought hidden cards into
    view: the server refused its undo) the keys line offers no ``u undo``; it did, as
    the browser's Undo was greyed out."""
    model = solo(new_game("gate", seed=1))
    assert model.game is not None
    model.game.view = {**model.game.view, "can_undo": True}
    assert "u undo" in keys_line(model)
    model.game.view = {**model.game.view, "can_undo": False}
    assert "u undo" not in keys_line(model)
