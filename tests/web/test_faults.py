"""The browser's own small faults, each found trying the client as a new player would:
a leaderboard address that threw as it opened, the results table's unnamed replay
column, the lobby calling its host "not ready", the replay's first/last buttons drawn
as empty boxes, a racer's notice lying over a phone's Play button, and leaderboards and a
long name wider than a phone, refused addresses with no way on, and a watcher told
their race was starting."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from tests.app.client import player, racing
from tests.app.client import signed_in as signed_in_client
from tests.app.conftest import ServerProcess

from .conftest import http, shot, signed_in
from .test_challenge import PHONE
from .test_race import register

T = TypeVar("T")


def test_every_leaderboard_address_opens_without_an_error(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        for board in ("races/week", "races/all", "daily/gate", "best/wedge", "wins/nestor"):
            page.goto(f"{http(web_server)}/play#board={board}")
            page.wait_for_selector(".boards table")  # drawn after the screen is shown
        assert errors == []
    finally:
        context.close()


def test_every_refused_address_leads_back_to_the_games(
    browser: Any, web_server: ServerProcess
) -> None:
    """An address the server refuses says why and how to go on (a replay, a daily, a
    quick race or a board that is none left the player with the refusal alone, and
    "Quick race: nonsense" for a heading)."""
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play")
        register(page, "lost")
        page.wait_for_selector(".game-row")
        for address, said in (
            ("replay=nonexistent", "no replay"),
            ("daily=nonsense", "nonsense"),
            ("quick=nonsense", "nonsense"),
            ("board=week/gate", "no board"),
        ):
            page.goto(f"{http(web_server)}/play#{address}")
            page.reload()  # (each its own screen: the hash alone would not route again)
            back = page.wait_for_selector("main a[href='/play#home']:text('Back to the games')")
            assert back is not None, address
            assert said in page.inner_text("main"), (address, page.inner_text("main"))
            if address.startswith("quick"):
                assert page.inner_text("h1") == "Quick race"
            if address.startswith("board"):  # (an empty picker stood above the refusal)
                assert page.locator("main select").count() == 0
    finally:
        context.close()


def test_every_leaderboard_fits_a_phone(browser: Any, web_server: ServerProcess) -> None:
    # the board picker was as wide as its longest game's name: a page 378 pixels wide
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        for board in ("daily/blockade-ten", "best/gate-narrow", "rating/light-and-shade"):
            page.goto(f"{http(web_server)}/play#board={board}")
            page.wait_for_selector(".boards table")
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, board
            picker = "select[aria-label=board]"
            box = page.eval_on_selector(picker, "s => s.getBoundingClientRect()")
            assert box["right"] <= 360, (board, box)
    finally:
        context.close()


async def a_daily_of_a_long_name(url: str) -> None:
    """A ranked daily of The Gate, resigned, by a player with a name of 20 letters."""
    walt = await player(url, "w" * 20)
    try:
        await walt.call("daily", game="gate")
        await walt.call("resign")
    finally:
        await walt.close()


def test_the_read_only_leaderboard_fits_a_phone(browser: Any, web_server: ServerProcess) -> None:
    # its table, with a name of 20 letters, made a page 409 pixels wide
    protocol(a_daily_of_a_long_name(web_server.url))
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/leaderboard/daily/gate")
        page.wait_for_selector("tbody tr")
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()


def test_a_name_of_20_wide_letters_fits_a_phone(browser: Any, web_server: ServerProcess) -> None:
    # "Hello, WWWWWWWWWWWWWWWWWWWW" ran off the home screen: the page 466 pixels wide
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play")
        register(page, "W" * 20)
        page.wait_for_selector(".home h1:has-text('Hello')")
        wide = "() => [innerWidth, document.documentElement.scrollWidth]"
        assert page.evaluate(wide) == [360, 360]
        page.click('.game-row[data-game="gate"] [data-act=race]')  # the lobby names its host
        page.wait_for_selector(".players li[data-player]")
        assert page.evaluate(wide) == [360, 360]
    finally:
        context.close()


def test_the_lobby_calls_its_host_the_host_and_never_not_ready(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play")
        register(page, "hal")
        page.click('.game-row[data-game="gate"] [data-act=race]')
        page.wait_for_selector('.players li[data-player="hal"]')
        tags = page.eval_on_selector_all(
            '.players li[data-player="hal"] .tag', "tags => tags.map(t => t.textContent)"
        )
        # the host starts the race: never "not ready" (beside the rating at the room's game)
        assert tags == ["host", "rating 0"]
    finally:
        context.close()


def protocol(coroutine: Coroutine[Any, Any, T]) -> T:
    """Protocol work from a thread of its own (Playwright's loop holds this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(30)


async def a_finished_race(url: str) -> tuple[str, str, str]:
    """A race of two over the protocol, both resigned: its code and the racers' tokens."""
    ann = await player(url, "annabel_longname")
    bob = await player(url, "bob")
    try:
        code = await racing(ann, bob, game="babette")
        await ann.call("move", move="deal")
        await ann.call("resign")
        await bob.call("resign")
        await ann.event("results")
        assert ann.token is not None and bob.token is not None
        return code, ann.token, bob.token
    finally:
        await ann.close()
        await bob.close()


def test_the_results_fit_a_phone_with_every_column_named(
    browser: Any, web_server: ServerProcess
) -> None:
    code, token, _ = protocol(a_finished_race(web_server.url))
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play#board=races/week")
        page.evaluate("t => localStorage.setItem('patience-race-token', t)", token)
        page.goto(f"{http(web_server)}/r/{code}")
        page.wait_for_selector(".results table")
        heads = page.eval_on_selector_all(
            ".results th", "ths => ths.map(th => th.textContent.trim())"
        )
        assert heads and all(heads), heads  # every column says what it holds
        assert page.locator(".results tbody a[href*='#replay=']").count() == 2  # the replays
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        # the whole table in its box: no column scrolled out of sight
        assert page.evaluate(
            "(b => b.scrollWidth <= b.clientWidth)(document.querySelector('.results .table-box'))"
        )
        for row in page.locator(".bars .bar-row .track").all():
            box = row.bounding_box()
            assert box is not None and box["width"] >= 40  # bars, not stubs
        shot(page, "phone-results")
    finally:
        context.close()


def test_the_replays_first_and_last_buttons_draw_their_icons(
    browser: Any, web_server: ServerProcess
) -> None:
    code, token, _ = protocol(a_finished_race(web_server.url))
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play#board=races/week")
        page.evaluate("t => localStorage.setItem('patience-race-token', t)", token)
        page.goto(f"{http(web_server)}/r/{code}")
        page.click(".results tbody a[href*='#replay=']")
        page.wait_for_selector(".replay .board .pile")
        for name in ("first", "back", "forward", "last"):
            button = page.locator(f".replay button[aria-label={name}]")
            # an icon drawn by the page (not a font's glyph, which Chromium may lack: an empty box)
            assert button.locator("svg").count() == 1, name
            icon = button.locator("svg").bounding_box()
            assert icon is not None and icon["width"] >= 8, name
        page.click(".replay button[aria-label=last]")
        page.wait_for_selector(".replay .board-box:not([data-step='0'])")
        page.click(".replay button[aria-label=first]")
        page.wait_for_selector(".replay .board-box[data-step='0']")
        # the keys a replay is stepped with, as the terminal's viewer has them, wherever
        # the focus is (they did nothing unless a button or the scrubber had it)
        page.locator("body").click(position={"x": 5, "y": 5})
        page.keyboard.press("ArrowRight")
        page.wait_for_selector(".replay .board-box[data-step='1']")
        page.keyboard.press("End")
        steps = page.eval_on_selector(".replay input[type=range]", "r => r.max")
        page.wait_for_selector(f".replay .board-box[data-step='{steps}']")
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector(f".replay .board-box[data-step='{int(steps) - 1}']")
        page.keyboard.press("Home")
        page.wait_for_selector(".replay .board-box[data-step='0']")
        # and its piles, nothing to play, are no stops of Tab's
        assert page.locator(".replay .pile[tabindex]").count() == 0
        assert page.locator(".replay .pile[role=button]").count() == 0
    finally:
        context.close()


async def a_race_of_two(url: str) -> tuple[str, str, str]:
    """A race of two started over the protocol: its code and the racers' tokens."""
    pia, bob = await player(url, "pia"), await player(url, "bob")
    try:
        code = await racing(pia, bob)
        assert pia.token is not None and bob.token is not None
        return code, pia.token, bob.token
    finally:
        await pia.close()
        await bob.close()


async def resign(url: str, token: str) -> None:
    bob = await signed_in_client(url, token)
    try:
        await bob.call("resign")
    finally:
        await bob.close()


def test_a_racers_notice_leaves_a_phones_move_box_and_buttons_free(
    browser: Any, web_server: ServerProcess
) -> None:
    # "bob: resigned" lay over the Play button, and took its taps, for six seconds
    code, pia, bob = protocol(a_race_of_two(web_server.url))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), pia, f"/r/{code}")
        page.wait_for_selector(".race-game .pile")
        # a refused move: the status line over the dock says why (a notice lay over it)
        page.fill("#notation", "zz>zz")
        page.press("#notation", "Enter")
        page.wait_for_selector(".game > .note:not(:empty)")
        protocol(resign(web_server.url, bob))
        page.wait_for_selector(".notice:has-text('bob')")
        seen = page.evaluate(
            "() => { const line = document.querySelector('.game > .note').getBoundingClientRect();"
            " const notices = [...document.querySelectorAll('.notice')]"
            ".map(n => n.getBoundingClientRect());"
            " const taken = [...document.querySelectorAll('.dock button, .dock input')]"
            ".filter(e => e.checkVisibility()).filter(e => { const r = e.getBoundingClientRect();"
            " const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
            " return !(at && (at === e || e.contains(at))); }).map(e => e.outerHTML);"
            " return {line: line.top, bottoms: notices.map(r => r.bottom), taken}; }"
        )
        # every control of the dock takes its own taps, and the notice stands above them and
        # the status line
        assert seen["taken"] == [], seen
        assert seen["bottoms"] and all(b <= seen["line"] + 1 for b in seen["bottoms"]), seen
        # a room of eight joining, readying and resigning at once piled sixteen notices up
        # the whole board: the newest three are shown
        page.evaluate("() => { for (let n = 1; n <= 7; n++) window.patienceRace.notice(`n${n}`); }")
        shown = page.eval_on_selector_all(".notice", "ns => ns.map(n => n.textContent)")
        assert shown == ["n5", "n6", "n7"], shown
        shot(page, "phone-race-notice")
    finally:
        context.close()


@pytest.fixture
def long_countdown(redis_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(redis_url, tmp_path, PATIENCE_COUNTDOWN="20")
    proc.start()
    yield proc
    if proc.process is not None:
        proc.stop()


async def counting_down(url: str) -> str:
    """A race of two started over the protocol, its countdown running: its code."""
    ann, bob = await player(url, "ann"), await player(url, "bob")
    try:
        code = str((await ann.call("room_create", game="gate"))["code"])
        await bob.call("room_join", code=code)
        await bob.call("ready")
        await ann.call("start")
        return code
    finally:
        await ann.close()
        await bob.close()


def test_a_watcher_is_not_told_their_race_is_starting(
    browser: Any, long_countdown: ServerProcess
) -> None:
    """A watcher who opened a room counting down was told "your race is starting": the
    room's state, sent as they began to watch, came before the screen that takes it."""
    code = protocol(counting_down(long_countdown.url))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"{http(long_countdown)}/r/{code}#watch")
        page.wait_for_selector(".countdown.on")
        page.wait_for_timeout(500)
        assert "your race is starting" not in page.inner_text("#notices")
    finally:
        context.close()
