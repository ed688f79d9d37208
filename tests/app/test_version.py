"""One version: the server reports the version ``pyproject.toml`` gives, in ``welcome``
and in the ``listening`` line, and nowhere else is another written down."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
import urllib.request
from pathlib import Path

import server
from server import _version

from .client import Client
from .conftest import Running, ServerProcess

ROOT = Path(__file__).resolve().parents[2]


def pyproject_version() -> str:
    with (ROOT / "pyproject.toml").open("rb") as f:
        return str(tomllib.load(f)["project"]["version"])


def test_the_server_reports_pyprojects_version() -> None:
    assert server.__version__ == pyproject_version()
    # the source tree's own reading, for a copy run without installing, agrees too
    assert _version.PYPROJECT == ROOT / "pyproject.toml"


def test_no_other_version_is_written_in_the_server_or_the_client() -> None:
    # (the terminal client once said 0.1.0 of itself, written in its package, a version
    # after pyproject.toml had moved on)
    for path in [*(ROOT / "server").rglob("*.py"), *(ROOT / "client_cli").rglob("*.py")]:
        assert not re.search(r"__version__\s*=\s*[\"']", path.read_text()), path


def test_the_terminal_client_says_it_too() -> None:
    out = subprocess.run(
        [sys.executable, "-c", "from client_cli.cli import main; main(['--version'])"],
        capture_output=True,
        text=True,
    )
    assert out.stdout.strip() == f"patience-race {pyproject_version()}", out


async def test_welcome_carries_it(server: Running) -> None:
    client = await Client.connect(server.url)
    welcome = await client.call("hello", protocol=1)
    assert welcome["server"] == pyproject_version()
    await client.close()


def test_the_listening_line_carries_it(server_process: ServerProcess) -> None:
    server_process.stop()
    assert f'"version": "{pyproject_version()}"' in server_process.log.read_text()


def test_a_build_tells_two_trees_of_one_version_apart(tmp_path: Path) -> None:
    """An operator's rolling upgrade: two releases both said 0.2.0 everywhere, and which
    processes ran the new code could not be told. A build is a digest of the server's
    own source: the same tree gives the same, a changed line another."""
    first = _version.build()
    assert re.fullmatch(r"[0-9a-f]{12}", first) and _version.build() == first
    copy = tmp_path / "server"
    for path in (ROOT / "server").rglob("*.py"):
        if "__pycache__" not in path.parts and "_native" not in path.parts:
            target = copy / path.relative_to(ROOT / "server")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    assert _version.digest(copy) == first
    (copy / "app" / "moves.py").write_text((copy / "app" / "moves.py").read_text() + "\n# x\n")
    assert _version.digest(copy) != first


def test_the_listening_line_and_the_metrics_say_the_build(server_process: ServerProcess) -> None:
    with urllib.request.urlopen(f"http://127.0.0.1:{server_process.port}/metrics") as answer:
        body = answer.read().decode()
    info = f'patience_build_info{{version="{pyproject_version()}",build="{_version.build()}"}} 1'
    assert info in body.splitlines(), body
    server_process.stop()
    assert f'"build": "{_version.build()}"' in server_process.log.read_text()
