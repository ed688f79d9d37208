"""The example Secret's placeholder for the daily deals' key (``CHANGE-ME-...``) is not a
secret: a real server process given it refuses to start, saying what to do, before it
touches Redis."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "deploy" / "k8s" / "secret.example.yaml"


def start(secret: str, redis_url: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PATIENCE_PORT": "0",
        "PATIENCE_REDIS_URL": redis_url,
        "PATIENCE_DATA_DIR": str(data),
        "PATIENCE_CERTIFY_AHEAD": "0",
        "PATIENCE_SECRET": secret,
    }
    return subprocess.run(
        [sys.executable, "-m", "server.cli"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        cwd=ROOT,
    )


def test_the_example_placeholder_is_refused(redis_url: str, tmp_path: Path) -> None:
    placeholder = yaml.safe_load(EXAMPLE.read_text())["stringData"]["daily-secret"]
    assert placeholder.startswith("CHANGE-ME")
    for given in (placeholder, " change-me ", "CHANGE-ME"):
        done = start(given, redis_url, tmp_path)
        assert done.returncode == 2, (given, done.stderr[-500:])
        last = done.stderr.strip().splitlines()[-1]
        assert last.startswith("patience-race-server: error: PATIENCE_SECRET: "), last
        assert "placeholder" in last and "secrets.token_hex(32)" in last, last
