"""The edges of the HTTP side, spoken byte for byte on a socket: the answers websockets
makes itself to a request it cannot take (too long, malformed, a bad handshake) carry the
security headers like every other answer; a malformed request is answered, never closed
on in silence; HTTP/1.1 needs one ``Host``; ``Accept-Encoding`` and ``If-None-Match``
are read as RFC 9110 says (q-values, ``*``, ``identity``; lists, ``*``, weak tags)."""

from __future__ import annotations

from server.app.transport import static

from . import rawhttp
from .conftest import Running, until

PLAIN = "text/plain; charset=utf-8"
#: a file of the browser client large enough to have a gzipped form
BIG = "/web/app/main.js"


def secured(answer: rawhttp.Answer, what: object, head: bool = False) -> None:
    """The answer carries every security header, once, and ``Cache-Control: no-cache``,
    and its ``Content-Length`` is its body's (but for a HEAD's, or a 304)."""
    for name, value in static.SECURITY_HEADERS:
        assert answer.header(name) == value, (what, answer.status, name, answer.headers)
    assert answer.header("Cache-Control") == "no-cache", (what, answer.headers)
    if answer.status != 304 and not head:
        assert answer.header("Content-Length") == str(len(answer.body)), what


def handshake(*lines: str) -> tuple[str, ...]:
    """The headers of a websocket handshake, with ``lines`` in place of those they name."""
    given = {line.split(":", 1)[0] for line in lines}
    standard = (
        "Connection: Upgrade",
        "Upgrade: websocket",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    )
    return (*lines, *(line for line in standard if line.split(":", 1)[0] not in given))


# -- the answers websockets makes itself -----------------------------------------------


async def test_a_request_line_too_long_gets_414_with_the_headers(server: Running) -> None:
    answer = await rawhttp.get(server.web.port, "/" + "a" * 9000)
    assert answer.status == 414
    secured(answer, "414")


async def test_headers_too_large_get_431_with_the_headers(server: Running) -> None:
    port = server.web.port
    long_line = await rawhttp.request(port, "GET", "/", "X-Long: " + "b" * 9000)
    many = await rawhttp.request(port, "GET", "/", *(f"X-{i}: {i}" for i in range(200)))
    for answer in (long_line, many):
        assert answer.status == 431
        secured(answer, "431")


async def test_a_refused_websocket_handshake_carries_the_headers(server: Running) -> None:
    """websockets answers a handshake it refuses itself: 400 for a bad key or version,
    426 for an upgrade to something else; those answers are the server's too."""
    port = server.web.port
    cases = {
        "a key that is not base64 of 16 bytes": (
            handshake("Sec-WebSocket-Key: nope"),
            400,
        ),
        "no key": (tuple(h for h in handshake() if not h.startswith("Sec-WebSocket-Key")), 400),
        "another version": (handshake("Sec-WebSocket-Version: 8"), 400),
        "an upgrade to another protocol": (handshake("Upgrade: h2c"), 426),
    }
    for what, (headers, status) in cases.items():
        answer = await rawhttp.request(port, "GET", "/", *headers)
        assert answer.status == status, (what, answer.status, answer.text)
        secured(answer, what)


# -- malformed requests ------------------------------------------------------------------


async def test_a_malformed_request_gets_400_not_a_silent_close(server: Running) -> None:
    port = server.web.port
    cases = {
        "a raw non-ASCII byte in the path": b"GET /caf\xff HTTP/1.1\r\nHost: x\r\n\r\n",
        "UTF-8 in the path, not percent-encoded": b"GET /caf\xc3\xa9 HTTP/1.1\r\nHost: x\r\n\r\n",
        "a raw non-ASCII byte in the method": b"G\xc9T / HTTP/1.1\r\nHost: x\r\n\r\n",
        "no version": b"GET /\r\nHost: x\r\n\r\n",
        "another protocol": b"GET / SPDY/3\r\nHost: x\r\n\r\n",
        "a header line with no colon": b"GET / HTTP/1.1\r\nHost: x\r\nnocolon\r\n\r\n",
        "a line ending in a bare LF": b"GET / HTTP/1.1\nHost: x\r\n\r\n",
    }
    for what, data in cases.items():
        answer = await rawhttp.send(port, data)
        assert answer.status == 400, (what, answer.status)
        assert answer.content_type == PLAIN, what
        secured(answer, what)
    # a request with a body is not read: answered all the same
    post = b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello"
    answer = await rawhttp.send(port, post)
    assert answer.status == 400 and "body" in answer.text
    secured(answer, "a body")
    chunked = b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
    answer = await rawhttp.send(port, chunked)
    assert answer.status == 501
    secured(answer, "a transfer coding")
    # the server still answers a good request
    assert (await rawhttp.get(port, "/healthz")).status == 200


async def test_http_1_1_needs_one_host(server: Running) -> None:
    """RFC 9112, 3.2: an HTTP/1.1 request with no Host, or with two, gets 400; HTTP/1.0
    needs none."""
    port = server.web.port
    for what, data in {
        "no Host": b"GET /healthz HTTP/1.1\r\n\r\n",
        "two Hosts": b"GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
        "a handshake with no Host": (
            "GET / HTTP/1.1\r\n" + "\r\n".join(handshake()) + "\r\n\r\n"
        ).encode(),
    }.items():
        answer = await rawhttp.send(port, data)
        assert answer.status == 400, (what, answer.status)
        assert "Host" in answer.text, what
        secured(answer, what)
    old = await rawhttp.send(port, b"GET /healthz HTTP/1.0\r\n\r\n")
    assert old.status == 200 and old.text == "ok\n"
    with_host = await rawhttp.send(port, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    assert with_host.status == 200


# -- Accept-Encoding ---------------------------------------------------------------------


async def test_accept_encoding_is_read_with_its_q_values(server: Running) -> None:
    port = server.web.port
    gzipped = {
        "gzip": True,
        "GZip;Q=0.5": True,
        "br;q=1, gzip;q=0.1": True,
        "*": True,
        "x-gzip": True,
        "deflate, *;q=0.2": True,
        "gzip;q=0": False,
        "gzip; q=0.000": False,
        "gzip;q=0, identity": False,
        "*, gzip;q=0": False,
        "*;q=0, identity": False,
        "gzip;q=0.5, identity;q=1": False,
        "identity": False,
        "br, deflate": False,
        "nogzip": False,
        "": False,
    }
    plain = await rawhttp.get(port, BIG)
    for given, packed in gzipped.items():
        answer = await rawhttp.request(port, "GET", BIG, f"Accept-Encoding: {given}")
        assert answer.status == 200, given
        assert answer.header("Vary") == "Accept-Encoding", given
        coding = answer.header("Content-Encoding")
        assert coding == ("gzip" if packed else None), (given, coding)
        if not packed:
            assert answer.body == plain.body and answer.header("ETag") == plain.header("ETag")
    # a list may come in several header lines
    split = await rawhttp.request(port, "GET", BIG, "Accept-Encoding: br", "Accept-Encoding: gzip")
    assert split.status == 200 and split.header("Content-Encoding") == "gzip"


# -- If-None-Match -----------------------------------------------------------------------


async def test_if_none_match_reads_lists_stars_and_weak_tags(server: Running) -> None:
    port = server.web.port
    first = await rawhttp.get(port, BIG)
    etag = first.header("ETag")
    assert etag is not None and etag.startswith('"')
    cases = {
        f'"other", {etag}': 304,
        f'{etag},"other"': 304,
        "*": 304,
        f"W/{etag}": 304,
        f'W/"other", W/{etag}': 304,
        'W/"other"': 200,
        '"other", "else"': 200,
        etag.strip('"'): 200,  # not a tag: no quotes
    }
    for given, status in cases.items():
        for method in ("GET", "HEAD"):
            answer = await rawhttp.request(port, method, BIG, f"If-None-Match: {given}")
            assert answer.status == status, (method, given, answer.status)
            secured(answer, given, head=method == "HEAD")
            if status == 304:
                assert answer.body == b"" and answer.header("ETag") == etag, given
    # a list may come in several header lines
    split = await rawhttp.request(
        port, "GET", BIG, 'If-None-Match: "other"', f"If-None-Match: {etag}"
    )
    assert split.status == 304
    # the gzipped form has its own tag: the plain one does not match it
    packed = await rawhttp.request(
        port, "GET", BIG, "Accept-Encoding: gzip", f"If-None-Match: {etag}"
    )
    assert packed.status == 200 and packed.header("Content-Encoding") == "gzip"
    gz_tag = packed.header("ETag")
    again = await rawhttp.request(
        port, "GET", BIG, "Accept-Encoding: gzip", f"If-None-Match: W/{gz_tag}, {etag}"
    )
    assert again.status == 304 and again.header("ETag") == gz_tag
    # a page that is not there is not a 304, whatever the request says
    missing = await rawhttp.request(port, "GET", "/web/app/nothing.js", "If-None-Match: *")
    assert missing.status == 404


async def test_the_pages_style_sheet_has_an_etag_and_answers_304(server: Running) -> None:
    port = server.web.port
    first = await rawhttp.get(port, "/web/pages.css")
    etag = first.header("ETag")
    assert first.status == 200 and etag and etag.startswith('"')
    again = await rawhttp.request(port, "GET", "/web/pages.css", f"If-None-Match: {etag}")
    assert again.status == 304 and again.body == b""
    secured(again, "/web/pages.css")


async def test_a_refused_request_with_a_body_lets_its_connection_go(server: Running) -> None:
    """A request answered 400 for its body (or 501 for a transfer coding) ends its
    connection once the client closes its side: the bytes behind its head are discarded,
    not held for a websocket that never opens (which kept the connection, and a server
    stopping, waiting for the 10 s handshake timeout)."""
    web = server.web.server
    assert web is not None
    for data in (
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
        b"POST / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ):
        answer = await rawhttp.send(port := server.web.port, data)
        assert answer.status in (400, 501)
        await until(lambda: not web.handler_tasks, timeout=5)  # (every connection, open or not)
    assert (await rawhttp.get(port, "/healthz")).status == 200
