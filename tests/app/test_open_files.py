"""A server started under a low limit of open files (systemd's and many shells' 1,024)
raises it to the most it may have, and says in its log when that is still below what
``max_connections`` needs: under ``ulimit -n 200`` it stalled at 183 connections, the
health checks failing too, with nothing logged."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from .conftest import free_port

CLI = "server.cli"


def started(redis_url: str, tmp_path: Path, soft: int, hard: int, **env: str) -> str:
    """The server's limit of open files once it listens, and what it logged."""
    port = free_port()
    out = tmp_path / "out"
    process = subprocess.Popen(
        [
            "sh",
            "-c",
            f"ulimit -Sn {soft} && ulimit -Hn {hard} && exec {sys.executable} -m server.cli",
        ],
        env={
            **os.environ,
            "PATIENCE_PORT": str(port),
            "PATIENCE_REDIS_URL": redis_url,
            "PATIENCE_DATA_DIR": str(tmp_path),
            "PATIENCE_CERTIFY_AHEAD": "0",
            **env,
        },
        stdout=out.open("wb"),
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while b"listening on" not in out.read_bytes():
            assert process.poll() is None, out.read_text()
            assert time.monotonic() < deadline, out.read_text()
            time.sleep(0.05)
        limits = Path(f"/proc/{process.pid}/limits").read_text()
        found = re.search(r"^Max open files\s+(\d+)\s+(\d+)", limits, re.M)
        assert found is not None, limits
        return f"{found[1]} {found[2]}\n{out.read_text()}"
    finally:
        process.terminate()
        process.wait(15)


@pytest.mark.skipif(not Path("/proc/self/limits").exists(), reason="Linux's /proc")
def test_the_limit_is_raised_and_a_short_one_is_said(redis_url: str, tmp_path: Path) -> None:
    seen = started(redis_url, tmp_path, soft=200, hard=2048)
    assert seen.startswith("2048 2048\n"), seen
    assert "the limit of open files (2048) is below max_connections" in seen
    enough = started(redis_url, tmp_path, soft=200, hard=2048, PATIENCE_MAX_CONNECTIONS="1000")
    assert enough.startswith("2048 2048\n"), enough
    assert "limit of open files" not in enough
