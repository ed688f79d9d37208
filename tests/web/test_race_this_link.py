"""A replay's read-only page (``/replay/ID``) offers "Race this": its link races the
replay's ghost at once (``/play#race=ID``), the name asked first where there is none. An
outside tester followed it to the replay viewer, whose own Race this had still to be
pressed. The page's moves say what each undo took back."""

from __future__ import annotations

from typing import Any

from tests.app.client import player
from tests.app.conftest import ServerProcess

from .conftest import http
from .test_keyboard import run
from .test_race import register


async def a_solo_game_by(url: str, name: str) -> str:
    """A game of The Gate by ``name``: a move, undone, made again, then resigned: its
    replay's id."""
    client = await player(url, name)
    try:
        game = await client.call("new_game", game="gate", seed=3)
        await client.call("move", move=game["legal"][0])
        await client.call("undo")
        await client.call("move", move=game["legal"][0])
        await client.call("resign")
        return str(game["game"])
    finally:
        await client.close()


def test_race_this_on_a_replays_page_races_its_ghost(
    browser: Any, web_server: ServerProcess
) -> None:
    rid = run(a_solo_game_by(web_server.url, "ann"))
    base = http(web_server)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{base}/replay/{rid}")
        # (an undo says what it took back: a bare "undo" left it to be worked out)
        assert "undo (takes back 1)" in page.inner_text("table")
        link = page.get_by_role("link", name="Race this")
        assert link.get_attribute("href") == f"/play#race={rid}"
        link.click()
        register(page, "cy")
        page.wait_for_selector(".race-game .pile")
        page.wait_for_selector('.bars .bar-row.ghost[data-player="ann"]')
        assert page.evaluate("location.pathname").startswith("/c/")
    finally:
        context.close()
