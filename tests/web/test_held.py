"""A ranked daily the pace policy held (docs/leaderboards.md, "Fair play: the pace
policy"), as the browser says it: a script plays today's Gate daily over the protocol as
fast as the websocket lets it; its player, signed in in Chromium with the same token,
opens the day's daily and reads, in words, that the result is held for review, and the
day's board does not show it."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from server.app.domain.daily import day_of
from tests.app.client import player
from tests.app.conftest import ServerProcess
from tests.app.test_pace import scripted, secret_the_script_wins

from .conftest import http, shot


async def script_plays(url: str, line: list[str]) -> tuple[str, dict[str, Any]]:
    ann = await player(url, "ann")
    result = await scripted(ann, line)
    assert ann.token is not None
    await ann.close()
    return ann.token, result


def test_a_held_daily_says_so_in_the_browser(browser: Any, redis_url: str, tmp_path: Path) -> None:
    secret, line = secret_the_script_wins(day_of(int(time.time() * 1000)))
    # (as fast as the websocket lets it: the in-process servers' rate, not 30 a second)
    server = ServerProcess(
        redis_url, tmp_path, PATIENCE_SECRET=secret, PATIENCE_RATE="1000", PATIENCE_BURST="1000"
    )
    server.start()
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        with ThreadPoolExecutor(1) as pool:  # (Playwright's loop holds this thread)
            token, result = pool.submit(asyncio.run, script_plays(server.url, line)).result(60)
        assert result["review"]["state"] == "held"
        page = context.new_page()
        page.add_init_script(f"localStorage.setItem('patience-race-token', {token!r})")
        page.goto(f"{http(server)}/play#daily=gate")
        note = page.wait_for_selector(".review-note[data-review=held]")
        assert note is not None
        said = note.inner_text()
        assert said.startswith("held for review: played faster than people play")
        assert "goes on the public boards if an operator clears it." in said  # (a sentence)
        shot(page, "daily-held")
        # looking for oneself on the day's board says why one is not on it
        page.goto(f"{http(server)}/play#board=daily/gate")
        page.click("[data-view=around]")
        off = page.wait_for_selector(".boards .review-note[data-review=held]")
        assert off is not None
        assert off.inner_text().startswith(
            "Your result of this day is not on this board: held for review: played faster"
        )
        assert "You are not on this board yet." not in page.inner_text("body")
        page.goto(f"{http(server)}/leaderboard/daily/gate")
        assert "ann" not in page.inner_text("body")
    finally:
        context.close()
        server.stop()
