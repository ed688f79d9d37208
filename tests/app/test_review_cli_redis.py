"""``patience-race-server review`` finds the embedded Redis where the server started it:
under a data directory given relative to where it runs (``data``, the default, which it
read as a URL's host, ``unix://data/...``), and under one too long for a unix socket
(whose socket the server puts in ``/tmp``). With no Redis there it says so in a line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from server.app.embedded_redis import EmbeddedRedis

ROOT = Path(__file__).resolve().parents[2]


def review_list(cwd: Path, data_dir: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PATIENCE_REDIS_URL"}
    env |= {"PYTHONPATH": str(ROOT), "PATIENCE_DATA_DIR": data_dir}
    return subprocess.run(
        [sys.executable, "-m", "server.cli", "review", "list"],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_review_reaches_the_embedded_redis_of_a_relative_data_dir(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path / "data" / "redis"):
        listed = review_list(tmp_path, "data")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.strip() == "no results held for review"


def test_review_reaches_the_embedded_redis_of_a_long_data_dir(tmp_path: Path) -> None:
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    with EmbeddedRedis(deep / "redis") as redis:
        assert not str(redis.socket).startswith(str(deep))  # (in /tmp: too long a path)
        listed = review_list(tmp_path, str(deep))
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.strip() == "no results held for review"


def test_review_with_no_redis_says_so_in_a_line(tmp_path: Path) -> None:
    listed = review_list(tmp_path, "data")
    assert listed.returncode == 1
    assert "Traceback" not in listed.stderr
    [line] = listed.stderr.strip().splitlines()
    assert "cannot reach Redis" in line and "is the server running" in line, line
