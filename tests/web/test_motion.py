"""Motion, sound and the end of a game in the browser: a played card slides to its new
place (none under ``prefers-reduced-motion``), a replay's step slides too, a won game is
celebrated over the board and not over its controls, the countdown ticks and the finish
sounds unless the header's mute button (remembered over a reload) is pressed, and a lost
solo game says why and how many pairs got home and offers the Undo that plays on.

Deals are fixed by seed (``new_game`` asked over the page's own connection, then the page
reloaded into the game): Doubles and Quits seed 1 is won by the solver's 26 pairs, Nestor
seed 16 is lost after six moves, the last of which can be taken back. What the page did is
watched by observers installed in it (each card given ``data-sliding``, with the
animations running on it at that moment; the celebration's layer, with its box; each
sound), so no assertion depends on how fast anything runs."""

from __future__ import annotations

import re
from typing import Any

import pytest

from server.engine import new_game
from server.solver import solve
from tests.app.conftest import ServerProcess

from .conftest import http, shot
from .test_play import until
from .test_race import register

PHONE = {"width": 360, "height": 740}
WON_DEAL = ("doubles-and-quits", 1)
LOST_DEAL = ("nestor", 16)
LOST_LINE = ["1+5", "reserve", "reserve", "reserve", "reserve", "8+r4"]

# installed in the page: what moved, what was celebrated and what sounded, as it happened
WATCH = """() => {
  const seen = window.seen = {slid: [], layers: [], sounds: []};
  const box = (el) => {
    const b = el.getBoundingClientRect();
    return [b.left, b.top, b.right, b.bottom];
  };
  const slides = (a) => JSON.stringify(a.effect.getKeyframes()).includes('translate');
  const start = (a) => a.effect.getKeyframes()[0].transform;
  const watch = (records) => {
    for (const r of records) {
      const el = r.target;
      if (r.attributeName === 'data-sliding' && el.hasAttribute('data-sliding')) {
        const running = el.getAnimations().filter((a) => a.playState === 'running');
        seen.slid.push({card: el.dataset.card, running: running.length,
                        moves: running.some(slides),
                        from: running.filter(slides).map(start)});
      }
      if (r.attributeName === 'data-sound') seen.sounds.push(document.body.dataset.sound);
      for (const added of r.addedNodes || []) {
        if (!added.classList || !added.classList.contains('celebration')) continue;
        const controls = document.querySelectorAll('.game .controls, .game .notation');
        seen.layers.push({box: box(added), controls: [...controls].map(box),
                          pointer: getComputedStyle(added).pointerEvents});
      }
    }
  };
  new MutationObserver(watch).observe(document.body, {subtree: true, childList: true,
    attributes: true, attributeFilter: ['data-sliding', 'data-sound']});
}"""


def seen(page: Any) -> dict[str, Any]:
    result: dict[str, Any] = page.evaluate("window.seen")
    return result


def deal(page: Any, base: str, game: str, seed: int) -> None:
    """The player's solo game becomes ``game`` dealt from ``seed``; the page reloaded into it."""
    page.evaluate(
        "([game, seed]) => window.patienceRace.link.request('new_game', {game, seed})",
        [game, seed],
    )
    page.goto(f"{base}/play")
    page.wait_for_selector(".game .pile")
    until(page, "() => window.patienceRace.screen && window.patienceRace.screen.view")
    page.evaluate(WATCH)


def play(page: Any, moves: list[str]) -> None:
    """Moves played through the game screen (as its notation box does), one reply at a time."""
    for move in moves:
        page.evaluate("m => window.patienceRace.screen.move(m)", move)


def moves_shown(page: Any, n: int) -> None:
    word = "move" if n == 1 else "moves"
    page.wait_for_selector(f".game .moves:text-is('{n} {word}')")


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_played_card_slides_unless_motion_is_reduced(
    browser: Any, web_server: ServerProcess, motion: str
) -> None:
    context = browser.new_context(
        viewport=PHONE, is_mobile=True, has_touch=True, reduced_motion=motion
    )
    try:
        page = context.new_page()
        base = http(web_server)
        page.goto(f"{base}/play")
        register(page, f"sl{motion[:3]}")
        page.wait_for_selector(".game-row")
        deal(page, base, "gate", 0)
        assert "b2>t1" in page.evaluate("window.patienceRace.screen.legal")
        card = page.get_attribute('.pile[data-label="b2"] .card:last-of-type', "data-card")
        assert card
        page.tap('.pile[data-label="b2"]')
        page.wait_for_selector('.pile.picked[data-label="b2"]')
        page.tap('.pile[data-label="t1"]')  # a pick redraws the same view: nothing slid yet
        moves_shown(page, 1)
        assert page.get_attribute(f'.pile[data-label="t1"] [data-card="{card}"]', "data-card")
        slid = [s for s in seen(page)["slid"] if s["moves"]]
        if motion == "reduce":
            assert slid == []
            assert page.evaluate("document.getAnimations().length") == 0
            assert page.get_attribute(".game", "data-slid") is None
        else:
            assert [s["card"] for s in slid] == [card]
            assert slid[0]["running"] == 1  # a Web Animation on the card itself
            assert page.get_attribute(".game", "data-slid") == card
    finally:
        context.close()


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_won_game_is_celebrated_over_the_board_and_its_replay_slides(
    browser: Any, web_server: ServerProcess, motion: str
) -> None:
    game, seed = WON_DEAL
    line = solve(game, seed=seed).line
    assert len(line) == 26
    context = browser.new_context(viewport={"width": 1280, "height": 800}, reduced_motion=motion)
    try:
        page = context.new_page()
        base = http(web_server)
        page.goto(f"{base}/play")
        register(page, f"won{motion[:3]}")  # a click: the gesture that lets the page sound
        page.wait_for_selector(".game-row")
        deal(page, base, game, seed)
        play(page, line[:-1])
        moves_shown(page, 25)
        first, second = line[-1].split("+")
        page.click(f'.pile[data-label="{first}"]')
        page.click(f'.pile[data-label="{second}"]')
        page.wait_for_selector(".game .status[data-status=won]")
        # said on the screen too, as a lost game is (an outside tester: only the heading
        # said "won"; the sentence went to the screen reader alone)
        assert page.inner_text(".game > .won-note") == "Won: all 26 pairs off in 26 moves."
        watched = seen(page)
        assert watched["sounds"] == ["won"]
        if motion == "reduce":
            assert watched["layers"] == []
            assert page.get_attribute(".game", "data-celebrated") is None
        else:
            assert page.get_attribute(".game", "data-celebrated") == "won"
            [layer] = watched["layers"]
            assert layer["pointer"] == "none"
            left, top, right, bottom = layer["box"]
            assert bottom > top and right > left
            for c_left, c_top, c_right, c_bottom in layer["controls"]:
                assert c_top >= bottom or c_bottom <= top or c_left >= right or c_right <= left
            shot(page, "won")
        # the replay of the game just won: a step forward slides its pair's top card
        replay = page.evaluate("window.patienceRace.screen.id")
        page.goto(f"{base}/play#replay={replay}")
        page.wait_for_selector('.replay .board-box[data-step="0"] .pile')
        page.evaluate(WATCH)
        page.click("[data-act=forward]")
        page.wait_for_selector('.replay .board-box[data-step="1"]')
        slid = [s for s in seen(page)["slid"] if s["moves"]]
        assert (slid != []) == (motion != "reduce")
    finally:
        context.close()


def test_a_dropped_card_slides_on_from_where_it_was_let_go(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        base = http(web_server)
        page.goto(f"{base}/play")
        register(page, "drop")
        page.wait_for_selector(".game-row")
        deal(page, base, "gate", 0)
        card = page.get_attribute('.pile[data-label="b2"] .card:last-of-type', "data-card")
        start = page.locator('.pile[data-label="b2"] .card').last.bounding_box()
        end = page.locator('.pile[data-label="t1"] .card').last.bounding_box()
        assert card and start and end
        page.mouse.move(start["x"] + 10, start["y"] + 10)
        page.mouse.down()
        drop_x, drop_y = end["x"] + 30, end["y"] + 40  # let go off the pile's corner
        page.mouse.move(drop_x, drop_y, steps=5)
        page.mouse.up()
        moves_shown(page, 1)
        [slid] = [s for s in seen(page)["slid"] if s["moves"]]
        assert slid["card"] == card
        page.evaluate("document.getAnimations().forEach((a) => a.finish())")  # at its place
        placed = page.locator(f'.pile[data-label="t1"] [data-card="{card}"]').bounding_box()
        assert placed is not None
        # the copy under the pointer sat 10 pixels up and left of it (game.js)
        dx, dy = (float(n) for n in re.findall(r"-?[\d.]+", slid["from"][0])[:2])
        assert abs(placed["x"] + dx - (drop_x - 10)) < 2
        assert abs(placed["y"] + dy - (drop_y - 10)) < 2
    finally:
        context.close()


def test_the_countdown_ticks_unless_muted_and_mute_is_remembered(
    browser: Any, web_server: ServerProcess
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        base = http(web_server)
        page.goto(f"{base}/play")
        mute = page.get_by_role("button", name="Mute sounds")
        assert mute.get_attribute("aria-pressed") == "false"
        register(page, "tic")
        page.wait_for_selector(".game-row")
        page.evaluate(WATCH)
        page.click('.game-row[data-game="gate"] [data-act=race]')
        page.click("[data-act=start]")  # a race of one: the host alone
        page.wait_for_selector(".race-game .game .pile")
        assert "tick" in seen(page)["sounds"]
        page.on("dialog", lambda dialog: dialog.accept())  # (leaving resigns: asked)
        page.click("[data-act=leave]")
        page.wait_for_selector(".game-row")

        mute.click()
        assert mute.get_attribute("aria-pressed") == "true"
        page.reload()
        mute = page.get_by_role("button", name="Mute sounds")
        assert mute.get_attribute("aria-pressed") == "true"  # remembered
        page.wait_for_selector(".game-row")
        page.evaluate(WATCH)
        page.click('.game-row[data-game="gate"] [data-act=race]')
        page.click("[data-act=start]")
        page.wait_for_selector(".race-game .game .pile")
        assert seen(page)["sounds"] == []
        mute.click()
        assert mute.get_attribute("aria-pressed") == "false"
        page.reload()
        mute = page.get_by_role("button", name="Mute sounds")
        assert mute.get_attribute("aria-pressed") == "false"
    finally:
        context.close()


def test_a_lost_solo_game_says_why_and_undo_plays_on(
    browser: Any, web_server: ServerProcess
) -> None:
    game, seed = LOST_DEAL
    engine = new_game(game, seed=seed)
    for move in LOST_LINE:
        engine.play(move)
    assert engine.status == "lost" and engine.can_undo()
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        base = http(web_server)
        page.goto(f"{base}/play")
        register(page, "lou")
        page.wait_for_selector(".game-row")
        deal(page, base, game, seed)
        play(page, LOST_LINE[:-1])
        moves_shown(page, 5)
        page.fill("#notation", LOST_LINE[-1])
        page.press("#notation", "Enter")
        page.wait_for_selector(".game .status[data-status=lost]")
        note = page.inner_text(".lost-note")
        lost = page.evaluate("window.patienceRace.screen.lost")
        assert lost["unit"] == "pairs" and lost["undo"] is True
        assert lost["why"] in note
        assert f"{lost['home']} of {lost['total']} pairs off" in note
        assert seen(page)["sounds"] == ["lost"]
        shot(page, "phone-lost")
        page.tap("[data-act=undo-lost]")
        page.wait_for_selector(".game .status[data-status=playing]")
        moves_shown(page, 5)
        assert page.locator(".lost-note").count() == 0
        assert "8+r4" in page.evaluate("window.patienceRace.screen.legal")
    finally:
        context.close()
