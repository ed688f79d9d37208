"""Running the server: Redis (given or embedded), the service, the websocket server, and
a clean stop on SIGTERM/SIGINT."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import json
import logging
import resource
import signal
import socket
import sys
from dataclasses import replace
from typing import Any

from server import __version__, _version, native

from .clock import RedisClock, keep_in_step
from .clock import said as said_of_clock
from .datadir import BadSecret, private_dir
from .embedded_redis import DataDirInUse, EmbeddedRedis, NoRedis, RedisExited
from .embedded_redis import keep as keep_embedded
from .service import Service
from .settings import Clock, Settings, ShiftedClock, shown_url
from .store import RedisClient
from .store.connect import open_redis
from .store.failures import redis_error, wrong_password
from .store.ready import RedisNotReady, check_durability, wait_until_loaded
from .store.secret import SecretMismatch
from .transport import static
from .transport.ws import WebServer

log = logging.getLogger("patience.main")

_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time, level, logger, message, and any ``extra`` fields."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "t": round(record.created, 3),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD:
                entry[key] = value
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, default=str)


def setup_logging(level: str) -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # one line per connection opened and closed is noise at INFO, and redis-py's at DEBUG
    # ("Failed to enable maintenance notifications" at every connection it makes)
    for library in ("websockets", "redis"):
        logging.getLogger(library).setLevel(max(logging.WARNING, root.level))


def tune_gc() -> None:
    """A full garbage collection stops the event loop for as long as it takes to walk every
    object (100 ms and more with a few hundred thousand: games keep their journals) and
    finds almost nothing here, where data holds no reference cycles. So the objects made at
    startup are put out of its reach, and it runs after 1,000 collections of the middle
    generation instead of 10: every quarter of an hour or so under load rather than every
    few seconds. Young garbage is collected as before."""
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, 1000)


#: files a server process holds besides its websocket connections: Redis's
#: connections, worker pools' pipes, logs, its listening socket, with room to spare
OWN_FILES = 256


def open_files(max_connections: int) -> int:
    """Raise this process's limit of open files to the most it may have (systemd and
    many shells start a service at 1,024, where ``max_connections`` is 10,000: past
    the limit, new connections and even the health checks failed without a word in the
    log); say so in the log when even that leaves too few. Returns the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    needed = max_connections + OWN_FILES
    if max_connections and soft < needed:
        log.warning(
            "the limit of open files (%d) is below max_connections and the server's own "
            "(%d): connections past it fail; raise it (ulimit -n, systemd's LimitNOFILE) "
            "or lower max_connections",
            soft,
            needed,
        )
    return soft


async def run(settings: Settings, started: asyncio.Event | None = None) -> None:
    """Serve until SIGTERM/SIGINT, then drain and return; ``started`` is set once it listens."""
    open_files(settings.max_connections)
    embedded: EmbeddedRedis | None = None
    url = settings.redis_url
    if url is None:
        if settings.redis_cluster:
            raise ValueError("a Redis Cluster needs a Redis URL, one of its nodes")
        private_dir(settings.data_dir)
        embedded = EmbeddedRedis(settings.data_dir / "redis", fsync=settings.redis_fsync)
        url = embedded.start(load_timeout=settings.redis_load_timeout)
    redis = open_redis(url, settings.redis_cluster)
    service: Service | None = None
    keeper: asyncio.Task[None] | None = None
    in_step: asyncio.Task[None] | None = None
    gave_up: list[str] = []  # why the embedded Redis could not be kept running
    try:
        what = "embedded" if embedded else "cluster" if settings.redis_cluster else "external"
        await wait_until_loaded(redis, settings.redis_load_timeout, what)
        await check_durability(redis, what)
        settings, in_step, ahead_ms = await on_redis_time(settings, redis)
        service = Service(settings, redis)
        rooms = await service.start()
        web = WebServer(settings, service)
        await web.start()
        tune_gc()
        stop = asyncio.Event()
        if embedded is not None:  # (its process exited: started again, or the server ends)
            keeper = asyncio.create_task(
                keep_embedded(embedded, settings.redis_load_timeout, gave_up.append)
            )
            keeper.add_done_callback(lambda _: stop.set())
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError):
                loop.add_signal_handler(sig, stop.set)
        compiled = native.status()
        if compiled["mode"] != "compiled":
            log.warning("the move path runs from source: %s", compiled["why"])
        if ahead_ms is not None:  # (said once the start can no longer fail)
            said_of_clock(ahead_ms)
        listening = listen_url(settings.host, web.port)
        log.info(
            "listening",
            extra={
                "url": listening,
                "version": __version__,
                "build": _version.build(),
                "redis": what,
                "rooms_resumed": rooms,
                "proc": service.proc,
                "move_path": compiled["mode"],
            },
        )
        url = browser_url(settings.host, web.port)
        print(start_lines(listening, url, static.client_ready()), flush=True)
        if started is not None:
            started.set()
        await stop.wait()
        log.info("stopping: closing connections with 1012")
        await web.stop()
    finally:
        if keeper is not None:
            keeper.cancel()
        if in_step is not None:
            in_step.cancel()
        if service is not None:  # also when starting failed: its tasks must end
            await service.shutdown()
        await redis.aclose()
        if embedded is not None:
            embedded.stop()
    log.info("stopped")
    if gave_up:  # (exit 1: a supervisor, systemd's Restart=on-failure, starts it afresh)
        raise NoRedis(gave_up[0])


async def on_redis_time(
    settings: Settings, redis: RedisClient
) -> tuple[Settings, asyncio.Task[None] | None, float | None]:
    """The settings with the server clock Redis's (``server/app/clock.py``; the
    ``clock_offset`` setting kept), the task keeping it in step, and how far this
    machine's clock is ahead of Redis's (ms); a clock of a test's own is kept as it is."""
    if type(settings.clock) not in (Clock, ShiftedClock):
        return settings, None, None
    clock = RedisClock(getattr(settings.clock, "shift_ms", 0))
    ahead_ms = await clock.read(redis)
    in_step = asyncio.create_task(keep_in_step(clock, redis))
    return replace(settings, clock=clock), in_step, ahead_ms


def main(argv: list[str] | None = None) -> int:
    settings = Settings.load(argv)
    setup_logging(settings.log_level)
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    try:
        asyncio.run(run(settings))
    except (RedisNotReady, SecretMismatch, NoRedis, RedisExited, DataDirInUse, BadSecret) as exc:
        return said(str(exc))
    except Exception as exc:
        why = cannot_start(settings, exc)
        if why is None:
            raise
        return said(why)
    return 0


def cannot_start(settings: Settings, exc: BaseException) -> str | None:
    """The one line for an operator's commonest mistakes (None: a fault, its traceback
    shown): a host that is no address, or not this machine's, a port taken or not
    allowed, a Redis that does not answer (a server that has started rides out an
    outage: one escaping ``run`` is at the start), and a data directory that cannot be
    made or written to."""
    where = f"{settings.host}:{settings.port}"
    if isinstance(exc, socket.gaierror):
        return f"--host {settings.host}: {exc.strerror} (an address or a name of this machine)"
    if redis_error(exc):  # (redis-py's own: the socket's errors come wrapped in them)
        redis = shown_url(settings.redis_url) if settings.redis_url else "the embedded Redis"
        # (a password refused is no Redis away: "is it running?" sent the operator looking)
        hint = "its password?" if wrong_password(exc) else "is it running?"
        return f"cannot reach Redis at {redis}: {exc} ({hint} PATIENCE_REDIS_URL)"
    if not isinstance(exc, OSError):
        return None
    if exc.filename is not None:
        return f"{exc.filename}: {exc.strerror} (the data directory: PATIENCE_DATA_DIR)"
    if exc.errno == errno.EADDRINUSE:
        return f"{where}: address already in use (another server? --port picks another port)"
    if exc.errno in (errno.EADDRNOTAVAIL, errno.EACCES, errno.EPERM):
        return f"{where}: {exc.strerror} (--host and --port: where to listen)"
    return None


def listen_url(host: str, port: int) -> str:
    """The websocket address the server listens on, as a client writes it (an IPv6
    address in brackets: ``ws://::1:8765`` named no port).

    >>> listen_url("127.0.0.1", 8765), listen_url("::1", 8765), listen_url("::", 80)
    ('ws://127.0.0.1:8765', 'ws://[::1]:8765', 'ws://[::]:80')
    """
    return f"ws://{f'[{host}]' if ':' in host else host}:{port}"


def browser_url(host: str, port: int) -> str:
    """Where the browser client is, for the person who started the server: on this
    machine when it listens on every address.

    >>> browser_url("0.0.0.0", 9123), browser_url("::", 80), browser_url("fd00::1", 80)
    ('http://127.0.0.1:9123/play', 'http://[::1]:80/play', 'http://[fd00::1]:80/play')
    """
    host = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)
    return f"http://{f'[{host}]' if ':' in host else host}:{port}/play"


def start_lines(listening: str, url: str, missing: str | None) -> str:
    """What a started server prints: where it listens, and where to play in a browser,
    or why there is no browser client here (``/play`` answers 503 then: the line pointed
    players at it all the same).

    >>> print(start_lines("127.0.0.1:8765", "http://127.0.0.1:8765/play", None)[-45:])
    play in a browser: http://127.0.0.1:8765/play
    >>> print(start_lines("127.0.0.1:8765", "http://127.0.0.1:8765/play", "installed"
    ...     " without its browser client").splitlines()[1])
    no browser client here (installed without its browser client): /play answers 503
    """
    play = (
        f"play in a browser: {url}"
        if missing is None
        else f"no browser client here ({missing}): /play answers 503"
    )
    return f"patience-race-server {__version__} listening on {listening}\n{play}"


def said(why: str) -> int:
    """Why the server could not start, in one line (no traceback): exit status 1."""
    print(f"patience-race-server: error: {why}", file=sys.stderr, flush=True)
    return 1
