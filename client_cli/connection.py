"""The link to the race server: one websocket, msgpack frames, requests matched to their
replies by id, events handed to a callback, and reconnection with backoff.

Exceptions::

    LinkError            the request could not be answered
     +-- NotConnected    no connection right now (reconnecting, or closed)
     +-- ConnectionLost  the connection dropped while the request was in flight
     +-- SignedOut       the player signed in elsewhere: this link will not come back

Every :class:`LinkError` says whether the request went out (``sent``): one that did and
got no answer may still have been carried out (a move applied, its reply lost with the
connection), so only one that never went may be called not done.
    ServerError          the server refused the request: ``code`` and ``message``

A :class:`Connection` is opened with :meth:`Connection.open`, which connects and sends
``hello`` (with the token, if there is one) and returns the ``welcome``. If the socket
drops afterwards, it reconnects by itself, waiting 0.5 s, then twice as long each time up
to 10 s, and signs in again with the token: ``on_link`` hears each change of state and
``on_welcome`` each new ``welcome`` (its ``resume`` says what the player was doing). A
close with code 4001 (signed in elsewhere) is final.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import time
from collections.abc import Callable, Iterator
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from . import __version__
from .config import device_label
from .sanitize import clean

PROTOCOL = 1
CLIENT = f"patience-race/{__version__}"
CLOSE_SIGNED_OUT = 4001
#: request timeout: the server answers in milliseconds; a minute means it is gone
TIMEOUT = 30.0
FIRST_DELAY = 0.5
MAX_DELAY = 10.0
#: seconds the closing handshake may take before the connection is simply dropped: a
#: person leaving (q, Ctrl-C) is not kept waiting on a server that has stopped answering
#: (websockets' default is ten); the server hears the drop as a close all the same
CLOSE_TIMEOUT = 1.0

#: link states given to ``on_link``
UP, RETRYING, DOWN, SIGNED_OUT = "up", "retrying", "down", "signed_out"


class LinkError(Exception):
    """A request that could not be answered. ``sent``: it went out before the connection
    failed, so the server may have carried it out; False: it never left this client."""

    def __init__(self, message: str, *, sent: bool = False) -> None:
        super().__init__(message)
        self.sent = sent


class NotConnected(LinkError):
    pass


def local_ms() -> int:
    """The client's own clock, in ms: a monotonic one, which the device's clock set or
    corrected (by hand, by NTP) does not move. The server's clock is this plus the
    offset measured at sign-in; measured against the wall clock, every clock shown
    jumped with it (a race's ``2:00:04 (0:00 left)`` with most of a minute to go, a
    daily declared over a day early)."""
    return int(time.monotonic() * 1000)


class ConnectionLost(LinkError):
    def __init__(self, message: str, *, sent: bool = True) -> None:
        super().__init__(message, sent=sent)


class SignedOut(LinkError):
    pass


class ServerError(Exception):
    """The server answered with ``error``. ``message`` is cleaned for the terminal."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class TooLong(ServerError):
    """A text longer than the protocol lets its field be, refused here and never sent
    (:func:`too_long`): shown wherever a refusal is, as the server's own would be."""


def too_long(kind: str, fields: dict[str, Any]) -> TooLong | None:
    """The refusal of a request with a text past its field's limit, or None.

    >>> too_long("move", {"game": "e25f", "move": "x" * 520}).message
    'too long: a move is at most 64 characters, and this one has 520; it was not sent'
    >>> too_long("room_join", {"code": "8GY8VQ"}) is None
    True
    """
    for field, value in fields.items():
        if not isinstance(value, str):
            continue
        limit = REQUEST_LIMITS.get((kind, field), TEXT_LIMITS.get(field, TEXT_LIMIT))
        if len(value) > limit:
            words = FIELD_WORDS.get(field, f"the {field}")
            said = f"{words} is at most {limit} characters, and this one has {len(value)}"
            return TooLong("too_long", f"too long: {said}; it was not sent")
    return None


Event = dict[str, Any]

#: the longest text a request's field may hold, in characters: 64 unless the protocol says
#: otherwise (docs/protocol.md, "Text fields are at most 64 characters unless stated
#: otherwise", and each request's table). The server refuses a longer one in its own
#: words (``field 'move' is longer than 64``), and past 512 bytes it closes the
#: connection (its decoding bounds): so the client refuses it first, never sending it
TEXT_LIMIT = 64
TEXT_LIMITS: dict[str, int] = {"token": 128, "code": 16}
#: where a request's field is shorter than the field's usual limit
REQUEST_LIMITS: dict[tuple[str, str], int] = {
    ("register", "name"): 20,
    ("rename", "name"): 20,
    ("group_create", "name"): 32,
    ("sign_out", "device"): 16,
    ("review", "game"): 32,
}
#: a field in a person's words, for the refusal
FIELD_WORDS = {
    "move": "a move",
    "name": "a name",
    "code": "a code",
    "game": "a game's id",
    "challenge": "a challenge's id",
    "replay": "a replay's id",
    "player": "a player's name",
    "group": "a group",
    "board": "a board's id",
}


def lost_why(ws: ClientConnection) -> str:
    """What to tell of a connection that ended: the server's reason, when it gave one
    (``server full``, ``rate limit exceeded``)."""
    reason = clean(ws.close_reason or "", 200)
    return f"the server closed the connection: {reason}" if reason else "the connection dropped"


def backoff(first: float = FIRST_DELAY, most: float = MAX_DELAY) -> Iterator[float]:
    """Delays between reconnection attempts (an endless iterator).

    >>> delays = backoff()
    >>> [next(delays) for _ in range(7)]
    [0.5, 1.0, 2.0, 4.0, 8.0, 10.0, 10.0]
    """
    return (min(first * 2**n, most) for n in itertools.count())


class Connection:
    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        on_event: Callable[[Event], None] | None = None,
        on_link: Callable[[str, float | None], None] | None = None,
        on_welcome: Callable[[Event], None] | None = None,
        first_delay: float = FIRST_DELAY,
        max_delay: float = MAX_DELAY,
        open_timeout: float = 5.0,
        side: bool = False,
    ) -> None:
        self.url = url
        self.token = token
        #: sign in beside the player's own connection (a one-shot command's): their
        #: game in another terminal is not signed out, and this connection cannot play
        self.side = side
        self.on_event = on_event or (lambda event: None)
        self.on_link = on_link or (lambda state, delay: None)
        self.on_welcome = on_welcome or (lambda welcome: None)
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.open_timeout = open_timeout
        self.welcome: Event | None = None
        #: the server's clock minus ours (:func:`local_ms`), in ms (from the quickest of a
        #: few pings)
        self.offset_ms = 0
        self._ws: ClientConnection | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Event]] = {}
        self._reader: asyncio.Task[None] | None = None
        self._closing = False
        self._signed_out = False
        self._retry: asyncio.Task[None] | None = None

    @property
    def connected(self) -> bool:
        return self._ws is not None

    # -- opening ---------------------------------------------------------------------

    async def open(self) -> Event:
        """Connect, say hello and measure the clock; the ``welcome``. Raises ``OSError``
        (or a websockets error) when the server cannot be reached, :class:`ServerError`
        when it refuses the hello (``bad_token``)."""
        welcome = await self._connect()
        await self.measure_clock()
        return welcome

    async def _connect(self) -> Event:
        ws = await connect(
            self.url,
            compression=None,
            max_size=4 * 2**20,
            open_timeout=self.open_timeout,
            close_timeout=CLOSE_TIMEOUT,
            user_agent_header=CLIENT,
        )
        self._ws = ws
        self._reader = asyncio.get_running_loop().create_task(self._read(ws))
        try:
            welcome = await self.request("hello", **self._hello())
        except BaseException:
            await self._drop(ws)
            raise
        self.welcome = welcome
        return welcome

    def _hello(self) -> dict[str, Any]:
        fields: dict[str, Any] = {"protocol": PROTOCOL, "client": CLIENT}
        fields["device"] = device_label()
        if self.token:
            fields["token"] = self.token
            if self.side:
                fields["side"] = True
        return fields

    async def sign_in(self) -> Event:
        """A connection signed in beside the player's own made theirs (``hello`` again
        with the token, no ``side``: docs/protocol.md, the session, rule 6), for a
        command that looked first and now plays (``challenge ID`` about to race); the
        new ``welcome``, with its ``resume``. Once back after a drop, it is theirs too."""
        self.side = False
        welcome = await self.request("hello", **self._hello())
        self.welcome = welcome
        return welcome

    async def measure_clock(self) -> None:
        """Estimate the server's clock (``offset_ms``) from the quickest of a few pings; a
        failure leaves the last estimate."""
        with contextlib.suppress(LinkError, ServerError, TimeoutError):
            await self._measure_clock()

    async def _measure_clock(self, samples: int = 3) -> None:
        best: tuple[float, int] | None = None
        for _ in range(samples):
            t0 = time.monotonic() * 1000
            pong = await self.request("ping")
            t1 = time.monotonic() * 1000
            server = pong.get("time")
            if isinstance(server, int) and (best is None or t1 - t0 < best[0]):
                best = (t1 - t0, round(server - (t0 + t1) / 2))
        if best is not None:
            self.offset_ms = best[1]

    async def _drop(self, ws: ClientConnection) -> None:
        if self._ws is ws:
            self._ws = None
        with contextlib.suppress(Exception):
            await ws.close()

    # -- requests --------------------------------------------------------------------

    async def request(self, kind: str, timeout: float = TIMEOUT, **fields: Any) -> Event:
        """Send a request and wait for its reply. Raises :class:`ServerError` for an
        ``error`` reply, :class:`LinkError` when there is no answer; :class:`TooLong`
        (a :class:`ServerError`) for a text too long to send."""
        refused = too_long(kind, fields)
        if refused is not None:
            raise refused
        ws = self._ws
        if ws is None:
            raise (
                SignedOut("signed in elsewhere")
                if self._signed_out
                else NotConnected("not connected")
            )
        request_id = next(self._ids)
        future: asyncio.Future[Event] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        message = {"type": kind, "id": request_id}
        message.update((k, v) for k, v in fields.items() if v is not None)
        try:
            try:
                await ws.send(msgpack.packb(message, use_bin_type=True))
            except ConnectionClosed:  # (closed before it went: nothing was sent)
                raise ConnectionLost(lost_why(ws), sent=False) from None
            # not asyncio.wait_for: on Python 3.11 it returns the reply when the task is
            # cancelled (Ctrl-C) in the same pass of the loop as the reply comes
            async with asyncio.timeout(timeout):
                reply = await future
        except ConnectionClosed:
            raise ConnectionLost(lost_why(ws)) from None
        finally:
            self._pending.pop(request_id, None)
        if reply.get("type") == "error":
            code = clean(reply.get("code", ""), 32)
            raise ServerError(code, clean(reply.get("message", ""), 300))
        return reply

    # -- reading ---------------------------------------------------------------------

    async def _read(self, ws: ClientConnection) -> None:
        try:
            async for frame in ws:
                if not isinstance(frame, bytes):
                    continue
                try:
                    message = msgpack.unpackb(frame, raw=False, strict_map_key=False)
                except Exception:
                    continue
                if not isinstance(message, dict):
                    continue
                if "id" in message:
                    future = self._pending.get(message["id"])
                    if future is not None and not future.done():
                        future.set_result(message)
                    continue
                if message.get("type") == "signed_out":
                    self._signed_out = True
                self.on_event(message)
        except ConnectionClosed:
            pass
        finally:
            code = ws.close_code
            if self._ws is ws:
                self._ws = None
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionLost(lost_why(ws)))
        if code == CLOSE_SIGNED_OUT:
            self._signed_out = True
        if self._closing:
            return
        if self._signed_out:
            self.on_link(SIGNED_OUT, None)
            return
        # only a connection that once worked comes back, and one loop at a time does it
        if self.welcome is not None and self._retry is None:
            self._retry = asyncio.get_running_loop().create_task(self._reconnect())

    async def _reconnect(self) -> None:
        try:
            for delay in backoff(self.first_delay, self.max_delay):
                if self._closing:
                    return
                self.on_link(RETRYING, delay)
                await asyncio.sleep(delay)
                if self._closing:
                    return
                try:
                    welcome = await self._connect()
                except ServerError as exc:  # the token is no longer good: give up
                    self.on_link(DOWN, None)
                    self.on_event({"type": "link_error", "code": exc.code, "message": exc.message})
                    return
                except Exception:  # refused, timed out, dropped during hello: try again
                    continue
                if self._ws is None:
                    continue  # dropped again at once
                self._retry = None
                # the resume at once: events that follow it are newer, and must win
                self.on_welcome(welcome)
                await self.measure_clock()
                self.on_link(UP, None)
                return
        finally:
            self._retry = None

    async def close(self) -> None:
        self._closing = True
        ws = self._ws
        self._ws = None
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
        if self._retry is not None:
            self._retry.cancel()
        if self._reader is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self._reader, 2)
