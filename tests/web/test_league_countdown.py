"""The league's time left counts down in the browser (an outside tester's report: the
standings screen read "ends in 2m" at load, 2m49s left, and still "ends in 2m" two minutes
later with under a minute left; it changed only when the server sent new standings).

A real server whose clock is moved to a little over a minute before a week's end, and
that pushes nothing meanwhile (no look before the hour): the screen opened with "ends in
1m" must read "ends in under a minute" once the minute has passed, by the page's clock,
the line's words changed in place (the same element, the focus left where it was)."""

from __future__ import annotations

from typing import Any

from tests.client_cli.test_league_close_terminal import (
    Shifted,
    shifted,  # noqa: F401 (the fixture)
)

from .conftest import http, signed_in
from .test_league_close import PHONE, token_of
from .test_play import until

#: the league line of this week's standings screen
LINE = ".league .league-line"


def test_the_time_left_counts_down_on_the_standings_screen_and_the_home_box(
    browser: Any,
    shifted: Shifted,  # noqa: F811
) -> None:
    # the server's clock 50 s before the week's end when this machine's reads `at`, 25 s
    # after the fixture was made: about 70 s left once the page is up
    one = shifted.process(-50_000, 3600, "one")
    base = http(one)
    token = token_of(one.url, "rob", join=True)
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        signed_in(page, base, token, "/play#league")
        page.wait_for_selector(f"{LINE}:has-text('ends in 1m')")
        # the focus on the way back, and the line marked: neither may be redrawn away
        page.focus(".league a[href='/play#home']")
        page.evaluate("(s) => { document.querySelector(s).marked = true; }", LINE)
        until(
            page,
            "(s) => document.querySelector(s).textContent.endsWith('ends in under a minute')",
            LINE,
            timeout=40,
        )
        assert page.evaluate("(s) => document.querySelector(s).marked === true", LINE)
        assert page.evaluate("document.activeElement.getAttribute('href')") == "/play#home"

        # the home screen's box counts down the same way, to "closing" at the end
        page.goto(f"{base}/play#home")
        page.wait_for_selector(".league-box .league-line:has-text('ends in under a minute')")
        shifted.passed(extra=50)  # (the week's end, by this machine's clock)
        page.wait_for_selector(".league-box .league-line:has-text('closing')", timeout=15_000)
    finally:
        context.close()
