"""The HTTP side of the server's port: every request that is not a websocket handshake
(:meth:`WebServer.process_request` hands each request here first).

Routes, every one of them in one table (:data:`ROUTES`, which :func:`route` walks):
``/healthz``, ``/livez`` and ``/metrics`` (probes, whatever the request's headers); the read-only
pages: ``/`` (or ``/index.html``) the index; ``/leaderboard/<board>`` and
``/leaderboard/<board>.json`` (``<board>`` as in the protocol: ``daily/gate/2026-11-22``,
``daily/gate`` for today, ``wins/gate``, ``best/gate``, ``races/week``, ``races/all``);
``/leaderboard?game=gate&day=2026-11-21`` (the day picker's form); ``/replay/<id>`` and
``/replay/<id>.json``; ``/daily/commitments`` and ``/daily/commitments.json``, the daily
deals' commitments (:mod:`.commitments_page`); ``/rules/<game>`` and
``/rules/<game>.txt``, a game's rules for players (:mod:`.rules_page`). Their HTML is
:mod:`server.app.transport.pages`. The browser client: ``/play``, ``/r/<CODE>`` (a race
room's link) and ``/c/<ID>`` (a challenge's link) answer its one page, and
``/web/...`` its files (:mod:`server.app.transport.static` says which; ``/web/pages.css``
is the read-only pages' style sheet), each with an entity tag (a GET or HEAD whose
``If-None-Match`` names it, weakly, or is ``*``, gets 304) and, over a KiB, gzipped to a
request whose ``Accept-Encoding`` weighs gzip above 0. Every answer carries the security
headers of :data:`~server.app.transport.static.SECURITY_HEADERS` (a
Content-Security-Policy with no inline script or style and no framing, ``nosniff``),
those websockets makes itself too (:class:`Protocol`: a request too long, one it cannot
read, a handshake it refuses). An HTTP/1.1 request without exactly one ``Host`` gets 400.

The rules (``docs/server.md``, "HTTP pages"): a path matches whole, once its percent
escapes are decoded; the probes and the ``.json`` routes take no query
string, and the pages (HTML, for people: their links get shared with parameters added)
read the ones they know and pass over the rest; anything else is an unknown page, 404 in
plain text. Every route answers GET and HEAD (the GET's headers, no
body); other methods get 405 with ``Allow``. Errors come in the route's form: JSON
(``{"error": code, "message": text}``, the protocol's error codes) on a ``.json``
route, a small page on a page, plain text on the probes.
"""

from __future__ import annotations

import email.utils
import hmac
import json
import logging
import re
import typing
from collections.abc import Awaitable, Callable, Generator
from dataclasses import dataclass, replace
from html import escape
from http import HTTPStatus
from typing import TYPE_CHECKING, TypeAlias
from urllib.parse import parse_qs, parse_qsl, unquote, urlsplit

from websockets.datastructures import Headers
from websockets.exceptions import (
    HeaderLineTooLong,
    InvalidMessage,
    RequestLineTooLong,
    TooManyHeaders,
)
from websockets.http11 import Request, Response
from websockets.protocol import Protocol as FrameProtocol
from websockets.protocol import State
from websockets.server import ServerProtocol
from websockets.typing import StatusLike

from server import __version__, _version
from server.engine import GAMES
from server.protocol import ErrorCode, ProtocolError

from ..domain import daily as d
from ..domain.groups import GROUP_ID_RE, GROUP_KEY_RE
from ..store.connect import answers
from . import commitments_page, pages, previews, rules_page, static
from .headers import gzip_accepted, none_match

if TYPE_CHECKING:
    from ..metrics import Metrics
    from ..service import Service
    from ..settings import Settings
    from ..store.failures import FailureLog


class WebServer(typing.Protocol):
    """The websocket server as the pages read it (``ws.WebServer`` is one)."""

    service: Service
    settings: Settings
    failures: FailureLog
    connections: int
    metrics: Metrics


# the HTTP side logs as a part of the websocket server
log = logging.getLogger("patience.ws")

PLAIN = "text/plain; charset=utf-8"
HTML = "text/html; charset=utf-8"
JSON = "application/json"
METRICS = "text/plain; version=0.0.4; charset=utf-8"
UNKNOWN = "Patience Race: no page here. Play at /play; the leaderboards are at /.\n"
NO_HOST = "Bad request: an HTTP/1.1 request names its host in one Host header.\n"
THROUGH_PROXY = "Forbidden: the metrics are not served through the proxy.\n"


#: the methods every route answers; any other gets 405
ALLOW = "GET, HEAD"


@dataclass(frozen=True)
class Answer:
    status: int
    content_type: str
    body: str
    headers: tuple[tuple[str, str], ...] = ()
    #: the body gzipped, for a client that accepts it (the browser client's files)
    gzipped: bytes | None = None


def response(found: Answer, head: bool = False) -> Response:
    """The response carrying an answer; to a HEAD, its headers alone (Content-Length
    still the length of the body a GET gets, as RFC 9110 allows)."""
    body = found.gzipped if found.gzipped is not None else found.body.encode()
    status = HTTPStatus(found.status)
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Content-Length", str(len(body))),
            ("Content-Type", found.content_type),
            ("Cache-Control", "no-cache"),
            *static.SECURITY_HEADERS,
            *found.headers,
        ]
    )
    return Response(status.value, status.phrase, headers, b"" if head else body)


def not_modified(found: Answer) -> Response:
    """304 to a request whose ``If-None-Match`` names the answer's entity tag."""
    headers = Headers(
        [
            ("Date", email.utils.formatdate(usegmt=True)),
            ("Connection", "close"),
            ("Cache-Control", "no-cache"),
            *static.SECURITY_HEADERS,
            *found.headers,
        ]
    )
    return Response(304, "Not Modified", headers, b"")


class Protocol(ServerProtocol):
    """websockets' Sans-I/O server protocol, whose own answers are the port's like any
    other: every answer it makes itself (414 and 431 to a request too large, 400, 426 and
    the like to a websocket handshake it refuses, 500, 503) carries ``Cache-Control:
    no-cache`` and the security headers, and a request it cannot read gets an answer
    where websockets closes the connection without one: 400 (an unparsable request line
    or header, a raw non-ASCII byte in the request line, a line not ending in CRLF, a
    body), or 501 for a ``Transfer-Encoding``. Only a request cut short by the client
    closing its side gets none. Written against websockets 17 (``ServerProtocol.parse``,
    whose request half this takes over)."""

    @classmethod
    def like(cls, given: ServerProtocol) -> Protocol:
        """A protocol with ``given``'s settings, for a connection to use in its place
        (all but a ``select_subprotocol`` hook, which the server does not set)."""
        return cls(
            origins=given.origins,
            extensions=given.available_extensions,
            subprotocols=given.available_subprotocols,
            max_size=(given.max_message_size, given.max_fragment_size),
            logger=given.logger,
        )

    def reject(self, status: StatusLike, text: str) -> Response:
        refused = super().reject(status, text)
        for name, value in (("Cache-Control", "no-cache"), *static.SECURITY_HEADERS):
            refused.headers[name] = value
        return refused

    def parse(self) -> Generator[None]:
        if self.state is not State.CONNECTING:
            yield from super().parse()
            return
        try:
            request = yield from Request.parse(self.reader.read_line)
        except RequestLineTooLong as exc:
            yield from self._refuse(exc, HTTPStatus.REQUEST_URI_TOO_LONG)
        except (HeaderLineTooLong, TooManyHeaders) as exc:
            yield from self._refuse(exc, HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)
        except NotImplementedError as exc:  # a transfer coding
            yield from self._refuse(exc, HTTPStatus.NOT_IMPLEMENTED)
        except EOFError as exc:
            if self.reader.eof:  # the client closed its side: the request never came
                yield from self._drop(exc)
            else:  # a line ending in LF alone
                yield from self._refuse(exc, HTTPStatus.BAD_REQUEST)
        except Exception as exc:  # not HTTP/1.1 or 1.0, not ASCII, a body
            yield from self._refuse(exc, HTTPStatus.BAD_REQUEST)
        else:
            self.events.append(request)
            yield from FrameProtocol.parse(self)

    def _refuse(self, exc: Exception, status: HTTPStatus) -> Generator[None]:
        """Answer a request that could not be read (the connection then closes), as
        websockets answers one too long."""
        self.handshake_exc = exc
        self.send_response(self.reject(status, f"{status.phrase}: {exc}.\n"))
        yield

    def _drop(self, exc: Exception) -> Generator[None]:
        """Close on a request cut short, with no answer, as websockets does."""
        self.handshake_exc = InvalidMessage("did not receive a valid HTTP request")
        self.handshake_exc.__cause__ = exc
        self.send_eof()
        self.parser = self.discard()
        next(self.parser)
        yield


def error(form: str, status: int, code: str, message: str) -> Answer:
    """An error in a route's form: ``{"error": code, "message": message}`` for a JSON
    route, a small page for a page (with the way to the games), plain text for the rest."""
    if form == JSON:
        return Answer(status, JSON, json.dumps({"error": code, "message": message}))
    if form == HTML:
        title = HTTPStatus(status).phrase
        body = f'<p><a href="/">Patience Race</a></p><h1>{escape(message)}</h1>'
        body += '<p><a href="/play">Play: the games</a></p>'
        return Answer(status, HTML, pages.html_page(title, body))
    return Answer(status, PLAIN, f"{message}\n")


def bad_link(what: str) -> str:
    """What a link of the wrong shape for a ``what`` (a room, a challenge, a group) says.

    >>> bad_link("challenge")
    'There is no challenge at this link: check it with whoever sent it.'
    """
    return f"There is no {what} at this link: check it with whoever sent it."


async def healthz(server: WebServer, found: Found) -> Answer:
    """``/healthz``: 200 while Redis answers a ping (every primary of a cluster), else 503."""
    if not await answers(server.service.redis, timeout=2):
        return Answer(503, PLAIN, "redis unavailable\n")
    return Answer(200, PLAIN, "ok\n")


async def livez(server: WebServer, found: Found) -> Answer:
    """``/livez``: 200 as long as the event loop answers, whatever Redis does (a liveness
    probe; readiness is ``/healthz``)."""
    return Answer(200, PLAIN, "ok\n")


async def metrics(server: WebServer, found: Found) -> Answer:
    """``/metrics``: the Prometheus text of :class:`~server.app.metrics.Metrics`. Behind
    a proxy (``client_ip_header``), a request that came through it is refused: the
    metrics are for a scrape on the processes' own network, not for players."""
    rooms: dict[str, int] = {}
    for room in server.service.rooms.values():
        rooms[room.state] = rooms.get(room.state, 0) + 1
    text = server.metrics.render(
        server.connections, rooms, server.service.counters(), (__version__, _version.build())
    )
    return Answer(200, METRICS, text)


async def index_page(server: WebServer, found: Found) -> Answer:
    """The index page."""
    service = server.service
    today = d.day_of(service.now())
    graded = await service.grader.grades.of_day(today, list(GAMES))
    return Answer(200, HTML, pages.index_html(today, {g: k["grade"] for g, k in graded.items()}))


async def board_page(server: WebServer, found: Found) -> Answer:
    """A leaderboard's page, or its JSON: its first 100 entries."""
    service = server.service
    today = d.day_of(service.now())
    board = service.leaderboards.board(found.name)
    shown = await service.leaderboards.board_page(board, 0, 100)
    if found.route.form == JSON:
        return Answer(200, JSON, json.dumps(shown))
    meta = previews.meta_tags(previews.board_preview(shown, board), found.url)
    return Answer(200, HTML, pages.board_html(shown, board, today, meta))


async def replay_page(server: WebServer, found: Found) -> Answer:
    """A public replay's page, or its JSON."""
    service = server.service
    replay = await service.replaying.public_replay(found.name, None)
    if found.route.form == JSON:
        return Answer(200, JSON, json.dumps(replay))
    meta = previews.meta_tags(previews.replay_preview(replay), found.url)
    return Answer(200, HTML, pages.replay_html(replay, meta, found.url))


async def commitments_answer(server: WebServer, found: Found) -> Answer:
    """The daily deals' commitments (:mod:`.commitments_page`), or their JSON."""
    listing = await server.service.commitments.listing()
    if found.route.form == JSON:
        return Answer(200, JSON, json.dumps(listing))
    return Answer(200, HTML, commitments_page.commitments_html(listing))


async def rules_page_answer(server: WebServer, found: Found) -> Answer:
    """A game's rules for players: the browser's page, or the terminal's text."""
    if found.name not in GAMES:
        return error(found.route.form, 404, "no_such_game", "There is no game by that name.")
    if found.route.form == PLAIN:
        return file_answer(static.rules_text(found.name))
    return Answer(200, HTML, rules_page.rules_html(found.name))


#: a room code as a link may give it (the server says whether the room exists)
ROOM_CODE = re.compile(r"[A-Za-z0-9]{1,16}")
#: a challenge's id as its link gives it (domain/challenges.py: base32, lower case)
CHALLENGE_ID = re.compile(r"[a-z2-7]{16}")


async def play_page(server: WebServer, found: Found) -> Answer:
    """The browser client's page: ``/play``, ``/r/<CODE>``, a race room's link, and
    ``/c/<ID>``, a challenge's (the client reads the code or id from the address), these
    two with their link preview in the page's head (:mod:`.previews`). Where the client is
    not installed, a page saying how to install it."""
    room = found.route.path == f"/r/{NAME}"
    challenge = found.route.path == f"/c/{NAME}"
    if room and not ROOM_CODE.fullmatch(found.name):
        return error(HTML, 404, "no_such_room", bad_link("race room"))
    if challenge and not CHALLENGE_ID.fullmatch(found.name):
        return error(HTML, 404, "no_such_challenge", bad_link("challenge"))
    if found.route.path == f"/g/{NAME}" and not GROUP_ID_RE.fullmatch(found.name):
        return error(HTML, 404, "no_such_group", bad_link("group"))
    missing = static.client_ready()
    if missing is not None:
        return Answer(503, HTML, pages.no_client_html(missing))
    page = static.read(static.INDEX, HTML)
    if page is None:
        return error(HTML, 503, "internal_error", "the browser client's page cannot be read")
    url = found.url
    if found.route.path == f"/g/{NAME}":
        key = parse_qs(found.query).get("k", [""])[0]
        preview = await group_preview(server, found.name, key)
        if preview is not previews.GENERIC and url is not None:
            url = f"{url}?k={key}"  # (the address a preview opens joins, as the one shared)
    elif not (room or challenge):
        return file_answer(page)
    else:
        preview = await link_preview(server, found.name, room)
    tags = previews.meta_tags(preview, url)
    return file_answer(static.served(previews.with_head(page.text, preview, tags), HTML))


async def group_preview(server: WebServer, gid: str, key: str) -> previews.Preview:
    """The preview of a group's link: its name where the link's ``key`` (its query's
    ``k``) is the group's (compared in constant time), else the generic one."""
    if not GROUP_KEY_RE.fullmatch(key):
        return previews.GENERIC
    try:
        group = await server.service.grouping.groups.get(gid)
    except Exception as exc:
        server.failures.failed("link preview", exc)
        return previews.GENERIC
    known = group is not None and hmac.compare_digest(group.key, key)
    return previews.group_preview(group.name if known and group is not None else None)


async def link_preview(server: WebServer, name: str, room: bool) -> previews.Preview:
    """The preview of a room's link (``name``, its code) or a challenge's (its id), read
    from Redis and changing nothing there; the generic one when Redis cannot say (the
    page is served all the same)."""
    service = server.service
    try:
        if room:
            return previews.room_preview(await service.stored_rooms.read(name.upper()))
        return previews.challenge_preview(await service.challenging.kept.get(name))
    except Exception as exc:
        server.failures.failed("link preview", exc)
        return previews.GENERIC


def file_answer(file: static.File) -> Answer:
    """A file's answer, with its entity tag (and its gzipped form beside it)."""
    return Answer(200, file.content_type, file.text, (("ETag", file.etag),), file.gzipped)


def field(request: Request, name: str) -> str:
    """A list header's value, its lines joined (RFC 9110, 5.3: a list may come in
    several lines); "" when absent."""
    return ", ".join(request.headers.get_all(name))


def address(server: WebServer, request: Request) -> str | None:
    """A page's address (its path, without a query) as its request names it: its
    ``Host``, and ``https`` where a proxy the server trusts (``client_ip_header`` set)
    says ``X-Forwarded-Proto: https``."""
    scheme = "http"
    if server.settings.client_ip_header:
        proto = field(request, "X-Forwarded-Proto").split(",")[0].strip().lower()
        scheme = "https" if proto == "https" else "http"
    return previews.page_url(field(request, "Host"), urlsplit(request.path).path, scheme)


def gzip_form(given: Answer, request: Request) -> Answer:
    """The answer as sent to this request: gzipped where it has a gzipped form and the
    request accepts gzip (``Content-Encoding``, its own entity tag), else as it is; either
    way with ``Vary: Accept-Encoding`` when there is a choice."""
    if given.gzipped is None:
        return given
    accepts = gzip_accepted(field(request, "Accept-Encoding"))
    headers = [(k, v) for k, v in given.headers if k != "ETag"]
    etag = dict(given.headers).get("ETag", "")
    headers.append(("Vary", "Accept-Encoding"))
    if not accepts:
        return replace(given, headers=(*headers, ("ETag", etag)), gzipped=None)
    headers.append(("Content-Encoding", "gzip"))
    if etag:
        headers.append(("ETag", etag[:-1] + '-gz"'))
    return replace(given, headers=tuple(headers))


async def web_file(server: WebServer, found: Found) -> Answer:
    """A file of the browser client, ``/web/<name>``."""
    file = static.web_file(found.name)
    if file is None:
        return Answer(404, PLAIN, "no such file\n")
    return file_answer(file)


#: the read-only pages' style sheet, served as the browser client's files are
PAGES_CSS = static.served(pages.STYLE + rules_page.STYLE + commitments_page.STYLE, static.CSS)


async def pages_css(server: WebServer, found: Found) -> Answer:
    """The read-only pages' style sheet (a file, for the CSP allows no inline style)."""
    return file_answer(PAGES_CSS)


#: the fields of the day picker's form
PICKED = ("game", "day")


def picked_board(query: str) -> str | None:
    """The board the day picker's query names: ``game`` (empty or absent: ``gate``) and
    ``day`` (empty or absent: today), each at most once; other fields are passed over."""
    pairs = [(k, v) for k, v in parse_qsl(query, keep_blank_values=True) if k in PICKED]
    fields = dict(pairs)
    if len(fields) != len(pairs):
        return None
    game = fields.get("game") or "gate"
    day = fields.get("day")
    return f"daily/{game}/{day}" if day else f"daily/{game}"


Handler: TypeAlias = "Callable[[WebServer, Found], Awaitable[Answer]]"

#: the name a route takes from the rest of its path
NAME = "<name>"


@dataclass(frozen=True)
class Route:
    """One route: ``path`` matched whole, or around :data:`NAME` (the rest of the path,
    slashes and all, maybe empty); ``form``, the content type of its answers (and of its
    errors); ``handler``, what answers it. A ``probe`` is answered whatever the request's
    headers (a websocket handshake is not taken on it), and its failure is not a page's
    (no 500 of the route's own). ``picked`` reads the route's name from the query string
    (None: the query does not name one, the request is not this route's)."""

    path: str
    form: str
    handler: Handler
    probe: bool = False
    picked: Callable[[str], str | None] | None = None

    def name(self, path: str) -> str | None:
        """The name ``path`` gives this route ("" for an exact path), or None: not this
        route's path."""
        head, hole, tail = self.path.partition(NAME)
        if not hole:
            return "" if path == self.path else None
        if len(path) < len(head) + len(tail):
            return None
        if not (path.startswith(head) and path.endswith(tail)):
            return None
        return path[len(head) : len(path) - len(tail)]


#: every route, walked in order (the first whose path matches takes the request)
ROUTES: tuple[Route, ...] = (
    Route("/healthz", PLAIN, healthz, probe=True),
    Route("/livez", PLAIN, livez, probe=True),
    Route("/metrics", METRICS, metrics, probe=True),
    Route("/", HTML, index_page),
    Route("/index.html", HTML, index_page),
    Route("/leaderboard", HTML, board_page, picked=picked_board),  # the day picker's form
    Route(f"/leaderboard/{NAME}.json", JSON, board_page),
    Route(f"/leaderboard/{NAME}", HTML, board_page),
    Route(f"/replay/{NAME}.json", JSON, replay_page),
    Route(f"/replay/{NAME}", HTML, replay_page),
    Route("/daily/commitments.json", JSON, commitments_answer),
    Route("/daily/commitments", HTML, commitments_answer),
    Route(f"/rules/{NAME}.txt", PLAIN, rules_page_answer),
    Route(f"/rules/{NAME}", HTML, rules_page_answer),
    Route("/play", HTML, play_page),
    Route(f"/r/{NAME}", HTML, play_page),
    Route(f"/c/{NAME}", HTML, play_page),
    Route(f"/g/{NAME}", HTML, play_page),  # a group's link (the client joins with its key)
    Route("/web/pages.css", static.CSS, pages_css),
    Route(f"/web/{NAME}", PLAIN, web_file),
)


@dataclass(frozen=True)
class Found:
    """A request target's route, and the board or replay id it names; ``url``, the
    page's address as the request's ``Host`` names it (None: no host to trust), for
    its link preview."""

    route: Route
    name: str = ""
    url: str | None = None
    #: the query string, for a page that reads one (a group's link: its key)
    query: str = ""


def route(target: str) -> Found | None:
    """The route of a request target, or None: a path no route has, or a query string
    where its route takes none. Paths match exactly, once their percent escapes are
    decoded; a query string is for the pages only (the day picker's ``/leaderboard``
    reads its own; the others pass over it)."""
    parts = urlsplit(target)
    try:
        path = unquote(parts.path, errors="strict")
    except UnicodeDecodeError:
        return None
    for entry in ROUTES:
        name = entry.name(path)
        if name is None:
            continue
        if entry.picked is not None:
            name = entry.picked(parts.query)
            return None if name is None else Found(entry, name)
        if parts.query and entry.form != HTML:
            return None  # (an API or a probe: what it asks is all in its path)
        return Found(entry, name, query=parts.query)
    return None


async def answer(server: WebServer, request: Request) -> Response | None:
    """The response to a plain HTTP request; None for a websocket handshake (a GET asking
    for an upgrade, on any path but a probe's: ``/healthz``, ``/livez`` and ``/metrics``), which
    websockets then carries on with."""
    method = request.method
    head = method == "HEAD"
    if request.protocol == "HTTP/1.1" and len(request.headers.get_all("Host")) != 1:
        return response(Answer(400, PLAIN, NO_HOST), head)  # RFC 9112, 3.2
    found = route(request.path)
    probe = found is not None and found.route.probe
    upgrade = "upgrade" in field(request, "Connection").lower()
    if method == "GET" and upgrade and not probe:
        return None
    if found is None:
        return response(Answer(404, PLAIN, UNKNOWN), head)
    form = found.route.form
    if method not in ("GET", "HEAD"):
        message = f"{method} is not allowed here: use GET or HEAD"
        refused = error(form, 405, "method_not_allowed", message)
        return response(replace(refused, headers=(("Allow", ALLOW),)))
    if probe:
        header = server.settings.client_ip_header
        if found.route.handler is metrics and header and request.headers.get_all(header):
            return response(Answer(403, PLAIN, THROUGH_PROXY), head)
        return response(await found.route.handler(server, found), head)
    if form == HTML:
        found = replace(found, url=address(server, request))
    try:
        given = gzip_form(await found.route.handler(server, found), request)
        etag = dict(given.headers).get("ETag")
        if given.status == 200 and none_match(field(request, "If-None-Match"), etag):
            return not_modified(given)
        return response(given, head)
    except ProtocolError as exc:  # no_such_board, no_such_replay, not_public
        status = 403 if exc.code == ErrorCode.NOT_PUBLIC else 404
        return response(error(form, status, exc.code.value, exc.message), head)
    except Exception as exc:
        server.failures.failed("page", exc, path=request.path)
        failed = error(form, 500, "internal_error", "internal error (it is logged)")
        return response(failed, head)
