"""An open page follows what it is told: the Challenges badge and the home screen's
ratings had stayed as the page first drew them.

The badge kept counting results the player had marked seen on another device (a
terminal's ``patience-race challenges``) until the page was loaded again: the server
now tells the player's connections (``challenges_seen``), and the badge follows it,
whatever the page shows. The home screen's "Your
ratings" still said "No rating yet" after a rated race's results had come while it was
shown: the results' ratings now fill it again."""

from __future__ import annotations

from typing import Any

from tests.app.client import player
from tests.app.client import signed_in as signed_in_client
from tests.app.conftest import ServerProcess

from .conftest import http, signed_in
from .test_challenge import PHONE
from .test_phone_faults import protocol
from .test_race_review import racer_does


async def a_challenge(url: str) -> tuple[str, str]:
    """ann's Gate game (resigned at once) made a challenge: her token and its id."""
    ann = await player(url, "ann")
    try:
        game = await ann.call("new_game", game="gate", seed=5)
        await ann.call("resign", game=game["game"])
        made = await ann.call("challenge_create", replay=game["game"])
        assert ann.token is not None
        return ann.token, str(made["challenge"]["id"])
    finally:
        await ann.close()


async def taken(url: str, name: str, challenge: str) -> None:
    """A new player ``name`` takes the challenge and resigns: a result for ann."""
    taker = await player(url, name)
    try:
        game = await taker.call("challenge_take", challenge=challenge)
        await taker.event("challenge_start")
        await taker.call("resign", game=game["game"])
    finally:
        await taker.close()


async def seen_elsewhere(url: str, token: str) -> None:
    """The player's challenges listed on another device, beside the page's connection (as
    the terminal's ``patience-race challenges`` does): their results marked seen."""
    other = await signed_in_client(url, token, side=True)
    try:
        await other.call("challenges")
    finally:
        await other.close()


def test_the_challenges_badge_follows_results_seen_on_another_device(
    browser: Any, web_server: ServerProcess
) -> None:
    url = web_server.url
    ann, challenge = protocol(a_challenge(url))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), ann, "/play#home")
        page.wait_for_selector(".home .game-row")
        assert page.locator("#challenges-new").is_hidden()
        protocol(taken(url, "bob", challenge))
        page.wait_for_selector("#challenges-new:not([hidden]):text-is('1')")
        protocol(seen_elsewhere(url, ann))
        # told at once, the home screen shown as it was
        page.wait_for_selector("#challenges-new[hidden]", state="attached")
        assert page.get_attribute("#challenges-link", "aria-label") == "your challenges"
        # another result, seen elsewhere too, while another screen is shown
        page.click("a[href='/play#board=races/week']")
        page.wait_for_selector(".boards")
        protocol(taken(url, "cy", challenge))
        page.wait_for_selector("#challenges-new:not([hidden]):text-is('1')")
        protocol(seen_elsewhere(url, ann))
        page.wait_for_selector("#challenges-new[hidden]", state="attached")
    finally:
        context.close()


async def a_rated_race(url: str) -> tuple[str, str]:
    """pia hosts a race of Doubles and Quits with bo (no seed: rated), and resigns her
    game in it; bo plays on: both tokens."""
    pia, bo = await player(url, "pia"), await player(url, "bo")
    try:
        code = str((await pia.call("room_create", game="doubles-and-quits"))["code"])
        await bo.call("room_join", code=code)
        await bo.call("ready")
        await pia.call("start")
        for racer in (pia, bo):
            await racer.event("race_start")
        await pia.call("resign")
        assert pia.token is not None and bo.token is not None
        return pia.token, bo.token
    finally:
        for racer in (pia, bo):
            await racer.close()


def test_the_home_screens_ratings_follow_a_rated_race_ending_while_shown(
    browser: Any, web_server: ServerProcess
) -> None:
    url = web_server.url
    pia, bo = protocol(a_rated_race(url))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), pia, "/play#home")
        page.wait_for_selector(".home .ratings:has-text('No rating yet')")
        protocol(racer_does(url, bo, "resign"))  # the race over: its results rate pia
        row = page.wait_for_selector('.home .ratings li[data-game="doubles-and-quits"]')
        assert row is not None
        assert row.inner_text().startswith("Doubles and Quits: "), row.inner_text()
        assert row.inner_text().endswith(" (1 rated race)"), row.inner_text()
    finally:
        context.close()
