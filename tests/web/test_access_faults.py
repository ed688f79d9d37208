"""An outside tester's faults using a screen reader, the keyboard alone and page zoom,
each seen failing first: at 400% zoom (a window of 320x256 CSS pixels) the game's heading,
buttons and move box had been laid beside the board on top of it, the page the window's
height and not scrolling (The Gate's t3, t4, r, b3, b4 and fs under them); now no pile of
any game is covered there, nor at the sizes that had been fine."""

from __future__ import annotations

from typing import Any

from server.engine import GAMES
from tests.app.conftest import ServerProcess

from .conftest import http, signed_in
from .test_a11y import a_daily_by
from .test_keyboard import a_game, run
from .test_layout import SCROLLED, SETTLED, resize
from .test_play import until
from .test_race import register
from .test_spoken_screens import active

#: 1280x1024 at 400%, the short and narrow window that failed, and the sizes that did not
ZOOMED = [(320, 256), (640, 400), (320, 400), (320, 640)]

# In the page: each pile brought into the window (the page may scroll: a pile's box
# scrolled, as the board's box would, is counted by SCROLLED) and hit-tested across its
# top, where a pile shows whatever covers the rest of it (a garden's next row covers the
# foot of the row before); the piles whose tops are another element's.
COVERED = """() => {
  const out = [];
  const name = (e) => e ? e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ')[0] : '') : 'nothing';
  for (const pile of document.querySelectorAll('.game .board-box .pile')) {
    let r = pile.getBoundingClientRect();
    if (r.top < 0 || r.top + 8 > innerHeight) window.scrollBy(0, r.top - 8);
    r = pile.getBoundingClientRect();
    for (const x of [r.left + r.width / 4, r.left + r.width / 2, r.right - r.width / 4]) {
      const hit = document.elementFromPoint(x, r.top + 3);
      if (hit?.closest('.pile') !== pile) { out.push(`${pile.dataset.pile} under ${name(hit)}`); break; }
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
  const out = [];
  if (tag.scrollWidth > tag.clientWidth) out.push(`${tag.textContent} cut: ${tag.scrollWidth} px in ${tag.clientWidth}`);
  const r = tag.getBoundingClientRect();
  if (r.left < 0 || r.right > innerWidth) out.push(`${tag.textContent} from ${r.left} to ${r.right}`);
  for (const other of tag.parentElement.children) {
    const o = other.getBoundingClientRect();
    if (other !== tag && o.width && r.left < o.right && o.left < r.right && r.top < o.bottom && o.top < r.bottom)
      out.push(`${tag.textContent} over ${other.textContent}`);
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
