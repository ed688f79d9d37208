"""Touch targets outside a game's own buttons, found mouse-sized by an outside tester on
a 360x740 touch phone: the home screen's **Rules** links (43x19 px) and the **hints
allowed** checkbox (13x13), a leaderboard's **Top** / **Around me** / **Those I follow**
(24 px high), at a game's end **Undo the last move**, **Challenge a friend** and
**Review** (34 px, beside a **New deal** of 44) and the **Your game's replay** link (19
px). On a touch screen (``pointer: coarse``) each is now 44 px high (**Rules** 44 each
way, and the checkbox's label, which ticks it, 44x44), none over another, and the page
no wider than the window. (A racer's **Leave**, 58x24, is measured racing:
``test_side_race.py``.)"""

from __future__ import annotations

from typing import Any

from tests.app.client import player
from tests.app.conftest import ServerProcess

from .conftest import http, shot, signed_in
from .test_motion import LOST_DEAL, LOST_LINE, deal, moves_shown, play
from .test_phone_faults import protocol
from .test_tap_targets import BOXES, FINGER, UPRIGHT, overlapping

TOUCH = {
    "viewport": {"width": UPRIGHT[0], "height": UPRIGHT[1]},
    "is_mobile": True,
    "has_touch": True,
}

# In the page: whether a tap on the middle of the checkbox's label ticks it
TICKS = """() => {
  const box = document.querySelector('main input[type=checkbox]');
  const r = box.closest('label').getBoundingClientRect();
  const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return at === box || at?.closest('label') === box.closest('label');
}"""
WIDE = "() => document.documentElement.scrollWidth"


def measured(page: Any, targets: list[tuple[str, str]], wide: bool) -> list[str]:
    """What is wrong with ``targets`` ((name, selector)): one missing, under 44 px high (or
    either way, ``wide``), over another, or a page wider than the window."""
    boxes: list[list[Any]] = page.evaluate(BOXES, targets)
    found = [f"no {name}" for name, _ in targets if name not in {b[0] for b in boxes}]
    for name, text, _, _, w, h in boxes:
        if h < FINGER - 0.5 or (wide and w < FINGER - 0.5):
            found.append(f"{name} {text!r} is {w:.0f}x{h:.0f} px")
    found += overlapping(boxes, "")
    if page.evaluate(WIDE) > UPRIGHT[0]:
        found.append(f"the page is {page.evaluate(WIDE)} px wide")
    return found


async def registered(url: str, name: str) -> str:
    client = await player(url, name)
    await client.close()
    assert client.token is not None
    return client.token


def test_the_home_screens_and_a_boards_small_targets_are_a_fingers_size(
    browser: Any, web_server: ServerProcess
) -> None:
    base = http(web_server)
    token = protocol(registered(web_server.url, "tia"))
    context = browser.new_context(**TOUCH)
    try:
        page = context.new_page()
        signed_in(page, base, token, "/play")
        page.wait_for_selector(".game-row")
        faults = [f"home: {f}" for f in measured(page, [("rules", ".game-row a")], True)]
        label = [("hints allowed", "main label:has(input[type=checkbox])")]
        faults += [f"home: {f}" for f in measured(page, label, True)]
        if not page.evaluate(TICKS):
            faults.append("home: a tap on the label's middle does not tick the box")
        shot(page, "small-targets-home")

        page.goto(f"{base}/play#board=daily/gate")
        page.wait_for_selector(".board-views button")
        views = [("view", ".board-views button")]
        faults += [f"board: {f}" for f in measured(page, views, False)]
        shot(page, "small-targets-board")
        assert not faults, "\n".join(faults)
    finally:
        context.close()


#: a game over's actions (a game lost with a move to undo)
ENDED = [
    ("undo", "[data-act=undo-lost]"),
    ("challenge", "[data-act=challenge]"),
    ("review", "[data-act=review]"),
    ("replay", "a[data-replay=you]"),
    ("new deal", ".game [data-act=new]"),
]


def test_a_games_end_actions_are_a_fingers_size(browser: Any, web_server: ServerProcess) -> None:
    base = http(web_server)
    token = protocol(registered(web_server.url, "lou"))
    game, seed = LOST_DEAL
    context = browser.new_context(**TOUCH)
    try:
        page = context.new_page()
        signed_in(page, base, token, "/play")
        page.wait_for_selector(".game-row")
        deal(page, base, game, seed)
        play(page, LOST_LINE)
        moves_shown(page, len(LOST_LINE))
        page.wait_for_selector(".game .status[data-status=lost]")
        for _, selector in ENDED:
            page.wait_for_selector(selector)
        shot(page, "small-targets-lost")
        faults = measured(page, ENDED, False)
        assert not faults, "\n".join(faults)
    finally:
        context.close()
