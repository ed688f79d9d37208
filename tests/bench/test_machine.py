"""``bench/machine.py``: the machine's speed, as ``.ci/run`` prints it beside the suite."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bench.machine import measure

ROOT = Path(__file__).resolve().parents[2]


def test_the_best_try_is_the_fastest_and_a_real_time() -> None:
    figures = measure(3, n=200_000)
    assert len(figures["tries_s"]) == 3
    assert figures["best_s"] == min(figures["tries_s"]) > 0
    assert figures["additions"] == 200_000


def test_it_prints_one_line_and_writes_its_figures(tmp_path: Path) -> None:
    out = tmp_path / "machine.json"
    run = subprocess.run(
        [sys.executable, "bench/machine.py", "--tries", "1", "--json-out", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(out.read_text())
    assert run.stdout.startswith(f"machine: 10M additions in {figures['best_s']} s (best of 1")
    assert run.stdout.count("\n") == 1


def test_no_tries_is_refused() -> None:
    run = subprocess.run(
        [sys.executable, "bench/machine.py", "--tries", "0"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert run.returncode == 2 and "--tries: at least 1" in run.stderr
