"""The daily's page left open over the day's reset (00:00 UTC), against a real server
whose clock is shifted to a few seconds before a midnight (``clock_offset``), as the
outside probe crossed it (probe I: a's faults 1 and 3, b's faults 1, 3 to 6):

- **Practise this deal** on a result page left open over the reset practises that day's
  deal (public now: dealt again from its replay's seed, a solo game), and never starts the
  new day's ranked attempt (it sent ``daily`` with ``ghosts`` and the server dealt it);
- a ranked attempt the reset ends (``daily_result`` ``timeout``, with no reply) is over on
  the page: its clock stopped at its recorded time, its buttons and move box gone, its
  piles no buttons (they stayed live under the result, the clock running on);
- the Start screen left open over the reset is asked again and shows the new day, so
  that Start deals what it describes (it kept the old day's words, and Start dealt the
  new day's deal);
- the words once the day is over: no "A new deal in 0:00" but the new deal and the way to
  it; "Time ran out" (not the raw "timeout"), and no "so far" about a closed day."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app.midnight import Midnight, midnight_served

from .conftest import http, shot
from .test_play import until
from .test_race import register

#: seconds from the server's start to its midnight: time for a page to sign in and start
LEAD = 14.0

DAILY_GAME = "window.patienceRace.screen.game"


@pytest.fixture
def midnight(redis_url: str, tmp_path: Path) -> Iterator[Midnight]:
    yield from midnight_served(redis_url, tmp_path, LEAD)


@pytest.fixture
def page(browser: Any, midnight: Midnight) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        yield context.new_page()
    finally:
        context.close()


def daily_started(page: Any, midnight: Midnight, name: str) -> dict[str, Any]:
    """``name`` signed up, the Gate's ranked attempt of the old day started from its Start
    screen: the game's id and its deal as dealt (each pile's cards)."""
    page.goto(f"{http(midnight.process)}/play")
    register(page, name)
    page.wait_for_selector(".game-row")
    page.goto(f"{http(midnight.process)}/play#daily=gate")
    page.click("[data-act=start-daily]")
    page.wait_for_selector(".game .pile")
    game: dict[str, Any] = page.evaluate(
        f"(() => {{ const g = {DAILY_GAME}; return {{id: g.id, kind: g.kind,"
        " piles: g.view.piles.map(p => [p.label, p.cards, p.down])}; })()"
    )
    assert game["kind"] == "daily"
    assert midnight.old in page.inner_text(".daily-head")
    return game


def ranked_status(page: Any) -> dict[str, Any]:
    """The player's daily of the Gate now, as the server says (``start: false``)."""
    status: dict[str, Any] = page.evaluate(
        "window.patienceRace.link.request('daily', {game: 'gate', start: false})"
    )
    return status


def replay_of(midnight: Midnight, game: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{http(midnight.process)}/replay/{game}.json") as answer:
        replay: dict[str, Any] = json.loads(answer.read())
    return replay


def clock_text(ms: int) -> str:
    total = ms // 1000
    return f"{total // 60}:{total % 60:02d}"


def timed_out(page: Any) -> None:
    """Wait for the reset's result on the page (within seconds of the reset)."""
    page.wait_for_selector(".result-line code", timeout=20000)


def test_practise_after_the_reset_deals_that_days_deal_and_starts_no_ranked_attempt(
    page: Any, midnight: Midnight
) -> None:
    """Probe I, a's fault 1 and b's fault 1 (severe): the ranked attempt the reset ended,
    then **Practise this deal** on its result: that day's deal again, not ranked, and the
    new day's ranked attempt still to be started from its own Start screen."""
    ranked = daily_started(page, midnight, "ann")
    midnight.before()
    midnight.passed()
    timed_out(page)
    assert page.inner_text("[data-act=practice]") == "Practise this deal"
    page.click("[data-act=practice]")
    until(page, f"id => {DAILY_GAME} && {DAILY_GAME}.id !== id", ranked["id"])
    dealt: dict[str, Any] = page.evaluate(
        f"(() => {{ const g = {DAILY_GAME}; return {{kind: g.kind, status: g.status,"
        " piles: g.view.piles.map(p => [p.label, p.cards, p.down])}; })()"
    )
    # that day's deal, as it was dealt, in a game that counts on no board
    assert dealt["kind"] == "solo" and dealt["status"] == "playing"
    assert dealt["piles"] == ranked["piles"]
    head = page.inner_text(".daily-head")
    assert f"{midnight.old}'s deal again" in head and "not ranked" in head
    assert "ranked attempt" not in head
    # the new day's one ranked attempt is still the player's to start (it was started)
    status = ranked_status(page)
    assert status["day"] == midnight.new and status["ranked_attempt"] == "pending", status
    shot(page, "daily-reset-past-deal")
    # the way to it asks first
    page.click("[data-act=new-day]")
    page.wait_for_selector(f"h1:has-text('daily challenge, {midnight.new}')")
    assert page.locator("[data-act=start-daily]").count() == 1
    assert page.locator(".game .pile").count() == 0
    assert ranked_status(page)["ranked_attempt"] == "pending"


def test_a_ranked_attempt_the_reset_ends_is_over_on_the_page(page: Any, midnight: Midnight) -> None:
    """Probe I, a's fault 3 and b's faults 3 and 4: at the reset's ``daily_result``
    (``timeout``) the board under the result is a game over, as after a resignation."""
    ranked = daily_started(page, midnight, "bob")
    move = page.evaluate(f"{DAILY_GAME}.legal[0]")
    page.fill("#notation", move)
    page.press("#notation", "Enter")
    page.wait_for_selector(".game .moves:text-is('1 move')")
    midnight.before()
    midnight.passed()
    timed_out(page)
    until(page, f"() => {DAILY_GAME}.status === 'timeout'")
    # its controls gone: the deal, Undo, Cards home, Hint, Resign, the move box
    for act in ("deal", "undo", "home", "hint", "resign"):
        assert page.locator(f".game [data-act={act}]").count() == 0, act
    assert page.locator("#notation").count() == 0
    # its piles no buttons, nor stops of Tab's
    assert page.locator(".game .board .pile[role=button]").count() == 0
    assert page.locator(".game .board .pile[tabindex]").count() == 0
    assert "time ran out" in page.inner_text(".game .status")
    assert page.evaluate("document.querySelector('.game .spoken.live').textContent").startswith(
        "Game over: time ran out"
    )
    # its clock stopped at its recorded time, 00:00 (it ran on past it)
    recorded = replay_of(midnight, ranked["id"])["result"]
    assert recorded["status"] == "timeout"
    shown = page.inner_text(".game .clock")
    assert shown == clock_text(recorded["time_ms"]), (shown, recorded)
    page.wait_for_timeout(1500)
    assert page.inner_text(".game .clock") == shown
    # the heading in words, of a day that is over
    heading = page.inner_text(".daily h1")
    assert heading == "Time ran out at 00:00 UTC: rank 1 on the day's board", heading
    shot(page, "daily-reset-timeout")


def test_the_start_screen_left_open_over_the_reset_shows_the_new_day(
    page: Any, midnight: Midnight
) -> None:
    """Probe I, b's fault 5: the Start screen open at the reset is asked again, so that
    Start deals what it describes: the new day's deal, its commitment the one shown."""
    page.goto(f"{http(midnight.process)}/play")
    register(page, "cat")
    page.wait_for_selector(".game-row")
    page.goto(f"{http(midnight.process)}/play#daily=gate")
    page.wait_for_selector("[data-act=start-daily]")
    assert f"daily challenge, {midnight.old}" in page.inner_text(".daily h1")
    old = page.get_attribute(".commitment", "data-commitment")
    midnight.before()
    midnight.passed()
    page.wait_for_selector(f".daily h1:has-text('daily challenge, {midnight.new}')", timeout=5000)
    new = page.get_attribute(".commitment", "data-commitment")
    assert new and new != old
    assert f"A new day: this is {midnight.new}'s deal." in page.inner_text(".daily-head")
    # the countdown is the new day's (it stood at 0:00)
    assert page.inner_text(".resets .left") != "0:00"
    page.click("[data-act=start-daily]")
    page.wait_for_selector(".game .pile")
    assert f"The Gate · {midnight.new} · ranked attempt" in page.inner_text(".daily-head")
    # what was dealt is the deal committed to above the button
    assert ranked_status(page)["day"] == midnight.new
    committed = page.evaluate(
        "window.patienceRace.link.request('daily', {game: 'gate'}).then(r => r.commitment)"
    )
    assert committed == new


def test_a_result_left_open_over_the_reset_says_the_day_is_over(
    page: Any, midnight: Midnight
) -> None:
    """Probe I, b's fault 6 (and a's fault 3's end): a result page from before the reset
    says, once the day has changed, that the new deal is here, with the way to it (the
    countdown stood at 0:00), and no "so far" about the closed day."""
    daily_started(page, midnight, "dan")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("[data-act=resign]")
    page.wait_for_selector(".result-line code")
    assert page.inner_text(".daily h1") == "Daily resigned: rank 1 on the day's board so far"
    assert page.inner_text(".resets").startswith("A new deal in ")
    midnight.before()
    midnight.passed()
    until(page, "() => document.querySelector('.resets.new-day') !== null")
    text = page.inner_text(".daily")
    assert "A new deal in" not in text and "0:00 (00:00 UTC)" not in text
    assert page.inner_text(".resets.new-day").startswith("The new deal is here")
    heading = page.inner_text(".daily h1")
    assert heading == "Daily resigned: rank 1 on the day's board as you finished", heading
    # practice is of that day's deal, raced against no board
    assert page.locator("[data-act=race-board]").count() == 0
    assert f"{midnight.old}'s deal again" in page.inner_text(".controls.practice")
    shot(page, "daily-reset-result")
    # on a phone too, nothing wider than the screen
    page.set_viewport_size({"width": 360, "height": 740})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    shot(page, "phone-daily-reset-result")
    page.set_viewport_size({"width": 1280, "height": 800})
    # the way to the new deal: its Start screen, which deals nothing until Start
    page.click("[data-act=new-day]")
    page.wait_for_selector(f".daily h1:has-text('daily challenge, {midnight.new}')")
    assert page.locator("[data-act=start-daily]").count() == 1
    assert ranked_status(page)["ranked_attempt"] == "pending"
