"""The HTTP side of the server's port, spoken byte for byte on a socket: which requests
it answers (routes: a path, and a query string only where a route takes one), which
methods (GET, and HEAD with no body; others 405), and the form of every answer, errors
included (a JSON route answers in JSON, a page in HTML, the rest in plain text)."""

from __future__ import annotations

from . import rawhttp
from .conftest import Running

UNKNOWN = "Patience Race: connect with a websocket client.\n"
PLAIN = "text/plain; charset=utf-8"
HTML = "text/html; charset=utf-8"
JSON = "application/json"


def same_headers(a: rawhttp.Answer, b: rawhttp.Answer) -> bool:
    def kept(answer: rawhttp.Answer) -> list[tuple[str, str]]:
        return [(k, v) for k, v in answer.headers if k != "Date"]

    return kept(a) == kept(b)


# -- routes and query strings ------------------------------------------------------------


async def test_a_query_string_only_where_a_route_takes_one(server: Running) -> None:
    port = server.web.port
    for target in (
        "/metrics?x=1",
        "/healthz?x=1",
        "/?x=1",
        "/index.html?utm=1",
        "/leaderboard/races/all?x=1",
        "/leaderboard/races/all.json?x=1",
        "/replay/nope.json?x=1",
        "/leaderboard?game=gate&x=1",
        "/leaderboard?game=gate&game=nestor",
        "/leaderboard?gate",
        "/metrics/",
        "/healthz/x",
        "/index.html/",
    ):
        answer = await rawhttp.get(port, target)
        assert (answer.status, answer.content_type, answer.text) == (404, PLAIN, UNKNOWN), target
    for target in ("/metrics", "/healthz", "/", "/leaderboard/races/all.json"):
        assert (await rawhttp.get(port, target)).status == 200, target
    # the day picker's form: game and day, either left empty for its default
    for query in ("", "?game=nestor", "?game=&day=", "?day=&game=gate"):
        answer = await rawhttp.get(port, f"/leaderboard{query}")
        assert answer.status == 200 and "daily challenge" in answer.text, query
