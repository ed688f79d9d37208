"""A racer out of a race still on (resigned): the page offered **Review**, which the
server refused ("the race is still on"), and told the racer of their own end in the
third person ("pia: resigned"). Review now comes once the race ends, and a racer's own
end gets no notice (the game says it)."""

from __future__ import annotations

from typing import Any

from server.engine import new_game
from tests.app.client import player
from tests.app.client import signed_in as signed_in_client
from tests.app.conftest import ServerProcess

from .conftest import http, shot, signed_in
from .test_challenge import PHONE
from .test_phone_faults import protocol


async def a_race_of_two(url: str) -> tuple[str, str, str]:
    """pia hosts a race of The Gate with bo: its code, and both tokens."""
    pia, bo = await player(url, "pia"), await player(url, "bo")
    try:
        code = str((await pia.call("room_create", game="gate", seed=3))["code"])
        await bo.call("room_join", code=code)
        await bo.call("ready")
        await pia.call("start")
        for racer in (pia, bo):
            await racer.event("race_start")
        assert pia.token is not None and bo.token is not None
        return code, pia.token, bo.token
    finally:
        for racer in (pia, bo):
            await racer.close()


async def racer_does(url: str, token: str, request: str) -> None:
    """The racer signed in with ``token`` sends ``request`` (``resign``, ``room_leave``)."""
    racer = await signed_in_client(url, token)
    try:
        await racer.call(request)
    finally:
        await racer.close()


def test_review_waits_for_the_race_to_end(browser: Any, web_server: ServerProcess) -> None:
    assert new_game("gate", seed=3).status == "playing"
    code, pia, bo = protocol(a_race_of_two(web_server.url))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        signed_in(page, http(web_server), pia, f"/r/{code}")
        page.wait_for_selector(".race-game .pile")
        page.click("[data-act=resign]")
        page.wait_for_selector(".race-game .game[data-status=resigned], .race-game .over")
        page.wait_for_timeout(300)  # (a notice would have come with the resign's progress)
        assert page.query_selector(".race-game .review") is None, "Review while the race is on"
        notices = page.inner_text("#notices")
        assert "pia" not in notices, notices
        shot(page, "race-resigned-waiting")
        protocol(racer_does(web_server.url, bo, "resign"))  # the race ends
        page.wait_for_selector(".race-game .review button")
    finally:
        context.close()


def test_the_home_screen_leads_back_to_a_race_under_way(
    browser: Any, web_server: ServerProcess
) -> None:
    """The logo mid-race leads home, where nothing led back to the race still on (only
    loading /play did): the home screen says it is on, with a button back to it."""
    code, pia, _ = protocol(a_race_of_two(web_server.url))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), pia, f"/r/{code}")
        page.wait_for_selector(".race-game .pile")
        page.click("#home-link")
        back = page.wait_for_selector(".home .back-to-race")
        assert back is not None and back.inner_text().startswith("Your race at The Gate is on.")
        shot(page, "home-back-to-race")
        # another game is asked about first (it was dealt with no word): declined, home
        asked: list[str] = []

        def decline(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.dismiss()

        page.once("dialog", decline)
        page.click('.game-row[data-game="nestor"] [data-act=solo]')
        assert asked == [
            "Your race at The Gate is still on, its clock running. Play Nestor beside it?"
        ]
        assert page.query_selector(".home .back-to-race") is not None
        page.click("[data-act=back-to-race]")
        page.wait_for_selector(".race-game .pile")
        assert page.evaluate("location.pathname") == f"/r/{code}"
        # over (resigned): nothing to go back to
        page.on("dialog", lambda dialog: dialog.accept())
        page.click("[data-act=resign]")
        page.wait_for_selector(".race-game .over, .race-game .game[data-status=resigned]")
        page.click("#home-link")
        page.wait_for_selector(".home h1")
        assert page.query_selector(".back-to-race") is None
    finally:
        context.close()


def test_the_results_say_who_left_the_room(browser: Any, web_server: ServerProcess) -> None:
    """One who left ranks below one who stayed with as many cards home: the table said
    "resigned" of both, and not why one was placed below."""
    code, pia, bo = protocol(a_race_of_two(web_server.url))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        signed_in(page, http(web_server), pia, f"/r/{code}")
        page.wait_for_selector(".race-game .pile")
        protocol(racer_does(web_server.url, bo, "room_leave"))
        page.click("[data-act=resign]")
        row = page.wait_for_selector('.results tr[data-player="bo"]')
        assert row is not None and "resigned, left" in row.inner_text(), row.inner_text()
        mine = page.inner_text('.results tr[data-player="pia"]')
        assert "left" not in mine, mine
    finally:
        context.close()
