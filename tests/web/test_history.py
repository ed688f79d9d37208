"""The browser's address and history never cost a player their game: a reload, Back and
Forward take the solo game in play up again (a reload of `/play#solo=gate` once dealt a
new game, and the server let the one in play go), and only Play or New deal deals; another
game's address asks first, as Play does."""

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


def test_an_address_for_another_game_asks_as_play_does(
    browser: Any, web_server: ServerProcess
) -> None:
    """`/play#solo=nestor` reached (a bookmark, a link typed in) while a game of The Gate
    is in play asks as Play on Nestor does: no shows The Gate with the address saying so
    (it had shown The Gate under `#solo=nestor`), yes deals Nestor."""
    context = browser.new_context(viewport=PHONE)
    try:
        page = context.new_page()
        base = http(web_server)
        page.goto(f"{base}/play")
        register(page, "hash")
        page.click(".game-row[data-game=gate] [data-act=solo]")
        gate, _ = shown(page)
        play(page, ["deal"])
        assert shown(page) == (gate, 1)
        page.goto(f"{base}/play")
        assert shown(page) == (gate, 1)  # (taken up under the bare address)

        yes = {"now": False}
        asked: list[str] = []

        def answer(dialog: Any) -> None:
            asked.append(dialog.message)
            if yes["now"]:
                dialog.accept()
            else:
                dialog.dismiss()

        page.on("dialog", answer)
        question = "Deal a new game of Nestor? Your game of The Gate in play (1 move) is given up."
        # the address changed in the page (its hash alone): no keeps The Gate, and says so
        page.goto(f"{base}/play#solo=nestor")
        until(page, "() => location.hash === '#solo=gate'", timeout=10)
        assert asked == [question]
        assert shown(page) == (gate, 1)

        # loaded afresh: asked again (as the address changes, and as it is reloaded); no,
        # the same
        asked.clear()
        page.goto(f"{base}/play#solo=nestor")
        until(page, "() => location.hash === '#solo=gate'", timeout=10)
        page.evaluate("() => history.replaceState(null, '', '/play#solo=nestor')")
        page.reload()
        until(page, "() => location.hash === '#solo=gate'", timeout=10)
        assert shown(page) == (gate, 1)
        assert asked == [question, question]

        # yes: Nestor dealt, under its address
        asked.clear()
        yes["now"] = True
        page.goto(f"{base}/play#solo=nestor")
        until(page, "() => window.patienceRace.screen?.rules === 'nestor'")
        assert shown(page)[1] == 0
        assert page.url.endswith("/play#solo=nestor")
        assert asked == [question]
    finally:
        context.close()
