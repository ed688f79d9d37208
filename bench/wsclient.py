"""A lean websocket client for the load test: the protocol framed by hand on an asyncio
``Protocol``, so that the load processes take as little of the machine as they can.

The load processes share this 2-core machine with the server and Redis they measure.
websockets' asyncio client (its connection object, its assembler, its send lock) cost
them more CPU a move than the race server spends on it, and whatever they take, the
server and Redis wait for. This client does only what the load needs, per RFC 6455:

- the opening handshake (``Sec-WebSocket-Key``, its ``Sec-WebSocket-Accept`` checked);
- binary frames out, masked with a fresh key each (websockets' C ``apply_mask``);
- frames in: binary and text messages (fragmented ones joined), a ``pong`` for each
  ``ping`` (the server pings every 20 s), the closing handshake answered;
- no extensions (the server runs with no compression) and no size limit.

    ws = await connect("ws://127.0.0.1:8765/")
    ws.send(b"...")            # not a coroutine: the bytes go to the transport at once
    payload = await ws.recv()  # raises ConnectionError once the connection is gone
    await ws.close()
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import random
from collections import deque
from collections.abc import Callable
from typing import cast
from urllib.parse import urlsplit

from websockets.speedups import apply_mask

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
_keys = random.Random(os.urandom(16))


class Closed(ConnectionError):
    """The connection closed (or failed) while a message was awaited."""


def _head(opcode: int, size: int) -> bytes:
    """A final client frame's header with the mask bit set, before its masking key."""
    if size < 126:
        return bytes((0x80 | opcode, 0x80 | size))
    if size < 65536:
        return bytes((0x80 | opcode, 0xFE)) + size.to_bytes(2, "big")
    return bytes((0x80 | opcode, 0xFF)) + size.to_bytes(8, "big")


class LeanWebSocket(asyncio.Protocol):
    """One client connection; see the module's docstring."""

    def __init__(self, host: str, path: str) -> None:
        self.key = base64.b64encode(os.urandom(16))
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {self.key.decode()}\r\n"
            "Sec-WebSocket-Version: 13\r\nUser-Agent: patience-bench\r\n\r\n"
        ).encode()
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.upgraded = False
        self.fragments: list[bytes] = []
        self.messages: deque[bytes] = deque()
        self.waiter: asyncio.Future[bytes] | None = None
        self.error: Exception | None = None
        self.closing = False
        #: the code of the server's close frame (1005 when it had none), None until one
        #: comes: a connection that ends without one was dropped (1006); and its reason
        self.close_code: int | None = None
        self.close_reason = ""
        #: when set, each message goes to ``on_message`` as it comes instead of to
        #: :meth:`recv`, and a failure to ``on_failure``
        self.on_message: Callable[[bytes], None] | None = None
        self.on_failure: Callable[[Exception], None] | None = None

    # -- asyncio.Protocol

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        if not self.upgraded:
            self.buffer += data
            end = self.buffer.find(b"\r\n\r\n")
            if end < 0:
                return
            head = bytes(self.buffer[:end]).decode("latin-1")
            del self.buffer[: end + 4]
            self._check_handshake(head)
            if self.error is not None:
                return
            self.upgraded = True
            if not self.opened.done():
                self.opened.set_result(None)
            if not self.buffer:
                return
            data = bytes(self.buffer)
            self.buffer.clear()
        elif self.buffer:
            self.buffer += data
            data = bytes(self.buffer)
            self.buffer.clear()
        at = self._frames(data)
        if at < len(data):
            self.buffer += data[at:]

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(exc or Closed("the connection closed"))

    # -- the handshake and frames

    def _check_handshake(self, head: str) -> None:
        lines = head.split("\r\n")
        if not lines[0].startswith("HTTP/1.1 101"):
            self._fail(Closed(f"no upgrade: {lines[0]!r}"))
            return
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        accept = base64.b64encode(hashlib.sha1(self.key + _GUID).digest()).decode()
        if headers.get("sec-websocket-accept") != accept:
            self._fail(Closed("wrong Sec-WebSocket-Accept"))

    def _frames(self, data: bytes) -> int:
        """Take every whole frame at the start of ``data``; returns the bytes taken."""
        size = len(data)
        at = 0
        while at + 2 <= size:
            first, length = data[at], data[at + 1]
            if length & 0x80:
                self._fail(Closed("a masked frame from the server"))
                return size
            start = at + 2
            if length == 126:
                if at + 4 > size:
                    break
                length = int.from_bytes(data[at + 2 : at + 4], "big")
                start = at + 4
            elif length == 127:
                if at + 10 > size:
                    break
                length = int.from_bytes(data[at + 2 : at + 10], "big")
                start = at + 10
            end = start + length
            if end > size:
                break
            at = end
            self._frame(first, data[start:end])
        return at

    def _frame(self, first: int, payload: bytes) -> None:
        opcode = first & 0x0F
        if opcode in (0x1, 0x2, 0x0):  # text, binary, continuation
            if first & 0x80:
                if self.fragments:
                    self.fragments.append(payload)
                    payload = b"".join(self.fragments)
                    self.fragments.clear()
                self._deliver(payload)
            else:
                self.fragments.append(payload)
        elif opcode == 0x9:  # ping
            self._write(0xA, payload)
        elif opcode == 0x8:  # close: answer it (unless it answers ours) and hang up
            self.close_code = int.from_bytes(payload[:2], "big") if len(payload) >= 2 else 1005
            self.close_reason = payload[2:].decode(errors="replace")
            if not self.closing:
                self._write(0x8, payload[:2])
            self._fail(Closed(f"closed by the server: {payload[2:].decode(errors='replace')}"))
        # 0xA, a pong: nothing to do

    def _deliver(self, payload: bytes) -> None:
        if self.on_message is not None:
            self.on_message(payload)
            return
        waiter = self.waiter
        if waiter is not None:
            self.waiter = None
            if not waiter.done():
                waiter.set_result(payload)
                return
        self.messages.append(payload)

    def _fail(self, exc: Exception) -> None:
        if self.error is None:
            self.error = exc
        if not self.opened.done():
            self.opened.set_exception(exc)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(exc)
        self.waiter = None
        if self.on_failure is not None:
            self.on_failure(exc)
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def _write(self, opcode: int, payload: bytes) -> None:
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        mask = _keys.getrandbits(32).to_bytes(4, "little")
        transport.write(_head(opcode, len(payload)) + mask + apply_mask(payload, mask))

    # -- the API

    def send(self, payload: bytes) -> None:
        """Send ``payload`` as one binary message."""
        if self.error is not None:
            raise self.error
        self._write(0x2, payload)

    def send_many(self, payloads: list[bytes]) -> None:
        """Send each payload as a binary message, all of them in one write."""
        if self.error is not None:
            raise self.error
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        frames = []
        for payload in payloads:
            mask = _keys.getrandbits(32).to_bytes(4, "little")
            frames.append(_head(0x2, len(payload)) + mask + apply_mask(payload, mask))
        transport.write(b"".join(frames))

    def send_text(self, text: str) -> None:
        """Send ``text`` as one text message (the race server refuses them: for fuzzing)."""
        if self.error is not None:
            raise self.error
        self._write(0x1, text.encode())

    def abort(self) -> None:
        """Drop the connection at once, with no closing handshake."""
        if self.transport is not None:
            self.transport.abort()

    async def recv(self, timeout: float | None = None) -> bytes:
        """The next message's payload (:class:`TimeoutError` if none comes in ``timeout``
        seconds)."""
        if self.messages:
            return self.messages.popleft()
        if self.error is not None:
            raise self.error
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[bytes] = loop.create_future()
        self.waiter = waiter
        if timeout is None:
            return await waiter
        timer = loop.call_later(timeout, _expire, waiter, timeout)
        try:
            return await waiter
        finally:
            timer.cancel()

    async def close(self) -> None:
        """Start the closing handshake (1000) and wait for the connection to end."""
        transport = self.transport
        if transport is None or transport.is_closing():
            return
        self.closing = True
        self._write(0x8, (1000).to_bytes(2, "big"))
        while self.error is None:
            try:
                await self.recv()
            except ConnectionError:
                break


def _expire(waiter: asyncio.Future[bytes], timeout: float) -> None:
    if not waiter.done():
        waiter.set_exception(TimeoutError(f"no message in {timeout:g} s"))


async def connect(
    url: str, timeout: float = 60, local_addr: tuple[str, int] | None = None
) -> LeanWebSocket:
    """Open a websocket connection to a ``ws://`` URL (from ``local_addr`` when given: any
    address of 127.0.0.0/8 reaches a server on the loopback)."""
    parts = urlsplit(url)
    if parts.scheme != "ws" or not parts.hostname:
        raise ValueError(f"not a ws:// URL: {url}")
    port = parts.port or 80
    host = parts.hostname if port == 80 else f"{parts.hostname}:{port}"
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    loop = asyncio.get_running_loop()
    _, ws = await asyncio.wait_for(
        loop.create_connection(
            lambda: LeanWebSocket(host, path), parts.hostname, port, local_addr=local_addr
        ),
        timeout,
    )
    await asyncio.wait_for(asyncio.shield(ws.opened), timeout)
    return ws
