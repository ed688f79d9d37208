"""Screens of a wide and tall terminal (200x50), drawn in-process as test_screen.py's: a
racer's name (up to 20 characters) is whole wherever the room is there. At 200 columns
the racers beside the board were cut to 12 (``catherine_o…  3/52 13 ▋░░░``) beside 100
free columns: in a race, watching one, in a daily's practice against the board and in a
quick race against ghosts (``Maximil… (ghost)``)."""

from __future__ import annotations

import re

from client_cli.lines import plain
from client_cli.model import WATCH, Model
from client_cli.results import results_page
from client_cli.screen import render_screen

from .test_practice_ghosts import START as PRACTICE_START
from .test_practice_ghosts import ghost, practice
from .test_screen import NOW, RESULTS, in_room, racing
from .views import GAME_LIST, played, snapshot

WIDTH, ROWS = 200, 49  # (the input line is the 50th)
#: names of the most letters a name has
LONG, GHOSTLY = "catherine_of_aragon1", "maximilian_the_ghost"


def wide(model: Model, now: int = NOW) -> str:
    lines = render_screen(model, WIDTH, ROWS, now)
    assert len(lines) <= ROWS and all(line.cell_len <= WIDTH for line in lines)
    return plain(lines)


def test_a_racers_whole_name_beside_the_board_and_watching() -> None:
    model = racing()
    assert model.room is not None
    model.room["players"][2].update(name=LONG, status="playing", present=True)
    shown = wide(model)
    assert re.search(rf" {LONG} +2/52 +3 [▏▎▍▌▋▊▉█░]+\n", shown), shown
    assert "…" not in shown, shown
    watched = in_room("racing", me="dan")
    assert watched.room is not None
    watched.room["players"][2]["name"] = LONG
    watched.screen = WATCH
    shown = wide(watched)
    assert re.search(rf" {LONG} +2/52 +3 resigned", shown), shown
    assert "…" not in shown, shown


def test_a_ghosts_whole_name_in_a_practice_against_the_board() -> None:
    model = practice(ghosts=[ghost(GHOSTLY, 52, 140, "won", 80_000), ghost("bob", 9, 30)])
    shown = wide(model, PRACTICE_START + 41_000)
    assert re.search(rf" {GHOSTLY} \(ghost\) 52/52 +140 █+\n", shown), shown
    assert "…" not in shown, shown


def test_a_ghosts_whole_name_in_a_quick_race_against_ghosts() -> None:
    model = Model(server="ws://127.0.0.1:8765", me=LONG)
    model.set_games(GAME_LIST)
    points = [[0, 1, 0], [40_000, 9, 30]]
    ghosts = [
        {"name": name, "total": 52, "points": points, "end": {"status": "won", "at": 98_000}}
        for name in (GHOSTLY, "bob")
    ]
    start = NOW - 60_000
    model.take_challenge(
        {
            "challenge": {"id": "", "player": "the ghosts", "game": "gate"},
            "game": "g" * 16,
            "start_at": start,
            "ghosts": ghosts,
        },
        start,
    )
    game = played("gate", seed=3, moves=12)
    model.apply_challenge_start({**snapshot(game, gid="g" * 16, kind="challenge")}, start)
    shown = wide(model)
    assert "quick race vs 2 ghosts" in shown, shown
    assert re.search(rf" {GHOSTLY} \(ghost\) +9/52 +30 ", shown), shown
    assert re.search(rf"▸{LONG} +3/52 +12 ", shown), shown
    assert "…" not in shown, shown


def test_the_results_page_keeps_the_others_line_indented() -> None:
    """Page Down over a race's results at 132x40: "Others: patience-race replay ID ..."
    stood at the page's edge, where the room's screen and the table have it two in.
    (Here "Replays": ann has no game of the race, no replay line of her own.)"""
    model = in_room("finished", results=RESULTS)
    on_screen = plain(render_screen(model, 132, 39, NOW))
    assert "\n  Replays (ID from the table): patience-race replay ID\n" in on_screen, on_screen
    title, _ = results_page(model, 132)
    model.open_page(title, lambda w: results_page(model, w)[1].split("\n"))
    paged = plain(render_screen(model, 132, 39, NOW))
    assert "\n  Replays (ID from the table): patience-race replay ID\n" in paged, paged
    assert "\n  1   bob " in paged, paged  # (as the table's lines)
