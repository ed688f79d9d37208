"""An outside tester's faults with the racers' bars and a racer's heading, raced and
watched through long races: after the link came back the bars kept what they showed
before it was cut (no "resigned", old move counts: a racer read ``ivy 0/26 pairs`` of one
who had won meanwhile) though the room's state, read afresh, said otherwise; a racer who
had left the room had no bar for a watcher who came after, and a bar that did not say they
had left for those who saw it; and on a phone a racer's heading was cut to "racing · r…",
losing the race's number and its watchers, and the game's name to "Doubles and …"."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import msgpack

from tests.app.client import player
from tests.app.client import signed_in as signed_in_client
from tests.app.conftest import ServerProcess

from .conftest import http, signed_in
from .test_challenge import PHONE
from .test_phone_faults import protocol


async def a_race_of_three(url: str, game: str = "gate", **room: Any) -> tuple[str, dict[str, str]]:
    """ann (the host), bob and cal racing ``game`` over the protocol, all three gone
    from it since (the server keeps their games): the room's code and each one's token."""
    racers = [await player(url, name) for name in ("ann", "bob", "cal")]
    try:
        ann, *others = racers
        code = str((await ann.call("room_create", game=game, seed=3, **room))["code"])
        for who in others:
            await who.call("room_join", code=code)
            await who.call("ready")
        await ann.call("start")
        for who in racers:
            await who.event("race_start")
        return code, {str(who.name): str(who.token) for who in racers}
    finally:
        for who in racers:
            await who.close()


async def acts(url: str, token: str, kind: str, times: int = 1) -> int:
    """The racer of ``token`` plays ``times`` legal
    moves (``kind`` "move"), or resigns or leaves the room (``kind`` "resign",
    "room_leave"): the moves their game has then."""
    who = await signed_in_client(url, token)
    try:
        if kind != "move":
            await who.call(kind)
            return -1
        legal = who.welcome["resume"]["race"]["legal"]  # type: ignore[attr-defined]
        moves = 0
        for _ in range(times):
            moved = await who.call("move", move=legal[0])
            legal, moves = moved["legal"], moved["view"]["moves"]
        return int(moves)
    finally:
        await who.close()


class Link:
    """The page's websockets, through the test: while ``cut`` the first one's frames from
    the server are kept here (``dropped``, decoded) rather than delivered, as a link gone
    quiet; ``close`` then ends that one, and the page connects again, straight through."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.sockets: list[tuple[Any, Any]] = []
        self.cut = False
        self.dropped: list[dict[str, Any]] = []
        page.route_web_socket("**", self.routed)

    def routed(self, ws: Any) -> None:
        server = ws.connect_to_server()
        first = not self.sockets
        self.sockets.append((ws, server))
        ws.on_message(lambda message: server.send(message))

        def down(message: Any) -> None:
            if first and self.cut:
                self.dropped.append(msgpack.unpackb(message, raw=False))
            else:
                ws.send(message)

        server.on_message(down)

    def missed(self, check: Callable[[dict[str, Any]], bool], timeout: float = 15) -> None:
        """Wait until a frame the cut kept from the page passes ``check`` (a progress
        event goes out at the server's next progress tick, after the move's reply)."""
        deadline = time.monotonic() + timeout
        while not any(check(frame) for frame in self.dropped):
            assert time.monotonic() < deadline, [f.get("type") for f in self.dropped]
            self.page.wait_for_timeout(50)  # (Playwright's loop runs the routes meanwhile)

    def close(self) -> None:
        ws, server = self.sockets[0]
        server.close()
        ws.close()


def progress(player: str, **fields: Any) -> Callable[[dict[str, Any]], bool]:
    """A check of a frame: ``player``'s progress, with ``fields`` as given."""
    return lambda f: (
        f.get("type") == "progress"
        and f.get("player") == player
        and all(f.get(k) == v for k, v in fields.items())
    )


#: In the page: whether the first ``n`` letters of the element ``selector`` (one text) are
#: all in its box, not under the ellipsis where it is cut
SHOWN = """([selector, n]) => {
  const e = document.querySelector(selector);
  const range = document.createRange();
  range.setStart(e.firstChild, 0);
  range.setEnd(e.firstChild, n);
  return range.getBoundingClientRect().right <= e.getBoundingClientRect().right + 0.5;
}"""


def bar(page: Any, name: str) -> str:
    return str(page.inner_text(f'.bar-row[data-player="{name}"] .nums'))


def test_a_watchers_bars_are_the_rooms_once_the_link_is_back(
    browser: Any, web_server: ServerProcess
) -> None:
    code, tokens = protocol(a_race_of_three(web_server.url))
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        link = Link(page)
        page.goto(f"{http(web_server)}/r/{code}#watch")
        page.wait_for_selector('.bar-row[data-player="cal"][data-status=playing]')
        link.cut = True
        protocol(acts(web_server.url, tokens["bob"], "resign"))
        moves = protocol(acts(web_server.url, tokens["cal"], "move"))
        link.missed(progress("bob", status="resigned"))
        link.missed(progress("cal", moves=moves))
        link.close()
        # the page watches again (room_watch): the room's state is what its bars show
        page.wait_for_selector('.bar-row[data-player="bob"][data-status=resigned]', timeout=15000)
        page.wait_for_selector(f'.bar-row[data-player="cal"] .nums:has-text("· {moves} move")')
        assert len(link.sockets) == 2
        assert "resigned" in bar(page, "bob"), bar(page, "bob")
        assert bar(page, "cal").endswith(f"· {moves} move"), bar(page, "cal")
    finally:
        context.close()


def test_a_racers_bars_are_the_rooms_once_the_link_is_back(
    browser: Any, web_server: ServerProcess
) -> None:
    code, tokens = protocol(a_race_of_three(web_server.url))
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        link = Link(page)
        signed_in(page, http(web_server), tokens["ann"], f"/r/{code}")
        page.wait_for_selector(".race-game .pile", timeout=10000)
        page.wait_for_selector('.bar-row[data-player="cal"][data-status=playing]')
        link.cut = True
        moves = protocol(acts(web_server.url, tokens["bob"], "move", times=3))
        protocol(acts(web_server.url, tokens["cal"], "resign"))
        link.missed(progress("bob", moves=moves))
        link.missed(progress("cal", status="resigned"))
        link.close()
        # signed in again, the welcome's resume.room is what the bars show
        page.wait_for_selector('.bar-row[data-player="cal"][data-status=resigned]', timeout=15000)
        page.wait_for_selector(f'.bar-row[data-player="bob"] .nums:has-text("· {moves} moves")')
        assert len(link.sockets) == 2
        assert page.locator(".race-game .pile").count() > 0  # (still racing, on the board)
    finally:
        context.close()


def test_a_racer_who_left_has_a_bar_that_says_so(browser: Any, web_server: ServerProcess) -> None:
    """bob leaves the room mid-race: the racers' bars say he left (his bar said
    "resigned", where the results and the terminal said he had left), and a watcher who
    comes after sees his bar too (the room lists him in ``left``, no more in ``players``)."""
    code, tokens = protocol(a_race_of_three(web_server.url))
    base = http(web_server)
    racer = browser.new_context(viewport={"width": 1280, "height": 800})
    watcher = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        ann = racer.new_page()
        ann.on("dialog", lambda dialog: dialog.accept())
        signed_in(ann, base, tokens["ann"], f"/r/{code}")
        ann.wait_for_selector(".race-game .pile", timeout=10000)
        protocol(acts(web_server.url, tokens["bob"], "room_leave"))
        ann.wait_for_selector('.bar-row[data-player="bob"] .nums:has-text("resigned, left")')
        eve = watcher.new_page()
        eve.goto(f"{base}/r/{code}#watch")
        eve.wait_for_selector('.bar-row[data-player="cal"]')
        names = eve.eval_on_selector_all(".bar-row", "rs => rs.map(r => r.dataset.player)")
        assert sorted(names) == ["ann", "bob", "cal"], names
        assert bar(eve, "bob").endswith("· resigned, left"), bar(eve, "bob")
        assert "left" not in bar(eve, "cal")
        # the race over, the bars end as the results do: he left, still
        protocol(acts(web_server.url, tokens["cal"], "resign"))
        ann.click("[data-act=resign]")
        for page in (ann, eve):
            page.wait_for_selector(".results table")
            assert bar(page, "bob").endswith("· resigned, left"), bar(page, "bob")
            got = page.inner_text('.results tr[data-player="bob"] td.result')
            assert got == "resigned, left", got
    finally:
        racer.close()
        watcher.close()


def test_a_racers_heading_fits_a_phone(browser: Any, web_server: ServerProcess) -> None:
    """At 360x740, racing Doubles and Quits with hints and a time limit and watched: the
    heading keeps the race's number and its watchers (it read "racing · r…"), and the
    game's name is whole (it read "Doubles and …")."""
    code, tokens = protocol(
        a_race_of_three(web_server.url, "doubles-and-quits", time_limit=600, hints=True)
    )
    base = http(web_server)
    context = browser.new_context(**PHONE)
    watcher = browser.new_context(**PHONE)
    try:
        watcher.new_page().goto(f"{base}/r/{code}#watch")
        page = context.new_page()
        signed_in(page, base, tokens["ann"], f"/r/{code}")
        page.wait_for_selector(".race-game .pile", timeout=10000)
        page.wait_for_selector(".room-head .facts:has-text('1 watching')")
        cut = page.evaluate(
            """() => [...document.querySelectorAll(
                '.room-head h1, .room-head button, .race-game .game-head > *')]
              .filter((e) => e.checkVisibility())
              .filter((e) => e.scrollWidth > e.clientWidth + 1
                || e.getBoundingClientRect().right > innerWidth + 1)
              .map((e) => e.textContent)"""
        )
        assert cut == [], cut
        # the line of facts may be cut, after the race's number and its watchers
        facts = page.inner_text(".room-head .facts")
        assert facts.startswith("race 1 · 1 watching"), facts
        assert page.evaluate(SHOWN, [".room-head .facts", len("race 1 · 1 watching")]), facts
        assert page.inner_text(".room-head h1") == f"Race {code}"
        assert page.inner_text(".race-game .game-head strong") == "Doubles and Quits"
        # its button says "Leave" there, and is named in full
        assert page.get_by_role("button", name="Leave the room", exact=True).count() == 1
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()
        watcher.close()
