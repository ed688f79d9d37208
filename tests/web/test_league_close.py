"""This week's league in the browser across the week's end and its close, against real
servers whose clocks are shifted to just before a week's end (probe J, faults 1, 2, 5
and 7):

- the standings screen opened before joining shows the join made elsewhere; at the
  week's end (by the page's clock: the server here pushes nothing then) a member's says
  "closing" with no today column, and one not joined that the week has ended, with no
  **Join this week** for it; at the close (made by another process) the member's shows
  the week's result, told in the past, then the new week to join, and the other's the
  new week to join; back home, the member not joined yet is told how last week went
  (probe Z5: a returning player saw "Not joined" alone);
- in the first minutes of a week, while last week's leagues are being closed, the home
  screen's box and the standings screen say so, with no join that would be refused."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from server.app.domain import leagues as lg
from tests.app.client import player
from tests.app.client import signed_in as side_of
from tests.client_cli.test_league_close_terminal import (
    Shifted,
    shifted,  # noqa: F401 (the fixture)
)

from .conftest import http, signed_in
from .test_keyboard import run

PHONE = {"width": 360, "height": 740}


def token_of(url: str, name: str, join: bool = False) -> str:
    """A player registered (and joined this week's event) over the protocol."""

    async def go() -> str:
        client = await player(url, name)
        if join:
            await client.call("event_join")
        await client.close()
        return str(client.token)

    return str(run(go()))


def join_elsewhere(url: str, token: str) -> None:
    """The player joins from another connection (their phone, a terminal)."""

    async def go() -> None:
        phone = await side_of(url, token, side=True)
        await phone.call("event_join")
        await phone.close()

    run(go())


def test_the_standings_screen_across_the_weeks_end_and_close(
    browser: Any,
    shifted: Shifted,  # noqa: F811
) -> None:
    one = shifted.process(0, 3600, "one")  # (no look before the hour: the page's clock alone)
    base = http(one)
    rob_token, sue_token = token_of(one.url, "rob"), token_of(one.url, "sue")
    contexts = [browser.new_context(viewport=PHONE) for _ in range(2)]
    try:
        rob, sue = (c.new_page() for c in contexts)
        signed_in(rob, base, rob_token, "/play#league")
        signed_in(sue, base, sue_token, "/play#league")
        for page in (rob, sue):
            page.wait_for_selector(".league .league-line:has-text('Not joined')")
            page.wait_for_selector(".league [data-act=league-join]")

        # fault 1: joined from another connection, the screen shows the league
        join_elsewhere(one.url, rob_token)
        rob.wait_for_selector(".league-table tr.you", timeout=15_000)
        token_of(one.url, "dan", join=True)
        rob.wait_for_selector(".league .league-line:has-text('of 2')")
        assert "today" in rob.inner_text(".league-table thead")

        # fault 2: the week's end, by the page's clock
        shifted.passed()
        rob.wait_for_selector(".league .league-line:has-text('closing')", timeout=10_000)
        assert "today" not in rob.inner_text(".league-table thead")
        sue.wait_for_selector(".league .league-closing:has-text('The week has ended')")
        assert sue.locator("[data-act=league-join]").count() == 0

        # the close, made by another process: the result, then the new week to join
        shifted.process(lg.CLOSE_GRACE_MS + 20_000, 0.5, "two")
        rob.wait_for_selector(".league .league-line:has-text('closed')", timeout=30_000)
        rob.wait_for_selector('.league h2:has-text("This week\'s league")')
        rob.wait_for_selector(f".league .league-line:has-text('{shifted.next}')")
        rob.wait_for_selector(".league [data-act=league-join]")
        said = rob.inner_text(".league")
        assert said.index(f"League of {shifted.week}") < said.index(shifted.next), said
        assert "nobody moved" in said, said  # (fault 7: a closed week told in the past)
        sue.wait_for_selector(f".league .league-line:has-text('{shifted.next} · Not joined')")
        sue.wait_for_selector(".league [data-act=league-join]")
        # back on the home screen after the close, one not joined yet is told how last
        # week went (a returning player saw "Not joined" alone: nothing of the week before)
        rob.goto(f"{base}/play")
        told = rob.wait_for_selector(".league-box .league-last")
        assert told is not None
        assert re.fullmatch(
            rf"Last week, {shifted.week}: (1st|2nd) of 2 in Bronze, stayed in Bronze\. "
            "Its standings",
            told.inner_text(),
        ), told.inner_text()
        link = rob.get_attribute(".league-box .league-last a", "href")
        assert link == f"/play#league={shifted.week}", link
        sue.goto(f"{base}/play")  # (not in last week's: nothing told)
        sue.wait_for_selector(".league-box [data-act=league-join]")
        assert sue.locator(".league-box .league-last").count() == 0
    finally:
        for context in contexts:
            context.close()


def test_no_join_offered_while_last_weeks_leagues_are_closing(
    browser: Any,
    shifted: Shifted,  # noqa: F811
    tmp_path: Path,
) -> None:
    """Fault 5: **Join this week** in the close's first minutes was refused
    (``event_closing``): the box and the screen say the leagues are being closed. Last
    week had a member (a week nobody joined has nothing to close: it reads closed at
    once, and a join is not refused)."""
    before = shifted.process(-60_000, 3600, "before")  # (a minute and more before the end)
    token_of(before.url, "bea", join=True)
    one = shifted.process(60_000 + 25_000, 3600, "one")  # (a minute into the new week)
    base = http(one)
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        signed_in(page, base, token_of(one.url, "amy"), "/play")
        page.wait_for_selector(".league-box .league-closing:has-text('being closed')")
        assert page.locator(".league-box [data-act=league-join]").count() == 0
        page.goto(f"{base}/play#league")
        page.wait_for_selector(".league .league-closing:has-text('in a few minutes')")
        assert page.locator(".league [data-act=league-join]").count() == 0
    finally:
        context.close()
