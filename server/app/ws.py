"""The websocket shell: one :class:`WsSession` per connection, frames decoded and
dispatched to the service, replies and events written without waiting on slow readers.

Close codes: 1003 an undecodable frame (text, or not msgpack); 1009 a frame over
``max_frame`` bytes (websockets enforces it); a client too slow to read what it is
sent is dropped (its connection is cut without a closing handshake, which would queue behind
everything unread: the client sees 1006); 1012 the server is restarting (reconnect); 4001
the player signed in elsewhere.
"""

from __future__ import annotations

import asyncio
import logging
import time
from http import HTTPStatus
from typing import Any

from redis.asyncio import RedisCluster
from redis.exceptions import RedisClusterException, RedisError
from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response
from websockets.protocol import SEND_EOF, State

from server.protocol import ErrorCode, FrameError, ProtocolError, decode, encode, parse_request

from . import web
from .metrics import Metrics
from .service import Service
from .settings import Settings

log = logging.getLogger("patience.ws")

CLOSE_UNDECODABLE = 1003
CLOSE_RESTART = 1012


class Outbox:
    """Frames are written once per pass of the event loop: everything queued for one
    connection during a pass (its reply, the progress events of its room) goes out in one
    write, so a move costs a system call per connection that hears of it, not per frame."""

    __slots__ = ("_queued", "_scheduled")

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
    """One websocket connection: the service's :class:`~server.app.service.Session`."""

    __slots__ = (
        "_closing",
        "_last",
        "_limit",
        "_outbox",
        "_queued",
        "_tokens",
        "burst",
        "hello",
        "name",
        "player",
        "rate",
        "watching",
        "ws",
    )

    def __init__(
        self, ws: ServerConnection, settings: Settings, outbox: Outbox | None = None
    ) -> None:
        self.ws = ws
        self._outbox = outbox or Outbox()
        self._queued = False
        self.player: str | None = None
        self.name: str | None = None
        self.hello = False
        self.watching: set[str] = set()
        self.rate = settings.rate
        self.burst = settings.burst
        self._tokens = float(settings.burst)
        self._last = time.monotonic()
        self._limit = settings.max_outgoing
        self._closing = False

    def allow(self) -> bool:
        """Token bucket: ``rate`` requests a second on average, ``burst`` at once."""
        now = time.monotonic()
        self._tokens = min(self.burst, self._tokens + (now - self._last) * self.rate)
        self._last = now
        if self._tokens < 1:
            return False
        self._tokens -= 1
        return True

    def send(self, message: dict[str, Any]) -> None:
        self.send_encoded(encode(message))

    def send_encoded(self, data: bytes) -> None:
        """Queue a frame without waiting; it is written at the end of this pass of the
        event loop (:class:`Outbox`), in order with everything else sent to this client."""
        ws = self.ws
        if self._closing or ws.state is not State.OPEN:
            return
        try:
            ws.protocol.send_binary(data)
        except Exception as exc:  # as websockets.broadcast: skip, never raise
            log.warning("skipped a frame: %s", exc, extra={"player": self.player})
            return
        if not self._queued:
            self._queued = True
            self._outbox.add(self)

    def flush(self) -> None:
        """Write the queued frames at once; a client whose unsent bytes pass the limit is
        dropped rather than let it hold up anyone."""
        self._queued = False
        ws = self.ws
        chunks = ws.protocol.data_to_send()
        if not chunks:
            return  # websockets wrote them already (with a pong, or a close)
        transport = ws.transport
        if SEND_EOF in chunks:
            ws.protocol.writes[:0] = chunks  # an end of stream: websockets' own writer
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
        if self._closing:
            return
        self._closing = True
        task = asyncio.get_running_loop().create_task(self.ws.close(code, reason))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)


def _error(request_id: Any, code: ErrorCode, message: str) -> dict[str, Any]:
    return {"type": "error", "id": request_id, "code": code.value, "message": message}


class WebServer:
    """The websocket server and its ``GET /healthz``."""

    def __init__(self, settings: Settings, service: Service) -> None:
        self.settings = settings
        self.service = service
        self.server: Server | None = None
        self.metrics = Metrics()
        self.connections = 0
        self.outbox = Outbox()

    async def handler(self, ws: ServerConnection) -> None:
        session = WsSession(ws, self.settings, self.outbox)
        service = self.service
        metrics = self.metrics
        clock = time.perf_counter
        self.connections += 1
        try:
            async for frame in ws:
                received = clock()
                try:
                    raw = decode(frame)
                except FrameError as exc:
                    session.send(_error(None, ErrorCode.BAD_REQUEST, str(exc)))
                    await ws.close(CLOSE_UNDECODABLE, "undecodable frame")
                    break
                request_id = raw.get("id") if isinstance(raw, dict) else None
                if not isinstance(request_id, int) or isinstance(request_id, bool):
                    request_id = None
                try:
                    # every frame counts, malformed ones too
                    if not session.allow():
                        raise ProtocolError(
                            ErrorCode.RATE_LIMITED,
                            f"more than {self.settings.rate:g} requests a second: slow down",
                            request_id,
                        )
                    request = parse_request(raw)
                    reply = await service.handle(session, request)
                except ProtocolError as exc:
                    reply = _error(exc.request_id, exc.code, exc.message)
                except Exception as exc:
                    if isinstance(exc, RedisError | RedisClusterException):
                        metrics.redis_errors += 1
                    log.exception("request failed", extra={"player": session.player})
                    reply = _error(
                        request_id,
                        ErrorCode.INTERNAL_ERROR,
                        "the server could not handle this request (it is logged)",
                    )
                session.send(reply)
                metrics.requests += 1
                kind = reply["type"]
                if kind == "moved":
                    metrics.observe_move(clock() - received)
                elif kind == "error":
                    metrics.errors += 1
        except ConnectionClosed:
            pass
        finally:
            self.connections -= 1
            service.disconnected(session)

    async def process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        if request.path.split("?")[0] == "/metrics":
            rooms: dict[str, int] = {}
            for room in self.service.rooms.values():
                rooms[room.state] = rooms.get(room.state, 0) + 1
            response = connection.respond(
                HTTPStatus.OK,
                self.metrics.render(self.connections, rooms, self.service.counters()),
            )
            del response.headers["Content-Type"]
            response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
            return response
        if request.path.split("?")[0] == "/healthz":
            redis = self.service.redis
            try:
                if isinstance(redis, RedisCluster):  # every primary, not just one node
                    ping = redis.ping(target_nodes=RedisCluster.PRIMARIES)
                else:
                    ping = redis.ping()
                await asyncio.wait_for(ping, timeout=2)
            except Exception:
                return connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, "redis unavailable\n")
            return connection.respond(HTTPStatus.OK, "ok\n")
        if "upgrade" not in request.headers.get("Connection", "").lower():
            try:
                found = await web.respond(self.service, request.path)
            except Exception:
                log.exception("page failed", extra={"path": request.path})
                found = (500, "text/plain; charset=utf-8", "internal error\n")
            if found is None:
                return connection.respond(
                    HTTPStatus.NOT_FOUND, "Patience Race: connect with a websocket client.\n"
                )
            status, content_type, body = found
            response = connection.respond(HTTPStatus(status), body)
            del response.headers["Content-Type"]  # a multi-dict: set would add a second
            response.headers["Content-Type"] = content_type
            response.headers["Cache-Control"] = "no-cache"
            return response
        return None

    async def start(self) -> Server:
        self.server = await serve(
            self.handler,
            self.settings.host,
            self.settings.port,
            max_size=self.settings.max_frame,
            max_queue=32,
            compression=None,
            process_request=self.process_request,
            ping_interval=20,
            ping_timeout=20,
        )
        return self.server

    @property
    def port(self) -> int:
        assert self.server is not None
        sockets = self.server.sockets
        return int(sockets[0].getsockname()[1])

    async def stop(self) -> None:
        """Stop accepting, close every client with 1012 so they reconnect, then wait."""
        if self.server is None:
            return
        self.service.stopping = True
        self.server.close(close_connections=True, code=CLOSE_RESTART, reason="server restarting")
        await self.server.wait_closed()
