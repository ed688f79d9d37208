"""A small protocol client for tests: real websocket, real msgpack frames.

Every frame received is kept in ``frames`` (the leak test reads them all); replies are
matched to requests by id; everything else is an event, awaited with :meth:`event`.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Callable
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect


class Client:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.frames: list[dict[str, Any]] = []
        self.events: list[dict[str, Any]] = []
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._changed = asyncio.Event()
        self._reader = asyncio.get_running_loop().create_task(self._read())
        self.token: str | None = None
        self.name: str | None = None

    @classmethod
    async def connect(cls, url: str, **kwargs: Any) -> Client:
        return cls(await connect(url, **kwargs))

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for frame in self.ws:
                message = msgpack.unpackb(frame, raw=False)
                self.frames.append(message)
                future = self._pending.pop(message.get("id"), None) if "id" in message else None
                if future is not None and not future.done():
                    future.set_result(message)
                else:
                    self.events.append(message)
                self._changed.set()
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionError("connection closed"))
        self._changed.set()

    async def send_raw(self, data: bytes | str) -> None:
        await self.ws.send(data)

    async def request(self, kind: str, timeout: float = 10, **fields: Any) -> dict[str, Any]:
        """Send a request and return its reply (an ``error`` reply too)."""
        request_id = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        await self.ws.send(msgpack.packb({"type": kind, "id": request_id, **fields}))
        return await asyncio.wait_for(future, timeout)

    async def call(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A request that must succeed."""
        reply = await self.request(kind, **fields)
        assert reply["type"] != "error", reply
        return reply

    async def event(
        self,
        kind: str,
        where: Callable[[dict[str, Any]], bool] = lambda e: True,
        timeout: float = 10,
    ) -> dict[str, Any]:
        """The first event of ``kind`` matching ``where`` not yet taken, waiting for it."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            for n, event in enumerate(self.events):
                if event.get("type") == kind and where(event):
                    del self.events[n]
                    return event
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0 or self._reader.done():
                raise TimeoutError(f"no {kind} event; have {[e.get('type') for e in self.events]}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    async def closed(self, timeout: float = 10) -> tuple[int | None, str | None]:
        """Wait for the server to close the connection: (code, reason)."""
        await asyncio.wait_for(self.ws.wait_closed(), timeout)
        rcvd = self.ws.protocol.close_rcvd
        return (rcvd.code, rcvd.reason) if rcvd else (None, None)

    async def close(self) -> None:
        await self.ws.close()
        with contextlib.suppress(Exception):
            await self._reader


async def player(url: str, name: str) -> Client:
    """A connected, registered player."""
    client = await Client.connect(url)
    await client.call("hello", protocol=1)
    reply = await client.call("register", name=name)
    client.token = reply["token"]
    client.name = name
    return client


async def signed_in(url: str, token: str, side: bool = False) -> Client:
    """A connection signed in with ``token``; ``side``: beside the player's connection,
    as a one-shot command signs in (``hello``'s ``side``), not in its place."""
    client = await Client.connect(url)
    reply = await client.call("hello", protocol=1, token=token, **({"side": True} if side else {}))
    client.token = token
    client.name = reply["player"]["name"]
    client.welcome = reply  # type: ignore[attr-defined]
    return client


async def racing(host: Client, other: Client, **room: Any) -> str:
    """``host`` makes a room of The Gate on seed 3 (or ``room``'s fields), ``other``
    joins and is ready, the race starts and both have ``race_start``: the room's code."""
    code: str = (await host.call("room_create", **{"game": "gate", "seed": 3, **room}))["code"]
    await other.call("room_join", code=code)
    await other.call("ready")
    await host.call("start")
    await host.event("race_start")
    await other.event("race_start")
    return code
