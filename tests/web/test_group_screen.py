"""A group's screen and link in Chromium, on the real server: faults an outside tester's
league of friends found.

- **Copy the link** said nothing on its button (a notice "link copied" came instead):
  docs/web.md ("Copying") says every copy button says "Copied";
- a past week's group board (``#group=ID&board=week/gate/2026-W49``) had the right
  heading under a picker that read "The Gate: this week's dailies", and the picker
  offered no past week, though the server shows them (the terminal's ``group top GROUP
  week/gate/2026-W49``): it offers this week and the 3 before (the daily boards a week
  board is read from are kept 31 days) and reads the week shown;
- the name form a newcomer meets on a group's link did not say it was to join a group.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from server.app.domain.daily import iso_week
from tests.app.client import player
from tests.app.conftest import ServerProcess

from .conftest import http, signed_in
from .test_keyboard import run
from .test_race import register

PICKER = "select[aria-label='group board']"


def owner_and_group(url: str, name: str, group: str) -> tuple[str, str, str]:
    """A player and the group they made, over the protocol: their token, its id, its link."""

    async def go() -> tuple[str, str, str]:
        client = await player(url, name)
        made = (await client.call("group_create", name=group))["group"]
        await client.close()
        return str(client.token), str(made["id"]), str(made["link"])

    made: tuple[str, str, str] = run(go())
    return made


def weeks_back(n: int) -> str:
    """The ISO week ``n`` weeks before this one (UTC, the server's clock is this machine's)."""
    at = datetime.now(UTC) - timedelta(weeks=n)
    return iso_week(round(at.timestamp() * 1000))


def shown(page: Any) -> str:
    """What the picker reads: its chosen option's words."""
    text: str = page.evaluate(
        "(s) => { const p = document.querySelector(s); "
        "return p.options[p.selectedIndex]?.text ?? ''; }",
        PICKER,
    )
    return text


def test_copy_the_link_says_copied_on_its_button(browser: Any, web_server: ServerProcess) -> None:
    base = http(web_server)
    token, group, link = owner_and_group(web_server.url, "ann", "Friday Club")
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=base)
    try:
        page = context.new_page()
        signed_in(page, base, token, f"/play#group={group}")
        page.wait_for_selector(".group h1:text('Friday Club')")
        page.click(".group [data-act=copy]")
        page.wait_for_selector(".group [data-act=copy]:text-is('Copied')", timeout=5_000)
        assert page.evaluate("navigator.clipboard.readText()") == base + link
        assert page.locator(".notice:has-text('link copied')").count() == 0
    finally:
        context.close()


def test_the_board_picker_reads_a_past_week_and_offers_the_last_four(
    browser: Any, web_server: ServerProcess
) -> None:
    base = http(web_server)
    token, group, _ = owner_and_group(web_server.url, "bo", "Night Owls")
    last, before = weeks_back(1), weeks_back(2)
    context = browser.new_context()
    try:
        page = context.new_page()
        signed_in(page, base, token, f"/play#group={group}&board=week/gate/{last}")
        page.wait_for_selector(f".group-board h3:has-text('{last}')")
        assert last in shown(page) and "this week" not in shown(page), shown(page)
        values = page.locator(f"{PICKER} option").evaluate_all("(all) => all.map((o) => o.value)")
        offered = [v for v in values if v.split("/")[:2] == ["week", "gate"]]
        assert offered == ["week/gate", *(f"week/gate/{weeks_back(n)}" for n in (1, 2, 3))]
        # another past week picked: its board, its address, and the picker reads it
        page.select_option(PICKER, f"week/gate/{before}")
        page.wait_for_selector(f".group-board h3:has-text('{before}')")
        assert page.evaluate("location.hash") == f"#group={group}&board=week/gate/{before}"
        assert before in shown(page), shown(page)
        # this week's, named by its week in the address, reads as this week's
        page.goto(f"{base}/play#group={group}&board=week/gate/{weeks_back(0)}")
        page.wait_for_selector(f".group-board h3:has-text('{weeks_back(0)}')")
        assert shown(page) == "The Gate: this week's dailies", shown(page)
    finally:
        context.close()


def test_a_groups_link_tells_a_newcomer_they_are_joining_a_group(
    browser: Any, web_server: ServerProcess
) -> None:
    base = http(web_server)
    _, _, link = owner_and_group(web_server.url, "cy", "Tuesday Club")
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(base + link)
        form = page.wait_for_selector(".welcome")
        assert form is not None
        said = form.inner_text()
        # (named: the link's key is the group's, and its page says the name)
        assert "You are invited to join Tuesday Club" in said, said
        assert page.inner_text("form.name-form button[type=submit]") == "Join the group"
        register(page, "dan")
        page.wait_for_selector(".group h1:text('Tuesday Club')")
    finally:
        context.close()
