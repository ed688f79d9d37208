"""Ctrl-C on ``make run`` stops the server cleanly: the terminal sends SIGINT to the whole
foreground process group, the worker processes with the server, and each worker printed
a ``KeyboardInterrupt`` traceback while the server was still draining, and the embedded
Redis shut down under it. The workers ignore SIGINT now, and the embedded Redis runs in
a process group of its own: their server stops them once it has drained
(``Workers.close``, ``EmbeddedRedis.stop``)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from .client import player
from .conftest import RETRY_PAUSE, free_port


async def test_ctrl_c_on_the_process_group_prints_no_traceback(tmp_path: Path) -> None:
    port = free_port()
    env = {
        **os.environ,
        "PATIENCE_PORT": str(port),
        "PATIENCE_DATA_DIR": str(tmp_path / "data"),  # its own Redis, as make run has
        "PATIENCE_REGISTER_RATE": "0",
        "PATIENCE_RETRY_PAUSE": str(RETRY_PAUSE),
    }
    env.pop("PATIENCE_REDIS_URL", None)
    out, err = tmp_path / "server.out", tmp_path / "server.err"
    # a process group of its own, as a terminal gives make run and all it starts
    server = subprocess.Popen(
        [sys.executable, "-m", "server.cli"],
        env=env,
        stdout=out.open("wb"),
        stderr=err.open("wb"),
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60  # a deadline for a busy machine, not a timing
        while b"listening on" not in out.read_bytes():
            assert server.poll() is None, err.read_text()
            assert time.monotonic() < deadline, "the server did not start"
            await asyncio.sleep(0.05)
        ann = await player(f"ws://127.0.0.1:{port}", "ann")
        game = await ann.call("new_game", game="blockade", seed=1)
        await ann.call("hint", game=game["game"])  # the hints' worker, started
        await ann.close()
        os.killpg(server.pid, signal.SIGINT)  # what Ctrl-C does
        code = await asyncio.to_thread(server.wait, 60)
    finally:
        if server.poll() is None:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    said = out.read_text() + err.read_text()
    assert "Traceback" not in said and "KeyboardInterrupt" not in said, said
    # its own Redis, in a group of its own, heard no Ctrl-C: the server stopped it, last
    redis_log = (tmp_path / "data" / "redis" / "redis.log").read_text()
    assert "Received SIGINT" not in redis_log and "Received SIGTERM" in redis_log
    assert code == 0 and '"msg": "stopped"' in said
