"""An acknowledged move survives Redis killed (SIGKILL) while its disk is slow.

Redis with ``appendfsync everysec`` answers a write before writing it to its append-only
file while the last second's fsync is still under way (for up to 2 s): a loaded disk, as
on a busy CI machine, where the three-process soak once found 40 acknowledged moves gone
after Redis's kill. The embedded Redis runs with ``appendfsync always`` (``redis_fsync``),
so a write is in its file before its answer. The disk is made slow for real: ``strace``
holds every fsync of the running Redis for 0.8 s. A server on a Redis set otherwise says
so in its log at startup."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from redis.asyncio import Redis

from server.app.settings import Settings
from server.app.store.ready import DURABLE, check_durability

from .client import player
from .conftest import Outage, ServerProcess, running, with_settings
from .test_resume import GAME, MOVES, WINNING_SEED, game_log

#: seconds each fsync of Redis's is held (a disk busy with others' writes)
HOLD = 0.8


def tracer_of(pid: int, task: str) -> int:
    status = Path(f"/proc/{pid}/task/{task}/status").read_text()
    line = next(line for line in status.splitlines() if line.startswith("TracerPid"))
    return int(line.split()[1])


@contextmanager
def slow_fsync(pid: int, seconds: float) -> Iterator[None]:
    """Every ``fsync``/``fdatasync`` of process ``pid`` (all its threads) takes ``seconds``
    longer, from when this returns until the block ends or the process dies."""
    strace = shutil.which("strace")
    if strace is None:
        if os.environ.get("CI"):
            pytest.fail("strace is missing: .ci/run installs it")
        pytest.skip("needs strace")
    delay = int(seconds * 1_000_000)
    tracer = subprocess.Popen(
        [strace, "-f", "-qq", "-o", "/dev/null", "-p", str(pid),
         "-e", "trace=fsync,fdatasync", "-e", f"inject=fsync,fdatasync:delay_enter={delay}"],
        stdin=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        tasks = os.listdir(f"/proc/{pid}/task")
        while not all(tracer_of(pid, task) == tracer.pid for task in tasks):
            assert tracer.poll() is None, tracer.stderr.read() if tracer.stderr else ""
            assert time.monotonic() < deadline, "strace did not attach"
            time.sleep(0.02)
        yield
    finally:
        if tracer.poll() is None:
            tracer.terminate()
        tracer.wait(10)


async def test_an_acknowledged_move_survives_redis_killed_while_its_fsyncs_are_slow(
    outage: Outage, settings: Settings
) -> None:
    own = with_settings(settings, redis_url=outage.redis.url)
    redis = Redis.from_url(outage.redis.url)
    try:
        async with running(own) as server:
            ann = await player(server.url, "ann")
            game = (await ann.call("new_game", game=GAME, seed=WINNING_SEED))["game"]
            acknowledged = [(await ann.call("move", move=MOVES[0]))["move"]]
            assert outage.redis.process is not None
            with slow_fsync(outage.redis.process.pid, HOLD):
                await asyncio.sleep(1.2)  # Redis's once-a-second fsync is under way (everysec)
                for move in MOVES[1:4]:
                    acknowledged.append((await ann.call("move", move=move))["move"])
                outage.kill()  # at once, its last answer just sent
            outage.restart()
            log = await game_log(redis, game)
            assert [what for _, what in log] == acknowledged == MOVES[:4]
    finally:
        await redis.aclose()


async def test_the_embedded_redis_is_durable_and_a_server_says_when_its_redis_is_not(
    outage: Outage, tmp_path: Path
) -> None:
    redis = Redis.from_url(outage.redis.url)
    try:
        assert await check_durability(redis, "embedded") == DURABLE
        await redis.config_set("appendfsync", "everysec")
        assert await check_durability(redis, "external") == {**DURABLE, "appendfsync": "everysec"}
    finally:
        await redis.aclose()

    server = ServerProcess(outage.redis.url, tmp_path)
    server.start()
    server.stop()
    warned = [
        json.loads(line)
        for line in server.log.read_text().splitlines()
        if "may lose acknowledged moves" in line
    ]
    assert len(warned) == 1
    assert (warned[0]["appendonly"], warned[0]["appendfsync"]) == ("yes", "everysec")
