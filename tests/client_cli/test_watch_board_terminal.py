"""``top GAME --watch`` as the terminal changes under it and as its server goes away.

An outside tester resized a terminal (tmux) from 80x24 to 40x15 and back: the board's
title line, ``The Gate: daily challenge, ...``, showed twice and stayed doubled. A terminal
that folds its lines anew for the new width (tmux, and most terminals now) moves the last
drawing's rows where the client cannot count them, so it went back over too few; after a
resize it draws the board again from the screen's top. pyte folds nothing anew (it cuts),
so this is read in a real tmux, where there is one.

And with its server killed, the watch went on saying ``watching: the board is redrawn as
it changes``: it says the connection is lost, and being tried again, until it is back."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.conftest import ServerProcess

from .terminal import CLIENT, Terminal, flat, start
from .test_league_close_terminal import shows
from .test_league_link_terminal import own_server
from .test_terminal import daily_resigned

__all__ = ["own_server"]  # (a fixture, used by name)

TITLE = r"The Gate: daily challenge, \d{4}-\d\d-\d\d"


class Tmux:
    """A tmux server of the test's own (its own socket), one window running a command."""

    def __init__(self, name: str, command: list[str], env: dict[str, str]) -> None:
        self.base = ["tmux", "-L", name, "-f", os.devnull]
        self.env = {**os.environ, **env, "TERM": "xterm-256color"}
        # the size is the window's: LINES and COLUMNS (set in pytest's workers) would
        # override it, and no resize would be seen
        for fixed in ("LINES", "COLUMNS"):
            self.env.pop(fixed, None)
        self.run("new-session", "-d", "-s", "w", "-x", "80", "-y", "24", *command)

    def run(self, *args: str) -> str:
        done = subprocess.run(
            [*self.base, *args], env=self.env, capture_output=True, text=True, timeout=20
        )
        return done.stdout

    @property
    def text(self) -> str:
        """The window's visible rows."""
        return self.run("capture-pane", "-p", "-t", "w")

    def wait_for(self, pattern: str, timeout: float = 20) -> str:
        deadline = time.monotonic() + timeout
        while not re.search(pattern, self.text):
            if time.monotonic() > deadline:
                raise AssertionError(f"no {pattern!r} in the window:\n{self.text}")
            time.sleep(0.1)
        return self.text

    def settle(self, quiet: float = 0.5, most: float = 10) -> str:
        """The window once it has not changed for ``quiet`` seconds (its countdown ticks
        each second: a drawing is whole between two ticks)."""
        deadline = time.monotonic() + most
        last, since = self.text, time.monotonic()
        while time.monotonic() < deadline and time.monotonic() - since < quiet:
            time.sleep(0.05)
            now = self.text
            if now != last:
                last, since = now, time.monotonic()
        return last

    def resize(self, cols: int, rows: int) -> None:
        self.run("resize-window", "-t", "w", "-x", str(cols), "-y", str(rows))

    def close(self) -> None:
        self.run("kill-server")


@pytest.fixture
def tmux(tmp_path: Path) -> Iterator[list[Tmux]]:
    if shutil.which("tmux") is None:
        if os.environ.get("CI"):  # (.ci/run installs it: CI must run this)
            pytest.fail("tmux is missing")
        pytest.skip("needs tmux (a terminal that folds its lines anew on a resize)")
    opened: list[Tmux] = []
    yield opened
    for window in opened:
        window.close()


def once(shown: str) -> str:
    """``shown``, a window with one drawing of the board in it, nothing left of another
    (its title, its first row or its head twice: the tester's title line doubled)."""
    for line in (TITLE, r"(?m)^\s*1\s+p0\s", r"(?m)^\s*#\s+player\s"):
        assert len(re.findall(line, shown)) == 1, shown
    return shown


def test_a_board_watched_is_drawn_once_after_a_resize_and_back(
    server_process: ServerProcess, tmp_path: Path, tmux: list[Tmux]
) -> None:
    url = server_process.url
    for n in range(6):
        daily_resigned(url, f"p{n}")
    # (as typed at a shell: its command line above the board, folded at 80 columns)
    typed = f"{CLIENT} top gate --watch --server {url}"
    command = ["sh", "-c", f'echo "$ {typed}"; exec {typed}']
    window = Tmux(f"patience-{os.getpid()}", command, {"XDG_CONFIG_HOME": str(tmp_path)})
    tmux.append(window)
    window.wait_for(r"watching: the board is redrawn as it changes")
    window.resize(40, 15)
    window.wait_for(r"replay ids show in a wider")  # (drawn for 40 columns)
    once(window.settle())
    window.resize(80, 24)
    window.wait_for(r"hints\s+replay")  # (drawn for 80 columns again)
    shown = once(window.settle())
    assert re.search(r"watching: the board is redrawn as it changes", shown), shown


def test_a_board_watched_says_its_connection_is_lost_until_it_is_back(
    own_server: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    watch = start(terminals, own_server, tmp_path, "top", "gate", "--watch")
    shows(watch, r"watching: the board is redrawn as it changes")
    own_server.stop(signal.SIGKILL)
    shows(watch, r"connection lost: reconnecting in \d", timeout=15)
    assert "watching: the board" not in flat(watch.text), watch.text
    own_server.start()
    shows(watch, r"watching: the board is redrawn as it changes", timeout=30)
    assert "connection lost" not in flat(watch.text), watch.text
    daily_resigned(own_server.url, "bob")  # (watching again: a change is drawn)
    shows(watch, r"\d\s+bob\s+\d+/52")
    watch.child.sendintr()
    assert watch.exit_code() == 0
