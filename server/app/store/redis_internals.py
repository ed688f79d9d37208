"""redis-py's private parts, in one place: what the group commit's fast path and the
pool's health check reach for past redis-py's public API.

The group commit (``commit.py``) takes its connection's replies straight from the hiredis
``Reader`` that redis-py's hiredis parser feeds (:func:`hiredis_reader`,
:data:`NOT_ENOUGH_DATA`), and has them handed over by the connection's transport itself
(:func:`transport_of`), rather than through ``read_response`` (a coroutine and its checks
a reply). The pool's connections (``connect.py``) override redis-py's health check and
send its ``PING`` (:func:`send_ping`). Nothing else in the server touches a private name
of redis-py's.

Tested against redis-py 8.1 with hiredis 3 (``pyproject.toml`` pins the range);
``tests/app/test_redis_adapter.py`` fails, naming what changed (:func:`problems`), when a
name used here is missing or has another shape. Where the fast path's parts are missing,
the group commit still works, more slowly: a task a batch, replies read by
``read_response`` (:func:`read_replies`).
"""

from __future__ import annotations

import asyncio
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError

try:  # redis-py's hiredis parser, and the marker of a reply not all read yet
    from redis._parsers.hiredis import NOT_ENOUGH_DATA, _AsyncHiredisParser
except ImportError:  # pragma: no cover
    NOT_ENOUGH_DATA = object()
    _AsyncHiredisParser = None  # type: ignore[assignment,misc]

try:  # redis[hiredis]: packing in C
    from hiredis import pack_command
except ImportError:  # pragma: no cover
    pack_command = None  # type: ignore[assignment]

__all__ = [
    "FAST",
    "HEALTH_CHECK",
    "NOT_ENOUGH_DATA",
    "TESTED",
    "hiredis_reader",
    "pack_command",
    "problems",
    "read_replies",
    "send_ping",
    "transport_of",
]

#: whether the fast path's parts are there (redis-py's hiredis parser, hiredis's packer)
FAST = _AsyncHiredisParser is not None and pack_command is not None

#: the versions this module was tested against (``pyproject.toml``'s pin)
TESTED = "redis>=8.1,<8.2"

#: what the pool's health check (``connect._Checked``) overrides, calls or reads on
#: redis-py's asyncio connection
HEALTH_CHECK = (
    "check_health",
    "on_connect_check_health",
    "connect_check_health",
    "next_health_check",
    "health_check_interval",
    "_send_ping",
)


def hiredis_reader(conn: Any) -> Any:
    """The hiredis ``Reader`` a connected connection's replies are parsed by (``feed``,
    ``gets``; an error reply comes out as redis-py's exception, a reply not all read yet
    as :data:`NOT_ENOUGH_DATA`), or None: its parser is not redis-py's hiredis one."""
    parser = getattr(conn, "_parser", None)
    if _AsyncHiredisParser is None or type(parser) is not _AsyncHiredisParser:
        return None
    return getattr(parser, "_reader", None)


def transport_of(conn: Any) -> asyncio.Transport | None:
    """A connected connection's transport, if its protocol can be replaced
    (``set_protocol``: the group commit then reads the replies in its own protocol);
    else None."""
    transport = getattr(getattr(conn, "_writer", None), "transport", None)
    return transport if hasattr(transport, "set_protocol") else None


async def read_replies(conn: Any, count: int) -> list[Any]:
    """``count`` replies to commands sent on ``conn``, an error reply in its place (as
    ``read_response`` would raise it); a broken connection raises. From the hiredis
    reader when there is one, reading the socket only when it has no whole reply left (a
    batch's replies mostly arrive in one read); else by ``read_response``."""
    reader = hiredis_reader(conn)
    results: list[Any] = []
    if reader is None:
        for _ in range(count):
            try:
                results.append(await conn.read_response())
            except ResponseError as exc:
                results.append(exc)
        return results
    stream = conn._parser._stream
    gets = reader.gets
    while len(results) < count:
        reply = gets()
        if reply is NOT_ENOUGH_DATA:
            data = await stream.read(65536)
            if not data:
                raise RedisConnectionError("Redis closed the connection")
            reader.feed(data)
            continue
        if isinstance(reply, RedisConnectionError) or (
            isinstance(reply, list) and reply and isinstance(reply[0], RedisConnectionError)
        ):
            raise reply if isinstance(reply, RedisConnectionError) else reply[0]
        results.append(reply)
    return results


async def send_ping(conn: Any) -> None:
    """redis-py's health check's ``PING`` on ``conn``, its reply read (``PONG``, else
    it raises)."""
    await conn._send_ping()


def problems(conn: Any) -> list[str]:
    """What this module uses and does not find, on ``conn`` (a connected asyncio
    connection of the server's pool to one Redis): one line each, naming it. Empty: the
    group commit takes its fast path, and the health check works as written."""
    found: list[str] = []
    if _AsyncHiredisParser is None:
        found.append("redis._parsers.hiredis has no _AsyncHiredisParser or NOT_ENOUGH_DATA")
    if pack_command is None:
        found.append("hiredis has no pack_command")
    parser = getattr(conn, "_parser", None)
    if _AsyncHiredisParser is not None and type(parser) is not _AsyncHiredisParser:
        found.append(f"the connection's _parser is {type(parser).__name__}, not the hiredis one")
    reader = getattr(parser, "_reader", None)
    for name in ("feed", "gets"):
        if not callable(getattr(reader, name, None)):
            found.append(f"the parser's _reader ({type(reader).__name__}) has no {name}()")
    if not hasattr(getattr(parser, "_stream", None), "read"):
        found.append("the parser's _stream has no read()")
    if transport_of(conn) is None:
        found.append("the connection's _writer.transport has no set_protocol()")
    for name in HEALTH_CHECK:
        if not hasattr(conn, name):
            found.append(f"the connection has no {name}")
    return found
