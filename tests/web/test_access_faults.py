"""An outside tester's faults using a screen reader, the keyboard alone and page zoom,
each seen failing first: at 400% zoom (a window of 320x256 CSS pixels) the game's heading,
buttons and move box had been laid beside the board on top of it, the page the window's
height and not scrolling (The Gate's t3, t4, r, b3, b4 and fs under them), and at 320 px
the heading's SOLO was cut; the screens a link shows (a leaderboard, the challenges, the
league, a player's page) and Join this week dropped the focus to ``<body>``; the daily's
result was said before the game's end, with its line to paste; a new deal and a game taken
up again were not said; the racers' panel was one run of text and the first countdown a
bare number; a name of the wrong shape was refused by the browser's bubble alone; and the
home screen's games were no headings."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect

from server.engine import GAMES
from tests.app.conftest import ServerProcess

from .conftest import http, signed_in
from .test_a11y import a_daily_by
from .test_keyboard import a_game, run
from .test_layout import SCROLLED, SETTLED, resize
from .test_play import until
from .test_race import register
from .test_spoken_screens import RECORDER, active, said_in

#: 1280x1024 at 400%, the short and narrow window that failed, and the sizes that did not
ZOOMED = [(320, 256), (640, 400), (320, 400), (320, 640)]

# In the page: each pile brought into the window (the page may scroll: a pile's box
# scrolled, as the board's box would, is counted by SCROLLED) and hit-tested across its
# top, where a pile shows whatever covers the rest of it (a garden's next row covers the
# foot of the row before); the piles whose tops are another element's.
COVERED = """() => {
  const out = [];
  const name = (e) => !e ? 'nothing'
    : e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : '');
  for (const pile of document.querySelectorAll('.game .board-box .pile')) {
    let r = pile.getBoundingClientRect();
    if (r.top < 0 || r.top + 8 > innerHeight) window.scrollBy(0, r.top - 8);
    r = pile.getBoundingClientRect();
    for (const x of [r.left + r.width / 4, r.left + r.width / 2, r.right - r.width / 4]) {
      const hit = document.elementFromPoint(x, r.top + 3);
      if (hit?.closest('.pile') === pile) continue;
      out.push(`${pile.dataset.pile} under ${name(hit)}`);
      break;
    }
  }
  window.scrollTo(0, 0);
  const wide = document.documentElement.scrollWidth;
  if (wide > innerWidth) out.push(`the page is ${wide} px wide`);
  return out;
}"""


def covered(page: Any) -> list[str]:
    page.evaluate(SETTLED)
    page.evaluate(SETTLED)
    found: list[str] = page.evaluate(COVERED)
    found += page.evaluate(SCROLLED)
    return found


def test_no_pile_is_covered_at_400_percent_zoom(browser: Any, web_server: ServerProcess) -> None:
    base = http(web_server)
    faults: list[str] = []
    context = browser.new_context(viewport={"width": 320, "height": 256})
    try:
        page = context.new_page()
        for n, game in enumerate(GAMES):
            token = run(a_game(web_server.url, game, 1, name=f"zoom{n}"))
            resize(page, ZOOMED[0])
            signed_in(page, base, token, "/play")
            page.wait_for_selector(".game .pile")
            for size in ZOOMED:
                resize(page, size)
                faults += [f"{game} {size[0]}x{size[1]}: {f}" for f in covered(page)]
    finally:
        context.close()
    assert not faults, "\n".join(faults)


# In the page: the game's heading's tag (SOLO, RACE, DAILY...) cut (its text wider than its
# box), over another part of the heading, or outside the window.
TAG_CUT = """() => {
  const tag = document.querySelector('.game-head .kind');
  const [out, said] = [[], tag.textContent];
  if (tag.scrollWidth > tag.clientWidth)
    out.push(`${said} cut: ${tag.scrollWidth} px in ${tag.clientWidth}`);
  const r = tag.getBoundingClientRect();
  if (r.left < 0 || r.right > innerWidth) out.push(`${said} from ${r.left} to ${r.right}`);
  for (const other of tag.parentElement.children) {
    const o = other.getBoundingClientRect();
    const across = r.left < o.right && o.left < r.right && r.top < o.bottom && o.top < r.bottom;
    if (other !== tag && o.width && across) out.push(`${said} over ${other.textContent}`);
  }
  return out;
}"""


def test_the_game_heads_tag_is_whole_in_a_narrow_window(
    browser: Any, web_server: ServerProcess
) -> None:
    base = http(web_server)
    faults: list[str] = []
    context = browser.new_context(viewport={"width": 320, "height": 640})
    try:
        page = context.new_page()
        signed_in(page, base, run(a_game(web_server.url, "gate", 1, name="tagged")), "/play")
        for game in GAMES:
            page.goto(f"{base}/play#solo={game}")
            until(page, "(g) => window.patienceRace.screen?.rules === g", game)
            page.wait_for_selector(".game .pile")
            for size in [(320, 640), (320, 256)]:
                resize(page, size)
                page.evaluate(SETTLED)
                found: list[str] = page.evaluate(TAG_CUT)
                faults += [f"{game} {size[0]}x{size[1]}: {f}" for f in found]
    finally:
        context.close()
    assert not faults, "\n".join(faults)


def enter_on(page: Any, selector: str) -> None:
    """The keyboard's way: ``selector`` focused, then Enter."""
    page.locator(selector).focus()
    page.keyboard.press("Enter")


def test_the_screens_a_link_shows_give_their_heading_the_focus(
    browser: Any, web_server: ServerProcess
) -> None:
    """The home screen's Leaderboards and Your challenges, the league's Standings and a
    name on a board had each dropped the focus to ``<body>`` (their screens draw their
    heading once the server answers), and Join this week, gone as it joins, too."""
    run(a_daily_by(web_server.url, "bo"))
    base = http(web_server)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{base}/play")
        register(page, "keyed")
        page.wait_for_selector(".home .league-line")
        home = "main .home p a[href='/play#{}']"
        for address, screen, heading in [
            ("board=races/week", ".boards:has(table)", "h1 Races won, week "),
            ("challenges", ".challenges:has(ul, p)", "h1 Your challenges"),
        ]:
            page.goto(f"{base}/play#home")
            page.wait_for_selector(".home .league-line")
            enter_on(page, home.format(address))
            page.wait_for_selector(f"{screen} h1")
            page.evaluate(SETTLED)
            assert active(page).startswith(heading), (address, active(page))
        # Join this week: the focus to what stands in its place, the standings' link
        page.goto(f"{base}/play#home")
        enter_on(page, "[data-act=league-join]")
        page.wait_for_selector(".league-box [role=status]:has-text('Joined this week')")
        assert page.evaluate("document.activeElement.closest('.league-box') !== null"), active(page)
        assert page.evaluate("document.activeElement.textContent") == "Standings", active(page)
        page.keyboard.press("Enter")
        page.wait_for_url("**/play#league")
        page.wait_for_selector(".league table")
        page.evaluate(SETTLED)
        assert active(page) == "h1 This week's league", active(page)
        # a name on a board: the player's page
        page.goto(f"{base}/play#board=daily/gate")
        enter_on(page, ".boards tr[data-player=bo] a[data-to=player]")
        page.wait_for_url("**/play#player=bo")
        page.wait_for_selector(".player h1")
        page.evaluate(SETTLED)
        assert active(page) == "h1 bo", active(page)
    finally:
        context.close()


def test_the_name_forms_refusal_of_a_name_is_said_under_it(
    browser: Any, web_server: ServerProcess
) -> None:
    """A name of the wrong shape was refused by the browser's bubble alone: the form's
    status said nothing, and the field was not marked invalid."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play")
        field = page.locator("input[name=name]")
        note = ".welcome > .note[role=status]"
        for name in ["x", "bad name!"]:
            field.fill(name)
            field.press("Enter")
            until(page, f"() => document.querySelector({note!r}).textContent !== ''")
            said = page.inner_text(note)
            assert "2 to 20 letters" in said and name in said, said
            assert field.get_attribute("aria-invalid") == "true"
            described = field.get_attribute("aria-describedby")
            assert described and page.locator(f"#{described}").inner_text() == said
            field.fill("")  # typed again: the refusal goes
            assert page.inner_text(note) == "" and field.get_attribute("aria-invalid") is None
        register(page, "shaped")
        page.wait_for_selector(".home")
    finally:
        context.close()


#: what every live region said, in the order their words changed (each change once)
SPOKEN = """(() => {
  window.__spoken = [];
  const region = (node) => {
    for (let e = node instanceof Element ? node : node.parentElement; e; e = e.parentElement)
      if (e.getAttribute('role') === 'status') return e;
      else if ((e.getAttribute('aria-live') || 'off') !== 'off') return e;
    return null;
  };
  const last = new Map();
  new MutationObserver((records) => {
    for (const record of records) {
      // (the same words said again end in a space no one hears, or lose it)
      const node = region(record.target);
      const raw = node ? node.textContent : '';
      const text = raw.replace(/\\u00a0$/, '').trim();
      if (!node || last.get(node) === raw) continue;
      last.set(node, raw);
      if (text) window.__spoken.push(text);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
})()"""


def spoken(page: Any) -> list[str]:
    said: list[str] = page.evaluate("window.__spoken")
    return said


def test_the_dailys_end_is_said_before_its_result_and_the_result_once(
    browser: Any, web_server: ServerProcess
) -> None:
    """The ranked attempt's result (its heading and the line to paste, with its "·"s) had
    been said first, in the daily's region, and the game's end after it in the game's."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.add_init_script(SPOKEN)
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{http(web_server)}/play")
        register(page, "dailyend")
        enter_on(page, '.game-row[data-game="nestor"] [data-act=daily]')
        enter_on(page, "[data-act=start-daily]")
        page.wait_for_selector(".daily .game .pile.playable")
        before = len(spoken(page))
        enter_on(page, "[data-act=resign]")
        page.wait_for_selector(".result-heading")
        heading = page.inner_text(".result-heading")
        page.wait_for_selector(".daily .game-head.over")
        page.evaluate(SETTLED)
        said = spoken(page)[before:]
        # one utterance: the game's end, then the result's heading (the focus, on Resign,
        # goes with the game's end to its name), and never the line to paste
        assert said == [f"Game over: resigned, 0/26 pairs off, 0 moves. {heading}."], said
        assert active(page) == "strong", active(page)
    finally:
        context.close()


def test_a_new_deal_and_a_game_taken_up_again_are_said(
    browser: Any, web_server: ServerProcess
) -> None:
    """Play and New deal put the focus on a pile and said nothing of a new game dealt, nor
    of the cards its deal sent home; nor did Play say it took up the game in play."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.add_init_script(SPOKEN)
        answer = {"yes": True}
        page.on("dialog", lambda dialog: dialog.accept() if answer["yes"] else dialog.dismiss())
        page.goto(f"{http(web_server)}/play")
        register(page, "dealer")
        enter_on(page, '.game-row[data-game="gate"] [data-act=solo]')
        until(page, "() => document.activeElement.matches('.game .pile.playable')")
        dealt = "s => s.startsWith('The Gate: new deal.')"
        until(page, f"() => window.__spoken.some({dealt})")
        # a move, then New deal (given up when asked): said again
        page.fill("#notation", page.evaluate("window.patienceRace.screen.legal[0]"))
        page.press("#notation", "Enter")
        page.wait_for_selector(".game .moves:text-is('1 move')")
        before = len(spoken(page))
        enter_on(page, "[data-act=new]")
        until(page, "n => window.__spoken.length > n", before)
        page.wait_for_selector(".game .moves:text-is('0 moves')")
        until(page, f"n => window.__spoken.slice(n).some({dealt})", before)
        # a move, then Play on another game, answered no: the game in play taken up again
        page.fill("#notation", page.evaluate("window.patienceRace.screen.legal[0]"))
        page.press("#notation", "Enter")
        page.wait_for_selector(".game .moves:text-is('1 move')")
        page.goto(f"{http(web_server)}/play#home")
        answer["yes"] = False
        enter_on(page, '.game-row[data-game="nestor"] [data-act=solo]')
        page.wait_for_selector(".game .pile")
        taken = "The Gate: your game in play, 1 move, taken up again."
        until(page, "t => window.__spoken.includes(t)", taken)
        # a deal that sends cards home says which
        answer["yes"] = True
        page.goto(f"{http(web_server)}/play#home")
        enter_on(page, '.game-row[data-game="light-and-shade"] [data-act=solo]')
        until(page, "() => window.__spoken.some((s) => s.startsWith('Light and Shade: new deal.'))")
        said = next(s for s in spoken(page) if s.startswith("Light and Shade: new deal."))
        assert said.startswith("Light and Shade: new deal. Home from the deal: ace of "), said
    finally:
        context.close()


def test_the_racers_panel_is_a_list_and_the_first_countdown_says_what_it_counts_to(
    browser: Any, web_server: ServerProcess
) -> None:
    """The racers' panel read as one run of text ("blind_ann 0/26 pairs · 0 moves
    sighted_bob 8/26 pairs · 12 moves"), and the first race's countdown reached the guest
    as a bare number (a rematch's said "Rematch: the next race starts in 5")."""
    base = http(web_server)
    contexts = [browser.new_context(viewport={"width": 1280, "height": 800}) for _ in range(2)]
    try:
        ann, bob = (context.new_page() for context in contexts)
        for page in (ann, bob):
            page.add_init_script(RECORDER)
        ann.goto(f"{base}/play")
        register(ann, "annlist")
        ann.click('.game-row[data-game="nestor"] [data-act=race]')
        share = ann.wait_for_selector("input.share")
        assert share is not None
        bob.goto(share.input_value())
        register(bob, "boblist")
        ann.wait_for_selector('.players li[data-player="boblist"]')
        bob.click("[data-act=ready]")
        ann.wait_for_selector('.players li[data-player="boblist"] .tag.ready')
        ann.click("[data-act=start]")
        for page in (ann, bob):
            page.wait_for_selector(".race-game .pile", timeout=10000)
            counted = [text for text in said_in(page, "count") if text]
            assert counted and counted[0] == "The race starts in 1", counted
            panel = page.get_by_role("list", name="racers")
            expect(panel.get_by_role("listitem")).to_have_count(2)
            for name in ("annlist", "boblist"):
                expect(panel.get_by_role("listitem").filter(has_text=name)).to_have_count(1)
    finally:
        for context in contexts:
            context.close()


def test_each_game_on_the_home_screen_is_a_heading(browser: Any, web_server: ServerProcess) -> None:
    """The ten games were bold text: a screen reader's heading keys reached none of them.
    Each is a heading of level 3 under "Games" (2, unseen), and looks as it did: bold, in
    the page's type, no taller than its line."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/play")
        register(page, "headings")
        page.wait_for_selector(".home .game-row")
        games = page.get_by_role("heading", name="Games", level=2, exact=True)
        expect(games).to_have_count(1)
        names: list[str] = page.evaluate("window.patienceRace.games.map((g) => g.name)")
        for name in names:
            expect(page.get_by_role("heading", name=name, level=3, exact=True)).to_have_count(1)
        looks = page.evaluate(
            """() => [...document.querySelectorAll('.game-row h3')].map((e) => {
              const s = getComputedStyle(e), body = getComputedStyle(document.body);
              const high = e.getBoundingClientRect().height;
              return s.fontSize === body.fontSize && Number(s.fontWeight) >= 700
                && high <= parseFloat(s.fontSize) * 1.5
                || `${e.textContent}: ${s.fontSize} ${s.fontWeight} ${high}`;
            })"""
        )
        assert len(looks) == len(names) and all(x is True for x in looks), looks
        box = games.bounding_box()
        assert box is not None and box["width"] <= 1 and box["height"] <= 1, box
    finally:
        context.close()
