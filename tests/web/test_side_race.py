"""A race of two made with hints allowed and a time limit, on a phone turned on its side
(740x360, touch), found by an outside tester not to fit the window: the page 377 px tall,
the move box and **Play** cut, and in Light and Shade the stock and talon (the column
beside the board held the room's line, two bars, the game's line, the clock wrapped to a
line of its own, "0:01 (2:59 left)", three rows of buttons, **Hint** making the third,
and the move box). A race of one, or without hints and a limit, fitted.

For every game a room of two with hints and a 3-minute limit is made over the protocol;
its host races on a phone on its side and its guest on a phone upright, each a real page
(the guest readies, the host starts): at Go! each page's board, piles, clock, buttons
(**Hint** among them), move box, **Play**, racers' panel and heading are in the window,
the page does not scroll, and the game's buttons stay 44 px for a finger, none over
another; and so is the room's **Leave** (it was 58x24 px on a phone: the tester's
"smaller things")."""

from __future__ import annotations

from typing import Any

import pytest

from server.engine import GAMES
from tests.app.client import player
from tests.app.conftest import ServerProcess

from .conftest import http, shot, signed_in
from .test_layout import GAME_BOXES, fit_server, outside, run  # noqa: F401 (fit_server: its fixture)
from .test_tap_targets import FINGER, TURNED, UPRIGHT, targets

#: what must be in the window while racing
BOXES = [
    *GAME_BOXES,
    ("hint", ".game [data-act=hint]"),
    ("play", ".notation button"),
    ("racers", ".room .bars"),
    ("heading", ".room-head"),
]
#: a racer's controls, Hint among them
RACING = {"undo", "resign", "hint", "Play"}

# In the page: how much taller than the window the page is
OVER = """() => document.documentElement.scrollHeight - innerHeight"""


async def a_room(url: str, game: str, n: int) -> tuple[str, str, str]:
    """A room of ``game`` with hints and a limit of 3 minutes, its guest in it: its code,
    the host's token and the guest's."""
    host, guest = await player(url, f"side{n}h"), await player(url, f"side{n}g")
    try:
        room = await host.call("room_create", game=game, hints=True, time_limit=180)
        await guest.call("room_join", code=room["code"])
        assert host.token is not None and guest.token is not None
        return str(room["code"]), host.token, guest.token
    finally:
        await host.close()
        await guest.close()


@pytest.mark.parametrize("game", list(GAMES))
def test_a_race_of_two_with_hints_and_a_limit_fits_a_phone_either_way(
    browser: Any,
    fit_server: ServerProcess,  # noqa: F811
    game: str,
) -> None:
    base = http(fit_server)
    code, host_token, guest_token = run(a_room(fit_server.url, game, list(GAMES).index(game)))
    sizes = {"host": TURNED, "guest": UPRIGHT}
    contexts = {
        who: browser.new_context(viewport={"width": w, "height": h}, is_mobile=True, has_touch=True)
        for who, (w, h) in sizes.items()
    }
    try:
        pages = {who: context.new_page() for who, context in contexts.items()}
        for page in pages.values():
            page.on("dialog", lambda dialog: dialog.accept())
        signed_in(pages["guest"], base, guest_token, f"/r/{code}")
        signed_in(pages["host"], base, host_token, f"/r/{code}")
        pages["guest"].click("[data-act=ready]")
        pages["host"].wait_for_selector("[data-act=start]:not([disabled])")
        pages["host"].click("[data-act=start]")
        faults: list[str] = []
        for who, page in pages.items():
            page.wait_for_selector(".race-game .pile", timeout=10000)
            page.wait_for_selector(".bars .bar-row + .bar-row")
            page.wait_for_selector(".race-game .clock:has-text('left')")
            size = sizes[who]
            where = f"{who} {size[0]}x{size[1]}"
            faults += [f"{where}: {f}" for f in outside(page, size, BOXES)]
            faults += targets(page, size, where, RACING)
            leave = page.locator("[data-act=leave]").bounding_box()
            if leave is None or leave["height"] < FINGER - 0.5:
                faults.append(f"{where}: Leave is {leave}")
            over = page.evaluate(OVER)
            if over > 0:
                faults.append(f"{where}: the page is {over} px taller than the window")
            shot(page, f"side-race-{game}-{size[0]}x{size[1]}")
        for page in pages.values():
            page.click(".race-game [data-act=resign]")
        assert not faults, "\n".join(faults)
    finally:
        for context in contexts.values():
            context.close()
