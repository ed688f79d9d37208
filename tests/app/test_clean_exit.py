"""A server stopping with its worker pools running exits cleanly: nothing on standard
error after ``stopped``.

On Python 3.11, a pool's manager thread closing its wake-up pipe (it has seen the pool's
processes ended) at the moment the interpreter's exit writes to it printed a traceback
("Bad file descriptor") after the server's last log line: the soak of three processes
saw it about once in six runs."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

from .client import player
from .conftest import ServerProcess


async def test_stopping_with_pools_running_prints_no_traceback(
    redis_url: str, tmp_path: Path
) -> None:
    for n in range(4):
        folder = tmp_path / f"run{n}"
        folder.mkdir()
        proc = ServerProcess(redis_url, folder, PATIENCE_SECRET="s3cret")
        await asyncio.to_thread(proc.start)
        try:
            ann = await player(proc.url, f"ann{n}")
            game = await ann.call("new_game", game="blockade", seed=n)
            await ann.call("hint", game=game["game"])  # the hints pool, started
            await ann.close()
        finally:
            assert await asyncio.to_thread(proc.stop, signal.SIGTERM) == 0
        log = proc.log.read_text()
        tail = log[log.index('"msg": "stopped"') :]
        assert "Traceback" not in tail and "Exception ignored" not in tail, tail
