"""The leaderboards in the browser: a board watched from a link, without a name, takes a
result the moment the server writes it (a daily played by another client)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.app.client import player
from tests.app.conftest import ServerProcess

from .conftest import http, shot


async def a_daily_result(url: str, name: str) -> None:
    client = await player(url, name)
    try:
        reply = await client.call("daily", game="nestor")
        await client.call("move", move=reply["legal"][0])
        await client.call("resign")
    finally:
        await client.close()


def played(url: str, name: str) -> None:
    """A daily result, from a thread of its own (Playwright's loop holds this one)."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, a_daily_result(url, name)).result(30)


def test_a_board_updates_live(browser: Any, web_server: ServerProcess) -> None:
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play#board=daily/nestor")
        page.wait_for_selector(".boards h1:has-text('Nestor: daily challenge')")
        assert page.locator(".boards tbody tr").count() == 0
        played(web_server.url, "kim")
        page.wait_for_selector(".boards tbody tr:has-text('kim')")
        assert "1 on this board" in page.inner_text(".boards")
        day = page.input_value(".boards input[type=date]")  # the day picker, on today
        assert len(day) == 10 and page.inner_text(".boards h1").endswith(day)
        played(web_server.url, "lou")
        page.wait_for_selector(".boards tbody tr:has-text('lou')")
        shot(page, "board")
    finally:
        context.close()
