"""The client in a wide and tall terminal (200x50), and one made taller as it runs: what
fits is whole (a challenge's share line was split over two lines at any width), and a page
grown taller fills the screen (it kept its place, its top hidden beside blank rows). The
real client in pseudo-terminals against the real server."""

from __future__ import annotations

import re
from pathlib import Path

from tests.app.conftest import ServerProcess
from tests.solver.positions import HOME

from .terminal import LEGAL, Terminal, start
from .test_challenge_terminal import LINK
from .test_terminal import F4, daily_resigned, register

ROWS, COLS = 50, 200


def test_a_challenges_share_line_is_whole_where_it_fits(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    seed = str(HOME["gate"].seed)
    args = ("play", "gate", "--seed", seed)
    ann = start(terminals, server_process, tmp_path, *args, rows=ROWS, cols=COLS)
    register(ann, "ann")
    ann.wait_for(LEGAL)
    ann.type("resign")
    ann.wait_for(r"Resign this game\?")
    ann.type("y")
    ann.wait_for(r"c challenge a friend")
    ann.type("c")
    cid = ann.wait_for(LINK.format(port=server_process.port)).group(1)
    ann.wait_for(r"Your challenge is made")
    # the line under "To paste into a chat:", all of it
    share = ann.wait_for(r"To paste into a chat:\n(.*)").group(1).strip()
    assert re.fullmatch(rf"Beat my \d+/52 cards home on The Gate · \S+/c/{cid}", share), ann.text


def test_a_page_scrolled_to_its_end_fills_a_terminal_made_taller(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """The rules page at 132x40, paged to its end, the terminal then made 200x50: it
    showed the same lines from the 35th, ten blank rows under them, its top hidden."""
    ann = start(terminals, server_process, tmp_path, "play", "gate", rows=40, cols=132)
    register(ann, "ann")
    ann.wait_for(LEGAL)
    ann.child.send(F4)
    total = int(ann.wait_for(r"lines 1-35 of (\d+) · space").group(1))
    ann.type(" ", enter=False)
    ann.wait_for(rf"lines 35-{min(69, total)} of {total}")
    ann.resize(ROWS, COLS)
    shown = ROWS - 5  # (less the header, the page's title, the message, the keys, the input)
    ann.wait_for(rf"lines {total - shown + 1}-{total} of {total}")
    ann.settle()
    page = ann.text.splitlines()[2:-3]  # the page's lines, between its title and the message
    assert len(page) == shown and page[-1].strip(), ann.text  # no blank rows at its end


#: the line under a board watched, whole on a line of its own
WATCHING = r"\nwatching: the board is redrawn as it changes · Ctrl-C stops\n"


def test_a_board_watched_is_redrawn_for_a_terminal_resized(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``top --watch`` kept the width it started with: a terminal made wider showed the
    board as drawn for the narrower one until the board changed, and then again so."""
    watch = start(terminals, server_process, tmp_path, "top", "gate", "--watch", cols=40)
    watch.wait_for(r"watching: the board is redrawn as it\s+changes")  # (40 columns: two lines)
    watch.resize(24, 120)
    watch.wait_for(WATCHING)  # drawn again at once for the width, nothing else changed
    daily_resigned(server_process.url, "bob")
    watch.wait_for(r"\n\s*\d\s+bob\s+\d+/52\s")
    watch.wait_for(WATCHING)  # the board changed: drawn at the width it has now
    watch.child.sendintr()
    assert watch.exit_code() == 0
