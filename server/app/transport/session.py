"""The websocket shell's half for one connection: frames read and dispatched, replies and
events queued and written once a pass of the event loop (see
:mod:`server.app.transport.ws` for the connection itself and the server).

Compiled with the move path (``server/native.py``): every request and every reply goes
through here, so it is kept to strict types and to objects whose attributes compiled code
reaches directly: the :class:`WsSession` and the :class:`Outbox` are native classes (no
``__slots__`` needed, and none of their methods may be replaced at run time).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Callable
from typing import Any, Final, Protocol

from websockets.asyncio.server import ServerConnection
from websockets.frames import Frame, Opcode
from websockets.protocol import SEND_EOF, State

from server.protocol import ErrorCode, FrameError, ProtocolError, decode, encode, parse_request
from server.protocol import messages as m
from server.protocol.fastpath import move_fields

from ..metrics import Metrics
from ..moves import MovePath
from ..settings import Settings

try:  # websockets' own C version, as websockets.frames takes it
    from websockets.speedups import apply_mask
except ImportError:  # pragma: no cover
    from websockets.utils import apply_mask

log = logging.getLogger("patience.ws")

CLOSE_POLICY: Final = 1008

#: requests read but not yet handled, per connection, past which reading pauses (as
#: websockets' own queue, ``max_queue``) and under which it resumes
INBOX_HIGH: Final = 32
INBOX_LOW: Final = 8

#: ``time.perf_counter`` and the open state, held in C variables (read through their
#: module and class, each is lookups a call)
_perf_counter: Final = time.perf_counter
_OPEN: Final = State.OPEN


class Served(Protocol):
    """What a session needs of the service directly: its move path (``move_now``)."""

    @property
    def moves(self) -> MovePath: ...


class Shell(Protocol):
    """What a session needs of the websocket server (:class:`server.app.transport.ws.WebServer`)."""

    @property
    def service(self) -> Served: ...

    @property
    def metrics(self) -> Metrics: ...

    def failed(self, session: WsSession, exc: BaseException, request_id: Any) -> dict[str, Any]:
        """The reply to a request whose handling raised ``exc``."""
        ...


class Outbox:
    """Frames are written once per pass of the event loop: everything queued for one
    connection during a pass (its reply, the progress events of its room) goes out in one
    write, so a move costs a system call per connection that hears of it, not per frame."""

    def __init__(self) -> None:
        self._queued: list[WsSession] = []
        self._scheduled = False

    def add(self, session: WsSession) -> None:
        self._queued.append(session)
        if not self._scheduled:
            self._scheduled = True
            asyncio.get_running_loop().call_soon(self.flush)

    def flush(self) -> None:
        self._scheduled = False
        queued, self._queued = self._queued, []
        for session in queued:
            try:
                session.flush()
            except Exception:  # one connection's trouble must not hold up the others
                log.exception("flush failed", extra={"player": session.player})


class WsSession:
    """One websocket connection: the service's :class:`~server.app.service.Session`.

    Its frames come straight from websockets' Sans-I/O protocol (:class:`RaceConnection`)
    and are handled one at a time, in order: a move on a game held here is played as its
    frame is read and answered when Redis has its log entry, with no coroutine woken
    (``MovePath.move_now``, ``server/app/moves.py``); any other request goes to the
    connection's coroutine (:meth:`WebServer.handler`). Frames that come meanwhile wait
    in the inbox.
    """

    def __init__(
        self,
        ws: ServerConnection,
        settings: Settings,
        outbox: Outbox | None = None,
        web: Shell | None = None,
    ) -> None:
        self.ws = ws
        #: websockets' Sans-I/O protocol of the connection (made with it, never replaced)
        self._protocol = ws.protocol
        self.web = web
        self._outbox = outbox or Outbox()
        self._queued = False
        self.player: str | None = None
        self.name: str | None = None
        #: the client's address, for limits (set as the connection is let in)
        self.address: str | None = None
        self.hello = False
        #: signed in with ``hello``'s ``side``: beside the player's connection, not in its
        #: place (it takes nothing over, and cannot play)
        self.side = False
        self.watching: set[str] = set()
        self.rate = settings.rate
        self.burst = settings.burst
        self._tokens = float(settings.burst)
        self._last = _perf_counter()
        #: when the last ``rate_limited`` was sent: at most one a second
        self._refused_at = -math.inf
        self._limit = settings.max_outgoing
        self._closing = False
        # frames read and not yet handled (None: none, as almost always: a frame that
        # comes while none waits is handled at once); the message being put together
        # from fragments
        self._inbox: deque[bytes | str] | None = None
        self._parts: list[bytes] = []
        self._text = False
        self._paused = False
        #: frames of an earlier read wait their turn
        #: (:class:`~server.app.transport.ws.RaceConnection` handles a share of them a
        #: pass of the event loop): the socket is not read
        self.deferred = False
        #: a request is being handled (its reply not yet sent)
        self._busy = False
        #: no more frames are handled (the connection is gone)
        self._ended = False
        #: what the coroutine is to do next: (received, request) or a close (code, reason)
        self._handed: tuple[Any, ...] | None = None
        self._waiter: asyncio.Future[None] | None = None
        # the request of the move in flight: its id and when it was read
        self._id: int | None = None
        self._received = 0.0
        #: the service's move path (``Service.moves``), once a move has come
        self._moves: MovePath | None = None
        # frames taken to be answered, and replies sent: every one is answered, in order,
        # so at a ping they are level (else a request was lost: logged, with the last
        # requests that were not moves)
        self._asked = 0
        self._answered = 0
        self._recent: tuple[tuple[str, int], ...] = ()
        #: the server's counters (read once: the shell is a Python object)
        self._metrics: Metrics | None = web.metrics if web is not None else None

    # -- reading -------------------------------------------------------------------------

    def received(self, frame: Frame) -> None:
        """A data frame parsed by websockets (fragments put together; websockets has
        checked the size of the whole message against ``max_frame``). Once a close frame
        has gone either way nothing more is handled."""
        if self._ended or self._closing or self.ws.protocol.state is not State.OPEN:
            return
        if frame.opcode is not Opcode.CONT:
            self._text = frame.opcode is Opcode.TEXT
            self._parts = []
        self._parts.append(bytes(frame.data))
        if not frame.fin:
            return
        parts, self._parts = self._parts, []
        data = parts[0] if len(parts) == 1 else b"".join(parts)
        self.message(bytes(data).decode("utf-8", "replace") if self._text else data)

    def message(self, data: bytes | str) -> None:
        """A whole message from the client; dropped once the connection is closing (the
        player signed in elsewhere, say: while the client withholds its answer to the
        close, what it sends is not carried out)."""
        if self._ended or self._closing:
            return
        inbox = self._inbox
        if inbox is None:
            if not self._busy:
                self._dispatch(data)
                return
            inbox = self._inbox = deque()
        inbox.append(data)
        if not self._busy:
            self._pump()
        elif len(inbox) >= INBOX_HIGH and not self._paused:
            self._paused = True
            self.ws.transport.pause_reading()

    def _pump(self) -> None:
        """Handle the waiting frames in order until one has to wait (for Redis, or for
        the coroutine)."""
        inbox = self._inbox
        if inbox is None:
            return
        while inbox and not self._busy and not self._ended:
            self._dispatch(inbox.popleft())
        if not inbox and self._inbox is inbox:
            self._drop_inbox()
        if self._paused and len(inbox) <= INBOX_LOW:
            self._paused = False
            if not self._ended:
                self.resume()

    def _drop_inbox(self) -> None:
        inbox = self._inbox
        if inbox is not None:
            inbox.clear()  # (a pass of ``_pump`` may be walking it)
            self._inbox = None

    def inbox_held(self) -> int:
        """Frames read and waiting their turn."""
        return 0 if self._inbox is None else len(self._inbox)

    def resume(self) -> None:
        """Read the socket again, unless the inbox is full or frames of an earlier read
        still wait their turn."""
        if not self._paused and not self.deferred:
            self.ws.transport.resume_reading()

    def _dispatch(self, frame: bytes | str) -> None:
        web = self.web
        assert web is not None
        received = _perf_counter()
        if not self.allow(received):
            self._refuse(frame, received)
            return
        self._asked += 1
        try:
            raw = decode(frame)
        except FrameError as undecodable:
            # (each except clause names its exception differently: compiled, a name
            # keeps the type of its first use)
            # answered with no id (none can be read) and the connection carries on: the
            # frames behind it are handled as usual
            self.answer(_error(None, ErrorCode.BAD_REQUEST, str(undecodable)), received)
            return
        request_id = raw.get("id") if isinstance(raw, dict) else None
        if not isinstance(request_id, int) or isinstance(request_id, bool):
            request_id = None
        request: m.Request | None = None
        fields: tuple[int, str, str | None] | None = None
        try:
            fields = move_fields(raw) if isinstance(raw, dict) else None
            if fields is not None:
                # a move: played here, with no request record, when its game is held here
                self._id, self._received = fields[0], received
                moves = self._moves
                if moves is None:
                    moves = self._moves = web.service.moves
                self._busy = True
                try:
                    taken = moves.move_now(self, fields[0], fields[2], fields[1], self._moved)
                except BaseException:
                    self._busy = False
                    raise
                if taken:
                    return
                self._busy = False
            request = parse_request(raw)
            if request.TYPE == "ping" and self._asked - 1 != self._answered:
                log.warning(
                    "a ping came with a request unanswered",
                    extra={"player": self.player, "asked": self._asked - 1,
                           "answered": self._answered, "recent": list(self._recent)},
                )  # fmt: skip
            self._recent = (*self._recent[-2:], (request.TYPE, request.id))
            log.debug(
                "request", extra={"player": self.player, "type": request.TYPE, "id": request.id}
            )
            self._busy = True
            self._hand((received, request))
            return
        except ProtocolError as refused:
            if request is not None:
                refused.request_id = request.id
            elif fields is not None:
                refused.request_id = fields[0]
            reply = _error(refused.request_id, refused.code, refused.message)
        except Exception as failure:
            reply = web.failed(self, failure, request_id)
        self.answer(reply, received)

    def _refuse(self, frame: bytes | str, received: float) -> None:
        """A frame past the rate limit: not carried out. The first in a second is answered
        ``rate_limited`` (decoded only for its id); the others are dropped unread. Once the
        bucket is more than ``burst`` requests short, the connection is closed (1008)."""
        if self._tokens < -self.burst:
            self._end_for_policy("rate limit exceeded")
            return
        if received - self._refused_at < 1.0:
            return
        self._refused_at = received
        try:
            raw = decode(frame)
        except FrameError:
            raw = None
        request_id = raw.get("id") if isinstance(raw, dict) else None
        if not isinstance(request_id, int) or isinstance(request_id, bool):
            request_id = None
        rate = self.rate
        message = f"more than {rate:g} request{'' if rate == 1 else 's'} a second: slow down"
        self._asked += 1  # (answered, as the first refused in a second is)
        self.answer(_error(request_id, ErrorCode.RATE_LIMITED, message), received)

    def _end_for_policy(self, reason: str) -> None:
        """Close with 1008 at once: websockets sends the close frame after what is queued
        and hangs up without waiting for the client's answer, and drops whatever the
        client sends meanwhile, unread. The coroutine waits for the hang-up (websockets'
        closing timeout) and ends."""
        self._ended = True
        self._closing = True
        self._drop_inbox()
        ws = self.ws
        if ws.protocol.state is State.OPEN:
            ws.protocol.fail(CLOSE_POLICY, reason)
            ws.send_data()
        if self._paused:  # read on, to the client's end of the connection
            self._paused = False
            self.resume()
        self._hand(("close", CLOSE_POLICY, reason))

    def _moved(self, outcome: bytes | BaseException) -> None:
        """A move's outcome, once Redis has its log entry (or has failed): the ``moved``
        reply, encoded, or the error."""
        try:
            if isinstance(outcome, bytes):
                self._answered += 1
                self.send_encoded(outcome)
                self._count("moved", self._received)
            elif isinstance(outcome, ProtocolError):
                self.answer(_error(self._id, outcome.code, outcome.message), self._received)
            else:
                assert self.web is not None
                self.answer(self.web.failed(self, outcome, self._id), self._received)
        finally:
            self.done()

    def answer(self, reply: dict[str, Any], received: float) -> None:
        """Send a request's reply, and count it."""
        self._answered += 1
        if reply["type"] != "moved":
            log.debug(
                "answer",
                extra={"player": self.player, "type": reply["type"], "id": reply.get("id")},
            )
        self.send(reply)
        self._count(reply["type"], received)

    def _count(self, kind: str, received: float) -> None:
        metrics = self._metrics
        if metrics is None:
            return
        metrics.requests += 1
        if kind == "moved":
            metrics.observe_move(_perf_counter() - received)
        elif kind == "error":
            metrics.errors += 1

    def done(self) -> None:
        """The request in hand is answered: on to the next."""
        if not self._busy:
            log.warning("a request answered twice", extra={"player": self.player})
        self._busy = False
        if self._inbox is not None:
            self._pump()

    # -- the connection's coroutine ------------------------------------------------------

    def _hand(self, item: tuple[Any, ...]) -> None:
        lost = self._handed
        if lost is not None and lost[0] != "close":
            # one request at a time: one waiting unread here is a fault, logged with both
            log.warning(
                "a request passed over",
                extra={"player": self.player, "lost": type(lost[1]).__name__,
                       "by": type(item[1]).__name__ if item[0] != "close" else "close"},
            )  # fmt: skip
        self._handed = item
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def next_request(self) -> tuple[Any, ...] | None:
        """What the coroutine handles next: ``(received, request)``, ``("close", code,
        reason)``, or None once the connection is gone."""
        while True:
            item = self._handed
            if item is not None:
                self._handed = None
                if self._closing and item[0] != "close":
                    continue  # a request handed on just before the close: not carried out
                return item
            if self._ended and self.ws.state is State.CLOSED:
                return None
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
            self._waiter = None

    def lost(self) -> None:
        """The connection is closed: nothing more is read, and the coroutine ends."""
        self._ended = True
        self._drop_inbox()
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    # -- writing -------------------------------------------------------------------------

    def allow(self, now: float) -> bool:
        """Token bucket: ``rate`` requests a second on average, ``burst`` at once; ``now``
        is ``time.perf_counter()``. A frame refused takes its token all the same: the
        bucket goes short, and a client that keeps sending stays refused."""
        tokens = min(self.burst, self._tokens + (now - self._last) * self.rate) - 1.0
        self._last = now
        self._tokens = tokens
        return tokens >= 0

    def send(self, message: dict[str, Any]) -> None:
        self.send_encoded(encode(message))

    def send_encoded(self, data: bytes) -> None:
        """Queue a frame without waiting; it is written at the end of this pass of the
        event loop (:class:`Outbox`), in order with everything else sent to this client.

        The frame goes into the protocol's own queue of bytes to send, so it keeps its
        place among what websockets itself sends (pongs, the close); its header is made
        here rather than by websockets' general framing (a server frame is never masked,
        and this server negotiates no extension)."""
        protocol = self._protocol
        # (``_state``: the ``state`` property's own field, without a Python call a frame)
        if self._closing or protocol._state is not _OPEN:
            return
        size = len(data)
        writes = protocol.writes
        writes.append(_HEADS[size] if size < 126 else frame_head(size))
        writes.append(data)
        if not self._queued:
            self._queued = True
            self._outbox.add(self)

    def flush(self) -> None:
        """Write the queued frames at once; a client whose unsent bytes pass the limit is
        dropped rather than let it hold up anyone."""
        self._queued = False
        ws = self.ws
        protocol = self._protocol
        # (``data_to_send()``'s own two lines, without a Python call a write)
        chunks = protocol.writes
        protocol.writes = []
        if not chunks:
            return  # websockets wrote them already (with a pong, or a close)
        transport = ws.transport
        if SEND_EOF in chunks:
            protocol.writes[:0] = chunks  # an end of stream: websockets' own writer
            ws.send_data()
            return
        try:
            transport.write(chunks[0] if len(chunks) == 1 else b"".join(chunks))
        except Exception as exc:  # the connection is gone
            log.debug("write failed: %s", exc, extra={"player": self.player})
            return
        if transport.get_write_buffer_size() > self._limit:
            # no closing handshake: it would queue behind everything unread
            log.warning("dropping a client too slow to read", extra={"player": self.player})
            self._closing = True
            transport.abort()

    def close(self, code: int, reason: str) -> None:
        """Close the connection (the closing handshake, in a task); from now on nothing it
        sends is handled, and nothing more is sent to it."""
        if self._closing:
            return
        self._closing = True
        self._drop_inbox()
        if self._paused:  # read on: the client's answer to the close must get through
            self._paused = False
            self.resume()
        task = asyncio.get_running_loop().create_task(self.ws.close(code, reason))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)


def _error(request_id: Any, code: ErrorCode, message: str) -> dict[str, Any]:
    return {"type": "error", "id": request_id, "code": code.value, "message": message}


def frame_head(size: int) -> bytes:
    """The header of a whole binary frame from the server (unmasked) of ``size`` bytes."""
    if size < 126:
        return bytes((0x82, size))
    if size < 65536:
        return b"\x82\x7e" + size.to_bytes(2, "big")
    return b"\x82\x7f" + size.to_bytes(8, "big")


_HEADS = [frame_head(size) for size in range(126)]


def read_frames(
    data: bytes, limit: int | None, message: Callable[[bytes], object], most: int
) -> int:
    """Hand ``message`` the payload of each whole masked binary frame (FIN set, no
    reserved bits, at most ``limit`` bytes) at the start of ``data``, unmasked, ``most``
    of them at most; stop at the first that is anything else or is cut short. Returns the
    bytes taken."""
    size = len(data)
    at = 0
    while at + 6 <= size and most > 0:
        if data[at] != 0x82:
            break
        length = data[at + 1]
        if length < 0x80:  # unmasked: websockets refuses it
            break
        length &= 0x7F
        mask_at = at + 2
        if length == 126:
            if at + 8 > size:
                break
            length = int.from_bytes(data[at + 2 : at + 4], "big")
            mask_at = at + 4
        elif length == 127:
            break
        if limit is not None and length > limit:
            break
        start = mask_at + 4
        end = start + length
        if end > size:
            break
        at = end
        most -= 1
        message(apply_mask(data[start:end], data[mask_at:start]))
    return at


def frame_size(data: bytes, at: int, limit: int | None) -> int:
    """The size of the client frame starting at ``data[at]`` (header, mask and payload),
    as far as its header tells: while the header is cut short, the least the frame can be
    (more than there is); 0 for a frame over ``limit`` bytes, which websockets refuses on
    its header alone (1009)."""
    left = len(data) - at
    if left < 2:
        return 2
    second = data[at + 1]
    length = second & 0x7F
    head = 6 if second & 0x80 else 2
    if length == 126:
        if left < 4:
            return 4
        length = int.from_bytes(data[at + 2 : at + 4], "big")
        head += 2
    elif length == 127:
        if left < 10:
            return 10
        length = int.from_bytes(data[at + 2 : at + 10], "big")
        head += 8
    if limit is not None and length > limit:
        return 0
    return head + length


def frames_end(data: bytes, most: int, limit: int | None) -> int:
    """Where the first ``most`` whole frames of ``data`` end: at most there, and before a
    frame cut short; the end of ``data`` once a frame over ``limit`` comes (websockets
    refuses it, and then reads nothing more)."""
    size = len(data)
    at = 0
    while at < size and most > 0:
        frame = frame_size(data, at, limit)
        if frame == 0:
            return size
        if at + frame > size:
            break
        at += frame
        most -= 1
    return at
