"""docs/protocol.md checked against the server where a check can be mechanical: the
errors table lists every error code once, each request's section names only its own
replies, and the result line's documented example is the one the server writes."""

from __future__ import annotations

import re
from pathlib import Path

from server.app.domain import daily
from server.protocol import ErrorCode

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def section(text: str, heading: str) -> str:
    """The text under ``heading`` (a whole heading line), up to the next heading of the
    same level or above."""
    level = heading.split(" ", 1)[0]
    start = text.index(f"\n{heading}\n") + len(heading) + 2
    ends = [m.start() for m in re.finditer(rf"^#{{1,{len(level)}}} ", text[start:], re.M)]
    return text[start : start + ends[0]] if ends else text[start:]


def test_the_errors_table_lists_every_code_once() -> None:
    table = section(DOC.read_text(), "## Errors")
    codes = re.findall(r"^\| `([a-z_]+)` \|", table, re.M)
    assert codes, "no errors table"
    twice = sorted({code for code in codes if codes.count(code) > 1})
    assert not twice, f"listed more than once: {twice}"
    assert set(codes) == {code.value for code in ErrorCode}


def test_each_request_section_names_only_its_own_replies() -> None:
    """A request's section says ``Reply `X``` only for an ``X`` that the table of
    messages calls a reply to it, and no request's heading stands empty."""
    text = DOC.read_text()
    replies: dict[str, set[str]] = {}
    for kind, to in re.findall(r"^\| `([a-z_]+)` \| (reply to [^|]*)\|", text, re.M):
        replies[kind] = set(re.findall(r"`([a-z_]+)`", to))
    requests = section(text, "## Requests")
    headings = re.findall(r"^### ([a-z_]+)$", requests, re.M)
    assert {"home", "hint", "move"} <= set(headings)
    for name in headings:
        body = section(requests, f"### {name}")
        assert body.strip(), f"### {name} has nothing under it"
        for kind in re.findall(r"Reply\s+`([a-z_]+)`", body):
            assert name in replies.get(kind, set()), f"### {name} describes Reply `{kind}`"


def test_the_result_lines_example_with_par_and_hints_is_the_servers() -> None:
    """The line ends with the par, then the hints, as the server writes it."""
    block = section(DOC.read_text(), "### The result line")
    line = daily.result_line("The Gate", "2026-11-22", True, 205_000, 142, 52, 52, par=114, hints=2)
    assert line.endswith("· par 114 · 2 hints")
    assert line in block


def test_the_transport_section_names_every_http_route() -> None:
    """Every path the server answers over HTTP is named where the doc says "any other path
    gets 404" (``/rules/GAME`` and ``/g/ID`` were not)."""
    from server.app.transport.web import NAME, ROUTES

    said = section(DOC.read_text(), "## Transport").split("Any other path gets")[0]
    paths = re.findall(r"`(?:GET )?(/[^`?]*)[^`]*`", said)
    named = {re.sub(r"/[A-Z]+(?=\.|$)", "/*", path) for path in paths}
    for route in ROUTES:
        path = route.path.replace(NAME, "*")
        assert path in named or path.startswith("/web/"), f"{route.path} is not named there"
