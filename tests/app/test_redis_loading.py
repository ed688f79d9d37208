"""A Redis that takes a while to load its data: the server waits for it at startup
(embedded or external), gives up after ``redis_load_timeout`` with one line, and rides
out a Redis that restarts under it.

The data set is made once: a million keys of 100 bytes written by ``DEBUG POPULATE``
into a real Redis, its append-only file rewritten and the server stopped (some 35 MB,
which a Redis reads in half a second or more: from two million, the module took twice
the time); each test copies it into a directory of its own."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis import Redis as SyncRedis

from server.app.embedded_redis import EmbeddedRedis, redis_server_binary
from server.app.settings import Settings

from .client import player
from .conftest import ServerProcess, running, with_settings

KEYS = 1_000_000


@pytest.fixture(scope="module")
def big_data(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Redis data directory holding an append-only file of :data:`KEYS` keys."""
    path = tmp_path_factory.mktemp("big")
    with EmbeddedRedis(path) as redis:
        # writing the keys takes seconds, many more on a busy machine: no read timeout
        client = SyncRedis.from_url(redis.url, socket_timeout=None)
        client.execute_command("DEBUG", "POPULATE", KEYS, "key", 100)
        client.bgrewriteaof()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            info = client.info("persistence")
            if not info["aof_rewrite_in_progress"] and not info["aof_rewrite_scheduled"]:
                break
            time.sleep(0.1)
        client.close()
    return path


def copy_data(source: Path, target: Path) -> None:
    """The append-only file (Redis 6) or directory (Redis 7) of one data directory into
    another."""
    target.mkdir(parents=True, exist_ok=True)
    if (source / "appendonlydir").is_dir():
        shutil.copytree(source / "appendonlydir", target / "appendonlydir")
    else:
        shutil.copy(source / "appendonly.aof", target / "appendonly.aof")


def answer(sock: Path) -> bytes:
    """Redis's answer to ``PING`` on its unix socket (``b""`` if it is not there yet)."""
    with socket.socket(socket.AF_UNIX) as conn:
        conn.settimeout(5)
        try:
            conn.connect(str(sock))
        except OSError:
            return b""
        conn.sendall(b"PING\r\n")
        return conn.recv(256)


@contextlib.contextmanager
def redis_loading(data: Path) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """A redis-server of one's own on ``data``, yielded (its URL) as soon as it answers
    ``LOADING``: what a server finds when it starts with, or after, a Redis restart."""
    sock = data / "redis.sock"
    args = [
        redis_server_binary(),
        "--port", "0",
        "--unixsocket", str(sock),
        "--dir", str(data),
        "--save", "",
        "--appendonly", "yes",
        "--logfile", str(data / "redis.log"),
    ]  # fmt: skip
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 10
        while not answer(sock).startswith(b"-LOADING"):
            assert process.poll() is None and time.monotonic() < deadline, "no LOADING"
            time.sleep(0.01)
        yield f"unix://{sock}", process
    finally:
        process.terminate()
        process.wait(10)


def healthz(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
        return int(response.status)


def assert_waited_cleanly(log: str) -> None:
    assert "waiting for redis to load its data" in log, log
    assert "redis loaded its data" in log, log
    assert "Traceback" not in log, log


def serves_after_waiting(redis_url: str, folder: Path) -> None:
    """The server started on a Redis still loading comes up, answers, stops cleanly,
    and its log says it waited, with no traceback."""
    proc = ServerProcess(redis_url, folder)
    proc.start()
    try:
        assert healthz(proc.port) == 200
    finally:
        assert proc.stop() == 0
    assert_waited_cleanly(proc.log.read_text())


def test_the_server_starts_on_an_embedded_redis_loading_a_large_file(
    big_data: Path, tmp_path: Path
) -> None:
    copy_data(big_data, tmp_path / "redis")
    serves_after_waiting("", tmp_path)  # no Redis URL: the embedded one, on tmp_path/redis


def test_the_server_starts_on_an_external_redis_still_loading(
    big_data: Path, tmp_path: Path
) -> None:
    copy_data(big_data, tmp_path / "redis")
    with redis_loading(tmp_path / "redis") as (url, _):
        serves_after_waiting(url, tmp_path)


def test_a_redis_that_never_finishes_loading_stops_the_server_with_one_line(
    big_data: Path, tmp_path: Path
) -> None:
    copy_data(big_data, tmp_path / "redis")
    env = {
        **os.environ,
        "PATIENCE_REDIS_URL": "",
        "PATIENCE_DATA_DIR": str(tmp_path),
        "PATIENCE_PORT": "0",
        "PATIENCE_REDIS_LOAD_TIMEOUT": "0.1",
    }
    done = subprocess.run(
        [sys.executable, "-m", "server.cli"], env=env, capture_output=True, timeout=60
    )
    err = done.stderr.decode()
    assert done.returncode == 1, err
    assert "Traceback" not in err, err
    assert err.splitlines()[-1].startswith(
        "patience-race-server: error: Redis (embedded) was still loading its data after"
    ), err
    assert "PATIENCE_REDIS_LOAD_TIMEOUT" in err.splitlines()[-1]
    assert " after 0 s;" not in err  # (a tenth of a second is said so)


async def test_requests_wait_for_a_redis_that_restarts_under_the_server(
    big_data: Path, tmp_path: Path, settings: Settings
) -> None:
    """Redis restarts while a player is connected; it answers LOADING for a second or
    more, and the player's next requests (one through the pool, a move through the
    group commit) wait for it rather than fail."""
    data = tmp_path / "redis"
    copy_data(big_data, data)
    with redis_loading(data) as (url, first):
        while not answer(data / "redis.sock").startswith(b"+PONG"):
            time.sleep(0.05)
        async with running(with_settings(settings, redis_url=url, write_timeout=30.0)) as server:
            ann = await player(server.url, "ann")
            game = await ann.call("new_game", game="doubles-and-quits", seed=1)
            first.terminate()  # SIGTERM: Redis writes its file out and exits
            first.wait(30)
            # the server hears its connections close (first.wait held its loop), as it
            # would in a real restart's seconds
            await asyncio.sleep(0.2)
            with redis_loading(data):
                moved = await ann.request("move", move=game["legal"][0], timeout=30)
                assert moved["type"] == "moved", moved
                again = await ann.request("new_game", game="gate", seed=2, timeout=30)
                assert again["type"] == "game", again
                await ann.close()
