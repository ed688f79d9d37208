"""``q`` on an empty move line of a solo game quits at once, as ``r``, ``s``, ``m`` and
``y`` act (a new user found it alone needed Enter): no move, pile label or word of a solo
screen starts with ``q`` (the games' piles: letters up to ``l``, numbers, ``reserve``).
In a room it still waits for Enter: leaving gives up a seat (and, hosting, the rematch).
The real client in pseudo-terminals against the real server."""

from __future__ import annotations

from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, start
from .test_terminal import register


def test_q_on_an_empty_line_of_a_solo_game_quits_at_once(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path, "play", "gate", "--seed", "1234")
    register(ann, "ann")
    ann.wait_for(LEGAL)
    ann.type("q", enter=False)
    assert ann.exit_code() == 0
    assert b"Your game is kept on the server" in ann.output


def test_q_in_a_room_waits_for_enter(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path, "race", "new", "gate")
    register(ann, "ann")
    ann.wait_for(r"race join [A-Z0-9]{6}")
    ann.type("q", enter=False)
    ann.wait_for(r"(?m)^> q$")  # (in the line, waiting)
    ann.type("")
    assert ann.exit_code() == 0
    assert b"You left room" in ann.output
