"""Worker processes end with the server: killed outright (SIGKILL, the OOM killer), a
server leaves no fork server, worker or resource tracker behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

#: a server-like process: a pool started by one task, then waiting to be killed
PROGRAM = """
import operator, sys, time, asyncio
from server.app.workers import Workers

async def main():
    workers = Workers()
    print(await workers.run("demo", operator.add, 2, 3, timeout=60), flush=True)
    time.sleep(600)

if __name__ == "__main__":
    asyncio.run(main())
"""


def _parents() -> dict[int, int]:
    out = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            out[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    return out


def descendants(pid: int) -> set[int]:
    parents = _parents()
    found: set[int] = set()
    grew = True
    while grew:
        grew = False
        for child, parent in parents.items():
            if (parent == pid or parent in found) and child not in found:
                found.add(child)
                grew = True
    return found


def alive(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
        except OSError:
            continue
        if state != "Z":
            out.add(pid)
    return out


def test_a_killed_server_leaves_no_worker_behind(tmp_path: Path) -> None:
    script = tmp_path / "server_like.py"
    script.write_text(PROGRAM)
    root = Path(__file__).resolve().parents[2]
    child = subprocess.Popen(
        [sys.executable, str(script)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "5"  # the pool is up and has worked
        helpers = descendants(child.pid)
        assert len(helpers) >= 2, helpers  # the fork server and a worker, at least
        child.send_signal(signal.SIGKILL)
        child.wait(10)
        deadline = time.monotonic() + 15
        while alive(helpers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not alive(helpers), f"left behind: {sorted(alive(helpers))}"
    finally:
        child.kill()
        child.wait(10)


#: a server-like process that stops cleanly while a long task is still running
STOPPING = """
import asyncio, time
from server.app.workers import Workers

async def main():
    workers = Workers()
    task = asyncio.ensure_future(workers.run("long", time.sleep, 120, timeout=300))
    await asyncio.sleep(2)  # the worker has taken it
    workers.close()
    task.cancel()
    print("closed", flush=True)

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_a_stopping_server_does_not_wait_for_a_running_task(tmp_path: Path) -> None:
    """Stopping abandons what the workers run (a certification's search can take its
    whole budget): the process ends, rather than waiting for the task at its exit."""
    script = tmp_path / "stopping.py"
    script.write_text(STOPPING)
    root = Path(__file__).resolve().parents[2]
    child = subprocess.run(
        [sys.executable, str(script)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(root)},
        timeout=100,  # well under the task's 120 s: it was not waited for
    )
    assert child.stdout.strip() == "closed", child.stderr
