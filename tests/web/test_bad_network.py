"""An outside tester's faults on a phone over a bad network: a link that died silently
(no close, no ``offline``: a phone changing networks) while nothing was being sent was
never noticed, the page standing on "Go!" until the server forfeited the racer; the
daily's ranked result, a challenge's verdict and a quick race's end that came while the
phone was offline were never shown; and the status line's connection notes stood after
the link was back (docs/web.md, reconnection)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.app.conftest import ServerProcess

from .conftest import http, signed_in
from .test_challenge import a_ghost_that_moved_late
from .test_play import snapshot, until
from .test_quick import ghosts_soon  # noqa: F401
from .test_race import register

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


class Net:
    """The page's websockets, through the test: ``die()`` makes the ones open now go
    silently dead both ways (nothing delivered, nothing closed), as a phone's link does
    when it changes networks; ``deafen()`` the server's side alone (what the page sends
    still reaches the server: a phone gone offline just after it sent a request); sockets
    opened after go straight through."""

    def __init__(self, page: Any) -> None:
        self.sockets: list[Any] = []
        self.dead: set[int] = set()
        self.deaf: set[int] = set()
        page.route_web_socket("**", self.routed)

    def routed(self, ws: Any) -> None:
        server = ws.connect_to_server()
        n = len(self.sockets)
        self.sockets.append(ws)
        ws.on_message(lambda message: None if n in self.dead else server.send(message))
        server.on_message(lambda message: None if n in self.dead | self.deaf else ws.send(message))

    def die(self) -> None:
        self.dead.update(range(len(self.sockets)))

    def deafen(self) -> None:
        self.deaf.update(range(len(self.sockets)))


def play(page: Any, move: str) -> None:
    page.fill("#notation", move)
    page.press("#notation", "Enter")


# installed in the page: the link's states (body's data-link) and words (#link-state)
LINK_SEEN = """() => {
  window.linkSeen = { states: [], words: [] };
  const words = document.querySelector('#link-state');
  new MutationObserver(() => {
    window.linkSeen.states.push(document.body.dataset.link);
    window.linkSeen.words.push(words.textContent);
  }).observe(document.body,
    { attributes: true, childList: true, characterData: true, subtree: true });
}"""


def test_a_link_dead_while_nothing_is_sent_is_found_and_opened_again(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        net = Net(page)
        page.goto(f"{http(web_server)}/play")
        register(page, "dora")
        page.click('.game-row[data-game="gate"] [data-act=solo]')
        page.wait_for_selector(".game .pile")
        page.wait_for_selector("body[data-link=up]")
        page.evaluate(LINK_SEEN)
        net.die()  # (nothing is sent: no request goes unanswered)
        # (each state and word of the link's kept as it comes: a reconnect can pass
        # through them faster than a look at the page)
        until(page, "() => window.linkSeen.states.includes('retrying')", timeout=60)
        page.wait_for_selector("body[data-link=up]", timeout=30000)
        said = page.evaluate("window.linkSeen.words")
        assert any("no answer from the server" in words for words in said), said
        assert len(net.sockets) == 2
        play(page, snapshot(page)["legal"][0])
        until(page, "() => window.patienceRace.screen.view.moves === 1")
    finally:
        context.close()


def test_the_dailys_result_missed_offline_is_shown_once_the_link_is_back(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        net = Net(page)
        page.goto(f"{http(web_server)}/play")
        register(page, "dina")
        page.click('.game-row[data-game="nestor"] [data-act=daily]')
        page.click("[data-act=start-daily]")
        page.wait_for_selector(".game .pile")
        page.wait_for_selector("body[data-link=up]")
        net.deafen()  # (the resign reaches the server; its result and its reply do not)
        page.click("[data-act=resign]")
        page.wait_for_selector("body[data-link=retrying]", timeout=30000)
        page.wait_for_selector("body[data-link=up]", timeout=30000)
        # the result as its event would have shown it: the heading, the line, Copy, practice
        heading = page.wait_for_selector("h1.result-heading", timeout=15000)
        assert heading is not None
        assert heading.inner_text() == "Daily resigned: rank 1 on the day's board so far"
        assert page.inner_text(".result-line code").startswith("Patience Race · Nestor · ")
        assert "streak" in page.inner_text(".result-line")
        assert page.locator("[data-act=copy]").count() == 1
        assert page.locator("[data-act=practice]").count() == 1
        assert page.evaluate("window.patienceRace.screen.game.status") == "resigned"
    finally:
        context.close()


def resigned_unheard(page: Any, net: Net) -> None:
    """Resign the game shown into a link that delivers nothing back (the server applies
    it), and wait for the page to connect again."""
    net.deafen()
    page.click(".race-game [data-act=resign]")
    page.wait_for_selector("body[data-link=retrying]", timeout=30000)
    page.wait_for_selector("body[data-link=up]", timeout=30000)


def test_a_challenge_ended_offline_shows_its_verdict_once_the_link_is_back(
    browser: Any, web_server: ServerProcess
) -> None:
    with ThreadPoolExecutor(1) as pool:
        token, cid = pool.submit(asyncio.run, a_ghost_that_moved_late(web_server.url)).result(60)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        net = Net(page)
        signed_in(page, http(web_server), token, f"/c/{cid}")
        page.click("[data-act=take]")
        page.wait_for_selector(".race-game .pile", timeout=10000)
        page.wait_for_selector("body[data-link=up]")
        resigned_unheard(page, net)
        verdict = page.wait_for_selector(".challenge-result .verdict", timeout=15000)
        assert verdict is not None and "ann's ghost" in verdict.inner_text()
        assert "You: resigned" in page.inner_text(".challenge-result")
        assert page.locator(".results tbody tr").count() == 2
        assert page.evaluate("window.patienceRace.screen.game.status") == "resigned"
        assert page.locator(".race-game [data-act=resign]").count() == 0
        assert page.locator(".race-game #notation").count() == 0
    finally:
        context.close()


def test_a_quick_race_ended_offline_shows_its_end_once_the_link_is_back(
    browser: Any,
    ghosts_soon: ServerProcess,  # noqa: F811
) -> None:
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        net = Net(page)
        page.goto(f"{http(ghosts_soon)}/play")
        register(page, "quinn")
        page.click('.game-row[data-game="gate"] [data-act=quick]')
        page.wait_for_selector(".race-game .pile", timeout=15000)
        game = page.evaluate("window.patienceRace.screen.race.game")
        resigned_unheard(page, net)
        verdict = page.wait_for_selector(".verdict", timeout=15000)
        assert verdict is not None and verdict.inner_text() == "Your game is over: resigned"
        link = page.wait_for_selector("a.replay-link")
        assert link is not None and link.get_attribute("href") == f"/play#replay={game}"
        assert page.evaluate("window.patienceRace.screen.game.status") == "resigned"
        assert page.locator(".race-game [data-act=resign]").count() == 0
    finally:
        context.close()
