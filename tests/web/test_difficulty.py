"""A daily deal's difficulty in the browser (docs/web.md): today's deal graded, the
daily's start screen says how hard it is and what that was measured from, the game's
line names the grade, and the day's board page says it too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.app.conftest import ServerProcess
from tests.app.test_difficulty import graded_today

from .conftest import http, shot
from .test_race import register

GAME = "doubles-and-quits"


def test_the_daily_says_how_hard_its_deal_is(browser: Any, redis_url: str, tmp_path: Path) -> None:
    secret = "difficulty-secret"
    shown = graded_today(redis_url, secret, GAME)
    server = ServerProcess(redis_url, tmp_path, PATIENCE_SECRET=secret)
    server.start()
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{http(server)}/play")
        register(page, "dee")
        page.click(f'.game-row[data-game="{GAME}"] [data-act=daily]')
        said = page.wait_for_selector(f".difficulty[data-grade={shown['grade']}]")
        assert said is not None
        how_far = (
            f", {shown['home_pct']}% of the cards paired off on average"  # (pairs: no home)
            if shown["board_wins"] < shown["tries"]
            else ""
        )
        said_text = (
            f"Difficulty: {shown['grade']} for this game (the hint engine, seeing only the"
            f" board, won {shown['board_wins']} of {shown['tries']} tries{how_far};"
            f" {shown['line_wins']} of {shown['searches']} short solver searches found a win)."
        )
        assert said.inner_text() == said_text
        shot(page, "daily-difficulty")
        page.click("[data-act=start-daily]")
        page.wait_for_selector(".game .pile")
        assert f"· ranked attempt · {shown['grade']} ·" in page.inner_text("body")
        # the browser's own board screen of the day says it too (it showed the table only)
        page.goto(f"{http(server)}/play#board=daily/{GAME}")
        board = page.wait_for_selector(f".boards .difficulty[data-grade={shown['grade']}]")
        assert board is not None and board.inner_text() == said_text
        page.goto(f"{http(server)}/leaderboard/daily/{GAME}")
        assert f"Difficulty: {shown['grade']} for this game (the hint engine" in page.inner_text(
            "body"
        )
    finally:
        context.close()
        server.stop()
