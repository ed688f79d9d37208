"""A terminal waiting in the quick race's queue while the server process restarts: the
real client in a pseudo-terminal against a real server (a child process, stopped and
started again on the same port and Redis). Once back, the client says so and joins the
queue again, and the ghosts come after their wait (it showed "waiting" for ever, having
signed in again without asking again)."""

from __future__ import annotations

import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, start
from .test_quick_terminal import saved

#: the wait's line at the prompt (printed before the full screen, so read in the output)
WAITING = rb"Quick race of The Gate: waiting \xc2\xb7 your rating 0"


@pytest.fixture
def quick_server(redis_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """The server, its ghosts after 4 s: long enough for the restart to fall in the wait."""
    proc = ServerProcess(
        redis_url,
        tmp_path,
        PATIENCE_QUICK_TICK="0.1",
        PATIENCE_QUICK_GATHER="0",
        PATIENCE_QUICK_GHOSTS_AFTER="4",
    )
    proc.start()
    yield proc
    if proc.process is not None:
        proc.stop(signal.SIGKILL)


def said(terminal: Terminal, pattern: bytes, timeout: float = 20) -> re.Match[bytes]:
    """Wait until the client has written ``pattern`` (at the plain prompt, before the full
    screen: what it printed may have scrolled or been drawn over since)."""
    deadline = time.monotonic() + timeout
    regex = re.compile(pattern)
    while True:
        match = regex.search(terminal.output)
        if match:
            return match
        if not terminal.pump() or time.monotonic() > deadline:
            raise AssertionError(f"no {pattern!r} written:\n{terminal.output[-2000:]!r}")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["term", "kill"])
def test_a_wait_is_joined_again_after_a_server_restart(
    sig: int, quick_server: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    config = tmp_path / "eve"
    saved(quick_server.url, config, "eve")
    eve = start(terminals, quick_server, config, "quick", "gate")
    said(eve, WAITING)
    quick_server.stop(sig)
    said(eve, rb"The connection dropped")
    quick_server.start()
    said(eve, rb"Reconnected")
    # asked again: a second wait's line (after SIGKILL the queue may have kept the first
    # wait, and its ghosts come at once), then the ghosts (no race recorded: alone)
    eve.wait_for(r"The Gate · quick race, alone", timeout=30)
    eve.wait_for(LEGAL)
    assert len(re.findall(WAITING, eve.output)) >= 2, eve.output
    eve.type("q")
    assert eve.exit_code() == 0
