"""One player on several devices, racing on one of them: the others do not resign that race
unasked (app/elsewhere.js).

A tab left on an old room's address (a finished race's ``/r/CODE``) or on
``/play#quick=GAME``, reloaded or "Play here again" pressed once another device had signed
in and begun a race, joined that old room or the quick race's queue with no question:
either leaves the room the player is in, and the server resigned the race they were
playing on the other device (their rival saw them resign and leave). A second device
did not know a race was on (only a tab that had shown it did): its home screen said
nothing of it, and its Race, Join and Quick race resigned it at once. Now every welcome
says the race is on, an address that would leave it shows the race and asks, and the
home screen's buttons ask as Play does.
"""

from __future__ import annotations

from typing import Any

from tests.app.client import player, racing
from tests.app.client import signed_in as signed_in_client
from tests.app.conftest import ServerProcess

from .conftest import http, signed_in
from .test_challenge import PHONE
from .test_phone_faults import protocol

#: what Race on Nestor asks while a race at The Gate is on
ASKED_RACE = (
    "Your race at The Gate is still on, its clock running. Make a room to race Nestor? "
    "That leaves your room, and resigns your game in the race at The Gate."
)


class Questions:
    """The questions a page asks (``confirm``), recorded and each answered ``yes`` or no,
    until :meth:`stop`."""

    def __init__(self, page: Any, yes: bool) -> None:
        self.page, self.yes = page, yes
        self.asked: list[str] = []
        page.on("dialog", self.answer)

    def answer(self, dialog: Any) -> None:
        self.asked.append(dialog.message)
        if self.yes:
            dialog.accept()
        else:
            dialog.dismiss()

    def stop(self) -> None:
        self.page.remove_listener("dialog", self.answer)


async def registered(url: str, *names: str) -> list[str]:
    """Players registered under ``names``: their tokens."""
    tokens = []
    for name in names:
        client = await player(url, name)
        assert client.token is not None
        tokens.append(client.token)
        await client.close()
    return tokens


async def old_room(url: str, ann: str, cy: str) -> str:
    """ann races cy, both resign: the room (finished, both still in it)."""
    a, c = await signed_in_client(url, ann), await signed_in_client(url, cy)
    try:
        code = await racing(a, c)
        await a.call("resign")
        await c.call("resign")
        await a.event("results")
        return code
    finally:
        await a.close()
        await c.close()


async def race_elsewhere(url: str, ann: str, bob: str) -> str:
    """ann, on another device (signing the page's tab out), makes a room of The Gate and
    races bob in it: its code."""
    a, b = await signed_in_client(url, ann), await signed_in_client(url, bob)
    try:
        return await racing(a, b)
    finally:
        await a.close()
        await b.close()


async def seen_by(url: str, bob: str) -> dict[str, Any]:
    """The room bob races in, as the server gives it him (his welcome's ``resume``)."""
    b = await signed_in_client(url, bob)
    try:
        room: dict[str, Any] = b.welcome["resume"]["room"]  # type: ignore[attr-defined]
        return room
    finally:
        await b.close()


def still_racing(url: str, bob: str, code: str) -> None:
    """ann is still in bob's race in room ``code``, her game played: not resigned, not left."""
    room = protocol(seen_by(url, bob))
    assert room["code"] == code and room["state"] == "racing", room
    ann = [p for p in room["players"] if p["name"] == "ann"]
    assert ann and ann[0]["status"] == "playing", room
    assert not [p for p in room.get("left") or [] if p["name"] == "ann"], room


def test_an_old_rooms_address_reloaded_leaves_the_race_elsewhere_alone(
    browser: Any, web_server: ServerProcess
) -> None:
    url = web_server.url
    ann, bob, cy = protocol(registered(url, "ann", "bob", "cy"))
    old = protocol(old_room(url, ann, cy))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), ann, f"/r/{old}")
        page.wait_for_selector(".room .results")
        new = protocol(race_elsewhere(url, ann, bob))
        page.wait_for_selector(".signed-out")
        page.click("[data-act=reload]")  # "Play here again": the old room's address again
        page.wait_for_selector(".elsewhere, .room")
        page.wait_for_timeout(300)
        still_racing(url, bob, new)
        # the race shown, and the way back to it; the old room joined only when asked
        said = page.inner_text(".elsewhere")
        assert "Your race at The Gate is on" in said, said
        assert f"Join room {old} here?" in said, said
        page.click(".elsewhere [data-act=back-to-race]")
        page.wait_for_selector(".race-game .pile")
        assert page.evaluate("location.pathname") == f"/r/{new}"
        still_racing(url, bob, new)
        page.go_back()
        page.wait_for_selector(".elsewhere [data-act=leave-race]")
        page.click(".elsewhere [data-act=leave-race]")  # Join room OLD all the same
        page.wait_for_selector(f'.room .room-head:has-text("{old}")')
        room = protocol(seen_by(url, bob))
        assert [p["name"] for p in room["left"]] == ["ann"], room
    finally:
        context.close()


def test_the_quick_race_address_reloaded_leaves_the_race_elsewhere_alone(
    browser: Any, web_server: ServerProcess
) -> None:
    url = web_server.url
    ann, bob = protocol(registered(url, "ann", "bob"))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), ann, "/play#quick=nestor")
        page.wait_for_selector(".quick-wait:has-text('Your rating')")
        new = protocol(race_elsewhere(url, ann, bob))
        page.wait_for_selector(".signed-out")
        page.click("[data-act=reload]")
        page.wait_for_selector(".elsewhere, .quick")
        page.wait_for_timeout(300)
        still_racing(url, bob, new)
        said = page.inner_text(".elsewhere")
        assert "Quick race at Nestor here?" in said, said
    finally:
        context.close()


def test_a_second_devices_home_screen_says_the_race_is_on_and_asks_first(
    browser: Any, web_server: ServerProcess
) -> None:
    url = web_server.url
    ann, bob = protocol(registered(url, "ann", "bob"))
    new = protocol(race_elsewhere(url, ann, bob))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), ann, "/play#home")
        back = page.wait_for_selector(".home .back-to-race")
        assert back is not None and back.inner_text().startswith("Your race at The Gate is on.")
        questions = Questions(page, yes=False)
        asked = questions.asked
        page.click('.game-row[data-game="nestor"] [data-act=race]')
        page.click('.game-row[data-game="nestor"] [data-act=quick]')
        page.fill(".join input", "ABC123")
        page.click(".join button[type=submit]")
        page.wait_for_timeout(500)
        assert asked == [
            ASKED_RACE,
            ASKED_RACE.replace("Make a room to race Nestor", "Quick race at Nestor"),
            ASKED_RACE.replace("Make a room to race Nestor", "Join room ABC123"),
        ], asked
        assert page.query_selector(".home .back-to-race") is not None
        assert page.evaluate("location.hash") == "#home"
        still_racing(url, bob, new)
        # back to it, and from there home and Race, answered yes: a room made, the race left
        page.click("[data-act=back-to-race]")
        page.wait_for_selector(".race-game .pile")
        assert page.evaluate("location.pathname") == f"/r/{new}"
        questions.stop()
        page.click("#home-link")
        page.wait_for_selector(".home .back-to-race")
        page.once("dialog", lambda dialog: dialog.accept())
        page.click('.game-row[data-game="nestor"] [data-act=race]')
        page.wait_for_selector(".room [data-act=leave]")
        room = protocol(seen_by(url, bob))
        assert [p["name"] for p in room["left"]] == ["ann"], room
        # the race left so is no longer said at home
        page.wait_for_timeout(300)
        page.click("#home-link")
        page.wait_for_selector(".home .game-row")
        assert page.query_selector(".home .back-to-race") is None
    finally:
        context.close()


def test_a_racer_who_leaves_the_room_mid_race_is_told_of_no_race_on(
    browser: Any, web_server: ServerProcess
) -> None:
    """A racer who left their room mid-race (Leave, said yes: their game resigned) landed
    on a home screen saying "Your race at The Gate is on. Back to the race", and Play then
    asked "Your race at The Gate is still on... Play Nestor beside it?": the page still
    held the race as on (``app.racing``) until a reload. Now leaving clears it at once."""
    url = web_server.url
    ann, bob = protocol(registered(url, "ann", "bob"))
    new = protocol(race_elsewhere(url, ann, bob))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), ann, f"/r/{new}")
        page.wait_for_selector(".race-game .pile")
        asked = Questions(page, yes=True).asked
        page.click(".room [data-act=leave]")
        page.wait_for_selector(".home .game-row")
        assert asked == ["Leave the room? Your game in this race is resigned."], asked
        room = protocol(seen_by(url, bob))
        assert [p["name"] for p in room["left"]] == ["ann"], room
        page.wait_for_timeout(300)
        assert page.query_selector(".home .back-to-race") is None, page.inner_text(".home")
        assert page.evaluate("window.patienceRace.racing") is None
        page.click('.game-row[data-game="nestor"] [data-act=solo]')
        page.wait_for_selector(".game .pile")
        assert asked == ["Leave the room? Your game in this race is resigned."], asked
    finally:
        context.close()


def test_a_racer_who_joins_the_quick_race_instead_is_told_of_no_race_on(
    browser: Any, web_server: ServerProcess
) -> None:
    """Quick race on Nestor, answered yes, leaves the room and resigns the race at The
    Gate: the home screen went on saying "Your race at The Gate is on" (the page held it
    as on, as it had after Leave)."""
    url = web_server.url
    ann, bob = protocol(registered(url, "ann", "bob"))
    protocol(race_elsewhere(url, ann, bob))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), ann, "/play#home")
        page.wait_for_selector(".home .back-to-race")
        page.once("dialog", lambda dialog: dialog.accept())
        page.click('.game-row[data-game="nestor"] [data-act=quick]')
        page.wait_for_selector("[data-act=quick-leave]")
        room = protocol(seen_by(url, bob))
        assert [p["name"] for p in room["left"]] == ["ann"], room
        assert page.evaluate("window.patienceRace.racing") is None
        page.click("[data-act=quick-leave]")
        page.wait_for_selector(".home .game-row")
        assert page.query_selector(".home .back-to-race") is None, page.inner_text(".home")
    finally:
        context.close()


async def link_code(url: str, token: str) -> str:
    """A link code of the player with ``token``, asked beside their connection (as the
    terminal's ``patience-race link`` asks)."""
    client = await signed_in_client(url, token, side=True)
    try:
        return str((await client.call("link_code"))["code"])
    finally:
        await client.close()


async def daily_resigned(url: str, token: str, game: str) -> None:
    """The player's ranked daily of ``game``, dealt and resigned: its page offers practice."""
    client = await signed_in_client(url, token)
    try:
        ranked = await client.call("daily", game=game)
        await client.call("resign", game=ranked["game"])
    finally:
        await client.close()


def test_a_link_code_entered_on_the_daily_page_mid_race_goes_to_the_race(
    browser: Any, web_server: ServerProcess
) -> None:
    """The phone, on Nestor's daily page, signed in with a link code while the player
    raced on the laptop: it showed the daily's Start screen, with no word of the race, and
    its Start dealt the ranked attempt unasked (both clocks running, the race on no
    screen). A link code signs in straight into what the player was doing: the race."""
    url = web_server.url
    ann, bob = protocol(registered(url, "ann", "bob"))
    new = protocol(race_elsewhere(url, ann, bob))
    code = protocol(link_code(url, ann))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play#daily=nestor")
        page.click("summary:has-text('Have a link code?')")
        page.fill("input[name=link-code]", code)
        page.click("text=Sign in with the code")
        page.wait_for_selector(".race-game .pile, .daily [data-act=start-daily]")
        assert page.evaluate("location.pathname") == f"/r/{new}", page.inner_text("main")
        page.wait_for_selector(".race-game .pile")
        still_racing(url, bob, new)
        # Back: the daily's page, which says the race is on and leads back to it
        page.go_back()
        page.wait_for_selector(".daily [data-act=start-daily]")
        said = page.inner_text(".daily .back-to-race")
        assert said.startswith("Your race at The Gate is on."), said
        page.click(".daily [data-act=back-to-race]")
        page.wait_for_selector(".race-game .pile")
        assert page.evaluate("location.pathname") == f"/r/{new}"
    finally:
        context.close()


def test_play_here_again_on_the_daily_page_mid_race_goes_to_the_race(
    browser: Any, web_server: ServerProcess
) -> None:
    """A tab left on a daily's page while the player began a race on another device:
    "Play here again" showed the daily's page, with nothing about the race."""
    url = web_server.url
    ann, bob = protocol(registered(url, "ann", "bob"))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), ann, "/play#daily=doubles-and-quits")
        page.wait_for_selector(".daily [data-act=start-daily]")
        new = protocol(race_elsewhere(url, ann, bob))
        page.wait_for_selector(".signed-out")
        page.click("[data-act=reload]")  # "Play here again"
        page.wait_for_selector(".race-game .pile, .daily [data-act=start-daily]")
        assert page.evaluate("location.pathname") == f"/r/{new}", page.inner_text("main")
        page.wait_for_selector(".race-game .pile")
        still_racing(url, bob, new)
        # Back: the daily's page, which says the race is on
        page.go_back()
        page.wait_for_selector(".daily [data-act=start-daily]")
        assert page.query_selector(".daily .back-to-race") is not None
    finally:
        context.close()


def test_the_dailys_start_and_practice_ask_first_while_a_race_is_on(
    browser: Any, web_server: ServerProcess
) -> None:
    """The daily's Start dealt today's ranked attempt, and Practise this deal its
    practice, with no question while a race of the player's was on (Play on the home
    screen asks): now both ask, as Play does, and no says nothing is dealt."""
    url = web_server.url
    ann, bob = protocol(registered(url, "ann", "bob"))
    protocol(daily_resigned(url, ann, "nestor"))
    new = protocol(race_elsewhere(url, ann, bob))
    asked = "Your race at The Gate is still on, its clock running. "
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), ann, "/play#daily=doubles-and-quits")
        page.wait_for_selector(".daily [data-act=start-daily]")
        said = page.inner_text(".daily .back-to-race")
        assert said.startswith("Your race at The Gate is on."), said
        questions = Questions(page, yes=False)
        page.click(".daily [data-act=start-daily]")
        assert questions.asked == [
            asked + "Start today's ranked attempt at Doubles and Quits beside it?"
        ], questions.asked
        # no: nothing dealt (the server's word on the day's attempt, asked after the answer)
        status = page.evaluate(
            "window.patienceRace.link.request('daily', {game: 'doubles-and-quits', start: false})"
            ".then((r) => r.ranked_attempt)"
        )
        assert status == "pending", status
        assert page.query_selector(".daily [data-act=start-daily]") is not None
        questions.stop()

        page.evaluate("window.patienceRace.go('/play#daily=nestor')")
        page.wait_for_selector(".daily [data-act=practice]")
        page.uncheck(".daily [data-act=race-board]")  # (practice alone: no ghosts)
        questions = Questions(page, yes=True)
        page.click(".daily [data-act=practice]")
        assert questions.asked == [asked + "Practise Nestor's daily deal beside it?"]
        page.wait_for_selector(".daily .game .pile")
        still_racing(url, bob, new)
    finally:
        context.close()
