"""A test that hangs fails with its stack, and the run goes on (``timeout`` in
pyproject.toml's pytest settings, pytest-timeout): a hang no longer stalls CI until its
own limit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HUNG = """
import asyncio
import time


def test_hangs():
    time.sleep(60)


async def test_hangs_on_the_loop():
    await asyncio.sleep(60)


def test_after():
    assert True
"""


def test_a_hung_test_fails_with_its_stack_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "test_hung.py").write_text(HUNG)
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-o", "timeout=1",
         "-o", "asyncio_mode=auto", str(tmp_path / "test_hung.py")],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    out = run.stdout + run.stderr
    assert run.returncode == 1, out
    assert "2 failed, 1 passed" in out, out
    assert "Timeout" in out and "time.sleep(60)" in out, out
