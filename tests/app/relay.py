"""A TCP relay between the server and Redis that can lose its connections the way a
network does: silently.

Redis killed on this machine closes its connections, and the server's side hears of it
(a FIN) before it sends again. Redis restarted behind a network address translation, a
container's bridge or a load balancer is another matter: the old connections look open,
nothing tells the server they are dead, and the first command written on one is answered
with a reset. :meth:`Relay.sever` does that to every connection it carries: each stays
open on the server's side, hears nothing more, and is reset when the server writes to it.
New connections reach Redis as before.

:meth:`Relay.quiet` waits until no command connection has carried a byte for a while:
the server's health check trusts a connection used within its last second, so a test of
what it does with dead ones severs them only once each has stood idle longer than that
(a background task of the server's may use one at any moment)."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
import time


class Relay:
    def __init__(self, upstream: str) -> None:
        #: Redis's URL: ``unix://PATH`` or ``redis://HOST:PORT``
        self.upstream = upstream
        self.port = 0
        self._server: asyncio.Server | None = None
        #: the connections carried now: (server side's writer, Redis side's writer)
        self._pairs: set[tuple[asyncio.StreamWriter, asyncio.StreamWriter]] = set()
        self._severed: set[asyncio.StreamWriter] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        #: when each connection carried a byte last (monotonic), by its server side
        self._heard: dict[asyncio.StreamWriter, float] = {}
        #: the connections that subscribed (the bus's: it watches its own)
        self._subscribers: set[asyncio.StreamWriter] = set()

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            if self.upstream.startswith("unix://"):
                path = self.upstream.removeprefix("unix://").split("?")[0]
                up_reader, up_writer = await asyncio.open_unix_connection(path)
            else:
                host, _, port = self.upstream.removeprefix("redis://").split("/")[0].rpartition(":")
                up_reader, up_writer = await asyncio.open_connection(host, int(port))
        except OSError:
            _reset(writer)
            return
        pair = (writer, up_writer)
        self._pairs.add(pair)
        self._heard[writer] = time.monotonic()
        for source, sink, towards_redis in (
            (reader, up_writer, True),
            (up_reader, writer, False),
        ):
            task = asyncio.get_running_loop().create_task(
                self._pump(source, sink, pair, towards_redis)
            )
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _pump(
        self,
        source: asyncio.StreamReader,
        sink: asyncio.StreamWriter,
        pair: tuple[asyncio.StreamWriter, asyncio.StreamWriter],
        towards_redis: bool,
    ) -> None:
        client = pair[0]
        with contextlib.suppress(Exception):
            while data := await source.read(65536):
                if client in self._severed:
                    if towards_redis:  # the server writes on a dead connection: a reset
                        _reset(client)
                        return
                    continue  # nothing from the old Redis gets through any more
                self._heard[client] = time.monotonic()
                if towards_redis and b"SUBSCRIBE" in data.upper():
                    self._subscribers.add(client)
                sink.write(data)
                await sink.drain()
        if client in self._severed:
            return  # the server's side is left open, unaware
        self._pairs.discard(pair)
        for writer in pair:
            writer.close()

    async def quiet(self, seconds: float, limit: float = 30.0) -> None:
        """Wait until every command connection carried now (the subscribers' aside) has
        carried nothing for ``seconds``; fails after ``limit`` seconds."""
        deadline = time.monotonic() + limit
        while True:
            now = time.monotonic()
            busy = [
                now - self._heard[client]
                for client, _ in self._pairs
                if client not in self._subscribers and now - self._heard[client] < seconds
            ]
            if not busy:
                return
            assert now < deadline, f"the server's connections never stood idle {seconds} s"
            await asyncio.sleep(seconds - min(busy) + 0.01)

    def sever(self) -> None:
        """Every connection carried now goes dead without a word to the server's side."""
        for client, upstream in list(self._pairs):
            self._severed.add(client)
            upstream.close()
        self._pairs.clear()

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
        for client in list(self._severed):
            _reset(client)
        for client, upstream in list(self._pairs):
            client.close()
            upstream.close()
        for task in list(self._tasks):
            task.cancel()


def _reset(writer: asyncio.StreamWriter) -> None:
    """Close with a reset (RST), as a host that does not know the connection answers."""
    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()
