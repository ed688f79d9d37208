"""``patience-race-server``'s own command line: what its help names, and its tools
read through a pipe that closes early."""

from __future__ import annotations

import subprocess
import sys

from server.app.settings import Settings
from server.cli import TOOLS


def test_the_help_names_every_other_command() -> None:
    """``--help`` (the server's flags) ends with the other commands: it left out
    ``solve``, ``winnability`` and ``difficulty``, which the README documents."""
    epilog = Settings.parser().epilog or ""
    for tool in TOOLS:
        assert f" {tool}" in epilog, tool


def test_a_tool_read_through_head_ends_without_a_traceback() -> None:
    """``games | head -1``: the reader stops early, and the tool stops quietly (it ended
    in a ``BrokenPipeError`` traceback). Here the reader, ``true``, is gone before the
    tool writes a line."""
    for tool in ("games", "deal gate --seed 1"):
        out = subprocess.run(
            f"{sys.executable} -m server.cli {tool} | true",
            shell=True,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.stderr == "", out.stderr
