"""Ctrl-Z suspends the client to the shell it was started from, as a terminal program
is, and ``fg`` brings it back, its screen drawn again and its game where it was. An
outside probe found Ctrl-Z typed ``^Z`` into the move line, the client running on.

The client runs in an interactive shell (bash, with job control) in a pseudo-terminal,
as a person starts it."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pexpect
import pytest

from tests.app.conftest import ServerProcess

from .terminal import CLIENT
from .test_replay_keys_terminal import solo_game


def shell_in_a_pty(server_process: ServerProcess, config: Path) -> pexpect.spawn:
    """An interactive bash (job control) in a pseudo-terminal, at its prompt, the client's
    server and config in its environment."""
    bash = shutil.which("bash")
    if bash is None:  # (every Debian has it: CI must run this)
        if os.environ.get("CI"):
            pytest.fail("bash is missing")
        pytest.skip("needs bash")
    env = {
        **os.environ,
        "PATIENCE_SERVER": server_process.url,
        "XDG_CONFIG_HOME": str(config),
        "TERM": "xterm-256color",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PS1": "shell$ ",
        "LINES": "24",
        "COLUMNS": "80",
    }
    shell = pexpect.spawn(
        bash, ["--norc", "--noprofile", "-i"], env=env, dimensions=(24, 80), encoding="utf-8"
    )
    shell.expect_exact("shell$ ", timeout=10)
    return shell


def suspended_and_back(shell: pexpect.spawn, drawn: str) -> None:
    """Ctrl-Z: stopped, the shell's prompt, ``jobs`` lists it; ``fg``: ``drawn`` again."""
    shell.sendcontrol("z")
    shell.expect(r"Stopped", timeout=10)
    shell.expect_exact("shell$ ", timeout=10)
    shell.sendline("jobs")
    shell.expect(r"\[1\]\+\s+Stopped", timeout=10)
    shell.sendline("fg")
    shell.expect(drawn, timeout=20)  # (drawn again)


def test_ctrl_z_suspends_to_the_shell_and_fg_brings_the_game_back(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    shell = shell_in_a_pty(server_process, tmp_path / "config")
    try:
        shell.sendline(f"{CLIENT} play gate --seed 7")
        shell.expect("name:", timeout=20)
        shell.sendline("zed")
        shell.expect("legal:", timeout=20)
        suspended_and_back(shell, "legal:")
        shell.sendline("q")
        shell.expect_exact("shell$ ", timeout=20)
    finally:
        shell.close(force=True)


def test_ctrl_z_suspends_the_replay_viewer_too(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    """The replay viewer, a screen of its own, took Ctrl-Z for nothing."""
    gid = solo_game(server_process.url, tmp_path / "ann")
    shell = shell_in_a_pty(server_process, tmp_path / "ann")
    try:
        shell.sendline(f"{CLIENT} replay {gid}")
        shell.expect(r"step \d+ of \d+", timeout=20)
        suspended_and_back(shell, r"step \d+ of \d+")
        shell.send("q")
        shell.expect_exact("shell$ ", timeout=20)
    finally:
        shell.close(force=True)
