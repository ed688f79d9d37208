"""Load test of the race server against its ceiling, a bare echo server on the same stack.

    .venv/bin/python bench/load.py [--quick] [--racers 64] [--room 4] [--procs 2]
                                   [--seconds 5] [--scale 10000] [--rate R]
                                   [--json-out FILE] [--profile FILE.svg] [--trace FILE.csv]
                                   [--server-tree DIR] [--pin] [--lean-echo]

It starts its own Redis (``EmbeddedRedis`` in a temporary directory, append-only as in
production), the race server (``patience-race-server`` with ``PATIENCE_REDIS_URL`` set to
that Redis, ``PATIENCE_RATE``/``PATIENCE_BURST`` raised to 10^6 so no connection is
rate-limited, ``PATIENCE_MAX_CONNECTIONS``/``PATIENCE_MAX_CONNECTIONS_PER_IP`` at 0 (no
cap: every racer connects from 127.0.0.1, 10,000 of them in the scale mode), and
``PATIENCE_COUNTDOWN=0`` so rematches start at once) and the echo server
(``bench/echo.py``), all on 127.0.0.1. Or it targets a running server: ``--url ws://...``
with ``--redis-url`` (for ``INFO``) and ``--server-pid`` (for CPU and RSS).

Load comes from ``--procs`` separate OS processes, each running many websocket
connections on one asyncio (uvloop) loop, with a client of its own that costs the machine
as little as it can (``bench/wsclient.py``: frames by hand on an asyncio protocol; each
reply handled in the connection's callback, which sends the next move or arms its timer;
of a reply only the fields the load reads are decoded, the view skipped). The load
processes share the machine with what they measure, and websockets' own client decoding
every view took more CPU a move than the server. Each process opens its share of ``--racers``
racers: every racer registers (its own name), and they gather in rooms of ``--room``: the
host creates the room, the others join and say ready, the host starts. Then every racer
plays its race game with moves taken at random from the ``legal`` list of the last reply,
sending the game id with each move. A racer resigns a game after 100 to 200 moves, drawn
for each race from its room's code and number (so the racers of a room finish together,
and the rooms' races end at different times). A racer whose race game has ended (won, lost
or resigned) plays solo games (``new_game``, resigned after 100 to 200 moves too) until
the room's ``results`` come; the host then calls a ``rematch`` and everyone switches to the
new race game at ``race_start``. So about 95% of the moves are race moves, each told to the 4
members of its room in ``progress`` events (counted; the server throttles them per room,
``PATIENCE_PROGRESS_INTERVAL``, 0.1 s by default), and no racer waits idle.
The echo phases drive the same number of connections, from the same processes, with the
same loop: a random entry of the reply's ``legal`` list sent as a ``move``. The echo uses
websockets' asyncio API; ``--lean-echo`` gives it the race server's own framing instead
(``bench/echo.py --lean``), a ceiling for that.

Phases, each with a warm-up whose samples are dropped:

1. saturating, echo then server: each connection sends its next request as soon as the
   reply to the last one arrives. Gives the ceiling and our throughput.
2. paced, echo then server, at a total rate of half the echo ceiling measured in phase 1
   (each connection at its share of that rate, at a random phase). Gives p99 at half the
   ceiling load. Latency is always from just before the send to just after the reply is
   decoded; sends later than 5 ms behind their schedule are counted as ``late``. A
   connection behind its schedule sends at once to catch up, except after its requests
   between games (resign, new game, rematch): a racer starts a game on a fresh schedule
   rather than make up for that time with a burst of moves.
   A full run also paces the server at a quarter of the ceiling.
3. scale: a fresh server (same Redis, emptied) and ``--scale`` racers in rooms of
   ``--room``, every race started and one move played by every racer, then all connected
   and idle. RSS per racer is the growth of the server's RSS over its idle RSS, divided
   by the racers.

A request that gets no reply, or a racer whose race start does not come, for ``WAIT``
(120) seconds fails the run saying which, rather than leaving it waiting.

Server CPU and RSS come from /proc via psutil (CPU as a share of one core over the
measured window), Redis commands/s from ``INFO stats`` ``total_commands_processed``.
Only moves count as accepted moves and are timed; ``new_game``, ``resign`` and
``rematch`` are sent too and counted as other requests. ``other CPU %`` is what the
machine spent on processes that are not the benchmark's: a run where it is high was
disturbed. ``--profile`` records the server with py-spy during its saturating phase;
``--trace`` writes every timed move (phase, send time, round trip) to a CSV file, to see
when in a phase the slow ones come (a move sent just before the window whose reply came
inside it has a negative send time).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing as mp
import os
import platform
import random
import resource
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any, TypeVar

import msgpack

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.wsclient import LeanWebSocket, connect  # noqa: E402

_pack = msgpack.Packer().pack
_unpack = msgpack.unpackb
_skimmer = msgpack.Unpacker(raw=False)
#: the fields of a reply or event that the load reads; the rest (the view above all, most
#: of a ``moved`` reply's bytes) is skipped, not decoded
_KEEP = frozenset({"type", "id", "legal", "game", "code", "race"})


def _skim(payload: bytes) -> dict[str, Any]:
    """A message's top-level fields that the load reads (``view`` only as present: True):
    what decoding a whole view a move cost the load processes was about a third of
    their CPU, and the server's view is what they would throw away."""
    skimmer = _skimmer
    skimmer.feed(payload)
    fields: dict[str, Any] = {}
    for _ in range(skimmer.read_map_header()):
        key = skimmer.unpack()
        if key in _KEEP:
            fields[key] = skimmer.unpack()
        else:
            skimmer.skip()
            if key == "view":
                fields["view"] = True
    return fields


GAME = "gate"
#: moves after which a racer resigns a game, drawn for each race (the same for the room's
#: racers, who finish together, so the share of race moves stays high) and each solo
#: game, so that the rooms' races end at different times, as real ones do
CAP = (100, 200)


def race_cap(code: str, race: int) -> int:
    """A race's resignation point, the same for each of its racers."""
    return random.Random(f"{code}:{race}").randint(*CAP)


LATE = 0.005
#: seconds a request waits for its reply, and a racer for its race's start, before the run
#: fails saying so (rather than waiting for ever on a server that never answers)
WAIT = 120.0
T = TypeVar("T")

# ----------------------------------------------------------------------------------------
# the load processes


def _raise_nofile() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Stats:
    __slots__ = ("errors", "lat", "late", "moves", "other", "progress", "recording", "sent")

    def __init__(self) -> None:
        self.lat = array("d")
        #: each timed move's send time (``time.perf_counter``), beside its latency
        self.sent = array("d")
        self.moves = 0
        self.other = 0
        self.errors = 0
        self.progress = 0
        self.late = 0
        self.recording = False


class Conn:
    """One connection: requests one at a time; events read in between are handled.

    Requests between games go through :meth:`call`, a coroutine. A phase's moves go
    through :meth:`moves` instead: each reply is handled in the connection's own
    callback, which sends the next move at once or arms a timer for it, with no task
    woken and no coroutine resumed a move, so that the load processes take as little of
    the machine as they can (see ``bench/wsclient.py``).
    """

    __slots__ = (
        "done",
        "due",
        "end",
        "gid",
        "interval",
        "legal",
        "next_id",
        "rng",
        "stats",
        "t_send",
        "ws",
    )

    def __init__(self, ws: LeanWebSocket, rng: random.Random, stats: Stats) -> None:
        self.ws = ws
        self.next_id = 0
        self.rng = rng
        self.stats = stats
        self.gid: str | None = None
        self.legal: list[str] = []
        #: while :meth:`moves` runs: its future, its schedule and the last move's send time
        self.done: asyncio.Future[tuple[float, bool]] | None = None
        self.interval: float | None = None
        self.due = 0.0
        self.end = 0.0
        self.t_send = 0.0

    def on_event(self, message: dict[str, Any]) -> None:
        pass

    async def call(self, kind: str, **fields: Any) -> dict[str, Any]:
        self.next_id += 1
        rid = self.next_id
        self.ws.send(_pack({"type": kind, "id": rid, **fields}))
        while True:
            try:
                payload = await self.ws.recv(WAIT)
            except TimeoutError:
                raise RuntimeError(f"no reply to {kind} {fields} in {WAIT:g} s") from None
            message = _unpack(payload, raw=False)
            if "id" in message:
                if message["id"] != rid:
                    raise RuntimeError(f"reply out of order: {message}")
                return message
            self.on_event(message)

    async def must(self, kind: str, **fields: Any) -> dict[str, Any]:
        reply = await self.call(kind, **fields)
        if reply["type"] == "error":
            raise RuntimeError(f"{kind} {fields}: {reply}")
        return reply

    async def prepare(self) -> bool:
        """Whatever requests must come before the next move; whether there were any."""
        return False

    def ready(self) -> bool:
        """Whether the next move may go with no request before it (see :meth:`prepare`)."""
        return True

    async def move(self, t_send: float) -> None:
        """One timed move."""
        stats = self.stats
        move = self.legal[self.rng.randrange(len(self.legal))]
        reply = await self.call("move", game=self.gid, move=move)
        if stats.recording:
            stats.lat.append(time.perf_counter() - t_send)
            stats.sent.append(t_send)
        self.after(reply)

    def moves(
        self, interval: float | None, due: float, end: float
    ) -> asyncio.Future[tuple[float, bool]]:
        """Timed moves, one at a time: each as soon as the last is answered
        (``interval`` None), or each ``interval`` s after the last was due, from ``due``
        (at once when behind: counted as late). Until ``end``, or until the next move
        needs a request first (:meth:`ready`). The future gives the schedule's next due
        time and whether the phase is over for this connection."""
        self.done = asyncio.get_running_loop().create_future()
        self.interval, self.due, self.end = interval, due, end
        ws = self.ws
        while ws.messages:  # events that came while no request was waiting
            self.on_event(_unpack(ws.messages.popleft(), raw=False))
        ws.on_message, ws.on_failure = self._reply, self._failed
        self._next()
        return self.done

    def _next(self) -> None:
        now = time.perf_counter()
        if now >= self.end:
            self._stop(True)
        elif not self.ready():
            self._stop(False)
        elif self.interval is None:
            self._send()
        elif self.due >= self.end:
            self._stop(True)
        elif self.due > now:
            asyncio.get_running_loop().call_later(self.due - now, self._send)
        else:
            self._send()

    def _send(self) -> None:
        now = time.perf_counter()
        if now >= self.end:  # a connection behind its schedule stops at the end all the same
            self._stop(True)
            return
        if self.interval is not None and now - self.due > LATE and self.stats.recording:
            self.stats.late += 1
        self.t_send = now
        self.next_id += 1
        move = self.legal[self.rng.randrange(len(self.legal))]
        self.ws.send(_pack({"type": "move", "id": self.next_id, "game": self.gid, "move": move}))

    def _reply(self, payload: bytes) -> None:
        try:
            message = _skim(payload)
            if "id" not in message:
                self.on_event(message)
                return
            if message["id"] != self.next_id:
                raise RuntimeError(f"reply out of order: {message}")
            stats = self.stats
            if stats.recording:
                stats.lat.append(time.perf_counter() - self.t_send)
                stats.sent.append(self.t_send)
            self.after(message)
            if self.interval is not None:
                self.due += self.interval
            self._next()
        except Exception as exc:
            self._failed(exc)

    def _stop(self, over: bool) -> None:
        self.ws.on_message = self.ws.on_failure = None
        if self.done is not None and not self.done.done():
            self.done.set_result((self.due, over))

    def _failed(self, exc: Exception) -> None:
        self.ws.on_message = self.ws.on_failure = None
        if self.done is not None and not self.done.done():
            self.done.set_exception(exc)

    def after(self, reply: dict[str, Any]) -> None:
        if reply["type"] == "moved" and "view" in reply:
            self.legal = reply["legal"]
            if self.stats.recording:
                self.stats.moves += 1
        else:
            self.stats.errors += 1


class EchoConn(Conn):
    __slots__ = ()

    async def start(self) -> None:
        reply = await self.must("move", game="echo", move="deal")
        self.gid, self.legal = "echo", reply["legal"]


class Racer(Conn):
    """A racer in a room (or alone, with rooms of 1)."""

    __slots__ = ("cap", "host", "in_race", "moves_in_game", "pending_race", "rematch")

    def __init__(self, ws: LeanWebSocket, rng: random.Random, stats: Stats) -> None:
        super().__init__(ws, rng, stats)
        self.host = False
        self.in_race = False
        self.moves_in_game = 0
        self.cap = self.rng.randint(*CAP)
        self.pending_race: tuple[str, list[str], int] | None = None
        self.rematch = False

    def on_event(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "progress":
            if self.stats.recording:
                self.stats.progress += 1
        elif kind == "race_start":
            cap = race_cap(message["code"], message["race"])
            self.pending_race = (message["game"], message["legal"], cap)
        elif kind == "results" and self.host:
            self.rematch = True

    async def wait_race(self) -> None:
        while self.pending_race is None:
            try:
                payload = await self.ws.recv(WAIT)
            except TimeoutError:
                raise RuntimeError(f"no race_start in {WAIT:g} s (host: {self.host})") from None
            message = _unpack(payload, raw=False)
            if "id" not in message:
                self.on_event(message)

    async def prepare(self) -> bool:
        stats = self.stats
        between = False
        while True:
            if self.rematch:
                self.rematch = False
                await self.call("rematch")  # refused if already called: harmless
                stats.other += 1
                between = True
                continue
            if self.pending_race is not None:
                self.gid, self.legal, self.cap = self.pending_race
                self.pending_race = None
                self.in_race = True
                self.moves_in_game = 0
                between = True
            if self.legal and self.moves_in_game < self.cap:
                return between
            if self.legal:
                await self.call("resign", game=self.gid)
                stats.other += 1
            reply = await self.must("new_game", game=GAME)
            stats.other += 1
            self.gid, self.legal = reply["game"], reply["legal"]
            self.in_race = False
            self.moves_in_game = 0
            self.cap = self.rng.randint(*CAP)
            between = True

    def ready(self) -> bool:
        return (
            not self.rematch
            and self.pending_race is None
            and bool(self.legal)
            and self.moves_in_game < self.cap
        )

    def after(self, reply: dict[str, Any]) -> None:
        self.moves_in_game += 1
        if reply["type"] == "moved" and "view" in reply:
            self.legal = reply["legal"]
            if self.stats.recording:
                self.stats.moves += 1
        else:
            # e.g. game_over: the race ended while this move was on its way
            self.legal = []
            if self.stats.recording:
                self.stats.errors += 1


async def _connect(url: str) -> LeanWebSocket:
    return await connect(url, timeout=60)


async def _open_room(
    url: str, names: list[str], rng: random.Random, stats: Stats, sem: asyncio.Semaphore
) -> list[Racer]:
    """Racers named ``names``, registered, in one room (its host first), race started."""
    racers = []
    for name in names:
        async with sem:
            racer = Racer(await _connect(url), random.Random(rng.random()), stats)
            await racer.must("hello", protocol=1, client="bench/1")
            await racer.must("register", name=name)
        racers.append(racer)
    if len(racers) == 1:
        return racers
    host = racers[0]
    host.host = True
    room = await host.must("room_create", game=GAME, max_players=len(racers))
    for racer in racers[1:]:
        await racer.must("room_join", code=room["code"])
    for racer in racers[1:]:
        await racer.must("ready", ready=True)
    await host.must("start")
    for racer in racers:
        await racer.wait_race()
    return racers


async def _run_phase(conns: list[Conn], command: dict[str, Any]) -> Stats:
    """Drive ``conns`` from ``start`` to ``end``, recording from ``record_at``: as fast as
    replies come (``rate`` None), or each at ``rate`` moves a second."""
    stats = Stats()
    for conn in conns:
        conn.stats = stats
    rate: float | None = command.get("rate")
    start, end, record_at = command["start"], command["end"], command["record_at"]
    perf = time.perf_counter

    async def recorder() -> None:
        # replies that arrive inside [record_at, end) count, and their latencies
        await asyncio.sleep(max(0.0, record_at - perf()))
        stats.recording = True
        await asyncio.sleep(max(0.0, end - perf()))
        stats.recording = False

    async def run(conn: Conn) -> None:
        await asyncio.sleep(max(0.0, start - perf()))
        interval = None if rate is None else 1.0 / rate
        due = start if interval is None else start + conn.rng.random() * interval
        while True:
            if await conn.prepare() and interval is not None:
                # a racer between games (resigned, dealt a new one, waiting for the
                # rematch) does not make up for that time with a burst of moves after
                due = max(due, perf())
            due, over = await conn.moves(interval, due, end)
            if over:
                return

    rec = asyncio.get_running_loop().create_task(recorder())
    try:
        await asyncio.gather(*(run(c) for c in conns))
    finally:
        rec.cancel()
    return stats


async def _worker(pipe: Connection, index: int, cfg: dict[str, Any]) -> None:
    loop = asyncio.get_running_loop()
    rng = random.Random(cfg["seed"] + index)
    stats = Stats()
    sem = asyncio.Semaphore(64)
    t0 = time.perf_counter()
    n, k = cfg["racers"], cfg["room"]
    prefix = cfg["prefix"]
    rooms = [
        [f"{prefix}{index}x{i}" for i in range(start, min(start + k, n))]
        for start in range(0, n, k)
    ]
    racers: list[Conn] = []
    for group in await asyncio.gather(
        *(_open_room(cfg["url"], names, rng, stats, sem) for names in rooms)
    ):
        racers.extend(group)
    if cfg.get("one_move"):
        # the scale mode: every racer has played once, so the server holds what a racer
        # in play costs (its game's encoded view too), then all go idle
        async def one(racer: Conn) -> None:
            async with sem:
                await racer.prepare()
                await racer.move(time.perf_counter())

        await asyncio.gather(*(one(r) for r in racers))
    echoes: list[Conn] = []
    if cfg.get("echo_url"):
        for _ in range(n):
            echo = EchoConn(await _connect(cfg["echo_url"]), random.Random(rng.random()), stats)
            await echo.start()
            echoes.append(echo)
    pipe.send({"ready": len(racers), "echo": len(echoes), "setup_s": time.perf_counter() - t0})

    while True:
        command = await loop.run_in_executor(None, pipe.recv)
        if command["cmd"] == "stop":
            break
        conns = echoes if command["target"] == "echo" else racers
        try:
            stats = await _run_phase(conns, command)
        except Exception as exc:  # report, do not hang the run
            pipe.send({"error": repr(exc)})
            continue
        pipe.send(
            {
                "lat": stats.lat.tobytes(),
                "sent": stats.sent.tobytes() if cfg.get("trace") else b"",
                "moves": stats.moves,
                "other": stats.other,
                "errors": stats.errors,
                "progress": stats.progress,
                "late": stats.late,
            }
        )
    for conn in racers + echoes:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.ws.close(), 2)


def worker_main(pipe: Connection, index: int, cfg: dict[str, Any]) -> None:
    _raise_nofile()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    import uvloop

    try:
        uvloop.run(_worker(pipe, index, cfg))
    except Exception as exc:
        with contextlib.suppress(Exception):
            pipe.send({"error": repr(exc)})
        raise


# ----------------------------------------------------------------------------------------
# the parent: servers, phases, figures


@dataclass
class Children:
    """Everything started, stopped in reverse order whatever happens."""

    popen: list[subprocess.Popen[bytes]] = field(default_factory=list)
    procs: list[Any] = field(default_factory=list)
    redis: Any = None
    tmp: str | None = None

    def stop_popen(self, proc: subprocess.Popen[bytes]) -> None:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc in self.popen:
            self.popen.remove(proc)

    def stop_all(self) -> None:
        for p in self.procs:
            if p.is_alive():
                p.terminate()
            p.join(5)
            if p.is_alive():
                p.kill()
        self.procs.clear()
        for proc in list(reversed(self.popen)):
            self.stop_popen(proc)
        if self.redis is not None:
            self.redis.stop()
            self.redis = None
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None


def _start_listening(
    children: Children, argv: list[str], env: dict[str, str], marker: str, log: Path
) -> tuple[subprocess.Popen[bytes], str]:
    proc = subprocess.Popen(
        argv, env=env, stdout=subprocess.PIPE, stderr=log.open("ab"), stdin=subprocess.DEVNULL
    )
    children.popen.append(proc)
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline().decode()
        if not line:
            raise RuntimeError(f"{argv[0]} exited; see {log}:\n{log.read_text()[-2000:]}")
        if marker in line:
            return proc, line.split(marker, 1)[1].strip()
    raise RuntimeError(f"{argv[0]} did not start")


def move_path(tree: str | Path | None = None) -> str:
    """Whether the server of ``tree`` (else this checkout) runs its move path compiled
    (``server/native.py``): ``compiled``, or ``source (why)``."""
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = str(Path(tree).resolve())
    code = "from server import native; s = native.status(); print(s['mode'], s['why'])"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tree or ROOT
    )
    mode, _, why = out.stdout.strip().partition(" ")
    return f"{mode} ({why})" if why else mode or "unknown"


def tree_options(parser: argparse.ArgumentParser) -> None:
    """``--runs`` and ``--server-tree`` (repeatable), for the benchmarks that compare
    checkouts by alternating them."""
    parser.add_argument("--runs", type=int, default=2, help="runs per tree")
    parser.add_argument(
        "--server-tree",
        action="append",
        default=[],
        metavar="DIR",
        help="a checkout whose server to measure (repeat to compare; default: this one)",
    )


def alternate(
    args: argparse.Namespace, prefix: str, measure: Callable[[Path | None, str, Path], T]
) -> dict[Path | None, list[T]]:
    """``measure(tree, redis_url, tmp)`` for each ``--server-tree`` (None: this checkout),
    ``--runs`` times, alternating, against one Redis of its own."""
    from server.app.embedded_redis import EmbeddedRedis

    trees: list[Path | None] = [Path(t).resolve() for t in args.server_tree] or [None]
    results: dict[Path | None, list[T]] = {tree: [] for tree in trees}
    with tempfile.TemporaryDirectory(prefix=prefix) as name:
        tmp = Path(name)
        redis = EmbeddedRedis(tmp / "redis")
        redis_url = redis.start()
        try:
            for _ in range(args.runs):
                for tree in trees:
                    results[tree].append(measure(tree, redis_url, tmp))
        finally:
            redis.stop()
    return results


def server_env(redis_url: str, tmp: Path, tree: str | Path | None = None) -> dict[str, str]:
    """A benchmarked server's environment: a free port on loopback, the given Redis, no
    rate limit, rematches at once; with ``tree``, another checkout's server on this
    virtualenv (before/after comparisons)."""
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = str(Path(tree).resolve())
    env.update(
        PATIENCE_HOST="127.0.0.1",
        PATIENCE_PORT="0",
        PATIENCE_REDIS_URL=redis_url,
        PATIENCE_DATA_DIR=str(tmp / "server"),
        PATIENCE_RATE="1000000",
        PATIENCE_BURST="1000000",
        PATIENCE_MAX_CONNECTIONS="0",
        PATIENCE_MAX_CONNECTIONS_PER_IP="0",
        PATIENCE_REGISTER_RATE="0",
        PATIENCE_COUNTDOWN="0",
    )
    return env


def start_server(
    children: Children, redis_url: str, tmp: Path, tree: str | None = None
) -> tuple[Any, str]:
    env = server_env(redis_url, tmp, tree)
    binary = Path(sys.executable).parent / "patience-race-server"
    proc, url = _start_listening(children, [str(binary)], env, "listening on ", tmp / "server.log")
    return proc, url


def start_echo(children: Children, tmp: Path, lean: bool = False) -> tuple[Any, str]:
    argv = [sys.executable, str(ROOT / "bench" / "echo.py"), *(["--lean"] if lean else [])]
    return _start_listening(children, argv, dict(os.environ), "listening on ", tmp / "echo.log")


class Probe:
    """CPU and RSS of a process, Redis commands, between two samples."""

    def __init__(self, pid: int | None, redis: Any, others: list[int]) -> None:
        import psutil

        self.proc = psutil.Process(pid) if pid else None
        self.others = [psutil.Process(p) for p in others]
        self.redis = redis

    def _cpu(self, proc: Any) -> float:
        t = proc.cpu_times()
        return float(t.user + t.system)

    def sample(self) -> dict[str, float]:
        import psutil

        t = psutil.cpu_times()
        busy = t.user + t.nice + t.system + t.irq + t.softirq + t.steal
        out: dict[str, float] = {"t": time.perf_counter(), "busy": busy}
        if self.proc is not None:
            out["cpu"] = self._cpu(self.proc)
            out["cpu_sys"] = float(self.proc.cpu_times().system)
            out["rss"] = self.proc.memory_info().rss
        out["load_cpu"] = sum(self._cpu(p) for p in self.others)
        if self.redis is not None:
            info = self.redis.info("stats")
            out["redis_cmds"] = info["total_commands_processed"]
            out["rpush"] = self.redis.info("commandstats").get("cmdstat_rpush", {}).get("calls", 0)
            cpu = self.redis.info("cpu")
            out["redis_cpu"] = float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"])
        return out


def connections_of(pid: int | None) -> int | None:
    if not pid:
        return None
    import psutil

    return sum(1 for c in psutil.Process(pid).net_connections("tcp") if c.status == "ESTABLISHED")


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[i]


def run_phase(
    pipes: list[Connection],
    probe: Probe,
    target: str,
    rate_total: float | None,
    conns: int,
    warm: float,
    seconds: float,
    trace: list[tuple[float, float]] | None = None,
) -> dict[str, Any]:
    """One phase; with ``trace``, each timed move's (send time from the measured window's
    start, latency) added to it, in seconds."""
    start = time.perf_counter() + 0.2
    record_at = start + warm
    end = record_at + seconds
    per_conn = rate_total / conns if rate_total else None
    for pipe in pipes:
        pipe.send(
            {
                "cmd": "run",
                "target": target,
                "rate": per_conn,
                "start": start,
                "record_at": record_at,
                "end": end,
            }
        )
    time.sleep(max(0.0, record_at - time.perf_counter()))
    before = probe.sample()
    time.sleep(max(0.0, end - time.perf_counter()))
    after = probe.sample()
    lat: list[float] = []
    totals = {"moves": 0, "other": 0, "errors": 0, "progress": 0, "late": 0}
    for pipe in pipes:
        if not pipe.poll(warm + seconds + 60):
            raise RuntimeError("a load process did not report: is the server stuck?")
        result = pipe.recv()
        if "error" in result:
            raise RuntimeError(f"load process failed: {result['error']}")
        values = array("d")
        values.frombytes(result["lat"])
        lat.extend(values)
        if trace is not None:
            sent = array("d")
            sent.frombytes(result["sent"])
            trace.extend((t - record_at, latency) for t, latency in zip(sent, values, strict=True))
        for key in totals:
            totals[key] += result[key]
    lat.sort()
    wall = after["t"] - before["t"]
    row: dict[str, Any] = {
        "target": target,
        "mode": "saturating" if rate_total is None else "paced",
        "connections": conns,
        "offered_per_s": round(rate_total) if rate_total else None,
        "moves_per_s": round(totals["moves"] / seconds),
        "p50_ms": round(percentile(lat, 0.50) * 1000, 2),
        "p95_ms": round(percentile(lat, 0.95) * 1000, 2),
        "p99_ms": round(percentile(lat, 0.99) * 1000, 2),
        "max_ms": round(lat[-1] * 1000, 2) if lat else None,
        "progress_events_per_s": round(totals["progress"] / seconds),
        "other_requests_per_s": round(totals["other"] / seconds),
        "errors": totals["errors"],
        "late_sends": totals["late"],
        "load_cpu_pct": round(100 * (after["load_cpu"] - before["load_cpu"]) / wall),
    }
    ours = after["load_cpu"] - before["load_cpu"]
    if "cpu" in before:
        cpu = after["cpu"] - before["cpu"]
        ours += cpu
        row["server_cpu_pct"] = round(100 * cpu / wall)
        row["server_cpu_us_per_move"] = round(1e6 * cpu / max(1, totals["moves"]))
        # the kernel's share: system calls (reads, writes, epoll) and what they wake
        row["server_sys_cpu_pct"] = round(100 * (after["cpu_sys"] - before["cpu_sys"]) / wall)
        row["server_rss_mib"] = round(after["rss"] / 2**20, 1)
    if "redis_cmds" in before and target == "server":
        redis_cpu = after["redis_cpu"] - before["redis_cpu"]
        ours += redis_cpu
        row["redis_cmds_per_s"] = round((after["redis_cmds"] - before["redis_cmds"]) / wall)
        row["log_writes_per_s"] = round((after["rpush"] - before["rpush"]) / wall)
        row["redis_cpu_pct"] = round(100 * redis_cpu / wall)
    # CPU this benchmark did not use: other work on the machine, which skews the figures
    row["other_cpu_pct"] = max(0, round(100 * (after["busy"] - before["busy"] - ours) / wall))
    return row


def pin(pid: int | None, cpus: list[int] | None) -> None:
    """Keep a process on these CPUs (``--pin``)."""
    if pid and cpus:
        import psutil

        psutil.Process(pid).cpu_affinity(cpus)


def start_workers(
    children: Children, cfg: dict[str, Any], procs: int, racers: int
) -> tuple[list[Connection], list[dict[str, Any]]]:
    ctx = mp.get_context("spawn")
    pipes = []
    shares = [racers // procs + (1 if i < racers % procs else 0) for i in range(procs)]
    for index, share in enumerate(shares):
        parent_end, child_end = ctx.Pipe()
        proc = ctx.Process(
            target=worker_main, args=(child_end, index, {**cfg, "racers": share}), daemon=True
        )
        proc.start()
        children.procs.append(proc)
        pipes.append(parent_end)
    ready = []
    for pipe in pipes:
        if not pipe.poll(600):
            raise RuntimeError("a load process did not get ready in time")
        reply = pipe.recv()
        if "error" in reply:
            raise RuntimeError(f"load process failed: {reply['error']}")
        ready.append(reply)
    return pipes, ready


def stop_workers(children: Children, pipes: list[Connection]) -> None:
    for pipe in pipes:
        with contextlib.suppress(Exception):
            pipe.send({"cmd": "stop"})
    for p in children.procs:
        p.join(15)
    for p in children.procs:
        if p.is_alive():
            p.terminate()
            p.join(5)
    children.procs.clear()


COLUMNS = [
    ("phase", "phase"),
    ("connections", "conns"),
    ("offered_per_s", "offered/s"),
    ("moves_per_s", "moves/s"),
    ("p50_ms", "p50 ms"),
    ("p95_ms", "p95 ms"),
    ("p99_ms", "p99 ms"),
    ("max_ms", "max ms"),
    ("server_cpu_pct", "server CPU %"),
    ("server_cpu_us_per_move", "server CPU µs/move"),
    ("server_rss_mib", "server RSS MiB"),
    ("redis_cmds_per_s", "Redis cmds/s"),
    ("progress_events_per_s", "progress events/s"),
    ("load_cpu_pct", "load CPU %"),
    ("other_cpu_pct", "other CPU %"),
]


def table(rows: list[dict[str, Any]]) -> str:
    def cell(value: Any) -> str:
        if value is None:
            return "-"
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{value:,}"
        return str(value)

    lines = ["| " + " | ".join(h for _, h in COLUMNS) + " |"]
    lines.append("|" + "|".join("---" for _ in COLUMNS) + "|")
    for row in rows:
        lines.append("| " + " | ".join(cell(row.get(k)) for k, _ in COLUMNS) + " |")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a 30-second run")
    parser.add_argument("--racers", type=int, default=64, help="racers in the load phases")
    parser.add_argument("--room", type=int, default=4, help="racers per room (k)")
    parser.add_argument("--procs", type=int, default=2, help="load processes")
    parser.add_argument("--seconds", type=float, help="measured seconds per phase")
    parser.add_argument("--warm", type=float, help="warm-up seconds per phase")
    parser.add_argument("--scale", type=int, help="racers in the scale mode (0: skip)")
    parser.add_argument(
        "--profile-paced",
        metavar="FILE",
        help="as --profile, in the paced phase (half the ceiling, or --rate)",
    )
    parser.add_argument("--rate", type=float, help="paced total rate (default: half the ceiling)")
    parser.add_argument("--url", help="a running race server instead of starting one")
    parser.add_argument("--redis-url", help="its Redis, for INFO stats")
    parser.add_argument("--server-pid", type=int, help="its pid, for CPU and RSS")
    parser.add_argument("--json-out", help="also write the JSON figures to this file")
    parser.add_argument(
        "--trace",
        metavar="FILE",
        help="write every timed move of every phase to this CSV: phase, its send time in "
        "seconds from the start of the measured window, its round trip in ms",
    )
    parser.add_argument(
        "--server-tree", help="run the server from this source tree (e.g. an older checkout)"
    )
    parser.add_argument(
        "--lean-echo",
        action="store_true",
        help="the echo reads and writes frames as the race server does (bench/echo.py --lean) "
        "instead of through websockets' asyncio API",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server (and the echo server) on the first CPU, load and Redis on the others",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="py-spy the server in its saturating phase: FILE.svg (flame graph), FILE.json "
        "(speedscope) or FILE.txt (collapsed stacks); needs .venv/bin/pip install py-spy",
    )
    args = parser.parse_args()
    seconds = args.seconds or (2.0 if args.quick else 5.0)
    warm = args.warm if args.warm is not None else (0.5 if args.quick else 1.0)
    scale = args.scale if args.scale is not None else (2000 if args.quick else 10_000)
    began = time.perf_counter()

    _raise_nofile()
    cpus = sorted(os.sched_getaffinity(0))
    server_cpus = load_cpus = None
    if args.pin and len(cpus) >= 2:
        # the server (or the echo server) alone on the first CPU; load and Redis on the rest
        server_cpus, load_cpus = cpus[:1], cpus[1:]
    children = Children()
    children.tmp = tempfile.mkdtemp(prefix="patience-bench-")
    tmp = Path(children.tmp)

    def on_signal(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    from redis import Redis as SyncRedis

    from server.app.embedded_redis import EmbeddedRedis

    report: dict[str, Any] = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "settings": {
            "racers": args.racers,
            "room": args.room,
            "procs": args.procs,
            "pinned": bool(server_cpus),
            "move_path": None if args.url else move_path(args.server_tree),
            "seconds": seconds,
            "warm": warm,
            "game": GAME,
            "server_env": "PATIENCE_RATE=1000000 PATIENCE_BURST=1000000 "
            "PATIENCE_MAX_CONNECTIONS=0 PATIENCE_MAX_CONNECTIONS_PER_IP=0 "
            "PATIENCE_REGISTER_RATE=0 PATIENCE_COUNTDOWN=0",
            "echo": "lean (the server's framing)" if args.lean_echo else "websockets' asyncio API",
        },
    }
    rows: list[dict[str, Any]] = []
    try:
        redis_url = args.redis_url
        server_pid = args.server_pid
        url = args.url
        if url is None:
            children.redis = EmbeddedRedis(tmp / "redis")
            redis_url = children.redis.start()
            server, url = start_server(children, redis_url, tmp, args.server_tree)
            server_pid = server.pid
            pin(server_pid, server_cpus)
            pin(children.redis.process.pid, load_cpus)
        echo, echo_url = start_echo(children, tmp, args.lean_echo)
        pin(echo.pid, server_cpus)
        redis = SyncRedis.from_url(redis_url) if redis_url else None
        cfg = {
            "url": url,
            "echo_url": echo_url,
            "room": args.room,
            "seed": 1,
            "prefix": secrets.token_hex(2),
            "trace": bool(args.trace),
        }
        traces: list[tuple[str, list[tuple[float, float]]]] = []
        print(
            f"load: {args.racers} racers in rooms of {args.room} from {args.procs} processes, "
            f"{seconds:g} s a phase after {warm:g} s of warm-up"
            + (
                f"; the server's move path: {report['settings']['move_path']}"
                if not args.url
                else ""
            ),
            flush=True,
        )
        pipes, ready = start_workers(children, cfg, args.procs, args.racers)
        conns = sum(r["ready"] for r in ready)
        held = connections_of(server_pid)
        worker_pids = [p.pid for p in children.procs]
        for worker in worker_pids:
            pin(worker, load_cpus)
        server_probe = Probe(server_pid, redis, worker_pids)
        echo_probe = Probe(echo.pid, None, worker_pids)

        def phase(
            name: str, target: str, rate: float | None, profile: str | None = None
        ) -> dict[str, Any]:
            probe = echo_probe if target == "echo" else server_probe
            spy = None
            if profile and server_pid:
                # py-spy (pip install py-spy) samples the server through the measured window
                spy = subprocess.Popen(
                    [
                        str(Path(sys.executable).parent / "py-spy"),
                        "record",
                        "--pid",
                        str(server_pid),
                        "--duration",
                        str(round(warm + seconds)),
                        "--rate",
                        "200",
                        "--nonblocking",
                        "--format",
                        {".json": "speedscope", ".txt": "raw"}.get(
                            Path(profile).suffix, "flamegraph"
                        ),
                        "--output",
                        profile,
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                children.popen.append(spy)
            trace: list[tuple[float, float]] | None = [] if args.trace else None
            row = run_phase(pipes, probe, target, rate, conns, warm, seconds, trace)
            if trace is not None:
                traces.append((name, sorted(trace)))
            if spy is not None:
                spy.wait(30)
                children.popen.remove(spy)
                print(f"  profile of the server: {profile}", flush=True)
            row["phase"] = name
            rows.append(row)
            print(
                f"  {name}: {row['moves_per_s']:,} moves/s, p99 {row['p99_ms']} ms",
                flush=True,
            )
            return row

        echo_sat = phase("echo, saturating", "echo", None)
        ours_sat = phase("server, saturating", "server", None, args.profile)
        half = args.rate or echo_sat["moves_per_s"] / 2
        echo_half = phase("echo, paced at half the ceiling", "echo", half)
        ours_half = phase("server, paced at half the ceiling", "server", half, args.profile_paced)
        if not args.quick:
            # where the server's p99 stands with headroom
            phase("server, paced at a quarter of the ceiling", "server", half / 2)
        stop_workers(children, pipes)
        if args.trace:
            with open(args.trace, "w") as out:
                out.write("phase,sent_s,round_trip_ms\n")
                for name, moves in traces:
                    out.writelines(f'"{name}",{t:.6f},{ms * 1000:.3f}\n' for t, ms in moves)
            print(f"  every timed move: {args.trace}", flush=True)

        report["connections_held_by_server"] = held
        report["rows"] = rows
        report["ratios"] = {
            "throughput_ours_over_bare": round(
                ours_sat["moves_per_s"] / echo_sat["moves_per_s"], 3
            ),
            "p99_ours_over_bare_saturating": round(ours_sat["p99_ms"] / echo_sat["p99_ms"], 2),
            "p99_ours_over_bare_at_half": round(ours_half["p99_ms"] / echo_half["p99_ms"], 2),
        }

        if scale and args.url is None:
            print(f"scale: {scale:,} idle racers in rooms of {args.room}", flush=True)
            children.stop_popen(server)
            assert redis is not None
            redis.flushall()
            server, url = start_server(children, redis_url, tmp, args.server_tree)
            time.sleep(1.0)
            import psutil

            pin(server.pid, server_cpus)
            sproc = psutil.Process(server.pid)
            idle_rss = sproc.memory_info().rss
            t0 = time.perf_counter()
            cfg = {
                **cfg,
                "url": url,
                "echo_url": None,
                "prefix": secrets.token_hex(2),
                "one_move": True,
            }
            pipes, ready = start_workers(children, cfg, args.procs, scale)
            for proc in children.procs:
                pin(proc.pid, load_cpus)
            setup_s = time.perf_counter() - t0
            time.sleep(2.0)
            rss = sproc.memory_info().rss
            held_scale = connections_of(server.pid)
            racers = sum(r["ready"] for r in ready)
            report["scale"] = {
                "racers": racers,
                "room": args.room,
                "connections_held_by_server": held_scale,
                "setup_s": round(setup_s, 1),
                "idle_server_rss_mib": round(idle_rss / 2**20, 1),
                "server_rss_mib": round(rss / 2**20, 1),
                "rss_per_racer_kib": round((rss - idle_rss) / racers / 1024, 1),
                "games_in_memory": racers,
            }
            stop_workers(children, pipes)

        targets = {
            "throughput_at_least_half_the_ceiling": report["ratios"]["throughput_ours_over_bare"]
            >= 0.5,
            "p99_at_half_the_ceiling_at_most_10_ms": ours_half["p99_ms"] <= 10,
        }
        if "scale" in report:
            sc = report["scale"]
            if sc["racers"] >= 10_000:
                targets["10k_racers_in_1_GiB"] = sc["server_rss_mib"] <= 1024
            else:  # a smaller scale run: its figure per racer, times 10,000
                projected = sc["idle_server_rss_mib"] + sc["rss_per_racer_kib"] * 10_000 / 1024
                targets[f"10k_racers_in_1_GiB_projected_from_{sc['racers']}"] = projected <= 1024
        report["targets_met"] = targets
        report["elapsed_s"] = round(time.perf_counter() - began, 1)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception:
        log = tmp / "server.log"
        if log.exists():
            errors = [line for line in log.read_text().splitlines() if '"ERROR"' in line]
            print("server log, last errors:", *errors[-3:], sep="\n", file=sys.stderr)
        raise
    finally:
        children.stop_all()

    print()
    print(
        f"{report['machine']['cpus']} cores, Python {report['machine']['python']}; "
        f"{args.racers} racers in rooms of {args.room} playing {GAME}, "
        f"{args.procs} load processes; server connections held: {held}"
    )
    print(table(rows))
    r = report["ratios"]
    print(
        f"\nours/bare: throughput {r['throughput_ours_over_bare']}, "
        f"p99 at half the ceiling {r['p99_ours_over_bare_at_half']} "
        f"({ours_half['p99_ms']} ms vs {echo_half['p99_ms']} ms), "
        f"p99 saturating {r['p99_ours_over_bare_saturating']}"
    )
    if "scale" in report:
        s = report["scale"]
        print(
            f"scale: {s['racers']:,} racers connected and idle in rooms of {s['room']} "
            f"(races started, one move each), {s['connections_held_by_server']:,} connections "
            f"held; server RSS {s['server_rss_mib']} MiB ({s['idle_server_rss_mib']} MiB idle): "
            f"{s['rss_per_racer_kib']} KiB a racer; set up in {s['setup_s']} s"
        )
    print("targets met:", ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in targets.items()))
    print(f"elapsed {report['elapsed_s']} s")
    text = json.dumps(report, indent=2)
    print(text)
    if args.json_out:
        Path(args.json_out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
