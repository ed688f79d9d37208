"""This week's league in the browser at 360x740: the home screen's box (not joined, the
join, the summary), the standings screen (the player's row, a second member, no
sideways scroll), and a week no longer kept refused in the server's words."""

from __future__ import annotations

from typing import Any

from tests.app.conftest import ServerProcess

from .conftest import http, misaligned, shot
from .test_race import register


def test_the_league_box_and_the_standings_screen(browser: Any, web_server: ServerProcess) -> None:
    phone = browser.new_context(viewport={"width": 360, "height": 740})
    other = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = phone.new_page()
        page.goto(f"{http(web_server)}/play")
        register(page, "ann")
        page.wait_for_selector(
            ".league-box .league-line:has-text('Not joined: you would race in Bronze')"
        )
        # a daily ended before joining scores nothing: the box says so before the join
        assert "dailies you end from now on" in page.inner_text(".league-box")
        page.click("[data-act=league-join]")
        line = page.wait_for_selector(
            ".league-box .league-line:has-text('Bronze · 1st of 1 · 0 points')"
        )
        assert line is not None and "ends in" in line.inner_text()

        bob = other.new_page()
        bob.goto(f"{http(web_server)}/play")
        register(bob, "bob")
        bob.click("[data-act=league-join]")
        bob.wait_for_selector(".league-box .league-line:has-text('of 2')")

        shot(page, "league-home")
        page.click(".league-box a:has-text('Standings')")
        page.wait_for_selector(".league .league-table tbody tr >> nth=1")
        rows = page.locator(".league-table tbody tr")
        assert rows.count() == 2
        assert misaligned(page, ".league-table") == []
        assert page.inner_text(".league-table tr.you").split()[1] == "ann"
        said = page.inner_text(".league .league-line")
        assert "league 1 · Bronze" in said and "bronze-1" not in said, said
        # a league of two: nobody moves at its end (it said the top 5 would)
        assert "At the week's end nobody moves" in page.inner_text(".league")
        width = page.evaluate("document.scrollingElement.scrollWidth")
        assert width <= 360, width
        shot(page, "league")

        page.goto(f"{http(web_server)}/play#league=2020-W01")
        page.wait_for_selector('.league .note:has-text("2020-W01\'s event is no longer kept")')
    finally:
        phone.close()
        other.close()


def test_the_standings_screen_redraws_as_the_league_changes(
    browser: Any, web_server: ServerProcess
) -> None:
    """The standings are pushed (``event`` with ``watch``): another member joining shows on
    an open standings screen without asking again (it asked every minute before)."""
    one = browser.new_context(viewport={"width": 360, "height": 740})
    two = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = one.new_page()
        page.goto(f"{http(web_server)}/play")
        register(page, "dee")
        page.click("[data-act=league-join]")
        page.wait_for_selector(".league-box a:has-text('Standings')")
        page.click(".league-box a:has-text('Standings')")
        page.wait_for_selector(".league .league-table tr.you")
        before = page.locator(".league-table tbody tr").count()

        eve = two.new_page()
        eve.goto(f"{http(web_server)}/play")
        register(eve, "eve")
        eve.click("[data-act=league-join]")
        eve.wait_for_selector(".league-box a:has-text('Standings')")

        # dee's screen, untouched, now has eve's row
        page.wait_for_selector(".league-table tbody tr:has-text('eve')", timeout=15_000)
        assert page.locator(".league-table tbody tr").count() == before + 1
        assert f"of {before + 1}" in page.inner_text(".league .league-line")
    finally:
        one.close()
        two.close()
