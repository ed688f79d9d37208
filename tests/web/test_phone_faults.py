"""Faults an outside tester found on a phone (360x740): a racer's notice lying over the
status line once it had grown under it ("cannot read 'zzz' ..." in two lines), a ghost's
name of six letters cut in the racers' panel ("pro… ghost"), a name of twenty letters cut
in the top bar beside the Challenges badge and split mid-word in a race's results, and a
note under the board (a refused move's, a hint's) that shrank the board's box, so that
the board was laid out again in another fold and its cards shrank."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest

from server.solver import solve
from tests.app.client import player
from tests.app.client import signed_in as signed_in_client
from tests.app.conftest import ServerProcess

from .conftest import http, shot, signed_in
from .test_challenge import PHONE
from .test_layout import SETTLED
from .test_motion import LOST_DEAL, LOST_LINE, deal, moves_shown, play
from .test_race import register

T = TypeVar("T")

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
#: a name of twenty letters, as names go (2-20 of A-Z a-z 0-9 _ -)
LONG = "Maximilian_Ostrowski"
#: The Gate's deal won by the solver's line (89 moves)
WON = ("gate", 0)


def protocol(coroutine: Coroutine[Any, Any, T]) -> T:
    """Protocol work from a thread of its own (Playwright's loop holds this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(60)


@pytest.fixture
def fast_server(redis_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """The real server, with room for a winning line's 89 moves at once."""
    proc = ServerProcess(
        redis_url,
        tmp_path,
        PATIENCE_COUNTDOWN="1.0",
        PATIENCE_RATE="2000",
        PATIENCE_BURST="2000",
    )
    proc.start()
    yield proc
    if proc.process is not None:
        proc.stop()


# In the page: the boxes of `over` that cross a box of `under` (each a selector), by
# their text; boxes that take no room are left out
CROSSING = """([over, under]) => {
  const boxes = (selector) => [...document.querySelectorAll(selector)]
    .filter((e) => e.checkVisibility())
    .map((e) => ({ e, r: e.getBoundingClientRect() }))
    .filter(({ r }) => r.width > 0 && r.height > 0);
  const out = [];
  for (const a of boxes(over))
    for (const b of boxes(under))
      if (a.r.left < b.r.right && b.r.left < a.r.right
          && a.r.top < b.r.bottom && b.r.top < a.r.bottom)
        out.push(`${a.e.textContent} over ${b.e.className || b.e.tagName}: ${b.e.textContent}`);
  return out;
}"""

#: what stands under the board: the status line, a lost game's note, a game over's
#: actions, the buttons and the move box
FOOT = (
    ".game > .note, .game > .lost-note, .game > .lost-note button, .game > .won-note,"
    " .game > .end-actions *,"
    " .dock button, .dock input"
)


async def a_race_of_three(url: str) -> tuple[str, str, str]:
    """pia hosts a race of The Gate (the solver's won deal) with LONG and cy: its code,
    pia's and LONG's tokens."""
    pia, mx, cy = await player(url, "pia"), await player(url, LONG), await player(url, "cy")
    try:
        game, seed = WON
        code = str((await pia.call("room_create", game=game, seed=seed))["code"])
        for other in (mx, cy):
            await other.call("room_join", code=code)
            await other.call("ready")
        await pia.call("start")
        for racer in (pia, mx, cy):
            await racer.event("race_start")
        assert pia.token is not None and mx.token is not None
        return code, pia.token, mx.token
    finally:
        for racer in (pia, mx, cy):
            await racer.close()


async def win(url: str, token: str) -> None:
    """The racer signed in with ``token`` plays the won deal's line to its end."""
    racer = await signed_in_client(url, token)
    try:
        for move in solve(*WON).line:
            await racer.call("move", move=move)
    finally:
        await racer.close()


def test_a_notice_stands_clear_of_the_status_line_grown_under_it(
    browser: Any, fast_server: ServerProcess
) -> None:
    # "Maximilian_Ostrowski finished first" was placed above the status line as it was:
    # a refused move's two lines grew it up under the notice, which then lay over them
    code, pia, mx = protocol(a_race_of_three(fast_server.url))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        signed_in(page, http(fast_server), pia, f"/r/{code}")
        page.wait_for_selector(".race-game .pile")
        protocol(win(fast_server.url, mx))
        page.wait_for_selector(f".notice:has-text('{LONG} finished first')")
        page.evaluate(SETTLED)
        drawn = page.evaluate(DRAWN)
        page.fill("#notation", "zzz")
        page.press("#notation", "Enter")
        page.wait_for_selector(".game > .note:has-text('cannot read')")
        page.evaluate(SETTLED)
        shot(page, "phone-notice-note")
        assert page.evaluate(CROSSING, [".notice", FOOT]) == []
        assert page.evaluate(DRAWN) == drawn  # (the board as it was: below)
        # the racer's own game over, the race still on: its status line changes under the
        # notices still shown (no notice of one's own end, and Review only once the race
        # ends: tests/web/test_race_review.py)
        page.click(".race-game [data-act=resign]")
        page.wait_for_selector(".race-game .game-head.over")
        assert page.query_selector(".notice:has-text('pia: resigned')") is None
        shot(page, "phone-notice-over")
        assert page.evaluate(CROSSING, [".notice", FOOT]) == []
    finally:
        context.close()


def test_a_notice_stands_clear_of_a_lost_games_note_come_up_under_it(
    browser: Any, web_server: ServerProcess
) -> None:
    # a notice shown as a game of Nestor is lost: why it was lost, its Undo and the game
    # over's actions came up under the notice, placed above the status line as it was
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        base = http(web_server)
        page.goto(f"{base}/play")
        register(page, "lou")
        page.wait_for_selector(".game-row")
        deal(page, base, *LOST_DEAL)
        play(page, LOST_LINE[:-1])
        moves_shown(page, 5)
        page.evaluate("window.patienceRace.notice('bob raced your challenge (you stay ahead)')")
        assert page.evaluate(CROSSING, [".notice", FOOT]) == []
        play(page, LOST_LINE[-1:])
        page.wait_for_selector(".game > .lost-note")
        page.wait_for_selector(".game > .end-actions")
        shot(page, "phone-notice-lost")
        assert page.evaluate(CROSSING, [".notice", FOOT]) == []
    finally:
        context.close()


async def a_recorded_game(url: str, name: str) -> tuple[str, str]:
    """``name`` plays a move of The Gate and resigns: the game's id (its replay), and the
    token of pia, who will race its ghost."""
    ghost, pia = await player(url, name), await player(url, "pia")
    try:
        game = await ghost.call("new_game", game="gate", seed=5)
        await ghost.call("move", move=game["legal"][0])
        await ghost.call("resign")
        assert pia.token is not None
        return str(game["game"]), pia.token
    finally:
        await ghost.close()
        await pia.close()


# In the page: the racers' panel drawn by the client's own code with `rows` (name,
# ghost), each at a game's end, and the names shown cut (none of the panel wider than
# the page)
CUT_NAMES = """async (rows) => {
  const { drawRacers } = await import('/web/app/room.js');
  const box = document.querySelector('.bars');
  drawRacers(box, rows.map(([name, ghost]) => ({ name, ghost, home: 12, total: 52, moves: 123,
    status: 'resigned' })), 'pia');
  const cut = [...box.querySelectorAll('.bar-row .name')]
    .filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent);
  const over = [...box.querySelectorAll('.bar-row, .bar-row > *')]
    .filter((e) => e.scrollWidth > e.clientWidth + 1
      || e.getBoundingClientRect().right > innerWidth);
  window.patienceRace.screen.drawn = null;
  return over.length ? ['over'] : cut;
}"""


def test_a_ghosts_name_of_a_dozen_letters_shows_whole_on_a_phone(
    browser: Any, web_server: ServerProcess
) -> None:
    # the ghost's name "probe1" showed as "pro… ghost", its row with room to spare
    replay, pia = protocol(a_recorded_game(web_server.url, "probe1"))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), pia, f"/play#replay={replay}")
        page.click("[data-act=race-replay]")
        page.wait_for_selector(".race-game .pile", timeout=10000)
        ghost = page.wait_for_selector('.bars .bar-row.ghost[data-player="probe1"] .name')
        assert ghost is not None
        shot(page, "phone-ghost-name")
        seen = ghost.evaluate("e => [e.scrollWidth, e.clientWidth]")
        assert seen[0] <= seen[1], seen
        # a dozen letters, a ghost's too, at a game's end (its status beside the moves)
        dozen = [["Maximilian_O", True], ["Ostrowski_12", False], ["pia", False]]
        assert page.evaluate(CUT_NAMES, dozen) == []
        shot(page, "phone-ghost-dozen")
        # longer names are cut (with an ellipsis) rather than widen the panel
        assert page.evaluate(CUT_NAMES, [[LONG, True], ["W" * 20, False]]) == [LONG, "W" * 20]
    finally:
        context.close()


async def a_challenge_taken(url: str) -> str:
    """LONG's game of The Gate, made a challenge and raced by bob: LONG's token (a result
    not seen yet: the Challenges link's badge)."""
    mx, bob = await player(url, LONG), await player(url, "bob")
    try:
        game = await mx.call("new_game", game="gate", seed=5)
        await mx.call("resign")
        cid = (await mx.call("challenge_create", replay=game["game"]))["challenge"]["id"]
        taken = await bob.call("challenge_take", challenge=cid)
        await bob.event("challenge_start")
        await bob.call("resign", game=taken["game"])
        assert mx.token is not None
        return mx.token
    finally:
        await mx.close()
        await bob.close()


def test_a_name_of_twenty_letters_shows_whole_in_the_bar_beside_the_badge(
    browser: Any, web_server: ServerProcess
) -> None:
    # "Maximilian_Ostro…" beside the Challenges link and its count of results unseen
    token = protocol(a_challenge_taken(web_server.url))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), token, "/play")
        page.wait_for_selector("#challenges-new:not([hidden])")
        page.wait_for_selector(f"#who:has-text('{LONG}')")
        shot(page, "phone-bar-badge")
        seen = page.eval_on_selector(
            "#bar",
            "bar => ({who: [bar.querySelector('#who').scrollWidth,"
            " bar.querySelector('#who').clientWidth], bar: [bar.scrollWidth, bar.clientWidth],"
            " height: bar.getBoundingClientRect().height})",
        )
        assert seen["who"][0] <= seen["who"][1], seen  # shown whole
        assert seen["bar"][0] <= seen["bar"][1], seen  # and the rest of the bar too
        assert seen["height"] <= 48, seen  # on one line
        # and beside a count of two digits
        page.evaluate("document.getElementById('challenges-new').textContent = '12'")
        seen = page.eval_on_selector("#who", "who => [who.scrollWidth, who.clientWidth]")
        assert seen[0] <= seen[1], seen
    finally:
        context.close()


async def a_finished_race(url: str) -> tuple[str, str]:
    """LONG races bob at The Gate, both resign: the room's code and bob's token."""
    mx, bob = await player(url, LONG), await player(url, "bob")
    try:
        code = str((await mx.call("room_create", game="gate"))["code"])
        await bob.call("room_join", code=code)
        await bob.call("ready")
        await mx.call("start")
        for racer in (mx, bob):
            await racer.event("race_start")
        for racer in (mx, bob):
            await racer.call("resign")
        await bob.event("results")
        assert bob.token is not None
        return code, bob.token
    finally:
        await mx.close()
        await bob.close()


# In the page: the lines each name in the results table takes (its link's boxes), and
# whether the table is wider than its box
NAME_LINES = """() => {
  const box = document.querySelector('.results .table-box');
  return { over: box.scrollWidth > box.clientWidth + 1,
    lines: Object.fromEntries([...box.querySelectorAll('tbody tr')].map((tr) =>
      [tr.dataset.player, tr.querySelector('td:nth-child(2) a').getClientRects().length])) };
}"""

# In the page: the room each column of the results but the names' has beyond its widest
# cell (the heading's too), by its heading: the names' column has all they can give
SLACK = """() => {
  const table = document.querySelector('.results table');
  const heads = [...table.querySelectorAll('thead th')];
  const rows = [...table.querySelectorAll('tr')];
  const used = (cell) => {
    const range = document.createRange();
    range.selectNodeContents(cell);
    const style = getComputedStyle(cell);
    return range.getBoundingClientRect().width + parseFloat(style.paddingLeft)
      + parseFloat(style.paddingRight);
  };
  const out = {};
  heads.forEach((th, n) => {
    if (n === 1 || !th.checkVisibility()) return;
    const cells = rows.map((tr) => tr.children[n]);
    const width = th.getBoundingClientRect().width;
    out[th.textContent] = Math.round(width - Math.max(...cells.map(used)));
  });
  return out;
}"""

# In the page: a rated race's results drawn in place of the page's table, a long race's
# (twelve minutes, hundreds of moves, a rating of two digits: docs/ratings.md)
WIDE = """async (names) => {
  const { resultsTable } = await import('/web/app/room.js');
  const box = document.querySelector('.results');
  const row = (rank, player) => ({ rank, player, status: 'won', time_ms: 754000, moves: 234,
    home: 52, total: 52, replay: `r${rank}`, rating: 34, rating_change: -3 });
  box.replaceChildren(resultsTable(names.map((name, n) => row(n + 1, name)), 'x'));
}"""


def test_a_name_of_twenty_letters_is_not_split_in_a_phones_results(
    browser: Any, web_server: ServerProcess
) -> None:
    # "Maximilian_Ostro / wski": the name broken mid-word with room for it in the table
    code, bob = protocol(a_finished_race(web_server.url))
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), bob, f"/r/{code}")
        page.wait_for_selector(".results tbody tr")
        shot(page, "phone-results-long-name")
        seen = page.evaluate(NAME_LINES)
        assert seen == {"over": False, "lines": {LONG: 1, "bob": 1}}, seen
        # a long race's, its numbers wider: where the name cannot have its line, it has
        # all the room the other columns can give
        page.evaluate(WIDE, [LONG, "bob"])
        seen = page.evaluate(NAME_LINES)
        assert not seen["over"], seen
        if seen["lines"][LONG] > 1:
            slack = page.evaluate(SLACK)
            assert all(room <= 1 for room in slack.values()), slack
        # twenty wide letters cannot fit: they wrap, in the table's box
        page.evaluate(WIDE, ["W" * 20, "bob"])
        seen = page.evaluate(NAME_LINES)
        assert not seen["over"] and seen["lines"]["W" * 20] > 1, seen
        slack = page.evaluate(SLACK)
        assert all(room <= 1 for room in slack.values()), slack
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()


# In the page: the board's box and where each pile and card is drawn
DRAWN = """() => {
  const box = document.querySelector('.game .board-box').getBoundingClientRect();
  const at = (e) => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.width, r.height].map(Math.round);
  };
  const piles = [...document.querySelectorAll('.game .pile')];
  return { box: [box.width, box.height].map(Math.round),
    piles: Object.fromEntries(piles.map((p) => [p.dataset.pile, at(p)])) };
}"""

# In the page: the status line whole (nothing of it scrolled out of sight) and clear of
# the board's box and the controls
NOTE_SEEN = """() => {
  const note = document.querySelector('.game > .note');
  const r = note.getBoundingClientRect();
  const crossed = [...document.querySelectorAll('.game .board-box, .dock button, .dock input')]
    .filter((e) => e.checkVisibility()).map((e) => [e, e.getBoundingClientRect()])
    .filter(([, b]) => r.left < b.right && b.left < r.right
      && r.top < b.bottom - 0.5 && b.top + 0.5 < r.bottom)
    .map(([e]) => e.className || e.tagName);
  return { text: note.textContent, whole: note.scrollHeight <= note.clientHeight + 1, crossed,
    inside: r.bottom <= innerHeight };
}"""


@pytest.mark.parametrize(
    "size",
    [PHONE, DESKTOP],
    ids=["360x740", "1280x800"],
)
def test_a_note_leaves_the_board_as_it_was(
    browser: Any, web_server: ServerProcess, size: dict[str, Any]
) -> None:
    # "cannot read 'zzz' as a move of The Gate..." in three lines on a phone shrank the
    # board's box: its foundations and stock folded up to the top right, its cards shrank
    context = browser.new_context(**size)
    try:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{http(web_server)}/play")
        register(page, "noted")
        page.wait_for_selector(".game-row")
        width = size["viewport"]["width"]
        for game in ("gate", "light-and-shade"):
            page.click(f'.game-row[data-game="{game}"] [data-act=solo]')
            page.wait_for_selector(".game[data-game] .board-box .pile")
            page.evaluate(SETTLED)  # (the board drawn for its box)
            before = page.evaluate(DRAWN)
            for act in ("zzz", "hint"):
                if act == "hint":
                    page.click(".game [data-act=hint]")
                    page.wait_for_selector(".game > .note:has-text('hint')")
                else:
                    page.fill("#notation", act)
                    page.press("#notation", "Enter")
                    page.wait_for_selector(".game > .note:has-text('cannot read')")
                page.evaluate(SETTLED)  # (a box resized: the board drawn again)
                shot(page, f"note-{game}-{act}-{width}")
                assert page.evaluate(DRAWN) == before, (game, act)
                seen = page.evaluate(NOTE_SEEN)
                assert seen["whole"] and seen["crossed"] == [] and seen["inside"], (game, act, seen)
            page.keyboard.press("Escape")  # the note gone: nothing moves either
            page.evaluate(SETTLED)
            assert page.evaluate(DRAWN) == before, game
            page.click("#home-link")
            page.wait_for_selector(".game-row")
    finally:
        context.close()
