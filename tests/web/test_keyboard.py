"""The keyboard flows, and the screens pass axe-core: Tab reaches every pile and every
control with a visible focus ring, a pile's accessible name says what is on it, Enter or
Space picks a pile and plays onto a target, Esc drops the pick, and a move typed in the
move box leaves the focus there. axe-core (vendored for these tests,
``tests/web/vendor/axe-core``) finds no serious or critical violation on the games, a
game, a lobby, a race, its results, a leaderboard and a replay."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from server.engine import card_name, parse_card
from tests.app.client import player, racing
from tests.app.conftest import ServerProcess

from .conftest import http, signed_in

AXE = Path(__file__).with_name("vendor") / "axe-core" / "axe.min.js"
#: whether the focused element shows a focus ring: its outline, or a pile's ring drawn by
#: its ::after inside it
RING = """(() => {
  const a = document.activeElement, s = getComputedStyle(a), after = getComputedStyle(a, "::after");
  const inside = a.classList.contains("pile") && after.content !== "none"
    && after.borderTopStyle === "solid" && parseFloat(after.borderTopWidth) >= 2;
  return inside || (s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2);
})()"""
#: whether the focused pile's ring (its outline, and a shadow spread around it) lies
#: within the board's box, whose overflow would cut off whatever lies outside it
RING_INSIDE = """(() => {
  const a = document.activeElement, s = getComputedStyle(a);
  const box = a.closest(".board-box").getBoundingClientRect(), r = a.getBoundingClientRect();
  const outline = s.outlineStyle === "none"
    ? 0 : parseFloat(s.outlineOffset) + parseFloat(s.outlineWidth);
  const spread = s.boxShadow.split(/,(?![^(]*\\))/).filter((x) => x.trim() && !x.includes("inset"))
    .map((x) => parseFloat((x.replace(/rgba?\\([^)]*\\)/, "").trim().split(/\\s+/)[3] || "0")));
  const out = Math.max(0, outline, ...spread);
  return r.left - out >= box.left - 0.5 && r.top - out >= box.top - 0.5
    && r.right + out <= box.right + 0.5 && r.bottom + out <= box.bottom + 0.5;
})()"""
KINDS = {"foundation-up": "foundation up", "foundation-down": "foundation down"}


def run(coroutine: Any) -> Any:
    """Protocol work from a thread of its own (Playwright's loop holds this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result(30)


async def a_gate_game(url: str, seed: int = 1) -> str:
    """A player with The Gate on ``seed`` in hand (seed 1's t1 goes onto t3): the token."""
    return await a_game(url, "gate", seed)


async def a_game(url: str, game: str, seed: int, name: str = "kay") -> str:
    """A player ``name`` with ``game`` on ``seed`` in hand: the token."""
    client = await player(url, name)
    try:
        await client.call("new_game", game=game, seed=seed)
        assert client.token is not None
        return client.token
    finally:
        await client.close()


def game_page(
    browser: Any, web_server: ServerProcess, game: str, seed: int, name: str = "kay"
) -> tuple[Any, Any]:
    """A desktop page signed in as ``name`` with ``game`` on ``seed`` in play (a dialog
    accepted): the context and the page."""
    token = run(a_game(web_server.url, game, seed, name=name))
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    signed_in(page, http(web_server), token, "/play")
    page.wait_for_selector(".game .pile")
    return context, page


def spoken(pile: dict[str, Any]) -> str:
    """A pile's accessible name, from the view: kind, label, the cards that show (a fan's
    all, a waste's top three; the top one first), how many."""
    cards, down = pile["cards"], pile["down"]
    shown = cards[-1:]
    if pile["fan"] in ("down", "right"):
        shown = cards
    elif pile["kind"] == "waste":
        shown = cards[-3:]
    names = [str(card_name(parse_card(c))) for c in reversed(shown)]
    what = []
    if cards and len(cards) + down > 1:
        what.append(f"{len(cards) + down} cards")
    if down:
        what.append(f"{down} face down" if cards else f"{down} cards face down")
    if len(names) > 1:
        said = f"{names[0]} on top, then {', '.join(names[1:])}; {', '.join(what)}"
    else:
        said = ", ".join(names + what) or "empty"
    kind = KINDS.get(pile["kind"], pile["kind"])
    return f"{kind} {pile['label']}: {said}"


def focused(page: Any) -> str:
    where: str = page.evaluate(
        "(() => { const a = document.activeElement;"
        " return a.dataset.pile ? `pile ${a.dataset.pile}` : a.dataset.act ? `act ${a.dataset.act}`"
        " : a.id ? `#${a.id}` : a.tagName.toLowerCase(); })()"
    )
    return where


def test_tab_enter_space_and_escape_play_a_game(browser: Any, web_server: ServerProcess) -> None:
    token = run(a_gate_game(web_server.url))
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        signed_in(page, http(web_server), token, "/play")
        page.wait_for_selector(".game .pile")
        view = page.evaluate("window.patienceRace.screen.view")
        # each pile's accessible name, as the browser computes it, says what is on it
        for pile in view["piles"]:
            name = spoken(pile)
            button = page.get_by_role("button", name=name, exact=True)
            assert button.get_attribute("data-pile") == pile["label"], name
        assert spoken(next(p for p in view["piles"] if p["label"] == "s")) == (
            "stock s: 34 cards face down"
        )
        # a fanned pile says every card that shows, the top one first (it had said the
        # top card alone: an outside tester's fault)
        post = next(p for p in view["piles"] if p["label"] == "l")
        assert len(post["cards"]) > 1 and post["fan"] == "down"
        assert " on top, then " in spoken(post)

        # Tab from the top of the page reaches every pile and control, each with a ring
        page.locator("#home-link").focus()
        reached = []
        for _ in range(60):
            page.keyboard.press("Tab")
            where = focused(page)
            ring = page.evaluate(RING)
            assert ring, f"no focus ring on {where}"
            if where.startswith("pile "):
                # the whole ring shows: none of it cut off by the board's scrolling box
                assert page.evaluate(RING_INSIDE), f"the ring on {where} is cut off"
            reached.append(where)
            if where == "#notation":
                break
        piles = {f"pile {p['label']}" for p in view["piles"]}
        assert piles <= set(reached)
        assert {"act home", "act hint", "act resign", "act deal", "#notation"} <= set(reached)

        # Enter picks, Esc drops, Space picks, Enter on a target plays
        page.locator('.pile[data-pile="t1"]').focus()
        page.keyboard.press("Enter")
        page.wait_for_selector('.pile.picked[data-pile="t1"][aria-pressed=true]')
        assert focused(page) == "pile t1"  # still there after the redraw
        page.keyboard.press("Escape")
        page.wait_for_selector('.pile[data-pile="t1"]:not(.picked)')
        page.keyboard.press(" ")
        page.wait_for_selector('.pile.picked[data-pile="t1"]')
        # the note says what a keyboard does next, not a mouse's "click" or a finger's "tap"
        note = page.locator(".game .note").inner_text()
        assert note == "t1 picked: Tab to where it goes and press Enter", note
        page.wait_for_selector('.pile.target[data-pile="t3"]')
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        assert focused(page) == "pile t3"
        page.keyboard.press("Enter")
        page.wait_for_selector(".game .moves:text-is('1 move')")
        assert focused(page) == "pile t3"

        # a move typed in the box, and Enter: the box keeps the focus for the next one
        legal = page.evaluate("window.patienceRace.screen.legal")
        page.locator("#notation").focus()
        page.keyboard.type(next(m for m in legal if ">" in m))
        page.keyboard.press("Enter")
        page.wait_for_selector(".game .moves:text-is('2 moves')")
        assert focused(page) == "#notation"
        # a paste gone wrong is not sent: the box says why in words, and keeps it
        page.fill("#notation", "t1>b2 " * 50)
        page.keyboard.press("Enter")
        page.wait_for_selector(".game .note:has-text('A move is at most 64 characters')")
        assert page.inner_text(".game .moves") == "2 moves"
        assert page.input_value("#notation") == "t1>b2 " * 50
    finally:
        context.close()


async def races(url: str) -> tuple[str, str, str, str, str]:
    """Two races of two over the protocol: one under way, one with both racers resigned.
    The running race's code and a racer's token, the finished one's code, a racer's
    token and a replay."""
    ann, bob, cy, di = [await player(url, name) for name in ("ann", "bob", "cy", "di")]
    try:
        running = await racing(cy, di)
        code = await racing(ann, bob)
        await ann.call("resign")
        await bob.call("resign")
        results = await ann.event("results")
        assert ann.token is not None and cy.token is not None
        return running, cy.token, code, ann.token, results["results"][0]["replay"]
    finally:
        for client in (ann, bob, cy, di):
            await client.close()


def serious(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it is."""
    page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(
        """async () => {
          const result = await axe.run(document, { resultTypes: ["violations"] });
          return result.violations
            .filter((v) => v.impact === "serious" || v.impact === "critical")
            .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target)}`);
        }"""
    )
    return found


def test_no_serious_violation_on_the_main_screens(browser: Any, web_server: ServerProcess) -> None:
    base = http(web_server)
    running, racer, code, token, replay = run(races(web_server.url))
    game = run(a_gate_game(web_server.url))
    context = browser.new_context(viewport={"width": 1280, "height": 800}, bypass_csp=True)
    found: dict[str, list[str]] = {}
    try:
        page = context.new_page()
        page.goto(f"{base}/play")
        page.wait_for_selector("form.name-form")
        found["name form"] = serious(page)
        signed_in(page, base, game, "/play")
        page.wait_for_selector(".game .pile")
        found["game"] = serious(page)
        page.goto(f"{base}/play#home")
        page.wait_for_selector(".game-row")
        found["home"] = serious(page)
        # each game's buttons named with the game (a screen reader heard "Play" ten times)
        for bare in ("Play", "Daily", "Race", "Quick race"):
            assert page.get_by_role("button", name=bare, exact=True).count() == 0, bare
        for named in ("Play Nestor", "Daily challenge: Nestor", "Race at Nestor"):
            assert page.get_by_role("button", name=named, exact=True).count() == 1, named
        assert page.get_by_role("link", name="Rules of Nestor", exact=True).count() == 1
        page.click('.game-row[data-game="nestor"] [data-act=race]')
        page.wait_for_selector("input.share")
        found["lobby"] = serious(page)
        signed_in(page, base, racer, f"/r/{running}")
        page.wait_for_selector(".race-game .pile")
        found["race"] = serious(page)
        signed_in(page, base, token, f"/r/{code}")
        page.wait_for_selector(".results table")
        found["results"] = serious(page)
        page.goto(f"{base}/play#board=races/week")
        page.wait_for_selector(".boards table")
        found["leaderboard"] = serious(page)
        page.goto(f"{base}/play#replay={replay}")
        page.wait_for_selector(".replay .board .pile")
        found["replay"] = serious(page)
    finally:
        context.close()
    assert {screen: v for screen, v in found.items() if v} == {}


def test_the_arrow_keys_go_from_pile_to_pile(browser: Any, web_server: ServerProcess) -> None:
    """Every pile is a Tab stop, so a pile far off in the Tab order took dozens of Tabs
    (The Wedge's 24>21: thirty, then forty): an arrow key on a pile goes to the nearest
    pile that way."""
    token = run(a_gate_game(web_server.url))
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        signed_in(page, http(web_server), token, "/play")
        page.wait_for_selector(".game .pile[data-pile=t1]")
        page.locator(".game .pile[data-pile=t1]").focus()
        walk = []
        for key in ("ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp", "ArrowLeft"):
            page.keyboard.press(key)
            walk.append(focused(page))
        assert walk == ["pile t2", "pile b2", "pile b1", "pile t1", "pile l"], walk
        assert "← → ↑ ↓" in (page.text_content(".game .shortcuts") or "")
    finally:
        context.close()


def test_the_single_key_shortcuts_can_be_turned_off_and_stay_so(
    browser: Any, web_server: ServerProcess
) -> None:
    """u, o, i, d, n and / were always on: a speech-input user's words or a screen
    reader's own keys typed letters that played (WCAG 2.1.4). They can be turned off under
    Keyboard shortcuts, and stay off in this browser; the move box and the buttons stay."""
    context, page = game_page(browser, web_server, "gate", 1, name="keysoff")
    try:
        page.click("summary:has-text('Keyboard shortcuts')")
        box = page.locator("[data-act=single-keys]")
        assert box.is_checked()
        box.uncheck()
        page.locator(".pile").first.focus()
        page.keyboard.press("n")
        assert page.evaluate("document.activeElement.id") != "notation"
        page.reload()
        page.wait_for_selector(".game .pile")
        page.locator(".pile").first.focus()
        page.keyboard.press("n")
        assert page.evaluate("document.activeElement.id") != "notation"
        page.click("summary:has-text('Keyboard shortcuts')")
        assert not page.locator("[data-act=single-keys]").is_checked()
        page.locator("[data-act=single-keys]").check()
        page.locator(".pile").first.focus()
        page.keyboard.press("n")
        assert page.evaluate("document.activeElement.id") == "notation"
    finally:
        context.close()
