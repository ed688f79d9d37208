"""bench/league_close.py, small: it joins, scores and closes a week, and prints its table
(figures only printed: none is checked but that the close moved someone)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_small_run_closes_its_week_and_prints_the_table() -> None:
    done = subprocess.run(
        [sys.executable, "bench/league_close.py", "--players", "300"],
        cwd=ROOT,
        env={**os.environ, "PATIENCE_NATIVE": "0"},
        timeout=240,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, (done.stdout[-1500:], done.stderr[-3000:])
    assert "| players joined                 | 300 in " in done.stdout
    assert "| closing the week " in done.stdout and "Redis used_memory before" in done.stdout
    moved = next(line for line in done.stdout.splitlines() if "moved up / down" in line)
    assert moved.split("|")[2].strip() != "0 / 0"
