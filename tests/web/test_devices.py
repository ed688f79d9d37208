"""One player on every device, in Chromium and the terminal: a browser's link code signs
a terminal in as its player, a terminal's signs a phone's browser in (taking up the game
in play); the tab taken over says where the player went, in words; the devices are listed
and signed out, one and everywhere else; bad codes are refused on the name form. The boxes
fit a phone (360x740) and a desktop (1280x800)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from server.app.domain.daily import day_of, next_reset_ms
from tests.app.client import player
from tests.app.conftest import ServerProcess
from tests.app.test_daily import secret_winning_on
from tests.client_cli.conftest import terminals  # noqa: F401 (a fixture)
from tests.client_cli.terminal import Terminal

from .conftest import http, shot, signed_in
from .test_keyboard import run
from .test_race import register

ANDROID = (
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/120.0 Mobile Safari/537.36"
)
PHONE = {
    "viewport": {"width": 360, "height": 740},
    "is_mobile": True,
    "has_touch": True,
    "user_agent": ANDROID,
}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}
CODE = r"[2-9A-Z]{4}-[2-9A-Z]{4}"
DOUBLES = "doubles-and-quits"


def fits(page: Any) -> None:
    """Nothing is wider than the viewport, nor the devices' boxes wider than themselves."""
    width = page.viewport_size["width"]
    seen = page.evaluate(
        "() => ({page: document.documentElement.scrollWidth,"
        " over: [...document.querySelectorAll('details.recovery, .link-code, .device-list li,"
        " .link-form, .signed-out')].filter(e => e.scrollWidth > e.clientWidth + 1)"
        ".map(e => e.className)})"
    )
    assert seen["page"] <= width, seen
    assert seen["over"] == [], seen


def terminal(opened: list[Terminal], server: ServerProcess, config: Path, *args: str) -> Terminal:
    """The terminal client with ``args``, closed with the test (``opened``)."""
    one = Terminal(list(args), server=server.url, config=config)
    opened.append(one)
    return one


def test_a_browsers_link_code_signs_a_terminal_in_and_the_browser_signs_it_out(
    browser: Any,
    web_server: ServerProcess,
    tmp_path: Path,
    terminals: list[Terminal],  # noqa: F811
) -> None:
    desk = browser.new_context(**DESKTOP)
    try:
        page = desk.new_page()
        page.goto(f"{http(web_server)}/play")
        register(page, "kay")
        page.wait_for_selector(".home h1:has-text('Hello, kay')")
        page.click("summary:has-text('Play as yourself on another device')")
        page.click("[data-act=link-code]")
        code = page.get_attribute("[data-code]", "data-code")
        assert code and re.fullmatch(CODE, code), code
        page.wait_for_selector("[data-left]:has-text('It expires in 4:')")
        # the command as it works pasted: this is not the terminal's default server
        said = page.inner_text(".link-code")
        assert f"patience-race link {code} --server {web_server.url}" in said, said
        fits(page)
        shot(page, "link-code")

        linked = terminal(terminals, web_server, tmp_path, "link", code)
        linked.wait_for(r"This terminal now plays as kay")
        assert linked.exit_code() == 0
        # the box says the code is used, and by what: it counted down on as if it worked
        page.wait_for_selector("[data-left]:has-text('It has been used: terminal on ')")
        ticked = page.inner_text("[data-left]")
        page.wait_for_timeout(1200)
        assert page.inner_text("[data-left]") == ticked
        # a new code here, then one asked for on the terminal: the box's code is revoked,
        # and it says so rather than count a dead code down
        page.click("[data-act=link-code]")
        page.wait_for_selector(f"[data-code]:not([data-code='{code}'])")
        page.wait_for_selector("[data-left]:has-text('It expires in')")
        shown = terminal(terminals, web_server, tmp_path, "link")
        shown.wait_for(rf"Your link code: ({CODE})")
        assert shown.exit_code() == 0
        page.wait_for_selector(
            "[data-left]:has-text('It no longer works: a newer code was asked for on terminal on ')"
        )
        # the code was entered beside the tab (link's side), which plays on: it was
        # thrown out ("signed in on another device") by a command that had quit
        page.click(".game-row[data-game=gate] [data-act=solo]")
        page.wait_for_selector(".game .pile")
        assert page.locator(".signed-out").count() == 0
        # the terminal playing takes the player over: the tab says where they went
        playing = terminal(terminals, web_server, tmp_path, "play", "gate")
        playing.wait_for(r"legal: ")
        page.wait_for_selector(".signed-out h1:has-text('This tab has stopped')")
        said = page.inner_text(".signed-out .note")
        assert re.match(
            r"Signed in on another device: terminal on \S+\. This tab has stopped", said
        ), said
        fits(page)
        # and stays stopped wherever it goes: the header's link once showed the games,
        # every box "not connected: reconnecting" for good, and no way to play here again
        page.click("#home-link")
        page.wait_for_selector(".signed-out h1:has-text('This tab has stopped')")
        assert page.locator(".home").count() == 0

        page.click("[data-act=reload]")
        page.wait_for_selector(".home h1:has-text('Hello, kay')")
        page.click("summary:has-text('Your devices')")
        page.wait_for_selector(".device-list li >> nth=1")
        rows = page.locator(".device-list li")
        assert "(this device)" in rows.nth(0).inner_text()
        assert re.match(r"Chrome on Linux", rows.nth(0).inner_text())
        assert rows.nth(1).inner_text().startswith("terminal on ")
        # the dates as the app writes them, not in the browser's locale's words
        stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d"
        said = rf"added {stamp} · last signed in {stamp} \(UTC\)"
        assert re.search(said, rows.nth(1).inner_text()), rows.nth(1).inner_text()
        fits(page)
        rows.nth(1).locator("[data-act=sign-out]").click()
        page.wait_for_selector(".devices .note:has-text('Signed out terminal on')")
        assert page.locator(".device-list li").count() == 1

        refused = terminal(terminals, web_server, tmp_path, "devices")
        refused.wait_for(r"this device was signed out from Chrome on Linux")
        assert refused.exit_code() == 1
    finally:
        desk.close()


def test_a_terminals_link_code_signs_a_phone_in_to_its_game(
    browser: Any,
    web_server: ServerProcess,
    tmp_path: Path,
    terminals: list[Terminal],  # noqa: F811
) -> None:
    playing = terminal(terminals, web_server, tmp_path, "play", "gate", "--seed", "1234")
    playing.wait_for("name:")
    playing.type("tess")
    playing.wait_for(r"legal: 1 b4>t3")
    shown = terminal(terminals, web_server, tmp_path, "link")
    code = shown.wait_for(rf"Your link code: ({CODE})")[1]
    assert shown.exit_code() == 0
    # (the phone entering the code below takes the game over, as a device that plays does)

    phone = browser.new_context(**PHONE)
    try:
        page = phone.new_page()
        page.goto(f"{http(web_server)}/play")
        page.wait_for_selector("input[name=name]")
        page.click("summary:has-text('Have a link code?')")
        page.fill("input[name=link-code]", "abcd-efg1")
        page.click("text=Sign in with the code")
        # which letters and digits a code never has, as the terminal says (a code of
        # "0000 0000" is 8 digits, and it was told only "8 letters and digits")
        page.wait_for_selector(".link-form .note:has-text('(no 0, 1, I, L, O or U)')")
        page.fill("input[name=link-code]", "2222-2222")
        page.click("text=Sign in with the code")
        page.wait_for_selector(".link-form .note:has-text('no link code 2222-2222')")
        assert page.locator("input[name=name]").count() == 1
        fits(page)
        shot(page, "phone-link-form")

        page.fill("input[name=link-code]", code.lower().replace("-", " "))
        page.click("text=Sign in with the code")
        # signed in as tess, straight into the game she was playing
        page.wait_for_selector(".board")
        assert page.inner_text("#who") == "tess"
        token = page.evaluate("localStorage.getItem('patience-race-token')")
        assert token and len(token) >= 20

        page.goto(f"{http(web_server)}/play#home")
        page.wait_for_selector(".home h1:has-text('Hello, tess')")
        page.click("summary:has-text('Your devices')")
        page.wait_for_selector(".device-list li >> nth=1")
        assert page.locator(".device-list li").nth(1).inner_text().startswith("Chrome on Android")
        page.click("[data-act=ask-sign-out-everywhere]")
        page.wait_for_selector(".confirm:has-text('Sign out the other device?')")
        fits(page)
        shot(page, "phone-devices")
        page.click("[data-act=sign-out-everywhere]")
        page.wait_for_selector(".devices .note:has-text('Every other device is signed out')")
        assert page.locator(".device-list li").count() == 1
        assert page.locator("[data-act=ask-sign-out-everywhere]").count() == 0
    finally:
        phone.close()


def test_a_browser_signed_out_by_another_says_so_on_its_name_form(
    browser: Any, web_server: ServerProcess
) -> None:
    desk = browser.new_context(**DESKTOP)
    phone = browser.new_context(**PHONE)
    try:
        page = desk.new_page()
        page.goto(f"{http(web_server)}/play")
        register(page, "lou")
        page.wait_for_selector(".home h1:has-text('Hello, lou')")
        page.click("summary:has-text('Play as yourself on another device')")
        page.click("[data-act=link-code]")
        code = page.get_attribute("[data-code]", "data-code")
        assert code

        other = phone.new_page()
        other.goto(f"{http(web_server)}/play")
        other.click("summary:has-text('Have a link code?')")
        other.fill("input[name=link-code]", code)
        other.click("text=Sign in with the code")
        other.wait_for_selector(".home h1:has-text('Hello, lou')")
        page.wait_for_selector(
            ".signed-out .note:has-text('Signed in on another device: Chrome on Android.')"
        )

        other.click("summary:has-text('Your devices')")
        desk_row = other.locator(".device-list li", has_text="Chrome on Linux")
        desk_row.locator("[data-act=sign-out]").click()
        other.wait_for_selector(".devices .note:has-text('Signed out Chrome on Linux.')")

        # the desk plays here again: its key is refused, and the name form says why
        page.click("[data-act=reload]")
        page.wait_for_selector("input[name=name]")
        said = page.inner_text(".welcome .note")
        assert said.startswith("this device was signed out from Chrome on Android on "), said
        assert page.evaluate("localStorage.getItem('patience-race-token')") is None
        fits(page)
    finally:
        desk.close()
        phone.close()


def test_the_daily_won_on_a_linked_terminal_counts_on_the_browser_too(
    browser: Any,
    redis_url: str,
    tmp_path: Path,
    terminals: list[Terminal],  # noqa: F811
) -> None:
    """A browser's player links a terminal, which wins today's ranked Doubles and Quits
    (a secret whose deal the first legal move always wins, as tests/app/test_daily.py's);
    back in the browser, the same player's streak counts it."""
    now = time.time_ns() // 1_000_000
    secret = secret_winning_on(day_of(now), day_of(next_reset_ms(now) + 1))
    server = ServerProcess(redis_url, tmp_path, PATIENCE_SECRET=secret)
    server.start()
    desk = browser.new_context(**DESKTOP)
    try:
        page = desk.new_page()
        page.goto(f"{http(server)}/play")
        register(page, "mia")
        page.wait_for_selector(".home h1:has-text('Hello, mia')")
        page.click("summary:has-text('Play as yourself on another device')")
        page.click("[data-act=link-code]")
        code = page.get_attribute("[data-code]", "data-code") or ""

        config = tmp_path / "laptop"
        linked = terminal(terminals, server, config, "link", code)
        linked.wait_for(r"This terminal now plays as mia")
        assert linked.exit_code() == 0
        daily = terminal(terminals, server, config, "daily", DOUBLES)
        daily.wait_for(r"Press Enter to start your ranked attempt")
        daily.type("")
        moves = 0
        while True:
            # the next legal line or the day's end, whichever comes (the last move's
            # "moves 26" can show before the end is drawn under it: the loop then waited
            # for a legal line that never came; CI, under load)
            seen = daily.wait_for(r"legal: #?1 |Today's daily challenge is done")[0]
            if seen.startswith("Today"):
                break
            moves += 1
            # at a person's pace (the pace policy holds a result played faster than people
            # play: docs/leaderboards.md), a fast one: a move every 0.35 s
            time.sleep(0.35)
            daily.type("#1")  # (a number alone is a position here)
            daily.wait_for(rf"moves {moves}\b|Today's daily challenge is done")
        daily.wait_for(r"Today's daily challenge is done: won")
        daily.wait_for(r"Streak: 1 day at Doubles and Quits")
        assert "held for review" not in daily.text  # (played as a person plays)
        daily.type("q")
        assert daily.exit_code() == 0

        page.click("[data-act=reload]")  # the tab the terminal took over
        page.wait_for_selector(".home h1:has-text('Hello, mia')")
        page.click(f".game-row[data-game={DOUBLES}] [data-act=daily]")
        # the ranked result the terminal played, and (dealing practice) the streak it won
        page.wait_for_selector("text=Doubles and Quits · ")
        assert re.search(
            r"· won in \d+:\d\d · \d+ moves · 26/26 pairs off", page.inner_text("main")
        )
        page.click("[data-act=race-board]")  # (practice alone: no ghosts to wait for)
        page.click("[data-act=practice]")
        page.wait_for_selector("text=streak: 1 in this game (best 1), 1 in any (best 1)")
    finally:
        desk.close()
        server.stop()


def test_a_ranked_daily_in_play_is_taken_up_on_its_daily_screen(
    browser: Any, web_server: ServerProcess
) -> None:
    """A browser signed in while the player's ranked daily is in play (a link code, a
    recovery key, or /play opened afresh) takes it up on the daily's screen: it drew the
    attempt as a plain game with **New deal**, which dealt a solo game unasked and left
    the ranked clock running."""

    async def started() -> str:
        client = await player(web_server.url, "rhea")
        await client.call("daily", game=DOUBLES)
        await client.close()
        return str(client.token)

    token = run(started())
    context = browser.new_context(**DESKTOP)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), token, "/play")
        page.wait_for_selector(".game .pile")
        page.wait_for_selector("p.muted:has-text('ranked attempt')")
        assert "#daily=" in page.url, page.url
        assert page.locator(".game [data-act=new]").count() == 0
        assert page.locator("button:has-text('New deal')").count() == 0
    finally:
        context.close()
