"""Tap targets on a phone, found by an outside tester at 360x740 by touch: a solo game's
buttons (``deal``, **Undo**, **Cards home**, **Hint**, **Resign**, **New deal**) were 29 px
high, the move box and **Play** 34, the **Rules** link 43x19, the speaker's button 34x28
and the logo (the home screen's link) 22x22; and the game's heading cut its name ("The
Block…", "Light and …"). On a touch screen the game's buttons, **Rules** and the move box
are now 44 px each way, and the top bar's links and button 32 (28 on a phone on its
side, whose bar is no taller than before), none over another; the heading wraps rather
than cut the name.

Each game at its largest (``largest.json``, as ``test_layout.py`` plays it), solo and
racing, on a touch phone (``has_touch``, ``is_mobile``: ``pointer: coarse``) upright
(360x740) and on its side (740x360): the controls measured by their boxes, none
overlapping another, and every layout promise kept with them that large: the board, its
piles, the controls and the move box in the window, no card under the smallest, every
pile large enough to tap (``test_layout.py``'s checks, made there without touch)."""

from __future__ import annotations

import asyncio
from typing import Any

from server.engine import GAMES
from tests.app.conftest import ServerProcess

from .conftest import http, shot, signed_in
from .test_layout import (  # noqa: F401 (fit_server: its fixture)
    ASKED,
    GAME_BOXES,
    LANDSCAPE,
    SETTLED,
    TAPS,
    Driven,
    drive,
    fit_server,
    outside,
    run,
)

UPRIGHT = (360, 740)
TURNED = (740, 360)
#: a game's buttons, Rules and the move box, each way (WCAG 2.2's enhanced target size)
FINGER = 44
#: the top bar's links and speaker button, each way: upright, on its side
BAR = {UPRIGHT: 32, TURNED: 28}

#: the game's controls: (name, selector)
CONTROLS = [
    ("button", ".game .dock button"),
    ("rules", ".game .dock a[href^='/rules/']"),
    ("move box", "#notation"),
]
TOP = [("logo", "#home-link"), ("challenges", "#challenges-link"), ("speaker", "#mute")]
#: the controls each screen must have (by data-act, or text): a solo game's, a racer's
SOLO = {"undo", "resign", "new", "Play", "Rules"}
RACING = {"undo", "resign", "Play"}

# In the page: each box named (every node of each selector) as [name, text, left, top,
# width, height]
BOXES = """(selectors) => {
  const out = [];
  for (const [name, selector] of selectors)
    for (const node of document.querySelectorAll(selector)) {
      if (!node.checkVisibility()) continue;
      const r = node.getBoundingClientRect();
      const text = (node.dataset.act || node.childNodes[0]?.textContent || '').trim();
      out.push([name, text, r.left, r.top, r.width, r.height]);
    }
  return out;
}"""

# In the page: the game's name as its heading shows it, whether the heading cuts it (its
# text wider or taller than its box) and whether it is in the window
HEADING = """() => {
  const h = document.querySelector('.game .game-head [role=heading]');
  const r = h.getBoundingClientRect();
  return { text: h.textContent,
    cut: h.scrollWidth > h.clientWidth || h.scrollHeight > h.clientHeight,
    inside: r.left >= -0.5 && r.right <= innerWidth + 0.5 && r.top >= -0.5
      && r.bottom <= innerHeight + 0.5 };
}"""

# In the page: the rows of the dock's controls (by their tops)
ROWS = """() => new Set([...document.querySelectorAll('.game .dock .controls > *')]
  .filter((e) => e.checkVisibility()).map((e) => Math.round(e.getBoundingClientRect().top))).size"""


async def drive_all(url: str) -> list[Driven]:
    return list(await asyncio.gather(*(drive(url, game, n) for n, game in enumerate(GAMES))))


def small(boxes: list[list[Any]], least: int, where: str) -> list[str]:
    """The boxes under ``least`` px either way."""
    return [
        f"{where}: {name} {text!r} is {w:.0f}x{h:.0f} px, under {least}"
        for name, text, _, _, w, h in boxes
        if w < least - 0.5 or h < least - 0.5
    ]


def overlapping(boxes: list[list[Any]], where: str) -> list[str]:
    """The pairs of boxes that overlap (a target's spacing: none over another)."""
    found = []
    for i, (n1, t1, x1, y1, w1, h1) in enumerate(boxes):
        for n2, t2, x2, y2, w2, h2 in boxes[i + 1 :]:
            across = x1 + w1 > x2 + 0.5 and x2 + w2 > x1 + 0.5
            if across and y1 + h1 > y2 + 0.5 and y2 + h2 > y1 + 0.5:
                found.append(f"{where}: {n1} {t1!r} overlaps {n2} {t2!r}")
    return found


def targets(page: Any, size: tuple[int, int], where: str, needed: set[str]) -> list[str]:
    """What is wrong with the game's controls and the top bar's targets (``needed``: the
    controls that must be there)."""
    page.evaluate(SETTLED)
    page.evaluate(SETTLED)
    controls: list[list[Any]] = page.evaluate(BOXES, CONTROLS)
    top: list[list[Any]] = page.evaluate(BOXES, TOP)
    shown = {b[1] for b in controls} | {b[0] for b in controls}
    found = [f"{where}: no {n}" for n in sorted(needed | {"move box"}) if n not in shown]
    found += small(controls, FINGER, where) + small(top, BAR[size], where)
    found += overlapping(controls + top, where)
    return found


def untappable(page: Any, size: tuple[int, int]) -> list[str]:
    """The piles a tap misses, or too small to tap (test_layout.py's, whose page has no
    touch screen but while it looks: this one has)."""
    found: list[str] = page.evaluate(TAPS)
    if size == LANDSCAPE and page.evaluate(ASKED):  # (taps still pick their piles)
        found = [f for f in found if " shows " not in f]
    return found


def test_a_games_controls_are_large_enough_for_a_finger_on_every_board(
    browser: Any,
    fit_server: ServerProcess,  # noqa: F811
) -> None:
    base = http(fit_server)
    driven = run(drive_all(fit_server.url))
    faults: list[str] = []
    for n, d in enumerate(driven):
        # (loaded at one size, turned to the other: every game seen both ways)
        sizes = [UPRIGHT, TURNED] if n % 2 == 0 else [TURNED, UPRIGHT]
        context = browser.new_context(
            viewport={"width": sizes[0][0], "height": sizes[0][1]}, is_mobile=True, has_touch=True
        )
        try:
            page = context.new_page()
            signed_in(page, base, d.solo, "/play")
            page.wait_for_selector(".game .pile")
            for size in sizes:
                page.set_viewport_size({"width": size[0], "height": size[1]})
                where = f"solo {d.game} {size[0]}x{size[1]}"
                faults += targets(page, size, where, SOLO)
                boxes = [*GAME_BOXES, CONTROLS[1], ("play", ".notation button")]
                faults += [f"{where}: {f}" for f in outside(page, size, boxes)]
                faults += [f"{where}: {f}" for f in untappable(page, size)]
                # the game's name whole, in the window
                heading = page.evaluate(HEADING)
                name = GAMES[d.game].name
                if heading["text"] != name or heading["cut"] or not heading["inside"]:
                    faults.append(f"{where}: the heading {heading}, not {name!r} whole")
                shot(page, f"tap-solo-{d.game}-{size[0]}x{size[1]}")

            signed_in(page, base, d.racer, f"/r/{d.code}")
            page.wait_for_selector(".race-game .pile")
            page.wait_for_selector(".bars .bar-row")
            for size in sizes:
                page.set_viewport_size({"width": size[0], "height": size[1]})
                where = f"race {d.game} {size[0]}x{size[1]}"
                faults += targets(page, size, where, RACING)
                boxes = [*GAME_BOXES, ("racers", ".room .bars"), ("heading", ".room-head")]
                faults += [f"{where}: {f}" for f in outside(page, size, boxes)]
                faults += [f"{where}: {f}" for f in untappable(page, size)]
                if size == UPRIGHT and page.evaluate(ROWS) != 1:
                    # (a racer's buttons on one row: test_phone_layout.py's promise)
                    faults.append(f"{where}: the buttons in {page.evaluate(ROWS)} rows")
                shot(page, f"tap-race-{d.game}-{size[0]}x{size[1]}")
        finally:
            context.close()
    assert not faults, "\n".join(faults)
