"""What a one-shot command loads: ``patience-race top`` and ``--help`` print and quit, so
they import neither prompt_toolkit nor the game's full-screen parts (a third of their
start-up, 0.25 s of ``top``, before); ``--help`` asks no server, so it loads no websocket
either, nor ``importlib.metadata`` for the version. Checked in a fresh interpreter, by
what is in ``sys.modules`` once the command is done (no timing: a loaded machine's
figures would make it flaky)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

from tests.app.conftest import ServerProcess

ROOT = Path(__file__).resolve().parents[2]

#: what no one-shot command needs: the full screen's library and parts
FULL_SCREEN = ["prompt_toolkit", "client_cli.tui", "client_cli.controller", "client_cli.screen"]
#: and what ``--help`` does not need either
ONLINE = ["websockets", "importlib.metadata", "client_cli.connection"]

LOADED = """
import contextlib, io, json, sys
from client_cli.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
    main(sys.argv[1:])
import client_cli
print(json.dumps({"out": out.getvalue(), "modules": sorted(sys.modules),
                  "version": client_cli.__version__}))
"""


def run(*args: str) -> tuple[str, list[str], str]:
    """The command's output, the modules it loaded and the version the client says."""
    done = subprocess.run(
        [sys.executable, "-c", LOADED, *args], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout.splitlines()[-1])
    return found["out"], found["modules"], found["version"]


def among(modules: list[str], names: list[str]) -> list[str]:
    return [m for m in modules if any(m == n or m.startswith(f"{n}.") for n in names)]


def test_top_and_help_load_no_full_screen_parts(server_process: ServerProcess) -> None:
    out, modules, version = run("top", "--server", server_process.url)
    assert "Daily challenges" in out
    assert among(modules, FULL_SCREEN) == []
    out, modules, _ = run("--help")
    assert "usage: patience-race" in out
    assert among(modules, FULL_SCREEN + ONLINE) == []
    # the version, read without importlib.metadata, is still pyproject.toml's
    with (ROOT / "pyproject.toml").open("rb") as f:
        assert version == tomllib.load(f)["project"]["version"]
