"""The board fits the screen: for every game, on a deal driven to its largest board
(``largest.json``: the most garden rows, the longest fans the engine's search found),
racing, playing solo and replaying at 1280x800, 768x1024 and 360x740, the board, the
racers' panel, the clock, the controls and the move box are inside the window without
scrolling, and no page is wider than the window. The same holds for a phone on its side,
740x360 (its controls had fallen below the window in a race; The Blockade's and The
Wedge's largest boards had their last rows below it, cards 16 px wide and the box
scrolling: their rows' labels now go into the cards and their long fans square up), and
no card is narrower than the smallest (layout.js CW_MIN) at any size.

The lines are played over the protocol by registered players (a race of two on the
line's seed, the host playing it; a solo game on the same seed for another player), and
the browser signs in as them with their tokens. Each game's pages are loaded at one of
the sizes (the next size for the next game) and the window resized to the others, so
every size is seen both loaded at and resized to. One browser and one server for the
module; a screenshot of every game's race at every size, and of The Blockade's replay.
A pile focused (with the keyboard's ring) hides no part of another pile in sight, on a
phone upright and on its side, nor in Doubles and Quits' practice under the daily's lines."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import pytest
from redis import Redis as SyncRedis

from server.engine import GAMES
from tests.app.client import player
from tests.app.client import signed_in as signed_in_client
from tests.app.conftest import ServerProcess

from .conftest import http, shot, signed_in
from .largest import lines

SIZES = [(1280, 800), (768, 1024), (360, 740), (740, 360)]  # (the last: LANDSCAPE)


@dataclass
class Driven:
    """A game's line, played: the racer's token and room, the solo player's token, and
    (once the race is over) the racer's replay."""

    game: str
    racer: str = ""
    guest: str = ""
    code: str = ""
    solo: str = ""
    replay: str = ""


@pytest.fixture(scope="module")
def fit_server(
    redis_server: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """One server for the module, with room for the lines' hundreds of moves a second, on
    an emptied Redis (as every test's: a server before it left its daily secret's mark)."""
    client = SyncRedis.from_url(redis_server.url)
    client.flushall()
    client.close()
    proc = ServerProcess(
        redis_server.url,
        tmp_path_factory.mktemp("fit"),
        PATIENCE_RATE="2000",
        PATIENCE_BURST="2000",
        PATIENCE_DEAL_RATE="0",
        PATIENCE_FORFEIT_AFTER="0",
    )
    proc.start()
    yield proc
    if proc.process is not None:
        proc.stop()


async def drive(url: str, game: str, n: int) -> Driven:
    line = lines()[game]
    driven = Driven(game)
    host = await player(url, f"fit{n}h")
    guest = await player(url, f"fit{n}g")
    solo = await player(url, f"fit{n}s")
    room = await host.call("room_create", game=game, seed=line["seed"])
    driven.code = room["code"]
    await guest.call("room_join", code=driven.code)
    await guest.call("ready")
    await host.call("start")
    race = await host.event("race_start")
    await guest.event("race_start")
    await solo.call("new_game", game=game, seed=line["seed"])
    for move in line["moves"]:
        await host.call("move", move=move, game=race["game"])
        await solo.call("move", move=move)
    assert host.token is not None and guest.token is not None and solo.token is not None
    driven.racer, driven.guest, driven.solo = host.token, guest.token, solo.token
    for client in (host, guest, solo):
        await client.close()  # the browser signs in as them
    return driven


async def finish(url: str, driven: Driven) -> None:
    """Both racers resign: the race's results name the racer's replay."""
    host = await signed_in_client(url, driven.racer)
    guest = await signed_in_client(url, driven.guest)
    try:
        await host.call("resign")
        await guest.call("resign")
        results = await host.event("results")
        driven.replay = next(r["replay"] for r in results["results"] if r["player"] == host.name)
    finally:
        await host.close()
        await guest.close()


def run(coroutine: Any) -> Any:
    """Protocol work from a thread of its own (Playwright's loop holds this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(120)


async def drive_all(url: str) -> list[Driven]:
    return list(await asyncio.gather(*(drive(url, game, n) for n, game in enumerate(GAMES))))


async def finish_all(url: str, driven: list[Driven]) -> None:
    await asyncio.gather(*(finish(url, d) for d in driven))


# In the page: every box named is inside the window, the page no wider than it.
OUTSIDE = """([width, height, selectors]) => {
  const out = [];
  for (const [name, selector] of selectors) {
    const nodes = [...document.querySelectorAll(selector)];
    if (!nodes.length) { out.push(`${name}: none on the page (${selector})`); continue; }
    for (const node of nodes) {
      const r = node.getBoundingClientRect();
      if (r.left < -0.5 || r.top < -0.5 || r.right > width + 0.5 || r.bottom > height + 0.5) {
        const at = [r.left, r.top, r.right, r.bottom].map(Math.round);
        out.push(`${name} ${node.dataset.pile || ""} from ${at[0]},${at[1]} to ${at[2]},${at[3]}`);
      }
    }
  }
  const wide = document.documentElement.scrollWidth;
  if (wide > width) out.push(`the page is ${wide} px wide`);
  return out;
}"""

SETTLED = """() => new Promise((done) =>
  requestAnimationFrame(() => requestAnimationFrame(() => done(true))))"""


def outside(page: Any, size: tuple[int, int], boxes: list[tuple[str, str]]) -> list[str]:
    page.evaluate(SETTLED)  # the board redrawn for its box, if the box moved
    found: list[str] = page.evaluate(OUTSIDE, [size[0], size[1], boxes])
    found += page.evaluate(SCROLLED)
    narrow = page.evaluate(NARROWEST)
    if narrow is not None and narrow < CW_MIN - 0.01:
        found.append(f"cards {narrow:.2f} px wide")
    return found


#: a phone on its side: the board has the window's height, the rest beside it
LANDSCAPE = (740, 360)
BOARD_BOX = ":is(.game, .replay) .board-box"
#: the smallest card there is (client_web/app/layout.js)
CW_MIN = 16
#: a board's box that scrolls: its board does not fit it
SCROLLED = """() => [...document.querySelectorAll('BOX')]
  .filter(box => box.scrollHeight > box.clientHeight + 1 || box.scrollWidth > box.clientWidth + 1)
  .map(box => `the board's box scrolls: ${box.scrollWidth}x${box.scrollHeight}`
    + ` in ${box.clientWidth}x${box.clientHeight}`)
""".replace("BOX", BOARD_BOX)
#: the narrowest pile's width (a card's), or null
NARROWEST = """() => {
  const piles = [...document.querySelectorAll('BOX .pile')];
  const widths = piles.map(p => p.getBoundingClientRect().width);
  return widths.length ? Math.min(...widths) : null;
}""".replace("BOX", BOARD_BOX)


# Games whose every pile keeps its label in sight at its largest, at every size but a
# phone on its side: The Labyrinth's review names `j3`, and its covered rows' labels had
# been hidden on a phone. On its side the board has 320 pixels of height for seven rows,
# which cover each other down to less of a card than a label under its corner needs, and
# the labels give way to the cards' suits (board.js: a narrow board's covered labels).
LABELLED = {"labyrinth", "blockade-ten"}

UNLABELLED = """() => [...document.querySelectorAll('.game .pile')]
  .filter(p => !p.querySelector('.label').checkVisibility()).map(p => p.dataset.label)"""


# A fanned card's corner is no taller than the strip of it that shows (its glyph is about
# 1.2 of its font size, under a pixel of padding): cut to its top, a J read as an I and a
# Q as an O on a phone. A squared card in a long fan's middle shows an edge only.
CUT_CORNERS = """() => [...document.querySelectorAll('.game .card.fanned')].filter(c => {
  const next = c.nextElementSibling;
  const strip = next.getBoundingClientRect().top - c.getBoundingClientRect().top;
  const size = parseFloat(getComputedStyle(c.querySelector('.corner')).fontSize);
  return strip >= 6 && size * 1.2 + 1 > strip + 0.5;
}).map(c => `${c.closest('.pile').dataset.pile} ${c.textContent}`)"""


def cut_corners(page: Any) -> list[str]:
    found: list[str] = page.evaluate(CUT_CORNERS)
    return found


def unlabelled(page: Any) -> list[str]:
    found: list[str] = page.evaluate(UNLABELLED)
    return found


GAME_BOXES = [
    ("board", ".game .board"),
    ("pile", ".game .pile"),
    ("clock", ".game .clock"),
    ("undo", ".game [data-act=undo]"),
    ("hint or resign", ".game [data-act=resign]"),
    ("move box", "#notation"),
]


#: a tablet on its side, and a desktop: the boards limited by the window's height had the
#: controls in a row under them and a third of the width (1024x768: The Blockade's cards 25
#: px wide, The Wedge's 29; 1280x800: 29 and 31); beside them, the cards are at least these
TABLET = (1024, 768)
WIDER = {TABLET: {"blockade": 30, "wedge": 35}, (1280, 800): {"blockade": 32, "wedge": 37}}

#: the card's width on the screen's board
CARD = """() => document.querySelector('BOX .pile').getBoundingClientRect().width""".replace(
    "BOX", BOARD_BOX
)


def narrow_cards(page: Any, game: str, size: tuple[int, int]) -> list[str]:
    least = WIDER.get(size, {}).get(game)
    if least is None:
        return []
    page.evaluate(SETTLED)  # (the controls moved beside the board: it is drawn again)
    width: float = page.evaluate(CARD)
    return [f"cards {width:.1f} px wide, under {least}"] if width < least else []


# In the page: each pile's part in sight, as a tap finds it (down the pile's middle, the
# longest run of pixels whose element is the pile; across at that run's middle, the gap
# beside the pile included), too small to tap (under about 24 px either way), or whose
# middle a tap gives to another pile (The Wedge's pile 8 at 740x360 was a strip 24x14 px,
# and a tap on its middle picked 13). A board the window cannot give piles that large (a
# phone on its side) says so, `small`, and asks for the phone to be turned upright.
# The runs are found from a hit test every STEP pixels, each end then to the pixel
# between the two tests that straddle it: a quarter of the hit tests (each is a walk of
# the page's layers; pixel by pixel they were two thirds of the browser's CPU in these
# tests), the same runs unless another pile shows through a pile in a strip narrower than
# STEP, which no layout here makes (the two ways agreed on every board at every size).
STEP = 4
TAPS = """() => {
  const out = [];
  for (const pile of document.querySelectorAll('BOX .pile')) {
    const r = pile.getBoundingClientRect();
    const mine = (x, y) => document.elementFromPoint(x, y)?.closest('.pile') === pile;
    const run = (from, to, at) => {
      const first = Math.floor(from), last = Math.ceil(to), hit = new Map();
      const on = (i) => { if (!hit.has(i)) hit.set(i, at(i + 0.5)); return hit.get(i); };
      // where on() turns between i and j (on(i) !== on(j), j > i): the first pixel after
      // i whose test differs from i's
      const turn = (i, j) => { let k = i + 1; while (k < j && on(k) === on(i)) k++; return k; };
      let best = [0, 0], start = null, prev = first;
      if (on(first)) start = first;
      for (let i = first + STEP; ; i += STEP) {
        const at_ = Math.min(i, last);
        if (on(at_) !== on(prev)) {
          const k = turn(prev, at_);
          if (on(prev)) { if (k - start > best[1] - best[0]) best = [start, k]; start = null; }
          else start = k;
        }
        prev = at_;
        if (at_ === last) break;
      }
      if (start !== null && last + 1 - start > best[1] - best[0]) best = [start, last + 1];
      return best;
    };
    const [top, bottom] = run(r.top - 4, r.bottom + 4, (y) => mine(r.left + r.width / 2, y));
    const y = (top + bottom) / 2;
    const [left, right] = run(r.left - 4, r.right + 4, (x) => mine(x, y));
    const hit = document.elementFromPoint((left + right) / 2, y)?.closest('.pile');
    const label = pile.dataset.pile;
    const [wide, tall] = [right - left, bottom - top];
    if (hit !== pile) out.push(`a tap on ${label}'s middle: ${hit ? hit.dataset.pile : 'none'}`);
    else if (wide < 23 || tall < 23) out.push(`${label} shows ${wide}x${tall} px`);
  }
  return out;
}""".replace("BOX", BOARD_BOX).replace("STEP", str(STEP))

#: whether the board is too small to tap and the phone is asked to be turned upright
ASKED = """() => !!document.querySelector('BOX .board.small')
  && !!document.querySelector('.turn-hint')?.checkVisibility()""".replace("BOX", BOARD_BOX)


def untappable(page: Any, size: tuple[int, int]) -> list[str]:
    """The piles a tap misses, or too small to tap, at a phone's size, on a touch screen."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 1})
    try:
        page.evaluate(SETTLED)
        page.evaluate(SETTLED)
        found: list[str] = page.evaluate(TAPS)
        if size == LANDSCAPE and page.evaluate(ASKED):  # (taps still pick their piles)
            found = [f for f in found if " shows " not in f]
        return found
    finally:
        cdp.send("Emulation.setTouchEmulationEnabled", {"enabled": False})
        cdp.detach()


def test_every_board_fits_the_screen_at_its_largest(
    browser: Any, fit_server: ServerProcess
) -> None:
    base = http(fit_server)
    driven = run(drive_all(fit_server.url))
    faults: list[str] = []
    context = browser.new_context()
    try:
        page = context.new_page()
        for n, d in enumerate(driven):
            sizes = turned(n) + [s for s in WIDER if s not in SIZES and d.game in WIDER[s]]
            resize(page, sizes[0])
            signed_in(page, base, d.racer, f"/r/{d.code}")
            page.wait_for_selector(".race-game .pile")
            page.wait_for_selector(".bars .bar-row")
            homes = page.locator(".game [data-act=home]").count()
            boxes = [*GAME_BOXES, ("racers", ".room .bars"), ("heading", ".room-head")]
            if homes:
                boxes.append(("home", ".game [data-act=home]"))
            for size in sizes:
                resize(page, size)
                faults += [f"race {d.game} {size}: {f}" for f in outside(page, size, boxes)]
                faults += [f"race {d.game} {size}: {f}" for f in narrow_cards(page, d.game, size)]
                head = page.locator(".room-head").bounding_box()
                if head is None or head["height"] > 48:
                    faults.append(f"race {d.game} {size}: the room's heading is {head} high")
                shot(page, f"fit-{d.game}-{size[0]}x{size[1]}")
            resize(page, sizes[0])
            signed_in(page, base, d.solo, "/play")
            page.wait_for_selector(".game .pile")
            for size in sizes:
                resize(page, size)
                faults += [f"solo {d.game} {size}: {f}" for f in outside(page, size, GAME_BOXES)]
                faults += [f"solo {d.game} {size}: {f}" for f in narrow_cards(page, d.game, size)]
                if size in (LANDSCAPE, (360, 740)):
                    faults += [f"solo {d.game} {size}: {f}" for f in untappable(page, size)]
                faults += [f"solo {d.game} {size}: corner cut {c}" for c in cut_corners(page)]
                if d.game in LABELLED and size != LANDSCAPE:
                    faults += [f"solo {d.game} {size}: no label {h}" for h in unlabelled(page)]
                if size == LANDSCAPE or d.game in WIDER.get(size, {}):
                    shot(page, f"fit-solo-{d.game}-{size[0]}x{size[1]}")
        run(finish_all(fit_server.url, driven))
        for n, d in enumerate(driven):
            sizes = turned(n) + [s for s in WIDER if s not in SIZES and d.game in WIDER[s]]
            resize(page, sizes[0])
            page.goto(f"{base}/play#replay={d.replay}")
            page.click("[aria-label=last]")
            page.wait_for_selector(".replay .board-box:not([data-step='0']) .pile")
            boxes = [
                ("board", ".replay .board"),
                ("pile", ".replay .pile"),
                ("buttons", ".replay .controls button"),
            ]
            for size in sizes:
                resize(page, size)
                faults += [f"replay {d.game} {size}: {f}" for f in outside(page, size, boxes)]
                faults += [f"replay {d.game} {size}: {f}" for f in narrow_cards(page, d.game, size)]
                if d.game in ("blockade", "wedge"):  # the most rows: the controls beside them
                    shot(page, f"fit-replay-{d.game}-{size[0]}x{size[1]}")
    finally:
        context.close()
    assert not faults, "\n".join(faults)


def turned(n: int) -> list[tuple[int, int]]:
    """The sizes the ``n``-th game is looked at in: each game's page is loaded at one of
    them, in turn (so every size has pages loaded at it), then the window is resized to
    the others, as a turned phone or a dragged window's corner does."""
    return SIZES[n % len(SIZES) :] + SIZES[: n % len(SIZES)]


def resize(page: Any, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})


# In the page: each pile focused in turn, with the keyboard's focus ring, and the other
# piles' parts in sight that it then hides (a point inside it whose pile was another before
# it was focused, and is it after). A focused pile had been raised over its neighbours
# (z-index): in a garden whose rows half cover the row before, on a phone, Doubles and
# Quits' pile 4, focused as its practice was loaded, hid the rank of the card on cell 9.
COVERED = """() => {
  const out = [];
  const owner = (x, y) => document.elementFromPoint(x, y)?.closest('.pile') || null;
  for (const pile of document.querySelectorAll('BOX .pile')) {
    const r = pile.getBoundingClientRect();
    const points = [];
    for (let x = r.left + 1; x < r.right; x += 3)
      for (let y = r.top + 1; y < r.bottom; y += 3) points.push([x, y]);
    if (document.activeElement instanceof HTMLElement) document.activeElement.blur();
    const before = points.map(([x, y]) => owner(x, y));
    pile.focus({ preventScroll: true });
    if (!pile.matches(':focus-visible')) {
      out.push(`${pile.dataset.pile}: focused with no ring`);
      continue;
    }
    const hidden = new Set();
    points.forEach(([x, y], i) => {
      const was = before[i];
      if (was && was !== pile && owner(x, y) === pile) hidden.add(was.dataset.pile);
    });
    if (hidden.size) out.push(`${pile.dataset.pile} focused hides ${[...hidden].join(", ")}`);
  }
  return out;
}""".replace("BOX", BOARD_BOX)


async def a_solo_game(url: str, game: str, n: int) -> str:
    """A player with ``game``'s largest board in hand (its line played): the token."""
    line = lines()[game]
    solo = await player(url, f"ring{n}")
    try:
        await solo.call("new_game", game=game, seed=line["seed"])
        for move in line["moves"]:
            await solo.call("move", move=move)
        assert solo.token is not None
        return solo.token
    finally:
        await solo.close()


async def solo_all(url: str) -> list[str]:
    return list(await asyncio.gather(*(a_solo_game(url, g, n) for n, g in enumerate(GAMES))))


async def a_practice(url: str) -> str:
    """A player practising today's Doubles and Quits (its ranked attempt resigned): the
    token. Its board, under the daily's lines, is a garden whose second row half covers
    the first on a phone."""
    solo = await player(url, "ringdq")
    try:
        ranked = await solo.call("daily", game="doubles-and-quits")
        await solo.call("resign", game=ranked["game"])
        await solo.call("daily", game="doubles-and-quits")
        assert solo.token is not None
        return solo.token
    finally:
        await solo.close()


def test_a_focused_pile_hides_no_other_piles_card_on_a_phone(
    browser: Any, fit_server: ServerProcess
) -> None:
    base = http(fit_server)
    tokens = run(solo_all(fit_server.url))
    faults: list[str] = []
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        for game, token in zip(GAMES, tokens, strict=True):
            resize(page, (360, 740))
            signed_in(page, base, token, "/play")
            page.wait_for_selector(".game .pile")
            page.keyboard.press("Tab")  # (the keyboard's: a pile focused shows its ring)
            for size in [(360, 740), LANDSCAPE]:
                resize(page, size)
                page.evaluate(SETTLED)
                found: list[str] = page.evaluate(COVERED)
                faults += [f"{game} {size}: {f}" for f in found]
        # the fault as found: the practice loaded (its pile 4 focused by the page)
        resize(page, (360, 740))
        signed_in(page, base, run(a_practice(fit_server.url)), "/play")
        page.wait_for_selector(".daily .game .pile")
        page.keyboard.press("Tab")
        found = page.evaluate(COVERED)
        faults += [f"doubles-and-quits practice: {f}" for f in found]
    finally:
        context.close()
    assert not faults, "\n".join(faults)
