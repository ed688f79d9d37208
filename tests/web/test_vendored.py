"""The vendored msgpack library (``client_web/vendor/msgpack/``, :mod:`.vendored`) is the
version the lockfile names, each file as recorded, byte for byte the published build
where npm has installed it (CI does), and it is what the server serves: the browser
client needs no npm to run."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from server.app.transport import static

from . import vendored


def test_the_vendored_version_is_the_lockfiles() -> None:
    note = vendored.record()
    assert note["package"] == vendored.PACKAGE
    assert {"version": note["version"], "integrity": note["integrity"]} == vendored.locked()


def test_every_vendored_file_is_as_recorded() -> None:
    sums = vendored.record()["sha256"]
    files = vendored.vendored_files()
    assert sorted(files) == sorted(sums), "files added or missing since `make vendor`"
    assert "index.mjs" in files and "LICENSE" in files
    for name, path in files.items():
        assert vendored.sha256(path) == sums[name], f"{name} changed since `make vendor`"


def test_the_vendored_files_are_the_installed_package_byte_for_byte() -> None:
    """Against the package npm installed from the lockfile (which checked its integrity)."""
    if not (vendored.INSTALLED / "package.json").is_file():
        if os.environ.get("CI") == "true":
            pytest.fail("client_web/node_modules is not installed: .ci/run must run npm ci")
        pytest.skip("client_web/node_modules is not installed (make web)")
    installed = json.loads((vendored.INSTALLED / "package.json").read_text())
    assert installed["version"] == vendored.locked()["version"], "run make web"
    published = vendored.package_files(vendored.INSTALLED)
    files = vendored.vendored_files()
    assert sorted(files) == sorted(published)
    for name, path in files.items():
        assert path.read_bytes() == published[name].read_bytes(), name


def test_the_server_serves_the_vendored_copy() -> None:
    assert static.MSGPACK == vendored.VENDORED
    for name in ("index.mjs", "utils/int.mjs"):
        served = static.web_file(f"vendor/msgpack/{name}")
        assert served is not None and served.content_type == static.JAVASCRIPT
        assert served.text.encode() == (vendored.VENDORED / name).read_bytes()
    assert static.web_file("vendor/msgpack/LICENSE") is None


def test_the_client_is_ready_without_node_modules(tmp_path: Path) -> None:
    """A copy of the client without ``node_modules`` (as a clone without npm has it)."""
    shutil.copytree(
        static.WEB_ROOT, tmp_path / "client_web", ignore=shutil.ignore_patterns("node_modules")
    )
    assert static.client_ready(tmp_path / "client_web") is None
    shutil.rmtree(tmp_path / "client_web" / "vendor")
    assert "msgpack" in (static.client_ready(tmp_path / "client_web") or "")
