"""The keys line of every state, every role and every variant of it fits 60 columns, and
keeps its way out (``q ...``) or its answer: at 60 columns a racer not hosting a finished
room lost ``q leave``, a player ``q quit``. The real screens, drawn from models."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import partial

import pytest

from client_cli.commands import KEYS, narrowed
from client_cli.lines import plain
from client_cli.model import CHALLENGE, WATCH, Lost, Model
from client_cli.screen import render_screen
from server.engine import new_game

from .test_screen import NOW, in_room, racing, solo
from .views import played

WIDTH, ROWS = 60, 19


def keys(model: Model) -> str:
    return plain(render_screen(model, WIDTH, ROWS, NOW)).splitlines()[-1]


def over(*, undo: bool = False, kind: str = "solo") -> Model:
    """A solo game lost (``undo``: the server would take the last move back); ``kind``
    ``practice``: a daily's deal played again."""
    made = solo(played("gate", seed=5, moves=25))
    assert made.game is not None
    made.game.status = "lost"
    made.game.kind = kind
    made.game.lost = Lost("No move is left.", 11, 52, "cards", undo)
    return made


def finished(me: str, **room: object) -> Model:
    return in_room("finished", me=me, results=[{"rank": 1, "player": "ann"}], **room)


def raced(**room: object) -> Model:
    """ann's race over, her game in it over (the keys line offers it to challenge a
    friend with, to review)."""
    made = racing()
    assert made.game is not None
    made.apply_resigned({"game": made.game.gid, "status": "resigned"}, NOW)
    made.apply_results({"code": "8GY8VQ", "race": 1, "results": [{"rank": 1, "player": "ann"}]})
    if room:
        made.enter_room({**(made.room or {}), **room})
    return made


def watching() -> Model:
    made = in_room("racing")
    made.screen = WATCH
    return made


def playing(game_id: str) -> Model:
    return solo(played(game_id, seed=5, moves=0))


def page() -> Model:
    made = solo(new_game("gate", seed=5))
    made.open_page("The rules", "\n".join(f"line {n}" for n in range(200)))
    assert made.page is not None
    made.page.top = 120
    return made


#: each state's model, and how its keys line must end
STATES: dict[str, tuple[Callable[[], Model], str]] = {
    "lobby, host": (lambda: in_room("lobby"), "q leave"),
    "lobby, guest": (lambda: in_room("lobby", me="bob"), "q leave"),
    "countdown": (lambda: in_room("countdown", me="bob"), "q leave"),
    "racing": (racing, "q quit"),
    "racing, not in it": (lambda: in_room("racing", me="bob"), "q leave"),
    "finished, host": (lambda: finished("ann"), "q leave"),
    "finished, guest": (lambda: finished("bob"), "q leave"),
    "finished, raced": (raced, "q leave"),
    "finished, quick": (lambda: raced(quick=True), "q leave"),
    "closed": (lambda: in_room("closed"), "q quit"),
    "watching": (watching, "q stop"),
    **{f"playing {game}": (partial(playing, game), "q quit") for game in (
        "gate", "nestor", "doubles-and-quits", "wedge", "blockade-ten", "light-and-shade"
    )},
    "over": (over, "q quit"),
    "over, undo": (lambda: over(undo=True), "q quit"),
    "over, daily": (lambda: over(kind="practice"), "q quit"),
    "a page": (page, "q: the table"),
}  # fmt: skip


@pytest.mark.parametrize("state", list(STATES))
def test_every_keys_line_fits_60_columns(state: str) -> None:
    draw, ends = STATES[state]
    line = keys(draw())
    assert len(line) <= WIDTH and "…" not in line, line
    assert line.endswith(ends), line


@pytest.mark.parametrize("context", list(KEYS))
def test_every_context_s_words_fit_60_columns(context: str) -> None:
    """Each context's words, as the keys line draws them (in the context itself where a
    model can be made for it here, above), narrowed where too wide: whole, ``q`` kept."""
    words = narrowed(KEYS[context], WIDTH)
    assert len(words) <= WIDTH, words
    assert re.search(r"q (quit|leave|stop)|anything else|other keys|not now|play on", words)


def test_a_challenge_s_screens() -> None:
    model = Model(server="ws://127.0.0.1:8765", me="ann")
    model.screen = CHALLENGE
    assert model.context() == "challenge-countdown"
    assert keys(model).endswith("q quit (the clock runs on)"), keys(model)


def test_a_keys_line_that_fits_keeps_tab_and_the_rules_key() -> None:
    """The keys line gives words up in turn only until it fits (docs/client.md: a race's
    without hints, on a fresh deal, keeps ``Tab`` and ``F4 rules`` at 60 columns; the
    docs said a narrow terminal showed neither)."""
    fresh = KEYS["play"].replace(" · ? hint", "").replace(" · u undo", "")
    assert narrowed(fresh, 60) == fresh and "Tab" in fresh and "F4 rules" in fresh
    squeezed = narrowed(KEYS["play"], 60)
    assert "Tab" not in squeezed and "F4" not in squeezed and squeezed.endswith("q quit")
