"""The clocks a page shows run on the server's time, measured at sign-in: a device whose
clock is set or corrected meanwhile (by hand, by NTP) must not move them. An outside
probe jumped a page's clock 10 hours on in a race: its race clock read
``10:00:05 (0:00 left)`` with 14 s of the race to go, and a ranked daily's ``25:00:04``
(the page measured the server's clock against ``Date.now``, which the jump moved)."""

from __future__ import annotations

import re
import time
from typing import Any

from tests.app.conftest import ServerProcess

from .conftest import http
from .test_play import snapshot
from .test_race import register


def test_a_clock_set_on_in_a_game_moves_no_clock_shown(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.clock.install(time=time.time())  # (the page's clock, to be set by the test)
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play")
        register(page, "jumper")
        page.click('.game-row[data-game="gate"] [data-act=solo]')
        page.wait_for_selector(".game .pile")
        page.fill("#notation", snapshot(page)["legal"][0])
        page.press("#notation", "Enter")
        page.wait_for_selector(".game .moves:text-is('1 move')")
        page.wait_for_timeout(1100)
        before = page.inner_text(".game .clock")
        assert re.fullmatch(r"0:0\d", before), before
        # the device's clock set ten hours on (its timers not run: time went on as ever)
        page.clock.set_system_time(page.evaluate("Date.now()") / 1000 + 10 * 3600)
        page.wait_for_timeout(1500)
        after = page.inner_text(".game .clock")
        assert re.fullmatch(r"0:0\d", after), (before, after)
        # and set back three hours: still the game's time
        page.clock.set_system_time(page.evaluate("Date.now()") / 1000 - 13 * 3600)
        page.wait_for_timeout(1100)
        back = page.inner_text(".game .clock")
        assert re.fullmatch(r"0:0\d", back) and back >= after, (after, back)
    finally:
        context.close()
