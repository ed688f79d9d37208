"""Practising the daily against the board in the browser: eight players finish today's
daily (one of them slowly, so that their ghost is seen to move), then a player on a
phone plays their ranked attempt, practises the deal with "race the board" on and sees
the eight ghosts in the racers' panel (which scrolls, the player's row in view, nothing
wider than the phone), comes back to the practice and its ghosts after a reload (and
from the bare address), resigns and sees where they placed among the ghosts; "race the
board" unticked deals practice with no ghosts."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.app.client import player
from tests.app.conftest import ServerProcess
from tests.app.test_board_ghosts import ranked_daily

from .conftest import http, shot
from .test_challenge import PHONE
from .test_play import until
from .test_race import register

QUICK = ["ann", "bo", "cy", "dot", "eve", "fay", "gus"]
SLOW = "a-long-name-of-20-ch"  # its ghost moves twice, a second apart, then resigns
PANEL = ".bars.board-race"


async def finish_todays_daily(url: str) -> None:
    """The seven quick players finish today's ranked daily of The Gate, each a few
    moves, and the slow one plays two moves a second apart and resigns a second later."""
    for n, name in enumerate(QUICK):
        client = await player(url, name)
        try:
            await ranked_daily(client, n % 4)
            await client.event("daily_result")
        finally:
            await client.close()
    slow = await player(url, SLOW)
    try:
        game = await slow.call("daily", game="gate")
        legal = game["legal"]
        for _ in range(2):
            legal = (await slow.call("move", game=game["game"], move=legal[0]))["legal"]
            await asyncio.sleep(1.0)
        await slow.call("resign", game=game["game"])
        await slow.event("daily_result")
    finally:
        await slow.close()


def fits(page: Any) -> None:
    """Nothing is wider than the phone (the width its context was given), nor the racers'
    panel, its rows, the placing and its table wider than themselves."""
    width = page.viewport_size["width"]
    seen = page.evaluate(
        "() => ({page: document.documentElement.scrollWidth,"
        " over: [...document.querySelectorAll('.bars, .bar-row, .bar-row .nums, .placing,"
        " .table-box, .daily-head, .practice, #bar')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className || e.id)})"
    )
    assert seen["page"] <= width, seen
    assert seen["over"] == [], seen


def widest_panel_fits(page: Any) -> None:
    """The panel at its widest (nine 20-letter names, four-digit move counts, an end's
    status), drawn by the client's own code in the page's panel, fits."""
    seen = page.evaluate(
        "async () => { const { drawRacers } = await import('/web/app/room.js');"
        " const box = document.querySelector('.bars.board-race');"
        " const row = (n) => ({name: 'W'.repeat(19) + n, ghost: n > 0, home: 51, total: 104,"
        " moves: 1234, status: 'resigned'});"
        " drawRacers(box, [0, 1, 2, 3, 4, 5, 6, 7, 8].map(row), 'W'.repeat(19) + '0');"
        " const over = [...box.querySelectorAll('.bar-row, .bar-row .nums')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).length;"
        " const out = {over, box: box.scrollWidth - box.clientWidth,"
        " page: document.documentElement.scrollWidth,"
        " right: Math.max(...[...box.querySelectorAll('.bar-row *')]"
        ".map(e => e.getBoundingClientRect().right))};"
        " window.patienceRace.screen.drawn = null; return out; }"
    )
    width = page.viewport_size["width"]
    assert seen["over"] == 0 and seen["box"] <= 1, seen
    assert seen["page"] <= width and seen["right"] <= width, seen


def mine_in_view(page: Any) -> bool:
    """The panel scrolls (it is shorter than its rows) and the player's row is inside it."""
    seen: dict[str, Any] = page.evaluate(
        "() => { const box = document.querySelector('.bars.board-race');"
        " const mine = box.querySelector('.bar-row.mine').getBoundingClientRect();"
        " const b = box.getBoundingClientRect();"
        " return {scrolls: box.scrollHeight > box.clientHeight + 1,"
        " inside: mine.top >= b.top - 1 && mine.bottom <= b.bottom + 1}; }"
    )
    return bool(seen["scrolls"] and seen["inside"])


def eight_ghosts(page: Any) -> None:
    """Wait for the panel's eight ghost rows."""
    until(page, "n => document.querySelectorAll('.bars.board-race .bar-row.ghost').length === n", 8)


def ghost_rows(page: Any) -> list[str]:
    names: list[str] = page.eval_on_selector_all(
        f"{PANEL} .bar-row.ghost", "rows => rows.map(r => r.dataset.player)"
    )
    return names


def daily_started(context: Any, web_server: ServerProcess, name: str) -> Any:
    """A page of ``context`` whose new player ``name`` has started today's ranked daily of
    The Gate (its questions answered yes)."""
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{http(web_server)}/play")
    register(page, name)
    page.click('.game-row[data-game="gate"] [data-act=daily]')
    page.click("[data-act=start-daily]")
    page.wait_for_selector(".game .pile")
    return page


def test_practice_races_the_board_on_a_phone(browser: Any, web_server: ServerProcess) -> None:
    with ThreadPoolExecutor(1) as pool:  # (Playwright's loop holds this thread)
        pool.submit(asyncio.run, finish_todays_daily(web_server.url)).result(60)
    context = browser.new_context(**PHONE)
    try:
        page = daily_started(context, web_server, "dee")
        # the ranked attempt: no ghosts, however the toggle stands
        assert page.locator(f"{PANEL} .bar-row").count() == 0
        page.click(".game [data-act=resign]")
        page.wait_for_selector(".result-line code")

        # practice against the board: on unless unticked
        toggle = page.locator(".practice [data-act=race-board]")
        assert toggle.is_checked()
        page.click(".practice [data-act=practice]")
        page.wait_for_selector(".game[data-kind=practice] .pile")
        page.wait_for_selector(f'{PANEL} .bar-row.mine[data-player="dee"]')
        eight_ghosts(page)
        ghosts = ghost_rows(page)
        assert sorted(ghosts) == sorted([*QUICK, SLOW]), ghosts
        assert page.locator(f"{PANEL} .bar-row.ghost .tag.ghost").count() == 8
        assert "Racing 8 ghosts" in page.inner_text(".daily-head")
        assert re.fullmatch(r"You: \d+(st|nd|rd|th) of 9 so far", page.inner_text(".standing"))
        # the slow ghost, moved along by server time: its two moves, then its end
        slow_row = f'{PANEL} .bar-row.ghost[data-player="{SLOW}"]'
        page.wait_for_selector(f'{slow_row}[data-status="resigned"] .nums:has-text("· 2 moves")')
        assert mine_in_view(page)
        fits(page)
        shot(page, "phone-practice-race")
        widest_panel_fits(page)

        game = page.evaluate("window.patienceRace.screen.game.id")
        page.reload()  # mid-practice: back in it, racing the same ghosts
        page.wait_for_selector(f'.game[data-game="{game}"] .pile')
        eight_ghosts(page)
        assert sorted(ghost_rows(page)) == sorted(ghosts)
        page.goto(f"{http(web_server)}/play")  # and from the bare address: the daily's screen
        page.wait_for_selector(f'.daily .game[data-game="{game}"] .pile')
        eight_ghosts(page)
        assert page.evaluate("location.hash") == "#daily=gate"

        # every ghost's game over and none played here: the panel stands as the server ranks
        page.wait_for_selector(f'{slow_row}[data-status="resigned"]')
        panel = page.eval_on_selector_all(
            f"{PANEL} .bar-row", "rows => rows.map(r => r.dataset.player)"
        )

        # its end: the server's placing among the ghosts, which replaces the panel
        page.click(".game [data-act=resign]")
        verdict = page.wait_for_selector(".placing .verdict")
        assert verdict is not None
        rows = page.locator(".placing tbody tr")
        assert rows.count() == 9
        order = [rows.nth(i).get_attribute("data-player") for i in range(9)]
        assert order == panel
        assert page.locator(f"{PANEL} .bar-row").count() == 0
        place = order.index("dee") + 1
        beaten = 9 - place
        assert verdict.get_attribute("data-beaten") == str(beaten)
        assert verdict.get_attribute("data-ghosts") == "8"
        said = "You beat all 8 ghosts." if beaten == 8 else f"You beat {beaten} of 8 ghosts."
        assert verdict.inner_text() == said
        # places as a competition's: a ghost that did just as dee did (resigned at the
        # deal) shares her place ("=1", "joint 1st"), listed before her as played first
        cells = [rows.nth(i).locator("td").first.inner_text() for i in range(9)]
        places = [int(c.lstrip("=")) for c in cells]
        for cell, n in zip(cells, places, strict=True):
            assert n == 1 + sum(1 for p in places if p < n), cells
            assert cell.startswith("=") == (places.count(n) > 1), cells
        mine = cells[place - 1]
        assert beaten == sum(1 for p in places if p > int(mine.lstrip("="))), cells
        joint = "joint " if mine.startswith("=") else ""
        assert re.match(
            rf"You placed {joint}{mine.lstrip('=')}(st|nd|rd|th) of 9: resigned",
            page.inner_text(".placing p"),
        ), (cells, page.inner_text(".placing p"))
        assert page.locator(".placing tr.ghost .tag.ghost").count() == 8
        assert page.locator('.placing tr.mine[data-player="dee"]').count() == 1
        fits(page)
        shot(page, "phone-practice-result")

        # "race the board" unticked: practice with no ghosts (and the choice kept)
        page.locator(".placing [data-act=race-board]").uncheck()
        page.click(".placing [data-act=practice]")
        page.wait_for_selector(f'.game[data-kind=practice]:not([data-game="{game}"]) .pile')
        assert page.locator(".placing *").count() == 0
        assert page.locator(f"{PANEL} .bar-row").count() == 0
        assert "practice against the board" not in page.inner_text(".daily-head")
        assert page.evaluate("localStorage.getItem('patience-race.race-the-board')") == "off"
    finally:
        context.close()


def test_a_practice_with_no_ghosts_at_its_start_places_among_those_since(
    browser: Any, web_server: ServerProcess
) -> None:
    """dee practises today's deal against the board before anyone else has finished it:
    the page says there are no ghosts to race. bob finishes his ranked attempt meanwhile,
    and dee's placing counts his ghost: the line saying there were none goes (both stood,
    one over the other)."""
    context = browser.new_context(**PHONE)
    try:
        page = daily_started(context, web_server, "dee")
        page.click(".game [data-act=resign]")
        page.wait_for_selector(".result-line code")
        page.click(".practice [data-act=practice]")
        page.wait_for_selector(".game[data-kind=practice] .pile")
        none = "No one else has finished today's deal yet"
        assert none in page.inner_text(".daily")

        async def bob_finishes() -> None:
            bob = await player(web_server.url, "bob")
            try:
                await ranked_daily(bob, 0)
                await bob.event("daily_result")
            finally:
                await bob.close()

        with ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, bob_finishes()).result(30)
        page.click(".game [data-act=resign]")
        verdict = page.wait_for_selector(".placing .verdict")
        assert verdict is not None and verdict.get_attribute("data-ghosts") == "1"
        assert none not in page.inner_text(".daily")
    finally:
        context.close()


def test_a_lost_practice_undone_races_on_and_is_placed_again_when_it_ends(
    browser: Any, web_server: ServerProcess
) -> None:
    """A lost practice may be undone: the placing, its table and Practise again stayed
    over the game played on, the panel did not come back, and the server's placing of
    its next end (``ghosts_result`` comes at every end) was not shown. The practice's
    end is real here (resigned); the game playing again and its second placing are set
    in the page, as an undo and the server's next ``ghosts_result`` would."""
    context = browser.new_context(**PHONE)
    try:
        page = daily_started(context, web_server, "dee")
        page.click(".game [data-act=resign]")
        page.wait_for_selector(".result-line code")
        page.click(".practice [data-act=practice]")
        page.wait_for_selector(".game[data-kind=practice] .pile")
        page.click(".game [data-act=resign]")
        first = page.wait_for_selector(".placing .verdict")
        assert first is not None
        # played on (as after "Undo the last move" of a lost game): the placing goes
        page.evaluate(
            "() => { const s = window.patienceRace.screen;"
            " s.game.status = 'playing'; s.game.draw(); s.tick(); }"
        )
        assert page.inner_text(".placing") == ""
        page.wait_for_selector(f'{PANEL} .bar-row.mine[data-player="dee"]')
        # its next end, placed anew: the server's second ghosts_result is shown
        page.evaluate(
            "() => { const s = window.patienceRace.screen;"
            " const you = {player: 'dee', ghost: false, place: 1, status: 'lost', moves: 9,"
            " home: 20, total: 52, time_ms: null};"
            " s.game.status = 'lost'; s.game.draw();"
            " s.event({type: 'ghosts_result', game: s.race.game, you, beaten: 0,"
            " table: [you]}); }"
        )
        again = page.wait_for_selector(".placing .verdict")
        assert again is not None
        assert "lost" in page.inner_text(".placing")
    finally:
        context.close()
