"""A race's results table in a small terminal: at 60 columns by 20 rows it was cut, its
headers to ``ra…`` and ``re…``, names and results to two letters, a rating's change on a
second line of its own. Every racer's name, result, rating and replay id must be read
whole, with the lines under the table, at 60x20 as at 80x24. The real client in
pseudo-terminals against the real server."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, continued, start
from .test_terminal import register

#: a game whose every deal has a pair to take off (docs/ratings.md's races use it too)
GAME = "doubles-and-quits"
NAMES = ("ann", "bartholomew", "cal")
HEADERS = ("#", "racer", "result", "time", "moves", "pairs", "rating", "replay")


@pytest.mark.parametrize("cols, rows", [(60, 20), (80, 24)])
def test_three_racers_results_fit_the_terminal(
    server_process: ServerProcess,
    tmp_path: Path,
    terminals: list[Terminal],
    cols: int,
    rows: int,
) -> None:
    def begin(name: str, *args: str) -> Terminal:
        terminal = start(terminals, server_process, tmp_path / name, *args, rows=rows, cols=cols)
        register(terminal, name)
        return terminal

    ann = begin("ann", "race", "new", GAME)  # (no seed: the race is rated)
    code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    racers = [ann, *(begin(name, "race", "join", code) for name in NAMES[1:])]
    for terminal in racers[1:]:
        terminal.wait_for(r"ann hosts")
        terminal.type("r", enter=False)
    ann.wait_for(r"everyone is ready: s to start")
    ann.type("s", enter=False)
    for terminal in racers:
        terminal.wait_for(LEGAL, timeout=15)
        terminal.type("resign")
        terminal.wait_for(r"Resign this race\?")
        terminal.type("y", enter=False)

    for terminal in racers:
        terminal.wait_for(r"Results of race 1")
        mine = terminal.wait_for(r"Replay: patience-race replay ([0-9a-f]{16})").group(1)
        terminal.wait_for(r"m calls a rematch|may call a rematch")  # the last line, not cut
        terminal.settle()
        screen = terminal.text
        table = screen[screen.index("Results of race 1") : screen.index("Replay: ")]
        assert "…" not in table, screen  # nothing in it cut short
        words = table.split()
        for header in HEADERS:
            assert header in words, screen
        for racer in NAMES:
            assert racer in words, screen
        assert words.count("resigned") == 3, screen
        assert mine in words, screen  # the player's own replay id, whole
        assert len(re.findall(r"\b[0-9a-f]{16}\b", table)) == 3, screen
        assert len(re.findall(r"-?\d+ \([+-]\d+\)", table)) == 3, screen  # rating (change)
        # the player's replay command, to copy: whole on a line, or (wider than the
        # screen, 67 columns at 60 with --server) broken by a shell's " \" only, so that
        # its lines pasted run it whole (it was broken before ws://, its --server lost)
        command = f"patience-race replay {mine} --server {server_process.url}"
        assert command in continued(screen), screen
