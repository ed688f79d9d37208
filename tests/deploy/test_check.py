"""``make deploy-check`` where it cannot run: it says why and stops with status 0
(it is run by hand, with Docker; deploy/README.md). And its table of results."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "deploy" / "check.py"


def check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHECK)], env=env, capture_output=True, text=True, timeout=120
    )


def test_it_skips_without_docker(tmp_path: Path) -> None:
    done = check({**os.environ, "PATH": str(tmp_path)})  # no docker command there
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("deploy-check skipped: no docker command on PATH")


@pytest.mark.skipif(shutil.which("docker") is None, reason="no docker command")
def test_it_skips_without_a_daemon(tmp_path: Path) -> None:
    env = {**os.environ, "DOCKER_HOST": f"unix://{tmp_path}/no-daemon.sock"}
    done = check(env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("deploy-check skipped: no Docker daemon answers")
    assert "deploy/README.md" in done.stdout


def test_the_report_says_what_passed() -> None:
    spec = importlib.util.spec_from_file_location("deploy_check", CHECK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    report = module.Report()
    report.add("build the image", True, "in 75 s")
    assert report.passed
    report.add("resume through HAProxy", False, "bob could not come back")
    assert not report.passed
    lines = report.table().splitlines()
    assert lines[0].split() == ["step", "result", "detail"]
    assert lines[2].split()[:4] == ["build", "the", "image", "pass"]
    assert "FAIL" in lines[3] and lines[3].endswith("bob could not come back")
