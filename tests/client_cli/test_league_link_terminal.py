"""``league --watch`` while its server is down (probe W, fault 4): the screen says the
connection is lost and being tried again, in place of "watching: redrawn as the
standings change" (it kept saying so), until it is back; then it watches again."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from rich.text import Text

from client_cli.connection import DOWN, RETRYING, SIGNED_OUT, UP
from client_cli.league_watch import Watched, link_words, watch_view
from client_cli.printing import _render
from tests.app.conftest import ServerProcess

from .terminal import Terminal, flat, start
from .test_league_close_terminal import shows
from .test_name_terminal import registered, run


@pytest.fixture
def own_server(redis_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of this test's own, to stop and start again."""
    data = tmp_path / "server"
    data.mkdir()
    proc = ServerProcess(redis_url, data)
    proc.start()
    yield proc
    if proc.process is not None:
        proc.stop(signal.SIGKILL)


def test_the_watch_says_its_connection_is_lost_until_it_is_back(
    own_server: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ivy = tmp_path / "ivy"
    registered(own_server.url, ivy, "ivy")
    code, screen = run(own_server.url, ivy, "league", "--join")
    assert code == 0, screen
    watch = start(terminals, own_server, ivy, "league", "--watch", rows=40)
    shows(watch, r"watching: redrawn as the standings change")
    own_server.stop(signal.SIGKILL)
    shows(watch, r"connection lost: reconnecting in \d", timeout=15)
    assert "watching: redrawn" not in flat(watch.text), watch.text
    own_server.start()
    shows(watch, r"watching: redrawn as the standings change", timeout=30)
    assert "connection lost" not in flat(watch.text), watch.text
    shows(watch, r"you are 1st of 1 with 0 points · ends in")


def test_the_links_words() -> None:
    reply = {"week": "2026-W48", "joined": False, "current": True, "tier": "bronze"}
    reply |= {"ends_in_ms": 3_600_000, "standings": [], "rules": {"league_size": 30}}
    watched = Watched.first(reply, 0.0)
    hint = Text("watching: redrawn as the standings change · Ctrl-C stops")

    def shown() -> str:
        return flat(_render(watch_view(watched, 0.0, False, "J", hint), False, 100).plain)

    assert "watching: redrawn" in shown()
    watched.link = link_words(RETRYING, 2.0)
    assert "connection lost: reconnecting in 2 s · Ctrl-C stops" in shown()
    assert "watching: redrawn" not in shown()
    assert link_words(DOWN, None).startswith("disconnected")
    assert link_words(SIGNED_OUT, None).startswith("signed out")
    watched.link = link_words(UP, None)
    assert watched.link == "" and "watching: redrawn" in shown()
