"""``patience-race-server``'s own command line: what its help names, and its tools
read through a pipe that closes early."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

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


def test_native_build_without_mypy_says_what_to_install(tmp_path: Path) -> None:
    """An installed server (pip install .) has no mypy: ``native build`` ended in a
    traceback (``No module named 'mypyc'``). Run here with the venv's packages but
    mypy's and mypyc's, as such an install has them."""
    site = Path(next(p for p in sys.path if p.endswith("site-packages")))
    kept = tmp_path / "site"
    kept.mkdir()
    for entry in site.iterdir():
        if not entry.name.lower().startswith(("mypy", "__editable__", "_patience")):
            (kept / entry.name).symlink_to(entry)
    repo = Path(__file__).resolve().parent.parent
    done = subprocess.run(
        [sys.executable, "-S", "-c", "from server.cli import main; raise SystemExit(main())",
         "native", "build"],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": f"{repo}{os.pathsep}{kept}"},
    )  # fmt: skip
    assert done.returncode == 1, done
    assert done.stderr.startswith(
        "patience-race-server: error: compiling the move path needs mypy (pip install mypy)"
    ), done.stderr
    assert "Traceback" not in done.stderr
