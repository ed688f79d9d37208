"""HAProxy's configuration, checked by HAProxy itself when it is installed (Debian's
``haproxy``; skipped otherwise): it parses, and it starts under the descriptor limit
the compose file grants, where ``maxconn 50000`` made it stop at start."""

from __future__ import annotations

import importlib.util
import re
import resource
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.app.client import Client
from tests.app.conftest import ServerProcess, free_port

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def load_check() -> Any:
    """deploy/check.py, as a module."""
    spec = importlib.util.spec_from_file_location("deploy_check_haproxy", DEPLOY / "check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


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


class Proxy:
    """The shipped ``haproxy.cfg`` run for real on a free loopback port, in front of one
    real server process in place of the compose file's three replicas."""

    def __init__(self, folder: Path, backend: int) -> None:
        self.port = free_port()
        cfg = (DEPLOY / "haproxy.cfg").read_text()
        cfg = cfg.replace("bind *:8765", f"bind 127.0.0.1:{self.port}")
        cfg, replaced = re.subn(
            r"^\s*server-template .*$",
            f"    server server1 127.0.0.1:{backend} check inter 200ms fall 2 rise 1",
            cfg,
            flags=re.M,
        )
        assert replaced == 1 and f"127.0.0.1:{self.port}" in cfg
        (folder / "haproxy.cfg").write_text(cfg)
        assert HAPROXY is not None
        self.process = subprocess.Popen(
            [HAPROXY, "-db", "-f", str(folder / "haproxy.cfg")],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def get(self, path: str) -> tuple[int, str]:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}{path}", timeout=5) as got:
                return int(got.status), got.read().decode()
        except urllib.error.HTTPError as refused:
            return refused.code, refused.read().decode()
        except OSError:
            return 0, ""

    def wait_up(self) -> None:
        """Until the server answers /healthz through HAProxy."""
        deadline = time.monotonic() + 15
        while self.get("/healthz")[0] != 200:
            assert self.process.poll() is None, self.process.communicate()[0].decode()
            assert time.monotonic() < deadline, "the server never came up behind HAProxy"
            time.sleep(0.1)

    def stop(self) -> str:
        self.process.terminate()
        return self.process.communicate(timeout=10)[0].decode()


@pytest.fixture
def behind_haproxy(redis_url: str, tmp_path: Path) -> Iterator[Proxy]:
    """A real server process set as the compose file sets its replicas (the client's
    address from ``X-Forwarded-For``), capped at one connection an address, behind the
    shipped HAProxy configuration."""
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    header = compose["services"]["server"]["environment"]["PATIENCE_CLIENT_IP_HEADER"]
    server = ServerProcess(
        redis_url,
        tmp_path,
        PATIENCE_CLIENT_IP_HEADER=header,
        PATIENCE_MAX_CONNECTIONS_PER_IP="1",
    )
    server.start()
    proxy = Proxy(tmp_path, server.port)
    try:
        proxy.wait_up()
        yield proxy
    finally:
        output = proxy.stop()
        server.stop()
        print(output)


@needs_haproxy
async def test_a_client_sending_its_own_forwarded_for_connects_through_haproxy(
    behind_haproxy: Proxy,
) -> None:
    """HAProxy's ``option forwardfor`` adds a line to the one the client sent: the client
    is let in, and counted at the address HAProxy wrote (its peer, 127.0.0.1), not at
    the one it claimed."""
    ann = await Client.connect(
        behind_haproxy.url, additional_headers={"X-Forwarded-For": "9.9.9.9"}
    )
    welcome = await ann.request("hello", protocol=1)
    assert welcome["type"] == "welcome", welcome
    assert (await ann.request("register", name="ann"))["type"] == "registered"
    # another claimed address through the same proxy from the same peer: one address
    bob = await Client.connect(
        behind_haproxy.url, additional_headers={"X-Forwarded-For": "8.8.8.8"}
    )
    reason = "too many connections from your address (max_connections_per_ip 1)"
    assert await bob.closed() == (1013, reason)
    await ann.close()


@needs_haproxy
def test_haproxy_serves_no_metrics(behind_haproxy: Proxy) -> None:
    """The shipped HAProxy does not pass /metrics on, however the path is spelt (the
    server decodes percent escapes, and takes an absolute URI's path): 403."""
    assert behind_haproxy.get("/healthz") == (200, "ok\n")
    for path in ("/metrics", "/%6Detrics", "/%6d%65trics", "//x/metrics", "/%2Fmetrics"):
        status, body = behind_haproxy.get(path)
        assert status == 403 and "patience_" not in body, (path, status)
        # refused by HAProxy itself, not only by the server behind it
        assert "Request forbidden by administrative rules" in body, (path, body)
    with socket.create_connection(("127.0.0.1", behind_haproxy.port)) as conn:
        conn.sendall(b"GET http://x/metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := conn.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 403") and b"patience_" not in answer, answer[:200]


@needs_haproxy
async def test_the_checks_forwarded_for_step_passes_through_haproxy(
    behind_haproxy: Proxy,
) -> None:
    """deploy-check's step for a client with its own X-Forwarded-For, run here against
    the shipped HAProxy config (the check runs it against the compose deployment)."""
    check = load_check()
    report = check.Report()
    deployment = check.Deployment(None, behind_haproxy.port, report)
    await deployment.forwarded_for()
    assert report.passed and len(report.rows) == 1, report.table()
