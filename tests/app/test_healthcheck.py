"""The image's health check asks the port the server is configured with: its command,
read from ``deploy/Dockerfile``, run against a real server on a port that is not the
default one."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from .conftest import ServerProcess, free_port

DOCKERFILE = Path(__file__).resolve().parents[2] / "deploy" / "Dockerfile"
DEFAULT_PORT = 8765


def health_command() -> list[str]:
    """The ``HEALTHCHECK``'s ``CMD``, in exec form (a JSON array), its ``python`` this
    interpreter."""
    text = DOCKERFILE.read_text().replace("\\\n", " ")
    found = re.search(r"^HEALTHCHECK .*?\bCMD (\[.*\])\s*$", text, re.M)
    assert found, "HEALTHCHECK ... CMD [...] (exec form)"
    command = json.loads(found[1])
    assert isinstance(command, list) and command[0] == "python", command
    return [sys.executable, *command[1:]]


def check(port: int) -> int:
    env = {**os.environ, "PATIENCE_PORT": str(port)}
    return subprocess.run(health_command(), env=env, capture_output=True, timeout=10).returncode


def test_the_health_check_asks_the_configured_port(server_process: ServerProcess) -> None:
    assert server_process.port != DEFAULT_PORT
    assert check(server_process.port) == 0
    # and it is that port it asks: where nothing listens, unhealthy
    assert check(free_port()) != 0
