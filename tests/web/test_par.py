"""Par in the browser: once today's ranked attempt is over, the result says the day's
par and whether it is proved the shortest; a past day's board says its par the same way,
with a link to the book line. Real Chromium against a real server and Redis, the deals
certified in Redis before the server starts."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from server.solver import solve
from tests.app.conftest import ServerProcess
from tests.app.pars import fix_pars, today_and_yesterday

from .conftest import http, shot
from .test_race import register


def test_par_says_proved_shortest_or_shortest_found(
    browser: Any, redis_url: str, tmp_path: Path
) -> None:
    # (in a thread: Playwright's own event loop runs in this one)
    with ThreadPoolExecutor(1) as thread:
        pars = thread.submit(asyncio.run, fix_pars(redis_url)).result()
    _, yesterday = today_and_yesterday()
    server = ServerProcess(redis_url, tmp_path, PATIENCE_COUNTDOWN="1.0")
    server.start()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{http(server)}/play")
        register(page, "dan")
        page.click('.game-row[data-game="nestor"] [data-act=daily]')
        page.click("[data-act=start-daily]")
        page.wait_for_selector(".game .pile")
        page.click("[data-act=resign]")
        said = page.wait_for_selector(".par")
        assert said is not None
        assert said.inner_text() == f"The day's par {pars['today/nestor']} (proved shortest)."
        shot(page, "daily-result-par")

        for game, words in (("nestor", "proved shortest"), ("gate", "shortest found")):
            page.goto(f"{http(server)}/play#board=daily/{game}/{yesterday}")
            book = page.wait_for_selector(".book")
            assert book is not None
            par = pars[f"yesterday/{game}"]
            assert book.inner_text() == f"Par {par} ({words}): the book line"
            link = f"/play#replay=book{yesterday.replace('-', '')}{game}"
            assert page.get_attribute(".book a", "href") == link
            page.click(".book a")  # the book line's replay says it too
            page.wait_for_selector(f"p.muted:has-text('the book line, par {par} ({words})')")
        shot(page, "board-par")

        # a win says how it stands against par: the book line itself matches it (the
        # result comes before the reply to the winning move, and the line said nothing)
        other = browser.new_context().new_page()  # (another player: storage of its own)
        other.on("dialog", lambda dialog: dialog.accept())
        other.goto(f"{http(server)}/play")
        register(other, "dot")
        other.click('.game-row[data-game="nestor"] [data-act=daily]')
        other.click("[data-act=start-daily]")
        other.wait_for_selector(".game .pile")
        line = solve("nestor", seed=1, budget_s=10).line
        assert len(line) == pars["today/nestor"]
        for n, move in enumerate(line, 1):
            other.fill("#notation", move)
            other.press("#notation", "Enter")
            other.wait_for_selector(f".game .moves:text-is('{n} move{'' if n == 1 else 's'}')")
        said = other.wait_for_selector(".par:has-text('You matched par.')")
        assert said is not None, other.inner_text(".daily")
        # and so on coming back to the day's daily (it had said the par alone)
        other.goto(f"{http(server)}/play#home")
        other.click('.game-row[data-game="nestor"] [data-act=daily]')
        said = other.wait_for_selector(".par")
        assert said is not None
        assert said.inner_text() == f"The day's par {len(line)} (proved shortest). You matched par."
        other.context.close()
    finally:
        context.close()
        server.stop()
