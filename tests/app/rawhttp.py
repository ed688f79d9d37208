"""HTTP/1.1 requests written byte for byte on a socket, and the answer read as sent: the
status line, every header and the body, up to the server's close (it answers each plain
HTTP request with ``Connection: close``). Nothing is normalised, so a test sees a body
sent to a HEAD or a second Content-Type exactly as a client would."""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any


@dataclass
class Answer:
    status: int
    reason: str
    headers: list[tuple[str, str]]
    body: bytes

    def header(self, name: str) -> str | None:
        """The one value of a header (None if absent); a header sent twice fails."""
        values = [v for k, v in self.headers if k.lower() == name.lower()]
        assert len(values) <= 1, f"{name} sent {len(values)} times"
        return values[0] if values else None

    @property
    def content_type(self) -> str:
        return self.header("Content-Type") or ""

    @property
    def text(self) -> str:
        return self.body.decode()

    def json(self) -> Any:
        assert self.content_type == "application/json", self.content_type
        return json.loads(self.body)


async def request(port: int, method: str, target: str, *headers: str) -> Answer:
    """Send ``METHOD TARGET HTTP/1.1`` with a Host header and ``headers`` (each
    ``"Name: value"``), and read the whole answer."""
    lines = [f"{method} {target} HTTP/1.1", "Host: 127.0.0.1", *headers, "", ""]
    return await send(port, "\r\n".join(lines).encode())


async def send(port: int, data: bytes) -> Answer:
    """Send ``data`` as it is (a request however malformed), and read the whole answer;
    a connection closed with no answer at all fails."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(data)
        await writer.drain()
        data = await asyncio.wait_for(reader.read(), 10)
    finally:
        writer.close()
    assert data, "no answer: the server closed the connection without one"
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *header_lines = head.decode("iso-8859-1").split("\r\n")
    _, status, reason = status_line.split(" ", 2)
    pairs = [tuple(line.split(": ", 1)) for line in header_lines]
    return Answer(int(status), reason, [(k, v) for k, v in pairs], body)


async def get(port: int, target: str) -> Answer:
    return await request(port, "GET", target)
