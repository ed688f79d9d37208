"""A watched view (``--watch``) drawn in place on a terminal: a line wider than the
terminal, a command to copy, is written whole for the terminal to fold, and the next
drawing goes over every row the last one took. The client's bytes are read by a real
terminal emulator (pyte), as the real-terminal tests read them."""

from __future__ import annotations

import io

import pyte
from rich.console import Console
from rich.text import Text

from client_cli.pager import Redrawn

COMMAND = "patience-race replay book20261129gate --server ws://127.0.0.1:9411"


def test_a_line_wider_than_the_terminal_is_folded_whole_and_drawn_over() -> None:
    """Probe A2, fault 4: ``top GAME --watch`` at 60 columns cut the book line's command
    at the screen's edge (rich's Live crops every line to the width): copied, it named
    another server. It is written whole, the terminal folding it onto the next row; the
    view drawn again (shorter) leaves nothing of the last one, its folded row counted."""
    out = io.StringIO()
    console = Console(file=out, width=60, height=24, force_terminal=True, color_system=None)
    views = {
        1: Text(f"Par 98: the book line,\n{COMMAND}\nwatching"),
        2: Text("Nobody is on this board yet.\nwatching"),
    }
    with Redrawn(console, views.__getitem__, 1) as live:
        first = out.getvalue()
        live.update(2)
    assert COMMAND in first, first  # (one piece: no line end inside it)
    terminal = pyte.Screen(60, 24)
    stream = pyte.Stream(terminal)
    stream.feed(first.replace("\n", "\r\n"))  # (the terminal's own: a newline returns too)
    shown = [line.rstrip() for line in terminal.display]
    assert shown[:4] == ["Par 98: the book line,", COMMAND[:60], COMMAND[60:], "watching"]
    stream.feed(out.getvalue()[len(first) :].replace("\n", "\r\n"))
    shown = [line.rstrip() for line in terminal.display]
    assert shown[:3] == ["Nobody is on this board yet.", "watching", ""], shown
    assert not any(shown[3:]), shown
