"""One version: the server reports the version ``pyproject.toml`` gives, in ``welcome``
and in the ``listening`` line, and nowhere else is another written down."""

from __future__ import annotations

import re
import tomllib
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


def test_no_other_version_is_written_in_the_server() -> None:
    for path in (ROOT / "server").rglob("*.py"):
        assert not re.search(r"__version__\s*=\s*[\"']", path.read_text()), path


async def test_welcome_carries_it(server: Running) -> None:
    client = await Client.connect(server.url)
    welcome = await client.call("hello", protocol=1)
    assert welcome["server"] == pyproject_version()
    await client.close()


def test_the_listening_line_carries_it(server_process: ServerProcess) -> None:
    server_process.stop()
    assert f'"version": "{pyproject_version()}"' in server_process.log.read_text()
