"""Ctrl-Z suspends the client to the shell it was started from, as a terminal program
is, and ``fg`` brings it back, its screen drawn again and its game where it was. An
outside probe found Ctrl-Z typed ``^Z`` into the move line, the client running on.

The client runs in an interactive shell (bash, with job control) in a pseudo-terminal,
as a person starts it."""

from __future__ import annotations

import os
import re
import shutil
import time
from pathlib import Path

import pexpect
import pyte
import pytest

from tests.app.conftest import ServerProcess
from tests.app.test_review import LOST_LINE, SEED

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


class Screen:
    """What a shell in a pty shows, as a terminal would (pyte fed everything read)."""

    def __init__(self, shell: pexpect.spawn) -> None:
        self.screen = pyte.Screen(80, 24)
        self.stream = pyte.Stream(self.screen)
        self.shell = shell
        shell.logfile_read = self

    def write(self, data: str) -> None:
        self.stream.feed(data)

    def flush(self) -> None:
        pass

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, pattern: str, timeout: float = 30) -> str:
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.text):
            if time.monotonic() > deadline:
                raise AssertionError(f"{pattern!r} is not on the screen:\n{self.text}")
            self.shell.expect([pexpect.TIMEOUT, pexpect.EOF], timeout=0.2)
        return self.text

    def wait_until_shown(self, expected: str, timeout: float = 30) -> None:
        """Wait until the screen is ``expected`` again, whole: a redraw comes in pieces,
        so its first line on the screen says nothing of its last."""
        deadline = time.monotonic() + timeout
        while self.text != expected:
            if time.monotonic() > deadline:
                assert self.text == expected  # (pytest shows the difference)
            self.shell.expect([pexpect.TIMEOUT, pexpect.EOF], timeout=0.2)


def test_ctrl_z_suspends_the_review_page_too(server_process: ServerProcess, tmp_path: Path) -> None:
    """On the review page (``review`` on a finished game), Ctrl-Z did nothing: the page
    took every key; the Enter of a later ``fg``, typed into the client, scrolled it."""
    shell = shell_in_a_pty(server_process, tmp_path / "config")
    screen = Screen(shell)
    try:
        shell.sendline(f"{CLIENT} play nestor --seed {SEED}")
        screen.wait_for("name:", timeout=20)
        shell.sendline("zed")
        screen.wait_for("legal:", timeout=20)
        for move in [*LOST_LINE, "reserve", "reserve", "reserve"]:
            shell.sendline(move)
        screen.wait_for("c challenge a friend")
        shell.sendline("review")
        # the page drawn whole: its first line, its last and the prompt under it
        page = screen.wait_for(r"(?s)Where the game was lost.*q or Esc: the table\n>", timeout=60)
        suspended_and_back(shell, "Review")
        # drawn again as it was: the page at its top (fg's Enter went to the shell)
        screen.wait_until_shown(page)
        shell.send("q")  # (the page closed; the game's screen under it)
        screen.wait_for("c challenge a friend")
        shell.sendline("q")
        shell.expect_exact("shell$ ", timeout=20)
    finally:
        shell.close(force=True)


def test_ctrl_z_suspends_the_name_prompt_and_fg_brings_it_back_as_it_was(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    """The plain prompts before the screen typed ``^Z`` into the answer (``name: ^Z``:
    Ctrl-D no longer left, and Enter sent it, refused as a bad name)."""
    shell = shell_in_a_pty(server_process, tmp_path / "config")
    try:
        shell.sendline(f"{CLIENT} play gate --seed 7")
        shell.expect("name:", timeout=20)
        shell.send("ze")  # (half typed: there again after fg)
        shell.expect_exact("ze", timeout=10)
        suspended_and_back(shell, "name:")
        shell.sendline("d")
        shell.expect("legal:", timeout=20)  # registered as zed: the game
        shell.sendline("q")
        shell.expect_exact("shell$ ", timeout=20)
    finally:
        shell.close(force=True)
    assert '"name": "zed"' in (tmp_path / "config/patience-race/tokens.json").read_text()


def test_ctrl_z_at_the_dailys_press_enter_starts_nothing(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    """At ``Press Enter to start your ranked attempt``, Ctrl-Z typed ``^Z``, and the Enter
    after it started the ranked clock: it suspends, and fg brings the question back."""
    shell = shell_in_a_pty(server_process, tmp_path / "config")
    try:
        shell.sendline(f"{CLIENT} daily gate")
        shell.expect("name:", timeout=20)
        shell.sendline("zed")
        shell.expect(r"Press Enter to start your ranked attempt \(q to leave\)", timeout=20)
        suspended_and_back(shell, r"Press Enter to start your ranked attempt \(q to leave\)")
        shell.sendline("q")
        shell.expect("Nothing was started", timeout=20)
        shell.expect_exact("shell$ ", timeout=20)
    finally:
        shell.close(force=True)
