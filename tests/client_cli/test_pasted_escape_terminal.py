"""An escape sequence pasted (or typed by a stray key) where the client reads keys: ESC
``[31m``, a colour's code, reads to prompt_toolkit as a mouse report it cannot parse. An
outside tester pasted it into a solo game's move line: ``Unhandled exception in event
loop`` and ``Press ENTER to continue...`` on the screen, and that Enter eaten; the replay
viewer did the same (its mouse off), and so did the plain prompts. It is dropped: nothing
shown, no key after it lost."""

from __future__ import annotations

from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, start
from .test_replay_keys_terminal import solo_game
from .test_terminal import register

#: what the tester pasted: a colour's escape sequence (and others of its kind: a mouse
#: report's form, with too few numbers or none)
PASTED = ["\x1b[31m", "\x1b[1;2M", "\x1b[<5M", "\x1b[;m"]


def unhandled(terminal: Terminal) -> bool:
    return b"Unhandled exception" in terminal.output or b"Press ENTER" in terminal.output


def test_an_escape_sequence_pasted_into_the_move_line_is_dropped(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path, "play", "gate", "--seed", "1234")
    register(ann, "ann")
    ann.wait_for(LEGAL)
    for pasted in PASTED:
        ann.type(pasted, enter=False)
    ann.type("b4")  # (a move after it: played, nothing eaten)
    ann.wait_for(r"moves 1")
    assert not unhandled(ann), ann.text
    ann.type("q")
    assert ann.exit_code() == 0
    assert not unhandled(ann), ann.text


def test_an_escape_sequence_at_the_name_prompt_is_dropped(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path, "play", "gate", "--seed", "1234")
    ann.wait_for("name:")
    for pasted in PASTED:
        ann.type(pasted, enter=False)
    ann.type("ann")
    ann.wait_for(LEGAL)
    assert not unhandled(ann), ann.text


def test_an_escape_sequence_in_the_replay_viewer_is_dropped(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    gid = solo_game(server_process.url, tmp_path)
    viewer = start(terminals, server_process, tmp_path, "replay", gid)
    viewer.wait_for(r"step 0 of \d+")
    for pasted in PASTED:
        viewer.type(pasted, enter=False)
    viewer.type(" ", enter=False)  # (a key after it: taken)
    viewer.wait_for(r"step 1 of \d+")
    viewer.type("q", enter=False)
    assert viewer.exit_code() == 0
    assert not unhandled(viewer), viewer.text
