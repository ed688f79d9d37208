"""The embedded Redis killed (kill -9, a crash, the OOM killer's choice) is started again
by the server, with everything it acknowledged; one that cannot be started again ends
the server, exit 1 and why, for its supervisor (systemd's ``Restart=on-failure``) to
start it afresh. Before, the server stayed up and refused every request for good: an
outside operator's probe killed the child and waited a minute at ``/healthz`` 503."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil
import pytest

from server.app.embedded_redis import EmbeddedRedis, RedisExited

from .client import player, signed_in
from .conftest import ServerProcess


def redis_of(data_dir: Path) -> psutil.Process | None:
    """The embedded ``redis-server`` of the server on ``data_dir``, if one runs."""
    where = str(data_dir / "redis")
    for proc in psutil.process_iter(["name", "cmdline"]):
        try:
            if "redis-server" in (proc.info["name"] or "") and where in " ".join(
                proc.info["cmdline"] or []
            ):
                return proc
        except psutil.Error:
            continue
    return None


def killed(proc: psutil.Process) -> None:
    """``kill -9``, and back once it is gone (a zombie until its server reaps it)."""
    proc.send_signal(signal.SIGKILL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if proc.status() == psutil.STATUS_ZOMBIE:
                return
        except psutil.NoSuchProcess:
            return
        time.sleep(0.02)
    raise AssertionError(f"redis-server {proc.pid} still runs")


def health(port: int) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return 0


def embedded(tmp_path: Path) -> ServerProcess:
    """A server on an embedded Redis in ``tmp_path`` (the empty URL counts as unset)."""
    proc = ServerProcess("", tmp_path)
    proc.start()
    return proc


def test_an_embedded_redis_killed_is_started_again_with_what_it_had(tmp_path: Path) -> None:
    proc = embedded(tmp_path)
    try:

        async def register() -> str:
            ann = await player(proc.url, "ann")
            await ann.call("new_game", game="gate", seed=1)
            await ann.call("move", move="t1>t3")
            await ann.close()
            return ann.token or ""

        token = asyncio.run(register())
        first = redis_of(tmp_path)
        assert first is not None and health(proc.port) == 200
        killed(first)
        deadline = time.monotonic() + 60  # (a busy machine's deadline, not a timing)
        while time.monotonic() < deadline:
            again = redis_of(tmp_path)
            started = "embedded redis started again" in proc.log.read_text()
            if again is not None and again.pid != first.pid and started:
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"not started again: {proc.log.read_text()[-2000:]}")

        async def back() -> dict[str, object]:
            ann = await signed_in(proc.url, token)
            welcome: dict[str, object] = ann.welcome  # type: ignore[attr-defined]
            await ann.close()
            return welcome

        assert health(proc.port) == 200
        welcome = asyncio.run(back())  # the player and her acknowledged move are there
        resume = welcome["resume"]
        assert isinstance(resume, dict) and resume["solo"]["view"]["moves"] == 1, resume
        assert "embedded redis exited: starting it again" in proc.log.read_text()
    finally:
        proc.stop(signal.SIGKILL)


def test_an_embedded_redis_that_cannot_start_again_ends_the_server(tmp_path: Path) -> None:
    proc = embedded(tmp_path)
    assert proc.process is not None
    first = redis_of(tmp_path)
    assert first is not None
    killed(first)
    # its append-only file spoiled: every start fails ("Bad file format")
    (tmp_path / "redis" / "appendonly.aof").write_text("not a command\n")
    code = proc.process.wait(90)  # five starts, with pauses of 0.5, 1, 2 and 4 s
    proc.process = None
    assert code == 1
    last = proc.log.read_text().strip().splitlines()[-1]
    assert last.startswith(
        "patience-race-server: error: the embedded Redis exited, and 5 starts failed: Bad file"
        " format reading the append only file"
    ), last
    assert last.endswith(f"(see {tmp_path / 'redis' / 'redis.log'}; docs/server.md)"), last
    assert "Traceback" not in proc.log.read_text()


def test_a_redis_that_resets_the_ping_as_it_exits_is_said_to_have_exited(tmp_path: Path) -> None:
    """A fresh-clone run: Redis, failing on a spoiled append-only file, reset the start's
    PING as it went, a moment before its exit could be seen; the server gave up saying
    "Connection reset by peer", not Redis's own last word. Here a listener on the socket
    that resets every connection, and a process that exits a moment later."""
    redis = EmbeddedRedis(tmp_path)
    (tmp_path / "redis.log").write_text("1:M 29 Nov 2026 02:06:11.637 # Bad file format\n")
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(redis.socket))
    listener.listen()

    def reset_each() -> None:
        with contextlib.suppress(OSError):
            while True:
                conn, _ = listener.accept()
                time.sleep(0.05)  # (the PING sent, and closed unread: a reset)
                conn.close()

    threading.Thread(target=reset_each, daemon=True).start()
    redis.process = subprocess.Popen(["sleep", "0.3"])
    try:
        with pytest.raises(RedisExited, match="Bad file format"):
            redis._ping()
    finally:
        listener.close()
        redis.process.wait()
