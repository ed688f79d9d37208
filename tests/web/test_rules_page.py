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
            # (the style sheet's floor is 8 px; every page's sketches are drawn narrow
            # enough to stay over 10: The Blockade's deal, 62 characters wide, was 8.3 px)
            assert size >= 10, (game, size)
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


#: for each face of each sketch of the page: its text's left and right edge and its box's,
#: and where it starts, in characters from the sketch's left (a character's width measured
#: in that sketch's own type)
FACES = """() => [...document.querySelectorAll('pre.sketch')].flatMap((pre) => {
    const probe = document.createElement('span');
    probe.textContent = '0'.repeat(20);
    pre.append(probe);
    const ch = probe.getBoundingClientRect().width / 20;
    probe.remove();
    const style = getComputedStyle(pre);
    const left = pre.getBoundingClientRect().left + parseFloat(style.borderLeftWidth)
        + parseFloat(style.paddingLeft) - pre.scrollLeft;
    return [...pre.querySelectorAll('.card')].map((face) => {
        const range = document.createRange();
        range.selectNodeContents(face);
        const text = range.getBoundingClientRect();
        const box = face.getBoundingClientRect();
        return { face: face.textContent, text: [text.left, text.right], box: [box.left, box.right],
                 column: (box.left - left) / ch };
    });
})"""


def sketch_columns(game: str) -> list[tuple[str, int]]:
    """Each card a sketch of the browser's page draws, and its column in the sketch as
    drawn (its source line but the first two columns, the sketch's indent)."""
    lines = rulebook.render(rulebook.source(game), "web").split("\n")
    out: list[tuple[str, int]] = []
    inside = False
    for line in lines:
        if rulebook.RULE.match(line):
            inside = not inside
        elif inside:
            out += [(m.group(0), m.start() - 2) for m in rulebook.CARD.finditer(line)]
    return out


def test_a_ten_fits_its_face_and_every_face_keeps_its_column(
    browser: Any, web_server: ServerProcess
) -> None:
    """Every face's rank and suit inside its box, on a tablet and on a phone, each face
    where its code stands in the text: a ten's suit had sat outside its box (10♠ in The
    Wedge and The Blockade, drawn in two characters' width)."""
    for width, height in ((768, 1024), (360, 740)):
        context = browser.new_context(viewport={"width": width, "height": height})
        try:
            page = context.new_page()
            for game in GAMES:
                page.goto(f"{http(web_server)}/rules/{game}")
                page.wait_for_selector("article.rules h1")
                faces = page.evaluate(FACES)
                outside = [
                    f["face"]
                    for f in faces
                    if f["text"][0] < f["box"][0] - 0.5 or f["text"][1] > f["box"][1] + 0.5
                ]
                assert outside == [], (game, width, outside)
                expected = sketch_columns(game)
                assert len(faces) == len(expected), game
                moved = [
                    (code, column, round(f["column"], 2))
                    for (code, column), f in zip(expected, faces, strict=True)
                    if abs(f["column"] - column) > 0.1
                ]
                assert moved == [], (game, width, moved)
        finally:
            context.close()
