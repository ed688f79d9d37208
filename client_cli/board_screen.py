"""Practice against the board on the screen, drawn from the model by pure functions: the
racers beside the board (the player and the day's ghosts, moved along their points by
the server's time: as many as fit, the nearest the player first) and, once the
``ghosts_result`` comes, where the practice placed among them."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from .board_race import TITLE, BoardRace, result_lines
from .model import Model
from .room_screen import racers_panel


def race_ms(model: Model, race: BoardRace, now: int) -> int:
    """How long the practice has run, by the server's clock, from its ``started_at``."""
    return model.server_now(now) - race.start_at


def racers(model: Model, now: int) -> list[dict[str, Any]]:
    """The player (the game on the table) and the ghosts where they stand now, best
    first."""
    race, game = model.against_board, model.game
    if race is None or game is None:
        return []
    view = game.view
    me = {
        "name": model.me or "you",
        "home": view.get("home"),
        "total": view.get("total"),
        "moves": view.get("moves"),
        "status": game.status,
    }
    return race.racers(me, race_ms(model, race, now))


def board_panel(model: Model, width: int, height: int, now: int) -> list[Text]:
    """The racers beside the board, in at most ``height`` lines."""
    return racers_panel(racers(model, now), TITLE, model, width, most=height)


def placing_lines(model: Model, width: int) -> list[Text]:
    """In place of the board once the practice is over and placed: see
    :func:`client_cli.board_race.result_lines`."""
    race = model.against_board
    assert race is not None
    unit = "pairs" if model.counts_pairs else "cards"
    return result_lines(model.me, race, width, model.ascii, unit)
