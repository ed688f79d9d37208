"""The terminal's clocks run on the server's time, measured at sign-in: a device whose
clock is set or corrected meanwhile (by hand, by NTP) moves none of them. An outside
probe ran the client under libfaketime and set its clock on: a race's header read
``2:00:04 (0:00 left)`` with most of a minute to go, and a ranked daily's clock stopped
at the reset, the client saying the day was over and offering a practice the server
refused (it measured the server's clock against ``time.time``).

The client runs under libfaketime (Debian's faketime: .ci/run installs it), its wall
clock read from a file the test rewrites; its monotonic clock left alone, as a clock
set by hand leaves it."""

from __future__ import annotations

import glob
import os
import time
from pathlib import Path

import pytest

from tests.app.conftest import ServerProcess

from .terminal import Terminal, start
from .test_terminal import register


def faketime_library() -> str:
    found = sorted(glob.glob("/usr/lib/*/faketime/libfaketime.so.1"))
    if not found:
        if os.environ.get("CI"):
            pytest.fail("libfaketime is missing: .ci/run installs faketime")
        pytest.skip("needs faketime (apt-get install faketime)")
    return found[0]


def test_a_clock_set_on_moves_no_clock_and_ends_no_day(
    server_process: ServerProcess,
    tmp_path: Path,
    terminals: list[Terminal],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    stamp = tmp_path / "faketime"
    stamp.write_text("+0\n")
    # (started the plain way, not forked from the tests' zygote: the library is loaded
    # as a process starts)
    for name, value in {
        "LD_PRELOAD": faketime_library(),
        "FAKETIME_TIMESTAMP_FILE": str(stamp),
        "FAKETIME_NO_CACHE": "1",
        "FAKETIME_DONT_FAKE_MONOTONIC": "1",
        "PATIENCE_FORK": "0",
    }.items():
        monkeypatch.setenv(name, value)
    ann = start(terminals, server_process, tmp_path / "ann", "daily", "gate")
    register(ann, "ann")
    ann.wait_for(r"Press Enter to start your ranked attempt \(q to leave\)")
    ann.type("")
    ann.wait_for(r"The Gate · daily \d{4}-\d\d-\d\d · 0:0[0-2]")
    ann.wait_for(r"next deal in \d+:\d\d")
    # the device's clock set a day and an hour on
    stamp.write_text("+25h\n")
    time.sleep(1.5)
    ann.settle()
    assert "next deal out" not in ann.text, ann.text
    ann.wait_for(r"The Gate · daily \d{4}-\d\d-\d\d · 0:0[1-4]")
    ann.wait_for(r"next deal in \d+:\d\d")
    # and back two days: still the attempt's time
    stamp.write_text("-23h\n")
    time.sleep(1.2)
    ann.settle()
    ann.wait_for(r"The Gate · daily \d{4}-\d\d-\d\d · 0:0[2-6]")
