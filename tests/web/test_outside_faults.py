"""Faults an outside tester found playing every game to a win in the browser by mouse,
touch and keyboard: a sliding card took the click meant for the pile under it, the arrow
keys went sideways for a pile below, a game whose only move was a word put the focus in
the move box (where its key typed itself), and the lobby left the focus on <body>.

A slide is held at its start (each card given ``data-sliding`` has its animation paused
by an observer installed in the page), so no assertion depends on how fast it runs."""

from __future__ import annotations

from typing import Any

from tests.app.conftest import ServerProcess

from .conftest import http
from .test_keyboard import focused, game_page
from .test_play import until
from .test_race import register

# installed in the page: each slide paused where it starts, its card's box kept
HOLD = """() => {
  window.held = [];
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target;
      if (!el.hasAttribute('data-sliding')) continue;
      el.getAnimations().forEach((a) => { a.pause(); a.currentTime = 0; });
      const b = el.getBoundingClientRect();
      window.held.push({card: el.dataset.card, x: b.left + b.width / 2, y: b.top + b.height / 2});
    }
  }).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['data-sliding']});
}"""
UNDER = "([x, y]) => document.elementFromPoint(x, y).closest('.pile').dataset.label"


def test_a_sliding_card_leaves_the_click_to_the_pile_under_it(
    browser: Any, web_server: ServerProcess
) -> None:
    context, page = game_page(browser, web_server, "gate", 1, name="slider")
    try:
        page.evaluate(HOLD)
        assert "t1>t3" in page.evaluate("window.patienceRace.screen.legal")
        page.click('.pile[data-label="t1"]')
        page.wait_for_selector('.pile.picked[data-label="t1"]')
        page.click('.pile[data-label="t3"]')
        page.wait_for_selector(".game .moves:text-is('1 move')")
        until(page, "() => window.held.length > 0")
        held = page.evaluate("window.held[0]")
        # the card is drawn where it was, over t1, still sliding to t3: what is under
        # its middle is t1, and a click there picks t1 (it had been read as one on t3)
        assert page.locator("[data-sliding]").count() == 1
        assert page.evaluate(UNDER, [held["x"], held["y"]]) == "t1"
        page.mouse.click(held["x"], held["y"])
        page.wait_for_selector('.pile.picked[data-label="t1"], .game .note:has-text("t1")')
        assert "t3" not in page.locator(".game .note").inner_text()
    finally:
        context.close()


def arrows(page: Any, start: str, keys: list[str]) -> list[str]:
    """Where the focus goes, from pile ``start``, at each of ``keys``."""
    page.locator(f'.pile[data-pile="{start}"]').focus()
    went = []
    for key in keys:
        page.keyboard.press(key)
        went.append(focused(page))
    return went


def test_arrow_down_goes_to_the_pile_below_not_a_longer_fan_beside(
    browser: Any, web_server: ServerProcess
) -> None:
    # The Gate: t1..t4 over b1..b4, the post l beside t1 fanned down past them
    context, page = game_page(browser, web_server, "gate", 1, name="gatekey")
    try:
        for n in (1, 2, 3, 4):
            assert arrows(page, f"t{n}", ["ArrowDown"]) == [f"pile b{n}"]
            assert arrows(page, f"b{n}", ["ArrowUp"]) == [f"pile t{n}"]
        assert arrows(page, "t2", ["ArrowLeft", "ArrowLeft"]) == ["pile t1", "pile l"]
        assert arrows(page, "fc", ["ArrowDown"]) == ["pile s"]
    finally:
        context.close()
    # Light and Shade: a2 fanned by r3>a2; a3 over r3, the foundations a row below them
    context, page = game_page(browser, web_server, "light-and-shade", 1, name="lightkey")
    try:
        page.evaluate("m => window.patienceRace.screen.move(m)", "r3>a2")
        page.wait_for_selector(".game .moves:text-is('1 move')")
        tall = page.evaluate(
            "['a2', 'a3'].map((l) => document.querySelector(`.pile[data-pile=${l}]`)"
            ".getBoundingClientRect().height)"
        )
        assert tall[0] > tall[1]  # a2's fan reaches lower than a3
        assert arrows(page, "a3", ["ArrowDown"]) == ["pile r3"]
        assert arrows(page, "a1", ["ArrowDown", "ArrowDown"]) == ["pile r1", "pile f3"]
        # sideways by the row: nothing left of a1 in its row, so the focus stays
        assert arrows(page, "a1", ["ArrowLeft"]) == ["pile a1"]
        assert arrows(page, "a1", ["ArrowRight", "ArrowRight"]) == ["pile a2", "pile a3"]
    finally:
        context.close()


def test_a_game_whose_only_move_is_a_word_starts_on_its_button(
    browser: Any, web_server: ServerProcess
) -> None:
    # The Labyrinth at its start: `deal` alone (the focus had been in the move box, where
    # the word move's key `d` typed a "d" and dealt nothing)
    for game, name in (("labyrinth", "labkey"), ("blockade-ten", "blockkey")):
        context, page = game_page(browser, web_server, game, 1, name=name)
        try:
            assert page.evaluate("window.patienceRace.screen.legal") == ["deal"]
            until(page, "() => document.activeElement !== document.body")
            assert focused(page) == "act deal"
            page.keyboard.press("d")
            page.wait_for_selector(".game .moves:text-is('1 move')")
            assert page.input_value("#notation") == ""
        finally:
            context.close()


def test_the_lobby_shown_by_a_click_gives_its_heading_the_focus(
    browser: Any, web_server: ServerProcess
) -> None:
    base = http(web_server)
    host_ctx, guest_ctx = browser.new_context(), browser.new_context()
    try:
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        for page in (host, guest):
            page.on("dialog", lambda dialog: dialog.accept())
        host.goto(f"{base}/play")
        register(host, "hostess")
        host.click('.game-row[data-game="gate"] [data-act=race]')  # the mouse's click
        share = host.wait_for_selector("input.share")
        assert share is not None
        # the lobby in place of the games: its heading has the focus (it had been <body>)
        until(host, "() => document.activeElement !== document.body")
        assert host.evaluate("document.activeElement.matches('h1')")
        assert host.evaluate("document.activeElement.closest('main') !== null")
        guest.goto(share.input_value())
        register(guest, "guesty")
        host.wait_for_selector('.players li[data-player="guesty"]')
        guest.click("[data-act=ready]")
        host.wait_for_selector('.players li[data-player="guesty"] .tag.ready')
        # and keeps it through the redraws of a racer's joining and readying
        assert host.evaluate("document.activeElement.matches('.room-head h1, main h1')")
    finally:
        host_ctx.close()
        guest_ctx.close()


def test_an_auxiliary_picked_outlines_the_one_foundation_its_card_goes_on(
    browser: Any, web_server: ServerProcess
) -> None:
    # Light and Shade's deal 9: a4's 2♠ goes on a red ace (f1 the first), a2's 2♦ on a
    # black one (f5); `a4>f` names no foundation, and all eight had been outlined
    context, page = game_page(browser, web_server, "light-and-shade", 9, name="shader")
    try:
        assert {"a2>f", "a4>f"} <= set(page.evaluate("window.patienceRace.screen.legal"))
        lit = "() => [...document.querySelectorAll('.pile.target')].map(p => p.dataset.label)"
        page.click('.pile[data-label="a4"]')
        page.wait_for_selector('.pile.picked[data-label="a4"]')
        assert page.evaluate(lit) == ["f1"]
        assert page.text_content("#can-f1") == "can take from a4"
        assert page.locator("#can-f3").count() == 0  # (a red ace: no "can take from")
        page.click('.pile[data-label="f1"]')
        page.wait_for_selector(".game .moves:text-is('1 move')")
        page.click('.pile[data-label="a2"]')
        page.wait_for_selector('.pile.picked[data-label="a2"]')
        assert page.evaluate(lit) == ["f5"]
    finally:
        context.close()
