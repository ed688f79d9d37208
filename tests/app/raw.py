"""A websocket client framed by hand on a plain socket, for what a well-behaved client
does not do: it answers nothing of its own accord (no pong, no closing handshake), and
writes any number of frames in one write.

    raw = await RawClient.connect(port)
    raw.send({"type": "hello", "id": 1, "protocol": 1})   # any number at once: one write
    kind, payload = await raw.frame()                      # the next frame from the server
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import os
import struct
from typing import Any

import msgpack
from websockets.frames import Frame, Opcode

_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def masked(payload: bytes, opcode: Opcode = Opcode.BINARY) -> bytes:
    """A whole client frame (masked, as a client's must be)."""
    return Frame(opcode, payload).serialize(mask=True, extensions=[])


def request(kind: str, request_id: int, **fields: Any) -> bytes:
    """A request's frame."""
    return masked(msgpack.packb({"type": kind, "id": request_id, **fields}))


class RawClient:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    @classmethod
    async def connect(cls, port: int, host: str = "127.0.0.1") -> RawClient:
        reader, writer = await asyncio.open_connection(host, port)
        key = base64.b64encode(os.urandom(16))
        writer.write(
            f"GET / HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key.decode()}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
        assert head.startswith(b"HTTP/1.1 101"), head
        accept = base64.b64encode(hashlib.sha1(key + _GUID).digest())
        assert b"Sec-WebSocket-Accept: " + accept in head, head
        return cls(reader, writer)

    def send(self, *messages: dict[str, Any]) -> None:
        """Write every message's frame at once."""
        self.write(b"".join(masked(msgpack.packb(message)) for message in messages))

    def write(self, data: bytes) -> None:
        self.writer.write(data)

    async def frame(self, timeout: float = 10) -> tuple[Opcode, bytes]:
        """The next frame from the server: its opcode and payload (server frames are not
        masked). Raises ``asyncio.IncompleteReadError`` once the server has hung up."""
        async with asyncio.timeout(timeout):
            first, second = await self.reader.readexactly(2)
            size = second & 0x7F
            if size == 126:
                (size,) = struct.unpack("!H", await self.reader.readexactly(2))
            elif size == 127:
                (size,) = struct.unpack("!Q", await self.reader.readexactly(8))
            return Opcode(first & 0x0F), await self.reader.readexactly(size)

    async def message(self, timeout: float = 10) -> dict[str, Any]:
        """The next binary message, decoded; skips pings."""
        while True:
            opcode, payload = await self.frame(timeout)
            if opcode is Opcode.BINARY:
                message: dict[str, Any] = msgpack.unpackb(payload)
                return message
            assert opcode is Opcode.PING, (opcode, payload)

    async def hung_up(self, timeout: float = 15) -> bytes:
        """Wait for the server to close the TCP connection; returns what came before."""
        async with asyncio.timeout(timeout):
            return await self.reader.read()

    def close(self) -> None:
        self.writer.close()


def close_frame(payload: bytes) -> tuple[int, str]:
    """A close frame's code and reason."""
    return int.from_bytes(payload[:2], "big"), payload[2:].decode()
