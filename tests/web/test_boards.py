"""The leaderboards in the browser: a board watched from a link, without a name, takes a
result the moment the server writes it (a daily played by another client)."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.app.client import player
from tests.app.conftest import ServerProcess

from .conftest import http, misaligned, shot
from .test_race import register


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
        # resigned: no time (a game not won is ranked by cards home and moves)
        row = page.inner_text(".boards tbody tr:has-text('kim')")
        assert "—" in row and not re.search(r"\d:\d\d", row), row
        assert misaligned(page, ".boards table") == []
        day = page.input_value(".boards input[type=date]")  # the day picker, on today
        assert len(day) == 10 and page.inner_text(".boards h1").endswith(day)
        played(web_server.url, "lou")
        page.wait_for_selector(".boards tbody tr:has-text('lou')")
        shot(page, "board")
    finally:
        context.close()


def test_a_player_follows_from_a_board_and_sees_those_they_follow(
    browser: Any, web_server: ServerProcess
) -> None:
    """A signed-in player follows another from a board's row (the browser spoke of "those
    you follow" and offered no way to follow anyone), and the board shows around them
    or those they follow, as the terminal's --around-me and --friends do."""
    for name in ("mo", "nia", "oz"):
        played(web_server.url, name)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play")
        register(page, "pip")
        page.evaluate(
            """async () => {
                const link = window.patienceRace.link;
                await link.request("daily", { game: "nestor" });
                await link.request("resign", {});
            }"""
        )
        page.goto(f"{http(web_server)}/play#board=daily/nestor")
        page.wait_for_selector(".boards tbody tr:has-text('pip')")
        follow = '.boards tr:has-text("nia") [data-act=follow]'
        page.wait_for_selector(follow)
        # no button beside one's own name, and one's own row marked (as the terminal's ▸)
        assert page.locator(".boards tr:has-text('pip') [data-act=follow]").count() == 0
        marked = page.eval_on_selector_all(
            ".boards tbody tr.mine", "rs => rs.map(r => r.dataset.player)"
        )
        assert marked == ["pip"], marked
        assert page.inner_text(follow) == "Follow"
        page.click(follow)
        page.wait_for_selector(f"{follow}[aria-pressed=true]:text('Following')")
        page.click("[data-view=friends]")
        page.wait_for_selector(".board-views [data-view=friends][aria-pressed=true]")
        shown = page.locator(".boards tbody tr").evaluate_all(
            "rows => rows.map(r => r.dataset.player)"
        )
        assert sorted(shown) == ["nia", "pip"], shown
        page.click("[data-view=around]")
        page.wait_for_selector(".board-views [data-view=around][aria-pressed=true]")
        assert page.locator(".boards tbody tr:has-text('pip')").count() == 1
        # following survives a reload (the server keeps it)
        page.reload()
        page.wait_for_selector(f"{follow}[aria-pressed=true]")
        # and unfollowing
        page.click(follow)
        page.wait_for_selector(f"{follow}[aria-pressed=false]:text('Follow')")
        shot(page, "board-follow")
        # a result opens its game's replay, where its player may see it: one's own today,
        # another's once the day is over (it led to a replay private till the reset); a
        # name, the player's page
        href = page.get_attribute('.boards tr[data-player="pip"] td:nth-child(3) a', "href")
        assert href is not None and href.startswith("/play#replay="), href
        assert page.locator('.boards tr[data-player="nia"] td:nth-child(3) a').count() == 0
        page.click('.boards tr[data-player="nia"] a[data-to=player]')
        page.wait_for_selector(".player h1:text-is('nia')")
        assert page.evaluate("location.hash") == "#player=nia"
        said = page.inner_text(".player")
        assert "nia's ratings" in said
        assert "No rating yet: a race against people (two or more) rates nia." in said
        page.go_back()
        page.wait_for_selector(".boards tbody tr")
    finally:
        context.close()
