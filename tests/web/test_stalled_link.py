"""A link that stalls without closing (a phone between networks): a move sent into it
counted on the server while the page never heard, and its board stayed a move behind,
every tap after refused over cards that were not where it drew them, until a reload.
The page now gives up on a move unanswered for a few seconds, connects again and takes
the game as the server has it (``welcome.resume``); and when the browser says the
network is gone, it drops the link at once, so a move made meanwhile is refused on the
spot rather than held in the socket (docs/web.md, reconnection)."""

from __future__ import annotations

from typing import Any

from tests.app.conftest import ServerProcess

from .conftest import http
from .test_play import snapshot, until
from .test_race import register


def solo_gate(page: Any, base: str, name: str) -> None:
    page.goto(f"{base}/play")
    register(page, name)
    page.click('.game-row[data-game="gate"] [data-act=solo]')
    page.wait_for_selector(".game .pile")
    page.wait_for_selector("body[data-link=up]")


def play(page: Any, move: str) -> None:
    page.fill("#notation", move)
    page.press("#notation", "Enter")


def test_a_move_into_a_stalled_link_shows_once_the_page_has_connected_again(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    sockets: list[Any] = []
    stalled = {"on": False}

    def routed(ws: Any) -> None:
        server = ws.connect_to_server()
        first = not sockets
        sockets.append(ws)
        ws.on_message(lambda message: server.send(message))
        # the first link stalls from the server's side: its frames stop coming
        server.on_message(lambda message: None if first and stalled["on"] else ws.send(message))

    try:
        page = context.new_page()
        page.route_web_socket("**", routed)
        solo_gate(page, http(web_server), "stella")
        move = snapshot(page)["legal"][0]
        stalled["on"] = True
        play(page, move)  # (the server takes it; its answer never comes)
        page.wait_for_selector("body[data-link=retrying]", timeout=15000)
        assert "no answer from the server" in page.inner_text("#link-state")
        page.wait_for_selector("body[data-link=up]", timeout=15000)
        assert len(sockets) == 2
        # the board is the server's: the move is on it, and the next one is taken
        until(page, "() => window.patienceRace.screen.view.moves === 1")
        play(page, snapshot(page)["legal"][0])
        until(page, "() => window.patienceRace.screen.view.moves === 2")
    finally:
        context.close()


def test_a_move_made_with_the_network_gone_is_refused_and_play_goes_on_after(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        solo_gate(page, http(web_server), "otto")
        context.set_offline(True)
        page.wait_for_selector("body[data-link=retrying]", timeout=5000)
        assert "the network is down" in page.inner_text("#link-state")
        play(page, snapshot(page)["legal"][0])
        page.wait_for_selector(".game .note:has-text('not connected')")
        context.set_offline(False)
        page.wait_for_selector("body[data-link=up]", timeout=15000)
        assert page.evaluate("window.patienceRace.screen.view.moves") == 0
        play(page, snapshot(page)["legal"][0])
        until(page, "() => window.patienceRace.screen.view.moves === 1")
    finally:
        context.close()
