"""Ctrl-C ends the client at once, even when the server has stopped answering: the
closing handshake is a courtesy, and a person who asks to leave is not kept waiting on
it (websockets waits ten seconds for the server's side of it by default)."""

from __future__ import annotations

import signal
import time
from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import Terminal

#: seconds the client may take to exit after Ctrl-C with the server stopped (generous for
#: a loaded machine: the fault this guards against took ten)
PROMPT = 5.0


def test_ctrl_c_leaves_a_board_watch_at_once_while_the_server_is_stopped(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    watch = Terminal(["top", "gate", "--watch"], server=server_process.url, config=tmp_path)
    terminals.append(watch)
    watch.wait_for(r"watching: the board is redrawn as it changes · Ctrl-C stops")
    assert server_process.process is not None
    server_process.process.send_signal(signal.SIGSTOP)  # a server that hangs, or its network
    try:
        watch.child.sendintr()
        began = time.monotonic()
        assert watch.exit_code(timeout=15) == 0
        took = time.monotonic() - began
    finally:
        server_process.process.send_signal(signal.SIGCONT)
    assert took < PROMPT, f"{took:.1f} s to leave"


def test_ctrl_c_or_ctrl_d_at_the_first_runs_name_leaves_quietly(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """A new player asked for a name may change their mind: Ctrl-C, Ctrl-D or an empty
    answer leaves with a line saying nothing was registered (Ctrl-C and Ctrl-D once ended
    in a traceback, through ``client_cli.controller.Left``)."""
    for key in ("\x03", "\x04", "\r"):
        config = tmp_path / f"key{ord(key)}"
        new = Terminal(["play", "gate"], server=server_process.url, config=config)
        terminals.append(new)
        new.wait_for("name:")
        new.child.send(key)
        assert new.exit_code(timeout=15) == 0, new.text
        assert "Traceback" not in new.text
        assert "No name chosen: nothing is registered." in new.text, new.text
        assert not (config / "patience-race" / "tokens.json").exists()


def test_ctrl_c_before_a_ranked_daily_says_nothing_was_started(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Ctrl-C (or q) at ``Press Enter to start your ranked attempt`` leaves saying that
    nothing was started, and how to come back (it left with no word)."""
    for key in ("\x03", "q\r"):
        config = tmp_path / f"key{ord(key[0])}"
        ann = Terminal(["daily", "gate"], server=server_process.url, config=config)
        terminals.append(ann)
        ann.wait_for("name:")
        ann.type(f"ann{ord(key[0])}")
        ann.wait_for(r"Press Enter to start your ranked attempt")
        ann.child.send(key)
        assert ann.exit_code(timeout=15) == 0, ann.text
        said = " ".join(ann.text.split())
        assert "Nothing was started: your ranked attempt at The Gate" in said, ann.text
        # (the terminal breaks the command where the line ends, in a word or not)
        assert "patience-racedailygate" in "".join(said.split()), ann.text
