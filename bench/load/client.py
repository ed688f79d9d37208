"""The load processes' side of a connection: :class:`Conn` sends requests one at a time and
drives a phase's moves from its socket's callback; :class:`Stats` counts and times them;
:class:`EchoConn` is a connection to the echo server.
"""

from __future__ import annotations

import asyncio
import random
import time
from array import array
from typing import Any

import msgpack

from bench.wsclient import LeanWebSocket, connect

_pack = msgpack.Packer().pack
unpack = msgpack.unpackb
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


LATE = 0.005
#: seconds a request waits for its reply, and a racer for its race's start, before the run
#: fails saying so (rather than waiting for ever on a server that never answers)
WAIT = 120.0


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
            message = unpack(payload, raw=False)
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
            self.on_event(unpack(ws.messages.popleft(), raw=False))
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


async def dial(url: str) -> LeanWebSocket:
    """A connection on the lean client (``bench/wsclient.py``), a minute to open."""
    return await connect(url, timeout=60)
