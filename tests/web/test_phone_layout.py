"""Faults an outside tester found on a phone (360x740), measured in the page: a challenge
raced on a phone had its board squeezed to cards 30 pixels wide (53 for the same game
played solo) by the challenge's table under the move box; a replay's speed, Race this
and Review had a third row of their own above the board; a group's link was cut at its
key ("…/g/ID?k="); and the top bar cut the player's name to "A…" beside "signed in
elsewhere". Each is checked at 1280x800 too, where nothing may be made worse."""

from __future__ import annotations

from typing import Any

import pytest

from tests.app.client import player
from tests.app.client import signed_in as signed_in_client
from tests.app.conftest import ServerProcess

from .conftest import http, shot, signed_in
from .test_challenge import PHONE
from .test_layout import SETTLED
from .test_phone_faults import DESKTOP, LONG, protocol

SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["360x740", "1280x800"])


def settle(page: Any) -> None:
    """Two frames, twice: a box resized, the board drawn again for it."""
    page.evaluate(SETTLED)
    page.evaluate(SETTLED)


async def a_challenge(url: str) -> tuple[str, str, str]:
    """gil plays a move of The Gate and resigns, and makes it a challenge: its id, gil's
    token and dee's, who will race it."""
    gil, dee = await player(url, "gil"), await player(url, "dee")
    try:
        game = await gil.call("new_game", game="gate", seed=5)
        await gil.call("move", move=game["legal"][0])
        await gil.call("resign")
        cid = (await gil.call("challenge_create", replay=game["game"]))["challenge"]["id"]
        assert gil.token is not None and dee.token is not None
        return str(cid), gil.token, dee.token
    finally:
        await gil.close()
        await dee.close()


# In the page: the width of a card of the game's board, and whether the page scrolls
CARD = """() => Math.round(
  document.querySelector('.game .board .card').getBoundingClientRect().width)"""
FITS = """() => ({ scrolls: document.documentElement.scrollHeight > innerHeight + 1,
  dock: Math.round(document.querySelector('.game .dock').getBoundingClientRect().bottom),
  height: innerHeight })"""
# In the page: the rows the children of `box` (a selector) take, by their tops
ROWS = """(box) => new Set([...document.querySelector(box).children]
  .filter((e) => e.checkVisibility()).map((e) => Math.round(e.getBoundingClientRect().top))).size"""
# In the page: the challenge's table, where it is and whether it is drawn at all
TABLE = """() => {
  const table = document.querySelector('.challenge > .results');
  const r = table.getBoundingClientRect();
  return { shown: table.checkVisibility() && r.height > 0, top: Math.round(r.top),
    rows: table.querySelectorAll('tbody tr').length };
}"""


@SIZES
def test_a_challenge_raced_has_the_board_a_solo_game_has(
    browser: Any, web_server: ServerProcess, size: dict[str, Any]
) -> None:
    # at 360x740 The Gate's cards were 30 px wide racing a challenge, 53 played solo: the
    # challenge's table stood under the move box and took 190 px of the board's room
    base = http(web_server)
    cid, gil, dee = protocol(a_challenge(web_server.url))
    name = "phone" if size is PHONE else "desktop"
    solo_context = browser.new_context(**size)
    context = browser.new_context(**size)
    try:
        solo = solo_context.new_page()
        signed_in(solo, base, gil, "/play#solo=gate")
        solo.wait_for_selector(".game .board-box .pile")
        settle(solo)
        alone = solo.evaluate(CARD)

        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        signed_in(page, base, dee, f"/c/{cid}")
        page.wait_for_selector(".challenge-head [data-act=take]")
        # the challenge shown: its table, before it is raced
        assert page.evaluate(TABLE)["shown"], page.evaluate(TABLE)
        page.click("[data-act=take]")
        page.wait_for_selector(".race-game .pile", timeout=10000)
        page.wait_for_selector('.bars .bar-row.ghost[data-player="gil"]')
        settle(page)
        shot(page, f"layout-challenge-race-{name}")
        racing = page.evaluate(CARD)
        fits = page.evaluate(FITS)
        table = page.evaluate(TABLE)
        # the game's screen fits the window, and the table takes none of the board's room
        assert not fits["scrolls"] and fits["dock"] <= fits["height"], fits
        assert not table["shown"] or table["top"] >= fits["height"], table
        # the cards nearly as wide as the same game's played solo (the racers' panel and
        # the challenge's heading above the board take what they take): 31 px for 53
        assert racing >= 0.85 * alone, (racing, alone)
        if size is PHONE:
            # and the racer's buttons on one row (Resign had one of its own)
            assert page.evaluate(ROWS, ".game .dock .controls") == 1

        # the game over: the verdict, and the table with both
        page.click(".race-game [data-act=resign]")
        page.wait_for_selector(".challenge-result .verdict")
        page.wait_for_function("() => document.querySelectorAll('.results tbody tr').length === 2")
        table = page.evaluate(TABLE)
        assert table["shown"] and table["rows"] == 2, table
        shot(page, f"layout-challenge-over-{name}")
    finally:
        solo_context.close()
        context.close()


async def a_replay(url: str) -> tuple[str, str]:
    """gil plays a move of The Gate and resigns: the game's id (its replay), and the
    token of dee, who will watch it."""
    gil, dee = await player(url, "gil"), await player(url, "dee")
    try:
        game = await gil.call("new_game", game="gate", seed=5)
        await gil.call("move", move=game["legal"][0])
        await gil.call("resign")
        assert dee.token is not None
        return str(game["game"]), dee.token
    finally:
        await gil.close()
        await dee.close()


# In the page: the replay's controls by the row each is on (from the top), and whether
# any is wider than the window
CONTROLS = """() => {
  const box = document.querySelector('.replay > .controls');
  const name = (e) => e.dataset.act || e.getAttribute('aria-label') || e.className || e.tagName;
  const rows = new Map();
  for (const e of box.children) {
    if (!e.checkVisibility()) continue;
    const r = e.getBoundingClientRect();
    const row = [...rows.keys()].find((top) => Math.abs(top - r.top) < r.height / 2);
    const at = row === undefined ? r.top : row;
    rows.set(at, [...(rows.get(at) || []), name(e)]);
  }
  return { rows: [...rows.entries()].sort((a, b) => a[0] - b[0]).map(([, names]) => names),
    over: box.scrollWidth > box.clientWidth + 1
      || document.documentElement.scrollWidth > innerWidth,
    height: Math.round(box.getBoundingClientRect().height) };
}"""


@SIZES
def test_a_replays_speed_race_this_and_review_have_no_row_of_their_own(
    browser: Any, web_server: ServerProcess, size: dict[str, Any]
) -> None:
    # on a phone the steps, then the scrubber, then the speed, Race this and Review: three
    # rows above the board, the last of them those three alone
    replay, dee = protocol(a_replay(web_server.url))
    context = browser.new_context(**size)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), dee, f"/play#replay={replay}")
        page.wait_for_selector(".replay .board-box .pile")
        page.wait_for_selector(".replay [data-act=race-replay]")
        page.wait_for_selector(".replay [data-act=review]")
        settle(page)
        shot(page, f"layout-replay-{'phone' if size is PHONE else 'desktop'}")
        seen = page.evaluate(CONTROLS)
        assert not seen["over"], seen
        rows = seen["rows"]
        if size is PHONE:
            assert len(rows) <= 2, seen
            # each of the three shares a row with the step buttons or the scrubber
            for row in rows:
                assert not set(row) <= {"speed", "race-replay", "review"}, seen
        else:
            assert len(rows) == 1, seen  # (a wide screen's one row, as it was)
    finally:
        context.close()


async def a_group(url: str) -> tuple[str, str]:
    """ann makes a group: its id, and ann's token."""
    ann = await player(url, "ann")
    try:
        made = await ann.call("group_create", name="Friday Club")
        assert ann.token is not None
        return str(made["group"]["id"]), ann.token
    finally:
        await ann.close()


# In the page: the group's link as shown (an input's value or an element's text), and
# whether any of it is out of sight (scrolled in its box, or past the window's edge)
GROUP_LINK = """() => {
  const e = document.querySelector('.group .group-link');
  const r = e.getBoundingClientRect();
  return { text: e.value ?? e.textContent, whole: e.scrollWidth <= e.clientWidth + 1
    && r.left >= 0 && r.right <= innerWidth, page: document.documentElement.scrollWidth };
}"""


@SIZES
def test_a_groups_link_is_shown_whole(
    browser: Any, web_server: ServerProcess, size: dict[str, Any]
) -> None:
    # on a phone the link was cut at ".../g/qskpeka2d3?k=", its key out of sight
    base = http(web_server)
    group, ann = protocol(a_group(web_server.url))
    context = browser.new_context(**size)
    try:
        page = context.new_page()
        signed_in(page, base, ann, f"/play#group={group}")
        page.wait_for_selector(".group h1:text('Friday Club')")
        page.wait_for_selector(".group .group-link")
        shot(page, f"layout-group-{'phone' if size is PHONE else 'desktop'}")
        seen = page.evaluate(GROUP_LINK)
        assert seen["text"].startswith(f"{base}/g/{group}?k="), seen
        assert seen["page"] <= size["viewport"]["width"], seen
        assert seen["whole"], seen
    finally:
        context.close()


# In the page: the top bar's name and connection state, each shown whole or not, and
# the bar's height and whether it is wider than itself
BAR = """() => {
  const bar = document.getElementById('bar');
  const whole = (e) => e.scrollWidth <= e.clientWidth + 1
    && e.getBoundingClientRect().right <= innerWidth + 0.5;
  const who = document.getElementById('who');
  const state = document.getElementById('link-state');
  return { who: who.textContent, whole: whole(who), state: state.textContent,
    stateWhole: whole(state), over: bar.scrollWidth > bar.clientWidth + 1,
    height: Math.round(bar.getBoundingClientRect().height) };
}"""
#: the longest thing the connection's state says (link.js: a close's reason in it)
RETRYING = "connection lost: no answer from the server; retrying in 10.0 s"


async def registered(url: str, name: str) -> str:
    """A new player: their token."""
    client = await player(url, name)
    await client.close()
    assert client.token is not None
    return client.token


async def signed_in_again(url: str, token: str) -> None:
    """The player signs in on another connection: the page's is closed (4001)."""
    other = await signed_in_client(url, token)
    await other.close()


@SIZES
def test_the_bars_name_stays_whole_beside_the_connections_state(
    browser: Any, web_server: ServerProcess, size: dict[str, Any]
) -> None:
    # "Annie" was cut to "A…" beside "signed in elsewhere" on a phone
    token = protocol(registered(web_server.url, "Annie"))
    context = browser.new_context(**size)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), token, "/play")
        page.wait_for_selector("#who:text('Annie')")
        page.wait_for_selector(".game-row")
        quiet = page.evaluate(BAR)
        protocol(signed_in_again(web_server.url, token))
        page.wait_for_selector("#link-state:text('signed in elsewhere')")
        shot(page, f"layout-bar-elsewhere-{'phone' if size is PHONE else 'desktop'}")
        seen = page.evaluate(BAR)
        assert seen["whole"] and seen["stateWhole"] and not seen["over"], seen
        # (and on the bar's one line, where the two have the room)
        assert seen["height"] == quiet["height"], (quiet, seen)
        # a name of twenty letters beside the longest the state says: both whole, the
        # state in a line of its own where the two have not the room for one
        page.evaluate(
            "([who, state]) => { document.getElementById('who').textContent = who;"
            " document.getElementById('link-state').textContent = state; }",
            [LONG, RETRYING],
        )
        seen = page.evaluate(BAR)
        shot(page, f"layout-bar-retrying-{'phone' if size is PHONE else 'desktop'}")
        assert seen["whole"] and seen["stateWhole"] and not seen["over"], seen
    finally:
        context.close()
