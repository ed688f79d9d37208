"""The HTTP side of the server's port: every request that is not a websocket handshake
(:meth:`WebServer.process_request` hands each request here first).

``GET /healthz`` and ``GET /metrics`` (whatever the request's headers); the read-only
pages: ``GET /`` the index; ``GET /leaderboard/<board>.json`` and ``GET
/leaderboard/<board>`` (``<board>`` as in the protocol: ``daily/gate/2026-11-22``,
``daily/gate`` for today, ``wins/gate``, ``best/gate``, ``races/week``, ``races/all``);
``GET /leaderboard?game=gate&day=2026-11-21`` (the day picker's form); ``GET
/replay/<id>.json`` and ``GET /replay/<id>``. Their HTML is :mod:`server.app.pages`.
"""

from __future__ import annotations

import asyncio
import email.utils
import json
import logging
from dataclasses import dataclass
from html import escape
from http import HTTPStatus
from typing import TYPE_CHECKING
from urllib.parse import parse_qs, urlsplit

from redis.asyncio import RedisCluster
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.protocol import ProtocolError

from . import daily as d
from . import pages

if TYPE_CHECKING:
    from .service import Service
    from .ws import WebServer

# the HTTP side logs as a part of the websocket server
log = logging.getLogger("patience.ws")

PLAIN = "text/plain; charset=utf-8"
HTML = "text/html; charset=utf-8"
JSON = "application/json"
METRICS = "text/plain; version=0.0.4; charset=utf-8"
UNKNOWN = "Patience Race: connect with a websocket client.\n"


@dataclass(frozen=True)
class Answer:
    status: int
    content_type: str
    body: str
    no_cache: bool = True


def response(found: Answer) -> Response:
    body = found.body.encode()
    status = HTTPStatus(found.status)
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Content-Length", str(len(body))),
            ("Content-Type", found.content_type),
        ]
    )
    if found.no_cache:
        headers["Cache-Control"] = "no-cache"
    return Response(status.value, status.phrase, headers, body)


async def answer(server: WebServer, request: Request) -> Response | None:
    """The response to a plain HTTP request; None for a websocket handshake, which
    websockets then carries on with."""
    path = request.path.split("?")[0]
    if path == "/metrics":
        return response(metrics(server))
    if path == "/healthz":
        return response(await healthz(server.service))
    if "upgrade" in request.headers.get("Connection", "").lower():
        return None
    try:
        found = await page(server.service, request.path)
    except Exception:
        log.exception("page failed", extra={"path": request.path})
        found = Answer(500, PLAIN, "internal error\n")
    return response(found or Answer(404, PLAIN, UNKNOWN))


def metrics(server: WebServer) -> Answer:
    rooms: dict[str, int] = {}
    for room in server.service.rooms.values():
        rooms[room.state] = rooms.get(room.state, 0) + 1
    text = server.metrics.render(server.connections, rooms, server.service.counters())
    return Answer(200, METRICS, text, no_cache=False)


async def healthz(service: Service) -> Answer:
    redis = service.redis
    try:
        if isinstance(redis, RedisCluster):  # every primary, not just one node
            ping = redis.ping(target_nodes=RedisCluster.PRIMARIES)
        else:
            ping = redis.ping()
        await asyncio.wait_for(ping, timeout=2)
    except Exception:
        return Answer(503, PLAIN, "redis unavailable\n", no_cache=False)
    return Answer(200, PLAIN, "ok\n", no_cache=False)


async def page(service: Service, target: str) -> Answer | None:
    """A page (or its JSON) for a GET of ``target``; None if there is none."""
    parts = urlsplit(target)
    path = parts.path
    now = service.now()
    today = d.day_of(now)
    try:
        if path in ("/", "/index.html"):
            return Answer(200, HTML, pages.index_html(today))
        if path == "/leaderboard":
            query = parse_qs(parts.query)
            game = query.get("game", ["gate"])[0]
            day = query.get("day", [today])[0]
            path = f"/leaderboard/daily/{game}/{day}"
        if path.startswith("/leaderboard/"):
            name = path.removeprefix("/leaderboard/")
            as_json = name.endswith(".json")
            board = service._board(name.removesuffix(".json"))
            found = await service.board_page(board, 0, 100)
            if as_json:
                return Answer(200, JSON, json.dumps(found))
            return Answer(200, HTML, pages.board_html(found, board, today))
        if path.startswith("/replay/"):
            name = path.removeprefix("/replay/")
            replay = await service.public_replay(name.removesuffix(".json"), None)
            if name.endswith(".json"):
                return Answer(200, JSON, json.dumps(replay))
            return Answer(200, HTML, pages.replay_html(replay))
    except ProtocolError as exc:
        status, title = (403, "Not public yet") if exc.code == "not_public" else (404, "Not found")
        if path.endswith(".json"):
            return Answer(
                status, JSON, json.dumps({"error": exc.code.value, "message": exc.message})
            )
        return Answer(status, HTML, pages.html_page(title, f"<h1>{escape(exc.message)}</h1>"))
    return None
