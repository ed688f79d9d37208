"""The soak's connections and its ledger: every frame sent, every reply matched to the
frame it answers, every close and its code, and the requests that got no answer.

The server answers a connection's frames one at a time, in order, each frame within the
size limit with exactly one reply (its own, or an ``error``: ``bad_request`` with a nil id
for one it cannot decode); so the replies are matched to the frames in the order they were
sent, and each is checked to echo the id it must (``bench/fuzzing.py``: the usable id,
nil, or for ``rate_limited`` any integer id).

**Unanswered.** A request sent on a connection that stays open and gets no reply within
``stall`` seconds (30 by default) is unanswered. A request whose connection ends first
is not: it is *dropped*, counted by the reason the connection ended, which must be one
the protocol documents (a close frame with 1008, 1009, 1011, 1012, 1013 or 4001),
one of the soak's own (its socket closed or cut by the soak), or the server killed by
the soak (no close frame, on a server process since killed). A connection that ends any
other way (no close frame from a server still running, or an undocumented code) leaves
its requests unanswered.
"""

from __future__ import annotations

import asyncio
import collections
import time
from collections import Counter, deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

import msgpack

from bench.wsclient import LeanWebSocket, connect
from server.protocol import ErrorCode

#: close codes a connection may end with (protocol.md, what closes a connection)
DOCUMENTED_CLOSES = {1008, 1009, 1011, 1012, 1013, 4001}
#: every reply type (protocol.md, requests, replies and events)
REPLY_TYPES = {"welcome", "registered", "games", "rules", "pong", "game", "moved", "undone"}
REPLY_TYPES |= {"resigned", "room", "left", "daily", "board", "unwatched", "following"}
REPLY_TYPES |= {"replay", "replay_view", "homed", "hint", "error"}
REPLY_TYPES |= {"challenge", "challenge_taken", "challenges"}
#: a player's name and devices (the soak's fuzzing connections may send these requests)
REPLY_TYPES |= {"renamed", "link_code", "linked", "devices"}
#: groups, weekly leagues, ratings
REPLY_TYPES |= {"group", "groups", "event", "profile", "quick_waiting", "quick_left"}
#: the weekly events' (event_join, event)
REPLY_TYPES |= {"event"}
#: a finished game's review
REPLY_TYPES |= {"review"}
EVENT_TYPES = {"room", "race_start", "progress", "results", "signed_out", "daily_result"}
EVENT_TYPES |= {"board_update", "stuck", "challenge_start", "challenge_result"}
EVENT_TYPES |= {"challenge_news", "ghosts_result"}
#: the quick race's (a fuzzing connection may join a queue)
EVENT_TYPES |= {"quick_waiting", "quick_matched", "quick_ghosts", "quick_ghosts_start"}
EVENT_TYPES |= {"quick_ghosts_result"}
#: a watched weekly league's standings (event with watch)
EVENT_TYPES |= {"event", "group"}  # (and a watched group)
ERROR_CODES = {code.value for code in ErrorCode}
SAMPLES = 12


def run_within(main: Coroutine[Any, Any, None], seconds: float) -> str | None:
    """Run a soak to its end or ``seconds``, whichever comes first (its phases have
    deadlines; a wait that had none must end the run with a report, not hang it): what
    went past its deadline, or None."""
    try:
        asyncio.run(asyncio.wait_for(main, seconds))
    except TimeoutError:
        return f"the whole run: past its deadline of {seconds:.0f} s"
    return None


@dataclass
class Sent:
    """A frame on its way: what its reply must echo, and who waits for it."""

    kind: str
    at: float
    #: the id the reply must carry (None: nil), or no reply at all (``expects`` False)
    rid: int | None
    expects: bool = True
    #: for ``rate_limited``: any integer id of the frame
    int_id: int | None = None
    future: asyncio.Future[dict[str, Any]] | None = None
    stale: bool = False
    #: a ping asking whether a connection with a request unanswered still answers: its
    #: own silence is noted (``probe``), not counted unanswered
    probe: bool = False
    #: the error code the reply must have, when the frame decides it
    code: str | None = None


@dataclass
class Ledger:
    """Counts of the whole run."""

    stall: float = 30.0
    frames: Counter[str] = field(default_factory=Counter)  # by who sent them
    replies: Counter[str] = field(default_factory=Counter)  # type, or error:code
    closes: Counter[str] = field(default_factory=Counter)
    dropped: Counter[str] = field(default_factory=Counter)
    unanswered: int = 0
    violations: int = 0
    samples: dict[str, list[str]] = field(default_factory=lambda: collections.defaultdict(list))
    #: the server's life: bumped when the soak kills it
    generation: int = 0
    #: the addresses of servers the soak killed (several servers: only some of the
    #: connections are ended by a kill)
    dead_urls: set[str] = field(default_factory=set)
    connections: int = 0
    open_conns: set[Conn] = field(default_factory=set)

    def note(self, what: str, text: str) -> None:
        if len(self.samples[what]) < SAMPLES:
            self.samples[what].append(text)

    def violation(self, text: str) -> None:
        self.violations += 1
        self.note("violations", text)

    def waiting(self) -> int:
        """Replies still awaited on open connections (not yet counted unanswered)."""
        return sum(
            1
            for conn in self.open_conns
            for sent in conn.inflight
            if sent.expects and not sent.stale and not sent.probe
        )

    async def drain(self, linger: float = 0.0) -> None:
        """Until every reply on its way has come or is counted unanswered (``stall``
        after it was sent): a frame that expects no reply holds nothing up. Then up to
        ``linger`` seconds more for those counted unanswered, to tell a late reply
        (noted under ``late``) from none."""
        while True:
            self.sweep()
            if not self.waiting():
                break
            await asyncio.sleep(0.1)
        until = time.monotonic() + linger
        while time.monotonic() < until and self.stale():
            await asyncio.sleep(0.1)

    def stale(self) -> int:
        """Replies counted unanswered still on their way on open connections."""
        return sum(1 for c in self.open_conns for s in c.inflight if s.expects and s.stale)

    def sweep(self) -> None:
        """Count the requests on open connections waiting longer than ``stall``."""
        now = time.monotonic()
        probe = []
        for conn in list(self.open_conns):
            for sent in conn.inflight:
                if now - sent.at < self.stall:
                    break
                if sent.probe and not sent.stale:
                    sent.stale = True
                    self.note("probe", f"{conn.name}: no pong either: it answers nothing now")
                elif sent.expects and not sent.stale:
                    sent.stale = True
                    self.unanswered += 1
                    self.note("unanswered", f"{conn.name}: {sent.kind} (id {sent.rid})")
                    if not conn.probed:
                        conn.probed = True
                        probe.append(conn)
        for conn in probe:
            # does the connection still answer? a pong (its reply taken for the stale
            # request's: a violation naming both) says the request was passed over;
            # nothing, that the connection stopped reading
            conn.request("ping", who="probe", probe=True)


class Conn:
    """One websocket connection of the soak, on the lean client: frames sent and their
    replies matched in order; events handed to ``on_event``."""

    def __init__(
        self,
        name: str,
        ws: LeanWebSocket,
        ledger: Ledger,
        who: str,
        on_event: Callable[[Conn, dict[str, Any]], None] | None = None,
        url: str = "",
    ) -> None:
        self.name = name
        self.url = url
        self.ws = ws
        self.ledger = ledger
        self.who = who
        self.on_event = on_event
        self.generation = ledger.generation
        self.inflight: deque[Sent] = deque()
        self.next_id = 0
        self.ours = False  # closed or cut by the soak
        self.probed = False  # a ping sent after a request went unanswered
        self.last_heard = time.monotonic()  # when a frame last came
        self.signed_out = False
        self.ended = asyncio.get_running_loop().create_future()
        self.close_code: int | None = None
        ws.on_message = self._message
        ws.on_failure = self._failure
        ledger.open_conns.add(self)
        ledger.connections += 1
        if ws.error is not None:
            # it ended before it was handed over: a close frame that came with the
            # handshake's answer (1013, a connection past a cap)
            self._failure(ws.error)

    @classmethod
    async def open(
        cls,
        url: str,
        name: str,
        ledger: Ledger,
        who: str,
        on_event: Callable[[Conn, dict[str, Any]], None] | None = None,
        local_addr: tuple[str, int] | None = None,
    ) -> Conn:
        ws = await connect(url, timeout=10, local_addr=local_addr)
        return cls(name, ws, ledger, who, on_event, url)

    @property
    def closed(self) -> bool:
        return self.ended.done()

    # -- sending

    def take_id(self) -> int:
        self.next_id += 1
        return self.next_id

    def send_frame(self, frame: bytes | str, sent: Sent, who: str | None = None) -> None:
        """Send a frame whose reply (or none) ``sent`` describes."""
        if self.closed or self.ours:
            return
        self.ledger.frames[who or self.who] += 1
        self.inflight.append(sent)
        try:
            if isinstance(frame, str):
                self.ws.send_text(frame)
            else:
                self.ws.send(frame)
        except ConnectionError:
            pass  # the connection is ending: the frame is dropped with it

    def request(
        self, kind: str, who: str | None = None, probe: bool = False, **fields: Any
    ) -> asyncio.Future[dict[str, Any]]:
        """Send a request; the future gives its reply, or fails if the connection ends
        (``who``: whom the frame is counted for, if not the connection's owner)."""
        rid = self.take_id()
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        frame = msgpack.packb({"type": kind, "id": rid, **fields})
        if self.closed or self.ours:
            future.set_exception(ConnectionError(f"{self.name} is closed"))
            return future
        sent = Sent(kind, time.monotonic(), rid, int_id=rid, future=future, probe=probe)
        self.send_frame(frame, sent, who)
        return future

    async def call(self, kind: str, timeout: float | None = None, **fields: Any) -> dict[str, Any]:
        """A request's reply (ConnectionError if the connection ends first)."""
        future = self.request(kind, **fields)
        if timeout is None:
            return await future
        return await asyncio.wait_for(asyncio.shield(future), timeout)

    def drop(self) -> None:
        """Cut the connection, with no closing handshake (the soak's doing)."""
        self.ours = True
        self.ws.abort()

    async def close(self) -> None:
        self.ours = True
        if not self.closed:
            try:
                await asyncio.wait_for(self.ws.close(), 5)
            except (TimeoutError, ConnectionError):
                self.ws.abort()
        self._failure(ConnectionError("closed"))

    # -- receiving

    def _message(self, payload: bytes) -> None:
        ledger = self.ledger
        self.last_heard = time.monotonic()
        try:
            message = msgpack.unpackb(payload, raw=False, strict_map_key=False)
        except Exception:
            ledger.violation(f"{self.name}: a frame that is not msgpack: {payload[:60]!r}")
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            ledger.violation(f"{self.name}: a message with no type: {str(message)[:80]}")
            return
        kind = message["type"]
        if "id" not in message:
            if kind not in EVENT_TYPES:
                ledger.violation(f"{self.name}: unknown event {kind}")
            if kind == "signed_out":
                self.signed_out = True
            if self.on_event is not None:
                self.on_event(self, message)
            return
        code = message.get("code") if kind == "error" else None
        ledger.replies[f"error:{code}" if kind == "error" else kind] += 1
        if kind not in REPLY_TYPES:
            ledger.violation(f"{self.name}: unknown reply type {kind}")
        while self.inflight and not self.inflight[0].expects:
            self.inflight.popleft()
        if not self.inflight:
            ledger.violation(f"{self.name}: a reply to nothing sent: {str(message)[:120]}")
            return
        sent = self.inflight.popleft()
        if sent.stale:  # counted unanswered: it came, late
            ledger.note(
                "late",
                f"{self.name}: {sent.kind} (id {sent.rid}) answered "
                f"{time.monotonic() - sent.at:.1f} s after it was sent: {kind} {code or ''}",
            )
        rid = message["id"]
        if code == "rate_limited":
            good = rid == sent.int_id
        else:
            good = rid == sent.rid and (rid is not None or type(rid) is type(sent.rid))
        if not good:
            ledger.violation(
                f"{self.name}: the reply to {sent.kind} (id {sent.rid}) has id {rid!r}: "
                f"{str(message)[:120]}"
            )
        if code is not None and code not in ERROR_CODES:
            ledger.violation(f"{self.name}: undocumented error code: {str(message)[:120]}")
        elif sent.code is not None and code != sent.code and code != "rate_limited":
            ledger.violation(f"{self.name}: {sent.kind} must get {sent.code}: {str(message)[:120]}")
        if self.signed_out and kind in ("moved", "undone", "resigned", "homed"):
            ledger.violation(f"{self.name}: {kind} after signed_out: {str(message)[:120]}")
        if sent.future is not None and not sent.future.done():
            sent.future.set_result(message)

    def _failure(self, exc: Exception) -> None:
        if self.ended.done():
            return
        ledger = self.ledger
        ledger.open_conns.discard(self)
        code = self.ws.close_code
        self.close_code = code
        if self.ours and code is None:
            reason = "cut by the soak"
        elif code is None and (
            ledger.generation != self.generation or self.url in ledger.dead_urls
        ):
            reason = "server killed"
        elif code is None:
            reason = "1006 (no close frame)"
        else:
            reason = str(code)
        if not (self.ours and code is None):
            ledger.closes[reason] += 1
        documented = reason in ("cut by the soak", "server killed") or (
            code is not None and (code in DOCUMENTED_CLOSES or self.ours)
        )
        for sent in self.inflight:
            if sent.expects and sent.stale:
                ledger.note(
                    "late",
                    f"{self.name}: {sent.kind} (id {sent.rid}) unanswered until the connection "
                    f"ended ({reason}) {time.monotonic() - sent.at:.1f} s after it was sent; "
                    f"last frame received {time.monotonic() - self.last_heard:.1f} s before",
                )
            if not sent.expects or sent.stale or sent.probe:
                continue
            if documented:
                ledger.dropped[reason] += 1
            else:
                ledger.unanswered += 1
                ledger.note("unanswered", f"{self.name}: {sent.kind} (connection ended: {reason})")
            if sent.future is not None and not sent.future.done():
                sent.future.set_exception(ConnectionError(f"{self.name} ended: {reason}"))
        for sent in self.inflight:
            if sent.future is not None and not sent.future.done():
                sent.future.set_exception(ConnectionError(f"{self.name} ended: {reason}"))
        self.inflight.clear()
        self.ended.set_result(reason)
