"""The home screen marks each game whose daily the player has done today, or has under
way, as the terminal's game list does (docs/web.md): asked with ``daily`` and
``"start": false``, so that opening the home screen deals nothing and starts no clock."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.app.client import signed_in as connected
from tests.app.conftest import ServerProcess

from .conftest import http, shot
from .test_race import register


async def nestor_done_gate_begun(url: str, token: str) -> None:
    # (in the browser's place: a connection beside it may not play; the page is loaded
    # again after)
    other = await connected(url, token)
    ranked = await other.call("daily", game="nestor")
    await other.call("resign", game=ranked["game"])
    await other.call("daily", game="gate")  # (its clock runs from here)
    await other.close()


def test_the_home_screen_marks_the_dailies_done_and_under_way(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play")
        register(page, "mae")
        page.wait_for_selector('.game-row[data-game="nestor"]')
        token = page.evaluate("localStorage.getItem('patience-race-token')")
        assert page.query_selector(".daily-mark") is None  # (nothing taken up yet)
        with ThreadPoolExecutor(1) as pool:  # (Playwright's loop holds this thread)
            pool.submit(asyncio.run, nestor_done_gate_begun(web_server.url, token)).result(30)
        page.reload()  # (taken up where it was: the Gate's ranked attempt, under way)
        page.wait_for_selector(".game .pile")
        page.goto(f"{http(web_server)}/play#home")
        done = page.wait_for_selector('[data-game="nestor"] .daily-mark[data-daily=ended]')
        assert (
            done is not None and done.inner_text() == "Today's daily: done"
        )  # (its tick drawn before it)
        begun = page.wait_for_selector(
            '.game-row[data-game="gate"] .daily-mark[data-daily=playing]'
        )
        assert begun is not None
        assert begun.inner_text() == "Today's daily: under way, its clock running"
        assert page.get_attribute(
            '.game-row[data-game="nestor"] [data-act=daily]', "aria-label"
        ) == ("Daily challenge: Nestor (Today's daily: done)")
        # the other games are not marked, and asking dealt nothing: Babette's daily is
        # still to be taken up
        assert len(page.query_selector_all(".daily-mark")) == 2
        shot(page, "home-daily-marks")
        page.click('.game-row[data-game="babette"] [data-act=daily]')
        page.wait_for_selector("[data-act=start-daily]")
    finally:
        context.close()
