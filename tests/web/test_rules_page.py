"""The rules pages for people in a browser (``/rules/GAME``): served for every game the
server plays, with card faces and no terminal keys, readable on a 360-pixel phone (no
page wider than the screen: a sketch of the table scrolls on its own), and the terminal's
text beside them (``/rules/GAME.txt``, ``/web/rules/GAME.txt``) from the same source."""

from __future__ import annotations

from typing import Any

import rulebook
from server.engine import GAMES
from tests.app import rawhttp
from tests.app.conftest import Running, ServerProcess

from .conftest import http, shot

HTML = "text/html; charset=utf-8"


async def test_every_game_has_its_page_and_its_text(server: Running) -> None:
    port = server.web.port
    for game in GAMES:
        page = await rawhttp.get(port, f"/rules/{game}")
        assert page.status == 200 and page.content_type == HTML, game
        assert f"<h1>{rulebook.title(game)}</h1>" in page.text, game
        assert 'class="card ' in page.text and "(u)" not in page.text, game
        assert f'href="/play#solo={game}"' in page.text
        for target in (f"/rules/{game}.txt", f"/web/rules/{game}.txt"):
            text = await rawhttp.get(port, target)
            assert text.status == 200 and text.text == rulebook.text(game), target
    for target in ("/rules/klondike", "/rules/klondike.txt", "/rules/../pages/gate"):
        assert (await rawhttp.get(port, target)).status == 404, target


def test_a_rules_page_fits_a_phone(browser: Any, web_server: ServerProcess) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        errors: list[str] = []

        def console(message: Any) -> None:
            if message.type == "error":
                errors.append(message.text)

        def response(answer: Any) -> None:
            if answer.status >= 400:
                errors.append(answer.url)

        page.on("console", console)
        page.on("response", response)
        for game in GAMES:
            page.goto(f"{http(web_server)}/rules/{game}")
            page.wait_for_selector("article.rules h1")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= 360, (game, wide)
            # every sketch whole in the width: The Labyrinth's first move's sketch had its
            # j column off the screen, to be scrolled to by one who guessed it was there
            cut = page.evaluate(
                "() => [...document.querySelectorAll('pre.sketch')]"
                ".filter(p => p.scrollWidth > p.clientWidth).map(p => p.scrollWidth)"
            )
            assert cut == [], (game, cut)
            size = page.evaluate(
                "() => Math.min(...[...document.querySelectorAll('pre.sketch')]"
                ".map(p => parseFloat(getComputedStyle(p).fontSize)))"
            )
            assert size >= 8, (game, size)
            face = page.locator("pre.sketch .card").first
            assert face.get_attribute("aria-label")
            colour = face.evaluate("e => getComputedStyle(e).color")
            assert colour in ("rgb(204, 0, 0)", "rgb(17, 17, 17)"), colour
        shot(page, "rules-blockade-360")
        # no style refused by the Content-Security-Policy, no file missing (but the favicon
        # the browser asks for by itself, and the console line its 404 makes)
        assert [e for e in errors if "favicon" not in e and "Failed to load" not in e] == []
    finally:
        context.close()
