"""The help (h) in a pseudo-terminal against a real server and Redis lists what works in
the game at hand, as the keys line does: no hint in a race made without hints (it listed
"? or F3 a hint" there), no home where cards leave in pairs; both in a solo game of
The Gate."""

from __future__ import annotations

from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal
from .test_terminal import register, start

HINT = "? or F3  a hint"
HOME = "+ or F2  every card"


def help_of(terminal: Terminal) -> str:
    """The help's text, opened with h and closed again."""
    terminal.type("h")
    terminal.wait_for(r"Enter or Esc: back to the table")
    terminal.settle()
    shown = terminal.text
    terminal.type("")
    terminal.wait_for(LEGAL)
    return shown


def test_help_lists_a_hint_only_where_the_game_has_them(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path / "ann", "race", "new", "gate", "--seed=1")
    register(ann, "ann")
    ann.wait_for(r"race join ([A-Z0-9]{6})")
    ann.type("s", enter=False)  # a race of one, in a room made without hints
    ann.wait_for(LEGAL, timeout=15)
    assert "? hint" not in ann.text
    shown = help_of(ann)
    assert HINT not in shown and "hint" not in shown, shown
    assert HOME in shown

    solo = start(terminals, server_process, tmp_path / "ann", "play", "gate", "--seed=1")
    solo.wait_for(LEGAL)
    shown = help_of(solo)
    assert HINT in shown and HOME in shown, shown

    nestor = start(terminals, server_process, tmp_path / "bob", "play", "nestor", "--seed=16")
    register(nestor, "bob")
    nestor.wait_for(LEGAL)
    shown = help_of(nestor)
    assert HINT in shown and HOME not in shown, shown
