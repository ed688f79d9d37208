"""The browser's address and history never cost a player their game: a reload, Back and
Forward take the solo game in play up again (a reload of `/play#solo=gate` once dealt a
new game, and the server let the one in play go), and only Play or New deal deals."""

from __future__ import annotations

from typing import Any

from tests.app.conftest import ServerProcess

from .conftest import http
from .test_motion import play
from .test_play import until
from .test_race import register

PHONE = {"width": 360, "height": 740}


def shown(page: Any) -> tuple[str, int]:
    """The game on the screen: its id and its moves."""
    until(page, "() => window.patienceRace.screen?.view && document.querySelector('.game .pile')")
    gid, moves = page.evaluate(
        "() => [window.patienceRace.screen.id, window.patienceRace.screen.view.moves]"
    )
    return gid, moves


def test_a_reload_back_and_forward_take_the_solo_game_up_again(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        base = http(web_server)
        page.goto(f"{base}/play")
        register(page, "hist")
        page.click(".game-row[data-game=gate] [data-act=solo]")
        first, _ = shown(page)
        assert page.url.endswith("/play#solo=gate")
        play(page, ["deal", "deal", "deal"])
        assert shown(page) == (first, 3)

        page.reload()
        assert shown(page) == (first, 3)  # the same game, as it was

        page.goto(f"{base}/play#home")
        page.wait_for_selector(".game-row")
        page.go_back()
        assert shown(page) == (first, 3)
        page.go_forward()
        page.wait_for_selector(".game-row")

        # Play deals a new game, once the player says the game in play may go; Back to the
        # old address shows the game in play, the new one (the server keeps one solo game
        # in play: the older one is gone)
        asked: list[str] = []

        def answer(dialog: Any) -> None:
            asked.append(dialog.message)
            dialog.accept()

        page.once("dialog", answer)
        page.click(".game-row[data-game=gate] [data-act=solo]")
        until(page, "id => (window.patienceRace.screen?.id ?? id) !== id", first)
        second, moves = shown(page)
        assert moves == 0
        assert asked == [
            "Deal a new game of The Gate? Your game of The Gate in play (3 moves) is given up."
        ]
        page.go_back()
        page.wait_for_selector(".game-row")
        page.go_back()
        assert shown(page) == (second, 0)
        # and the bare address takes it up too
        page.goto(f"{base}/play")
        assert shown(page) == (second, 0)
    finally:
        context.close()
