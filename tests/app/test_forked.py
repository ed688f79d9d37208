"""The tests' processes forked from a zygote (``tests/app/forked.py``) are what a plain
start would make: the arguments, environment (and nothing else of it), working folder,
files, exit status and signals of their own; a terminal client's pseudo-terminal is its
controlling terminal, of the size asked, in a session of its own."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pexpect

from tests.app import forked

TARGET = "tests.app.forked_target"


def _env(**more: str) -> dict[str, str]:
    """The worker's environment without pytest's variables, and without LINES and
    COLUMNS (a pytest-xdist worker has them, and they would override the terminal's)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST")}
    env = {k: v for k, v in env.items() if k not in ("LINES", "COLUMNS")}
    return {**env, **more}


def _said(out: Path, line: int = 0) -> Any:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        lines = out.read_text().splitlines()
        if len(lines) > line:
            return json.loads(lines[0]) if line == 0 else lines[line]
        time.sleep(0.02)
    raise AssertionError(f"the process said nothing: {out.read_text()!r}")


def _start(tmp_path: Path, args: list[str], env: dict[str, str]) -> tuple[Any, Path]:
    out = tmp_path / "out"
    with out.open("wb") as stdout, (tmp_path / "err").open("wb") as stderr:
        return forked.popen(TARGET, args, env, stdout, stderr), out


def test_a_forked_process_has_its_own_arguments_environment_and_exit_status(
    tmp_path: Path,
) -> None:
    process, out = _start(tmp_path, ["a", "b c"], _env(FORKED_PROBE="x", FORKED_EXIT="3"))
    assert isinstance(process, forked.Forked)  # forked, not started the plain way
    assert process.wait(30) == 3
    said = _said(out)
    assert said["argv"][0].endswith("forked_target.py")
    assert said["argv"][1:] == ["a", "b c"]
    assert said["probe"] == "x"
    assert said["others"] == []  # the worker's PYTEST_* were not asked for: not there
    assert said["cwd"] == os.getcwd()
    assert said["pid"] == process.pid != os.getpid()
    assert said["tty"] is False


def test_a_forked_process_hears_signals_and_its_end_is_told(tmp_path: Path) -> None:
    process, out = _start(tmp_path, ["--wait"], _env())
    assert _said(out, 1) == "waiting"
    assert process.poll() is None
    process.terminate()  # its own handler: exit 7
    assert process.wait(30) == 7
    process, out = _start(tmp_path, ["--wait"], _env())
    assert _said(out, 1) == "waiting"
    process.kill()
    assert process.wait(30) == -signal.SIGKILL
    assert process.poll() == -signal.SIGKILL


def test_another_native_setting_starts_the_plain_way(tmp_path: Path) -> None:
    other = "0" if os.environ.get("PATIENCE_NATIVE") != "0" else "1"
    process, out = _start(tmp_path, [], _env(PATIENCE_NATIVE=other, FORKED_EXIT="4"))
    assert isinstance(process, subprocess.Popen)
    assert process.wait(30) == 4
    assert _said(out)["argv"][0].endswith("forked_target.py")


def test_a_forked_terminal_program_owns_its_pseudo_terminal() -> None:
    child = forked.spawn(
        sys.executable,
        ["--line"],
        entry=f"{TARGET}:main",
        env=_env(FORKED_EXIT="5"),
        dimensions=(30, 100),
    )
    assert isinstance(child.ptyproc, forked.ForkedPty)
    child.expect(r"\{.*\}\r\n")
    said = json.loads(child.after.decode())
    assert said["tty"] is True
    assert said["size"] == [100, 30]
    assert said["session"] is True  # its own session: the terminal's Ctrl-C is its alone
    assert said["pid"] == child.pid
    child.sendline("hello")
    child.expect("typed: hello")
    child.expect(pexpect.EOF)
    assert child.wait() == 5
    assert child.exitstatus == 5
    assert not child.isalive()
