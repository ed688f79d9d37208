"""The HTTP side of the server's port, spoken byte for byte on a socket: which requests
it answers (routes: a path, and a query string only where a route takes one), which
methods (GET, and HEAD with no body; others 405), and the form of every answer, errors
included (a JSON route answers in JSON, a page in HTML, the rest in plain text)."""

from __future__ import annotations

import json

from server.app import store

from . import rawhttp
from .conftest import Running
from .test_pages import two_results

#: (a browser's wrong address was told to "connect with a websocket client")
UNKNOWN = "Patience Race: no page here. Play at /play; the leaderboards are at /.\n"
PLAIN = "text/plain; charset=utf-8"
HTML = "text/html; charset=utf-8"
JSON = "application/json"


def same_headers(a: rawhttp.Answer, b: rawhttp.Answer) -> bool:
    def kept(answer: rawhttp.Answer) -> list[tuple[str, str]]:
        return [(k, v) for k, v in answer.headers if k != "Date"]

    return kept(a) == kept(b)


# -- methods -----------------------------------------------------------------------------


async def test_head_is_the_get_without_its_body(server: Running) -> None:
    """RFC 9110: HEAD gets the GET's status and headers, Content-Length the length of
    the GET's body, and no body."""
    await two_results(server)
    port = server.web.port
    for target in (
        "/",
        "/index.html",
        "/leaderboard/daily/nestor",
        "/leaderboard/daily/nestor.json",
        "/leaderboard?game=nestor",
        "/leaderboard/daily/chess",  # 404 HTML
        "/leaderboard/daily/chess.json",  # 404 JSON
        "/replay/nope.json",
        "/nowhere",
        "/healthz",
    ):
        got = await rawhttp.request(port, "GET", target)
        head = await rawhttp.request(port, "HEAD", target)
        assert got.body and head.body == b"", target
        assert head.status == got.status, target
        assert same_headers(head, got), (target, head.headers, got.headers)
        assert head.header("Content-Length") == str(len(got.body)), target
    metrics = await rawhttp.request(port, "HEAD", "/metrics")
    assert metrics.status == 200 and metrics.body == b""
    assert metrics.content_type.startswith("text/plain; version=0.0.4")
    assert int(metrics.header("Content-Length") or 0) > 0


async def test_a_head_with_upgrade_headers_is_answered_as_a_page(server: Running) -> None:
    """A websocket handshake is a GET; a HEAD asking for one still gets no body."""
    answer = await rawhttp.request(
        server.web.port,
        "HEAD",
        "/",
        "Connection: Upgrade",
        "Upgrade: websocket",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    )
    assert answer.status == 200 and answer.body == b""
    assert answer.content_type == HTML


async def test_other_methods_are_not_allowed(server: Running) -> None:
    port = server.web.port
    targets = {
        "/": HTML,
        "/index.html": HTML,
        "/leaderboard/races/all": HTML,
        "/leaderboard?game=gate": HTML,
        "/replay/nope": HTML,
        "/leaderboard/races/all.json": JSON,
        "/replay/nope.json": JSON,
        "/healthz": PLAIN,
        "/metrics": PLAIN,
    }
    for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
        for target, kind in targets.items():
            answer = await rawhttp.request(port, method, target, "Content-Length: 0")
            assert (answer.status, answer.reason) == (405, "Method Not Allowed"), (method, target)
            assert answer.header("Allow") == "GET, HEAD", (method, target)
            assert answer.content_type == kind, (method, target)
            assert int(answer.header("Content-Length") or -1) == len(answer.body)
            if kind == JSON:
                assert answer.json()["error"] == "method_not_allowed"
    # nothing is at an unknown path, whatever the method
    answer = await rawhttp.request(port, "DELETE", "/nowhere")
    assert answer.status == 404 and answer.text == UNKNOWN
    # a websocket handshake must be a GET
    answer = await rawhttp.request(
        port,
        "POST",
        "/",
        "Connection: Upgrade",
        "Upgrade: websocket",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
    )
    assert answer.status == 405 and answer.header("Allow") == "GET, HEAD"
    # the server changed nothing: the boards are still there and empty
    assert (await rawhttp.get(port, "/leaderboard/races/all.json")).json()["size"] == 0


# -- routes and query strings ------------------------------------------------------------


async def test_a_query_string_only_where_a_route_takes_one(server: Running) -> None:
    port = server.web.port
    for target in (
        "/metrics?x=1",
        "/healthz?x=1",
        "/leaderboard/races/all.json?x=1",
        "/replay/nope.json?x=1",
        "/leaderboard?game=gate&game=nestor",
        "/metrics/",
        "/healthz/x",
        "/index.html/",
    ):
        answer = await rawhttp.get(port, target)
        assert (answer.status, answer.content_type, answer.text) == (404, PLAIN, UNKNOWN), target
    for target in ("/metrics", "/healthz", "/", "/leaderboard/races/all.json"):
        assert (await rawhttp.get(port, target)).status == 200, target
    # a page's link shared with parameters added still shows the page
    for target in (
        "/?utm_source=x",
        "/index.html?utm=1",
        "/leaderboard/races/all?fbclid=1",
        "/leaderboard?game=nestor&x=1",
        "/leaderboard?gate",
    ):
        answer = await rawhttp.get(port, target)
        assert (answer.status, answer.content_type) == (200, HTML), target
    nestor = await rawhttp.get(port, "/leaderboard?game=nestor&x=1")
    assert "Nestor" in nestor.text
    # the day picker's form: game and day, either left empty for its default
    for query in ("", "?game=nestor", "?game=&day=", "?day=&game=gate"):
        answer = await rawhttp.get(port, f"/leaderboard{query}")
        assert answer.status == 200 and "daily challenge" in answer.text, query


# -- the form of errors ------------------------------------------------------------------


async def test_a_json_route_answers_its_errors_in_json(server: Running) -> None:
    day = await two_results(server)
    port = server.web.port
    board = (await rawhttp.get(port, "/leaderboard/daily/nestor.json")).json()
    replay = board["entries"][0]["replay"]
    await server.redis.set(store.replay_key("0badc0de0badc0de"), b"\xc1")  # not msgpack
    cases = {
        "/leaderboard/daily/chess.json": (404, "no_such_board"),
        f"/leaderboard/daily/gate/{day[:4]}-02-30.json": (404, "no_such_board"),
        "/replay/nope.json": (404, "no_such_replay"),
        f"/replay/{replay}.json": (403, "not_public"),
        "/replay/0badc0de0badc0de.json": (500, "internal_error"),
    }
    for target, (status, code) in cases.items():
        answer = await rawhttp.get(port, target)
        assert answer.status == status, target
        body = answer.json()
        assert body["error"] == code and isinstance(body["message"], str), target
        assert answer.header("Cache-Control") == "no-cache"
        page = await rawhttp.get(port, target.removesuffix(".json"))
        assert page.status == status and page.content_type == HTML, target
        assert page.text.startswith("<!doctype html>"), target
        assert page.header("Cache-Control") == "no-cache"


async def test_every_answer_has_one_content_type_and_no_cache(server: Running) -> None:
    port = server.web.port
    for target in ("/", "/healthz", "/metrics", "/nowhere", "/leaderboard/races/all.json"):
        answer = await rawhttp.get(port, target)
        assert answer.content_type, target  # exactly one (Answer.header checks)
        assert answer.header("Cache-Control") == "no-cache", target
        assert answer.header("Content-Length") == str(len(answer.body)), target
    body = json.loads((await rawhttp.get(port, "/leaderboard/races/all.json")).body)
    assert body["board"] == "races/all"
