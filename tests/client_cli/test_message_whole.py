"""The message line (a refusal, a note) is wrapped between words and shown whole at 80
and at 60 columns, however full the screen above it: under a challenge's result whose table
filled the screen, a review of a game of today's daily deal was refused in one line, "a
game of a daily deal is reviewed after the day's reset: a review tells [...]". The real
screens, drawn from models."""

from __future__ import annotations

import re
from typing import Any

import pytest

from client_cli.keys_line import understood
from client_cli.lines import plain
from client_cli.model import Model
from client_cli.screen import render_screen

from .test_challenge import RESULT, START, started
from .test_screen import ROWS, in_room, solo
from .views import GAME_IDS, played

#: the server's refusal of a review before the day's reset (server/app/handlers/review.py)
LATER = (
    "a game of a daily deal is reviewed after the day's reset: a review tells the order "
    "of the stock"
)


def shown(model: Model, width: int, now: int = START + 70_000) -> str:
    lines = render_screen(model, width, ROWS, now)
    assert len(lines) <= ROWS
    return plain(lines)


def whole(message: str, screen: str) -> bool:
    """``message`` on the screen, every word of it, between words wherever it is broken."""
    return message in " ".join(screen.split()) and "[...]" not in screen


def challenge_of_todays_deal(racers: int) -> Model:
    """A challenge of today's daily deal, its result in, ``racers`` on its table."""
    model = started()
    assert model.game is not None
    model.game.status = "resigned"
    row: dict[str, Any] = RESULT["table"][1]
    table = [*RESULT["table"], *({**row, "rank": n, "player": f"p{n}"} for n in range(4, racers))]
    today = {**RESULT["challenge"], "opens_at": START + 3_600_000}
    model.apply_challenge_result({**RESULT, "challenge": today, "table": table})
    return model


@pytest.mark.parametrize("width", [80, 60])
def test_a_refusal_under_a_full_challenge_table_is_whole(width: int) -> None:
    model = challenge_of_todays_deal(12)
    model.say(LATER, "error")
    screen = shown(model, width)
    assert whole(LATER, screen), screen
    assert screen.splitlines()[-1].startswith("c challenge"), screen  # the keys stay
    # the table gives its last lines to the message, and has them back with the next one
    # (the player's row kept, and a line for the rows the screen leaves out)
    rows = len(re.findall(r"^ +▸?\d+ +\S", screen, re.M))
    model.say("", "info")
    back = shown(model, width)
    assert len(re.findall(r"^ +▸?\d+ +\S", back, re.M)) >= rows, back
    assert re.search(r"▸3 +bob", back) and re.search(r"^ +\+\d+ more$", back, re.M), back


@pytest.mark.parametrize("width", [80, 60])
def test_a_long_line_that_means_nothing_in_a_lobby_is_told_whole(width: int) -> None:
    """(three lines at 60 columns: the lobby's message had two)"""
    model = in_room("lobby", me="bob")
    typed = "this is not a key but a sentence pasted into the lobby by mistake"[:64]
    said = understood(model, typed)
    assert said.kind == "say"
    model.say(said.note, "error")
    screen = shown(model, width)
    assert whole(said.note, screen), screen
    assert screen.splitlines()[-1].startswith("r ready"), screen


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_refusal_over_any_game_over_is_whole_at_60_columns(game_id: str) -> None:
    model = solo(played(game_id, seed=3, moves=30))
    assert model.game is not None
    model.game.status = "resigned"
    model.say(LATER + " (and a few words more, to take a third line at 60 columns)", "error")
    screen = shown(model, 60)
    assert whole(model.message, screen), screen
