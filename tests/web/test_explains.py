"""Every board explains itself in the browser: The Labyrinth's foundations are captioned
"up ♣" and "down ♣" (their labels uc..ds read like its columns d1.. and its grace g),
The Wedge draws its path (an arrow on each cell toward the next, to 21) with a line saying
how it moves, and the pair games count pairs and offer no Home."""

from __future__ import annotations

import re
from typing import Any

from tests.app.conftest import ServerProcess

from .conftest import http, shot
from .test_play import until
from .test_race import register


def labels(page: Any) -> dict[str, str]:
    found: dict[str, str] = page.eval_on_selector_all(
        ".game .pile",
        "ps => Object.fromEntries(ps.map(p => [p.dataset.pile,"
        " [...p.querySelector('.label').childNodes].filter(n => n.nodeType === 3"
        " || getComputedStyle(n).display !== 'none').map(n => n.textContent).join('')]))",
    )
    return found


def test_each_board_says_what_its_piles_are(browser: Any, web_server: ServerProcess) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        base = http(web_server)
        page.goto(f"{base}/play")
        register(page, "exa")
        page.wait_for_selector(".game-row")

        page.goto(f"{base}/play#solo=labyrinth")
        page.wait_for_selector('.game .pile[data-pile="uc"]')
        seen = labels(page)
        assert (seen["uc"], seen["ds"], seen["d1"], seen["g"]) == ("up ♣", "down ♠", "d1", "g")
        assert (
            page.get_by_role("button", name=re.compile(r"^foundation, clubs up, uc: ")).count() == 1
        )
        shot(page, "labyrinth")

        page.goto(f"{base}/play#solo=wedge")
        page.wait_for_selector('.game .pile[data-pile="15"]')
        seen = labels(page)
        path = page.evaluate("window.patienceRace.screen.view.path")
        assert path and path[-1] == "21"
        # the path's arrows: left along row 3 to 10, then down to 16 and 21
        arrows = {"15": "←", "14": "←", "13": "←", "12": "←", "11": "←", "10": "↓", "16": "↓"}
        for cell in path[:-1]:
            assert seen[cell] == cell + arrows[cell], (cell, seen[cell])
        assert seen["21"] == "21" and seen["20"] == "20"
        legend = page.inner_text(".game .board-box .legend")
        assert "steps along the arrows as 21 empties" in legend
        for box in (".game .board", ".game .board-box .legend"):
            shape = page.locator(box).bounding_box()
            assert shape is not None and shape["y"] + shape["height"] <= 800
        shot(page, "wedge")

        for game in ("nestor", "doubles-and-quits"):
            page.goto(f"{base}/play#solo={game}")
            until(page, "g => window.patienceRace.screen.rules === g", game)
            page.wait_for_selector('.game .pile[data-pile="x"]')
            assert re.fullmatch(r"\d+/26 pairs off", page.inner_text(".game .status"))
            assert page.locator(".game [data-act=home]").count() == 0
        page.goto(f"{base}/play#solo=gate")
        page.wait_for_selector('.game .pile[data-pile="fc"]')
        assert re.fullmatch(r"\d+/52 home", page.inner_text(".game .status"))
        assert page.locator(".game [data-act=home]").count() == 1
        # (a button named "Home" alone was taken for the way back to the home screen)
        assert page.inner_text(".game [data-act=home]") == "Cards home"
    finally:
        context.close()
