"""HAProxy's configuration, checked by HAProxy itself when it is installed (Debian's
``haproxy``; skipped otherwise): it parses, and it starts under the descriptor limit
the compose file grants, where ``maxconn 50000`` made it stop at start."""

from __future__ import annotations

import re
import resource
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
HAPROXY = shutil.which("haproxy")

needs_haproxy = pytest.mark.skipif(HAPROXY is None, reason="haproxy is not installed")


def granted() -> int:
    """The open files the compose file grants HAProxy's container."""
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    nofile = compose["services"]["haproxy"]["ulimits"]["nofile"]
    assert nofile["soft"] == nofile["hard"]
    return int(nofile["hard"])


def setting(name: str) -> int:
    found = re.search(rf"^\s+{name} (\d+)$", (DEPLOY / "haproxy.cfg").read_text(), re.M)
    assert found, name
    return int(found[1])


def test_maxconn_fits_the_descriptors_granted() -> None:
    """Two descriptors a connection and a few more, within the limit the config states,
    which is what compose grants."""
    assert setting("fd-hard-limit") == granted()
    assert 2 * setting("maxconn") + 100 <= granted()


@needs_haproxy
def test_haproxy_checks_the_configuration() -> None:
    assert HAPROXY is not None
    done = subprocess.run(
        [HAPROXY, "-c", "-f", str(DEPLOY / "haproxy.cfg")], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stdout + done.stderr


@needs_haproxy
def test_haproxy_starts_with_the_descriptors_compose_grants(tmp_path: Path) -> None:
    """Run for real (on a free loopback port), with the open-files limit of the compose
    file's ``ulimits``: it is still running a second later."""
    assert HAPROXY is not None
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cfg = (DEPLOY / "haproxy.cfg").read_text().replace("bind *:8765", f"bind 127.0.0.1:{port}")
    assert f"127.0.0.1:{port}" in cfg
    (tmp_path / "haproxy.cfg").write_text(cfg)
    limit = granted()

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

    process = subprocess.Popen(
        [HAPROXY, "-db", "-f", str(tmp_path / "haproxy.cfg")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        preexec_fn=limited,
    )
    try:
        time.sleep(1.0)
        running = process.poll() is None
    finally:
        process.terminate()
        output = process.communicate(timeout=10)[0].decode()
    assert running, output
    assert "Cannot raise FD limit" not in output
