"""The websocket shell: the server, and one connection with its
:class:`~server.app.transport.session.WsSession` per client, frames decoded and
dispatched to the service, replies and events written without waiting on slow readers.

websockets makes the connection (the handshake, pongs, the closing handshake, limits);
one task of this server pings every connection (:meth:`WebServer.keep_alive`);
the frames of requests and replies, the bulk of the traffic, are read and written on its
Sans-I/O protocol (:class:`RaceConnection` here, the session in
:mod:`server.app.transport.session`, which is compiled with the move path), and a move on
a game held here is answered without a coroutine (``MovePath.move_now``). One pass of the
event loop handles at most ``FRAMES_PER_PASS`` frames of a connection, however many one
read brings: the rest wait for the next pass, its socket not read meanwhile.

An undecodable frame (text, not msgpack, or past the decoding bounds of
:func:`~server.protocol.codec.decode`) closes nothing: it is answered ``bad_request`` with
no id and the frames behind it are handled as usual.

Close codes: 1008 a client that kept sending past its rate limit (its bucket ``burst``
requests short: :class:`WsSession`); 1009 a frame over ``max_frame`` bytes (websockets
refuses it on its header alone and fails the connection: the payload is never read, so
there is no skipping it to go on with the next frame); a client too slow to read what it
is sent is dropped (its connection is cut without a closing handshake, which would queue
behind everything unread: the client sees 1006); 1011 a ping unanswered for
``ping_timeout`` seconds (:meth:`WebServer.keep_alive`); 1012 the server is restarting
(reconnect); 1013 a connection past ``max_connections`` or ``max_connections_per_ip``
(closed as soon as its handshake is done); 4001 the player signed in elsewhere.
"""

from __future__ import annotations

import asyncio
import logging
import random
import struct
from collections import deque
from typing import Any, ClassVar, cast

from websockets.asyncio.messages import Assembler
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.datastructures import Headers
from websockets.frames import CloseCode, Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

from server.protocol import ErrorCode, ProtocolError

from ..metrics import Metrics
from ..service import Service
from ..settings import Settings
from ..store.failures import FailureLog, failure_text, redis_error
from . import web
from .session import Outbox, WsSession, _error, frame_size, frames_end, read_frames

log = logging.getLogger("patience.ws")

CLOSE_RESTART = 1012
CLOSE_TRY_AGAIN = 1013

#: the most frames of one connection handled in one pass of the event loop: the rest of
#: what it sent waits for the next pass, its socket not read meanwhile, so that a client
#: writing thousands of frames at once holds up nobody else for long
FRAMES_PER_PASS = 64


def _slow(task: asyncio.Task[Any] | None, request: Any, player: str | None) -> None:
    """Log a request in hand for ``slow_request`` seconds (none should be: every wait on
    Redis or a room has a deadline of its own): its type and the chain of awaits it is
    stopped in, outermost first (a compiled coroutine shows no frame of its own)."""
    where: list[str] = []
    awaited: Any = task.get_coro() if task is not None else None
    while awaited is not None and len(where) < 40:
        frame = getattr(awaited, "cr_frame", None) or getattr(awaited, "ag_frame", None)
        if frame is None:
            where.append(type(awaited).__name__)
            break
        code = frame.f_code
        where.append(f"{code.co_filename.rsplit('/', 2)[-1]}:{frame.f_lineno} {code.co_name}")
        awaited = getattr(awaited, "cr_await", None)
    log.warning(
        "request slow",
        extra={
            "request": request.TYPE,
            "player": player,
            "where": " -> ".join(where),
        },
    )


class RaceConnection(ServerConnection):
    """websockets' server connection, with its messages handed to the connection's
    :class:`WsSession` as they are read instead of to websockets' message queue.
    ``server_app`` is set on a subclass per :class:`WebServer`.

    The frames requests come in, whole masked binary frames, are read here straight from
    the bytes received while websockets has nothing part-read; anything else (control
    frames, fragments, a frame split between reads, one over the size limit) goes through
    websockets' own parser, which hands data frames on through :meth:`process_event`."""

    server_app: ClassVar[WebServer]

    def __init__(self, protocol: ServerProtocol, *args: Any, **kwargs: Any) -> None:
        # websockets' protocol, its own HTTP answers made as the port's others (web.Protocol)
        super().__init__(web.Protocol.like(protocol), *args, **kwargs)
        app = self.server_app
        self.session = WsSession(self, app.settings, app.outbox, app)
        #: what has been read and not handled yet
        self._reads = _Reads()
        # a list, where websockets makes a deque (760 bytes even empty): a connection
        # seldom waits to drain, and websockets only appends, removes and walks it
        self.drain_waiters = cast("deque[asyncio.Future[None]]", [])

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        # websockets' queue of messages, never used (the session takes them): one
        # closed stand-in shared by every connection
        self.recv_messages = self.server_app.no_messages

    def data_received(self, data: bytes) -> None:
        reads = self._reads
        held = reads.held
        if held:
            held += data
            if len(held) < reads.need or self.session.deferred:
                return
            data = bytes(held)
            held.clear()
        protocol = self.protocol
        state = protocol._state  # (the ``state`` property's own field: no Python call a read)
        if state is _OPEN and not protocol.reader.buffer and protocol.current_size is None:
            at = read_frames(data, protocol.max_message_size, self.session.message, FRAMES_PER_PASS)
            if at == len(data):
                return
        elif state is State.CONNECTING:
            self._handshake(data)
            return
        elif state is State.CLOSED or protocol.eof_sent or protocol.reader.buffer:
            # websockets discards what comes (or holds part of a frame: it reads the rest)
            super().data_received(data)
            return
        else:
            at = 0
        self._in_turn(data, at)

    def _in_turn(self, data: bytes, at: int) -> None:
        """After the frames taken straight from ``data`` (up to ``at``), the rest of this
        pass's share goes through websockets' own parser (frames not on the fast path,
        websockets' parser at a frame's start), and the remainder waits: for the rest of a
        frame, or for the next pass, the socket not read meanwhile."""
        limit = self.protocol.max_message_size
        end = frames_end(data, FRAMES_PER_PASS, limit)
        if end > at:
            super().data_received(data[at:end])
        if end == len(data):
            return
        rest = data[end:]
        if self.protocol.eof_sent:  # websockets ended the connection: it discards the rest
            super().data_received(rest)
            return
        reads = self._reads
        reads.held += rest
        need = frame_size(rest, 0, limit)
        if need > len(rest):
            reads.need = need
            return
        reads.need = 0
        self._later()

    def _later(self) -> None:
        self.session.deferred = True
        self.transport.pause_reading()
        self.loop.call_soon(self._next_pass)

    def _next_pass(self) -> None:
        self.session.deferred = False
        if self._reads.gone:
            return
        held = self._reads.held
        data = bytes(held)
        held.clear()
        self.data_received(data)
        if not self.session.deferred:
            self.session.resume()

    def _handshake(self, data: bytes) -> None:
        """websockets reads the opening handshake's request; frames sent right behind it
        wait until the connection is open (:meth:`opened`), so they are handled as any
        others are, a share a pass. A request refused as it was read (a body, a transfer
        coding) opens none: what comes behind it goes to websockets, which discards it
        and lets the connection go once the client closes its side."""
        reads = self._reads
        if self.protocol.eof_sent:
            super().data_received(data)
            return
        if reads.tail is None:  # the request is in: anything more waits
            reads.held += data
            self.session.deferred = True
            self.transport.pause_reading()
            return
        seen = reads.tail + data
        found = seen.find(b"\r\n\r\n")
        if found < 0:
            reads.tail = seen[-3:]
            super().data_received(data)
            return
        cut = found + 4 - len(reads.tail)
        reads.tail = None
        super().data_received(data[:cut])
        if cut < len(data):
            self._handshake(data[cut:])

    def opened(self) -> None:
        """The handshake is done: frames that came with it are handled from the next pass.
        The response and the request's headers are let go (2 to 3 KiB a connection; the
        client's address is read from them before; websockets keeps the request to know
        the handshake is done)."""
        if self.request is not None:
            self.request.headers = _NO_HEADERS
        self.response = None
        if self.session.deferred and not self._reads.gone:
            self.loop.call_soon(self._next_pass)

    def refuse(self, reason: str) -> None:
        """Close at once with 1013 (try again later), nothing it sent handled."""
        self._reads.held.clear()
        self.session.deferred = False
        self.session.close(CLOSE_TRY_AGAIN, reason)
        self.session.resume()  # to read the client's answer to the close

    def keep_alive(self, now: float, timeout: float) -> None:
        """A round of :meth:`WebServer.keep_alive`: fail the connection (1011) if its last
        ping has gone unanswered for ``timeout`` seconds, else ping it if none is out.
        websockets' pong handling answers the ping (``pending_pings``, ``latency``)."""
        if self.protocol.state is not State.OPEN:
            return
        pending = self.pending_pings
        if pending:
            if any(now - sent >= timeout for _, sent in pending.values()):
                self.protocol.fail(CloseCode.INTERNAL_ERROR, "keepalive ping timeout")
                self.send_data()
                # a peer that answers no ping will not close its end either
                self.loop.call_later(self.close_timeout or 10.0, self._hang_up)
            return
        data = struct.pack("!I", random.getrandbits(32))
        pending[data] = (self.loop.create_future(), now)
        self.protocol.send_ping(data)
        self.send_data()

    def _hang_up(self) -> None:
        if not self._reads.gone:
            self.transport.abort()

    def process_event(self, event: Any) -> None:
        if event.__class__ is Frame and event.opcode in _DATA:
            self.session.received(event)
        else:
            super().process_event(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self._reads.gone = True
        self._reads.held.clear()
        super().connection_lost(exc)
        self.session.lost()


_DATA = frozenset((Opcode.BINARY, Opcode.TEXT, Opcode.CONT))
_OPEN = State.OPEN
#: the headers of every request once its connection is open
_NO_HEADERS = Headers()


class _Reads:
    """What a connection has read and not handled yet, kept off the connection itself:
    websockets' connection has 27 attributes, and past 30 CPython gives an instance a
    dictionary of its own instead of one sharing its keys with its class's others
    (1.3 KiB more a connection)."""

    __slots__ = ("gone", "held", "need", "tail")

    def __init__(self) -> None:
        #: bytes read and not handled yet: the start of a frame not all read, or frames
        #: past this pass's share (``session.deferred``, the socket not read meanwhile)
        self.held = bytearray()
        #: the bytes ``held`` must have to hold a whole frame (when it holds only a start)
        self.need = 0
        #: the end of what has come of the opening handshake (to find the request's end),
        #: or None once the request is all there
        self.tail: bytes | None = b""
        #: the connection is lost
        self.gone = False


def _address(ws: ServerConnection, header: str | None) -> str:
    """The client's address as the socket has it (behind a proxy, the proxy's), or as
    the proxy says in ``header`` (``client_ip_header``): the last address it lists, the
    one the proxy itself added (those before it are the client's to make up). The header
    may come in several lines (a client that sent its own, and the line the proxy added:
    HAProxy's ``option forwardfor``), each a comma-separated list: the last value of the
    last line is taken."""
    if header is not None and ws.request is not None:
        lines = ws.request.headers.get_all(header)
        said = lines[-1].rsplit(",", 1)[-1].strip() if lines else ""
        if said:
            return said
    peer = ws.remote_address
    return str(peer[0]) if isinstance(peer, tuple) and peer else str(peer)


class WebServer:
    """The websocket server, and the HTTP side of its port (:mod:`server.app.transport.web`)."""

    #: seconds between the pings that keep every connection alive, and how long a ping
    #: may go unanswered before its connection is failed (1011): one task pings them all
    #: (:meth:`keep_alive`), where websockets' keepalive is a task and a timer a
    #: connection, 1.2 KiB each of ten thousand
    ping_interval = 20.0
    ping_timeout = 20.0

    def __init__(self, settings: Settings, service: Service) -> None:
        self.settings = settings
        self.service = service
        self.server: Server | None = None
        self._pinging: asyncio.Task[None] | None = None
        self.metrics = Metrics()
        #: open websocket connections let in, overall and per client address
        self.connections = 0
        self.per_address: dict[str, int] = {}
        self.outbox = Outbox()
        #: requests failing while Redis is away: a line every few seconds, not one each
        self.failures = FailureLog(log)
        # replies to a batch of moves go out as soon as the batch is logged
        service.commit.after_batch = self.outbox.flush
        #: the stand-in for websockets' message queue every connection shares (made
        #: closed in :meth:`start`: nothing is ever queued on it)
        self.no_messages: Assembler

    def failed(self, session: WsSession, exc: BaseException, request_id: Any) -> dict[str, Any]:
        """The reply to a request that failed unexpectedly (logged)."""
        if redis_error(exc):
            self.metrics.redis_errors += 1
        self.failures.failed("request", exc, player=session.player)
        return _error(request_id, ErrorCode.INTERNAL_ERROR, failure_text(exc))

    async def handler(self, ws: ServerConnection) -> None:
        """A connection's coroutine: every request but a move on a game held here (see
        :class:`WsSession`), one at a time."""
        assert isinstance(ws, RaceConnection)
        session = ws.session
        service = self.service
        address = session.address = _address(ws, self.settings.client_ip_header)
        refusal = self._over_cap(address)
        if refusal is not None:
            ws.refuse(refusal)
            await ws.wait_closed()
            return
        ws.opened()
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        slow = self.settings.slow_request
        self.connections += 1
        self.per_address[address] = self.per_address.get(address, 0) + 1
        try:
            while True:
                item = await session.next_request()
                if item is None:
                    break
                if item[0] == "close":
                    await ws.close(item[1], item[2])
                    break
                received, request = item
                watch = loop.call_later(slow, _slow, task, request, session.player)
                try:
                    reply = await service.handle(session, request)
                except ProtocolError as exc:
                    reply = _error(exc.request_id, exc.code, exc.message)
                except Exception as exc:
                    reply = self.failed(session, exc, request.id)
                finally:
                    watch.cancel()
                session.answer(reply, received)
                session.done()
        finally:
            self.connections -= 1
            left = self.per_address.pop(address) - 1
            if left:
                self.per_address[address] = left
            service.disconnected(session)

    def _over_cap(self, address: str) -> str | None:
        """Why a new connection from ``address`` is not let in, or None: it would pass
        ``max_connections`` or ``max_connections_per_ip`` (0: no cap)."""
        settings = self.settings
        most = settings.max_connections
        if most and self.connections >= most:
            return f"server full (max_connections {most})"
        most = settings.max_connections_per_ip
        if most and self.per_address.get(address, 0) >= most:
            return f"too many connections from your address (max_connections_per_ip {most})"
        return None

    async def process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        """websockets asks this of every request before its handshake: the HTTP side
        (:mod:`server.app.transport.web`) answers it, or None lets the handshake go on."""
        return await web.answer(self, request)

    async def start(self) -> Server:
        web = self
        self.no_messages = Assembler()
        self.no_messages.close()

        class Connection(RaceConnection):
            server_app = web

        self.server = await serve(
            self.handler,
            self.settings.host,
            self.settings.port,
            create_connection=Connection,
            max_size=self.settings.max_frame,
            max_queue=32,
            compression=None,
            process_request=self.process_request,
            ping_interval=None,
            ping_timeout=None,
        )
        self._pinging = asyncio.get_running_loop().create_task(self.keep_alive())
        return self.server

    async def keep_alive(self) -> None:
        """Every ``ping_interval`` seconds, a round of :meth:`RaceConnection.keep_alive`
        over the open connections: each is pinged, or failed if the ping of a round
        before is still unanswered after ``ping_timeout`` (so a peer that has gone is
        found within ``ping_interval`` and ``ping_timeout`` rounded up to a round)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.ping_interval)
            if self.server is None:
                continue
            now = loop.time()
            for ws in list(self.server.connections):
                if isinstance(ws, RaceConnection):
                    ws.keep_alive(now, self.ping_timeout)

    @property
    def port(self) -> int:
        assert self.server is not None
        sockets = self.server.sockets
        return int(sockets[0].getsockname()[1])

    async def stop(self) -> None:
        """Stop accepting, close every client with 1012 so they reconnect, then wait."""
        if self._pinging is not None:
            self._pinging.cancel()
            self._pinging = None
        if self.server is None:
            return
        self.service.stopping = True
        self.server.close(close_connections=True, code=CLOSE_RESTART, reason="server restarting")
        await self.server.wait_closed()
