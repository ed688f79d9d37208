"""Fixtures for the server tests: a real Redis (started here, once per session) and a real
server on a loopback port, in this process or as a child process."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from redis import Redis as SyncRedis

from server.app.embedded_redis import EmbeddedRedis
from server.app.service import Service
from server.app.settings import Clock, Settings
from server.app.store import RedisClient
from server.app.store.connect import open_redis
from server.app.transport.ws import WebServer
from tests.app import forked

#: the tests' servers try a failed step again sooner, and look at a game standing still
#: sooner, than a server in service: the tests wait on what they do, not on the pauses
RETRY_PAUSE = 0.05
STUCK_SETTLE = 0.2


class ManualClock(Clock):
    """Real time plus an offset the test can move forward; or, once frozen, a fixed time
    plus that offset (a test whose figures must not drift while a loaded machine runs its
    steps)."""

    def __init__(self) -> None:
        self.offset_ms = 0
        self.frozen_ms: int | None = None

    def now_ms(self) -> int:
        base = super().now_ms() if self.frozen_ms is None else self.frozen_ms
        return base + self.offset_ms

    def freeze(self) -> None:
        """Stop real time: from now on only :meth:`advance` moves the clock."""
        self.frozen_ms = super().now_ms()

    def advance(self, seconds: float) -> None:
        self.offset_ms += int(seconds * 1000)


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedRedis]:
    server = EmbeddedRedis(tmp_path_factory.mktemp("redis"))
    server.start()
    yield server
    server.stop()


class Outage:
    """A real Redis of the test's own that can be killed and started again."""

    def __init__(self, folder: Path) -> None:
        self.redis = EmbeddedRedis(folder)

    def kill(self) -> None:
        process = self.redis.process
        assert process is not None
        process.send_signal(signal.SIGKILL)
        process.wait()
        self.redis.stop()  # (lets go of the data directory's lock)

    def restart(self) -> None:
        self.redis.start()

    def freeze(self) -> None:
        """Redis stops answering (SIGSTOP), its connections open: what is sent to it
        waits, unread, until :meth:`thaw`. Unlike ``CLIENT PAUSE`` for a time, it lasts
        until the test says, so a test need not guess how long a step takes."""
        process = self.redis.process
        assert process is not None
        process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        process = self.redis.process
        if process is not None:
            process.send_signal(signal.SIGCONT)


@pytest.fixture
def outage(tmp_path: Path) -> Iterator[Outage]:
    own = Outage(tmp_path / "own-redis")
    own.redis.start()
    yield own
    own.thaw()  # (a test that failed while Redis was frozen)
    own.redis.stop()


@pytest.fixture
def redis_url(redis_server: EmbeddedRedis) -> str:
    client = SyncRedis.from_url(redis_server.url)
    client.flushall()
    client.close()
    return redis_server.url


@pytest.fixture
def settings(redis_url: str, tmp_path: Path) -> Settings:
    return Settings(
        host="127.0.0.1",
        port=0,
        redis_url=redis_url,
        data_dir=tmp_path,
        countdown=0.3,
        rate=1000.0,
        burst=1000,
        register_rate=0,  # every test's players come from one address
        certify_ahead=0,  # no solving in the background (tests/app/test_certified.py's own)
        retry_pause=RETRY_PAUSE,
        stuck_settle=STUCK_SETTLE,
        clock=ManualClock(),
    )


@dataclass
class Running:
    settings: Settings
    service: Service
    web: WebServer
    redis: RedisClient

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.web.port}"

    @property
    def clock(self) -> ManualClock:
        assert isinstance(self.settings.clock, ManualClock)
        return self.settings.clock


@contextlib.asynccontextmanager
async def running(settings: Settings) -> AsyncIterator[Running]:
    assert settings.redis_url is not None
    # the client main.run makes, with its pool and its retries on LOADING
    redis: RedisClient = open_redis(settings.redis_url, cluster=settings.redis_cluster)
    if settings.redis_cluster:
        await redis.initialize()  # the slot map, as main.run's PING reads it
    service = Service(settings, redis)
    await service.start()
    web = WebServer(settings, service)
    await web.start()
    try:
        yield Running(settings, service, web, redis)
    finally:
        await web.stop()
        await service.shutdown()
        await redis.aclose()


@pytest.fixture
async def server(settings: Settings) -> AsyncIterator[Running]:
    async with running(settings) as handle:
        yield handle


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """The real ``patience-race-server`` as a child process, on a fixed port."""

    def __init__(self, redis_url: str, data_dir: Path, **env: str) -> None:
        self.port = free_port()
        self.redis_url = redis_url
        self.data_dir = data_dir
        self.env = env
        self.process: subprocess.Popen[bytes] | forked.Forked | None = None
        self.log = data_dir / "server.log"

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> None:
        env = {
            **os.environ,
            "PATIENCE_PORT": str(self.port),
            "PATIENCE_REDIS_URL": self.redis_url,
            "PATIENCE_DATA_DIR": str(self.data_dir),
            "PATIENCE_COUNTDOWN": "0.3",
            "PATIENCE_REGISTER_RATE": "0",
            "PATIENCE_CERTIFY_AHEAD": "0",
            "PATIENCE_RETRY_PAUSE": str(RETRY_PAUSE),
            "PATIENCE_STUCK_SETTLE": str(STUCK_SETTLE),
            **self.env,
        }
        for _ in range(5):
            if self._started(env):
                return
            # another test's process took the port between free_port() and the bind
            self.port = free_port()
            env["PATIENCE_PORT"] = str(self.port)
        raise RuntimeError(f"server found no free port: {self.log.read_text()}")

    def _started(self, env: dict[str, str]) -> bool:
        """Start the process; True once it says it listens on this port, False if the
        port was taken (it exited), else RuntimeError. It waits for the process's own
        line, not a connection: another process may be listening on the port."""
        out = self.data_dir / "server.out"
        seen = out.stat().st_size if out.exists() else 0
        logged = self.log.stat().st_size if self.log.exists() else 0
        with out.open("ab") as stdout, self.log.open("ab") as stderr:
            self.process = forked.popen("server.cli", [], env, stdout, stderr)
        listening = f"listening on {self.url}".encode()
        deadline = time.monotonic() + 60  # a deadline for a busy machine, not a timing
        while time.monotonic() < deadline:
            with out.open("rb") as said:
                said.seek(seen)
                if listening in said.read():
                    return True
            if self.process.poll() is not None:
                log = self.log.read_bytes()[logged:].decode(errors="replace")
                if "address already in use" in log:
                    self.process = None
                    return False
                raise RuntimeError(f"server exited: {self.log.read_text()}")
            time.sleep(0.02)
        raise RuntimeError("server did not start")

    def stop(self, sig: int = signal.SIGTERM) -> int:
        assert self.process is not None
        self.process.send_signal(sig)
        code = self.process.wait(15)
        self.process = None
        return code


@pytest.fixture
def server_process(redis_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(redis_url, tmp_path)
    proc.start()
    yield proc
    if proc.process is not None:
        proc.stop(signal.SIGKILL)


def with_settings(settings: Settings, **changes: object) -> Settings:
    return replace(settings, **changes)  # type: ignore[arg-type]


async def until(predicate: object, timeout: float = 5.0) -> None:
    """Poll ``predicate()`` until true."""
    deadline = time.monotonic() + timeout
    while not predicate():  # type: ignore[operator]
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met")
        await asyncio.sleep(0.02)
