"""The help (h) speaks to what the player can do where they are: a watcher, or a racer
out of the race under way, is not told of moves, undo and resign (the help listed the
playing keys to a watcher, whose keys line says only "watching · q stop")."""

from __future__ import annotations

from client_cli.lines import plain
from client_cli.model import WATCH, Model
from client_cli.screen import help_lines

from .test_screen import in_room, racing

WIDTH = 80


def help_of(model: Model) -> str:
    return plain(help_lines(model, WIDTH))


def test_a_watcher_is_told_the_watchers_keys_not_the_players() -> None:
    model = in_room("racing", me="dan")
    model.screen = WATCH
    shown = help_of(model)
    for playing in ("undo", "resign", "Tab completes", "a hint", "every card that can go home"):
        assert playing not in shown, shown
    assert "q stop watching" in shown
    assert "rules" in shown


def test_a_racer_out_of_the_race_is_not_told_its_moves() -> None:
    model = in_room("racing", me="eve")  # (in the room, not among its racers)
    shown = help_of(model)
    assert model.context() == "spectating"
    assert "resign" not in shown and "Tab completes" not in shown, shown
    assert "q leave" in shown


def test_a_racer_still_gets_the_playing_keys() -> None:
    shown = help_of(racing())
    assert "u undo" in shown and "resign" in shown and "Tab completes" in shown
