"""What the one-shot commands print to a pipe (``replay ID | cat``, ``league > file``):
rich wraps it at 80 columns there, and it broke values in two ("· seed " /
"8469322028102417282", "ends in 14h" / "31m"); each value is whole on its line, broken
only between them. And no line is padded: ``games`` printed a first line of 80 spaces
and its rows with spaces after them."""

from __future__ import annotations

import re

from client_cli.league import league_view
from client_cli.queries import games_table
from client_cli.replay import Replay, replay_table

from .test_printed_commands import printed
from .views import GAME_LIST

SEED = 8469322028102417282


def test_a_replays_summary_keeps_its_seed_whole() -> None:
    replay = Replay.from_message(
        {"id": "ab12cd34ef56ab78", "game": "blockade-ten", "seed": SEED, "kind": "race",
         "start_ms": 1000, "moves": [[1400, "deal"]], "room": "PX6BST", "race": 12,
         "result": {"status": "resigned", "time_ms": 3_723_000, "moves": 1234, "home": 103,
                    "total": 104, "hints": 12}, "player": "catherine_of_aragon"},
        {"blockade-ten": "The Blockade (rows of ten)"},
    )  # fmt: skip
    parts = [*replay.summary().split(" · "), replay.title(), replay.player]
    assert f"seed {SEED}" in parts
    for width in range(60, 91):
        lines = printed(replay_table(replay), width).splitlines()
        for part in parts:  # ("103/104" / "home", "rules" / "v1" too)
            assert any(part in line for line in lines), (width, part, lines)


def test_the_leagues_line_keeps_its_time_left_whole() -> None:
    reply = {"week": "2026-W48", "joined": True, "tier": "diamond", "league": "diamond-12",
             "rank": 23, "players": 30, "points": 141, "current": True,
             "ends_in_ms": (14 * 60 + 31) * 60_000 + 5_000, "standings": []}  # fmt: skip
    for width in range(60, 91):
        out = printed(league_view(reply), width)
        assert any("ends in 14h 31m" in line for line in out.splitlines()), (width, out)


def test_nothing_printed_to_a_pipe_is_padded() -> None:
    out = printed(games_table(GAME_LIST), 80)
    lines = out.splitlines()
    assert lines and all(line == line.rstrip() for line in lines), [
        line for line in lines if line != line.rstrip()
    ]
    assert re.search(r"(?m)^\s*gate\s+1\s+The Gate:", out), out
