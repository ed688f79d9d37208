"""A game's review in the browser: a lost Nestor game, its Review button at the game's
end (where it was lost, the move played, the move that kept the win with its line, the
board there), and the same from the replay page, which moves the replay to that
position; and a long winning line folded on a phone."""

from __future__ import annotations

from typing import Any

from server.engine import new_game
from tests.app.conftest import ServerProcess
from tests.app.test_review import LOST_LINE, SEED

from .conftest import http, shot
from .test_motion import deal, play
from .test_play import until
from .test_race import register


def test_review_at_the_end_and_on_the_replay_page(browser: Any, web_server: ServerProcess) -> None:
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    try:
        page = context.new_page()
        base = http(web_server)
        page.goto(f"{base}/play")
        register(page, "rev")
        page.wait_for_selector(".game-row")
        deal(page, base, "nestor", SEED)
        assert page.locator("[data-act=review]").count() == 0  # not over: not offered
        play(page, [*LOST_LINE, "reserve", "reserve", "reserve"])
        until(page, "() => window.patienceRace.screen.status === 'lost'")
        gid = page.evaluate("window.patienceRace.screen.id")
        page.click("[data-act=review]")
        box = page.locator(".review")
        box.locator("text=Where the game was lost").wait_for()
        text = box.inner_text()
        assert "Until move 6 a player who knew the face-down cards could still have won" in text
        assert "you played 1+7 there" in text
        assert "Playing 1+5 there would have kept the win" in text
        # the board there rings the piles of the move played and of the one that kept the win
        assert "(1+7 ringed in orange, 1+5 in pink)" in text
        marked = page.evaluate(
            "() => ['played', 'hinted'].map(c => [...document.querySelectorAll("
            "`.review-board .pile.${c}`)].map(p => p.dataset.label))"
        )
        assert marked == [["1", "7"], ["1", "5"]], marked
        # pile 1 is in both moves: both rings show, orange within pink (one hid the other,
        # which by whether the pile was empty: an outside probe)
        rings = page.evaluate(
            "() => getComputedStyle(document.querySelector("
            "'.review-board .pile[data-label=\"1\"] .card:last-of-type')).boxShadow"
        )
        assert "rgb(255, 152, 0)" in rings and "rgb(224, 64, 251)" in rings, rings
        line = box.locator(".review-line").inner_text().split()
        assert line[0] == "1+5" and box.locator(".review-more").count() == 0  # 25: shown whole
        # the line shown wins from there, played through the engine here too
        game = new_game("nestor", seed=SEED)
        for move in [*LOST_LINE[:5], *line]:
            game.play(move)
        assert game.status == "won"
        # the board before move 6, drawn: the deal after the first five moves
        before = new_game("nestor", seed=SEED)
        for move in LOST_LINE[:5]:
            before.play(move)
        for pile in before.view()["piles"]:
            if pile["kind"] == "column" and pile["cards"]:
                top = box.locator(f'.review-board .pile[data-label="{pile["label"]}"] .card')
                assert top.last.get_attribute("data-card") == pile["cards"][-1]
        # the game's own board stays the larger: the review's text and board below it
        # once squeezed it to a strip of cards a third the review board's width
        own, there = (
            page.locator(f"{board} .card").first.bounding_box()
            for board in (".game > .board-box", ".review-board")
        )
        assert own is not None and there is not None
        assert own["width"] >= there["width"], (own, there)
        shot(page, "review-at-the-end")

        # the replay page: Review moves the replay to the position
        page.goto(f"{base}/play#replay={gid}")
        page.wait_for_selector("[data-act=review]")
        page.click("[data-act=review]")
        page.locator(".review >> text=Where the game was lost").wait_for()
        until(page, "() => document.querySelector('.board-box[data-step]')?.dataset.step === '5'")
        assert "step 5 of" in page.inner_text(".scrub")
        assert "you played 1+7 there" in page.inner_text(".review")
        shot(page, "review-replay")
        # another player's replay page names its player (it said "you played 1+7 there")
        other = browser.new_context(viewport={"width": 1100, "height": 900})
        try:
            viewer = other.new_page()
            viewer.goto(f"{base}/play")
            register(viewer, "viewer")
            viewer.wait_for_selector(".game-row")
            viewer.goto(f"{base}/play#replay={gid}")
            viewer.click("[data-act=review]")
            viewer.locator(".review >> text=Where the game was lost").wait_for()
            said = viewer.inner_text(".review")
            assert "rev played 1+7 there" in said and "you played" not in said, said
        finally:
            other.close()
    finally:
        context.close()


def test_a_long_winning_line_is_folded_on_a_phone(browser: Any, web_server: ServerProcess) -> None:
    """A Light and Shade line runs to 300 moves: shown whole it pushed the board there
    forty lines down a phone's screen. Folded, its first 24 moves show and the board
    stays near; a tap opens the whole line."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        base = http(web_server)
        page.goto(f"{base}/play")
        register(page, "fold")
        page.wait_for_selector(".game-row")
        deal(page, base, "light-and-shade", 4)
        play(page, ["deal"] * 4)
        playing = card_width(page)
        page.once("dialog", lambda dialog: dialog.accept())
        page.click(".game [data-act=resign]")
        page.click("[data-act=review]")
        box = page.locator(".review")
        # (a search of 0.14 s of CPU, in the server's worker: given time on a loaded machine)
        box.locator("text=could still win (after 4 moves)").wait_for(timeout=90_000)
        line = box.locator(".review-line")
        assert not line.is_visible()  # folded
        summary = box.locator(".review-more summary")
        folded = " ".join(summary.inner_text().split())
        start, more = folded.split(" … ")
        # not 40 lines of moves; and no second board: the game ended where the review
        # looks, and its own board above is the board there, drawn whole for the phone's
        # width (a stretch of empty box below it once, then the same board again)
        review = box.bounding_box()
        assert review is not None and review["height"] < 400, review
        assert box.locator(".review-board .pile").count() == 0
        own = page.locator(".game > .board-box")
        assert own.evaluate("b => b.scrollHeight <= b.clientHeight")
        assert card_width(page) >= playing, (card_width(page), playing)
        # the toggle's words sit in the folded line (a class of the board's once drew them
        # over the foundations)
        toggle, fold = box.locator(".review-all").bounding_box(), summary.bounding_box()
        assert toggle is not None and fold is not None
        assert (
            fold["y"] <= toggle["y"]
            and toggle["y"] + toggle["height"] <= fold["y"] + fold["height"]
        )
        shot(page, "review-folded-phone")
        summary.click()
        whole = line.inner_text().split()
        assert line.is_visible() and len(whole) > 40 and more == f"all {len(whole)} moves"
        assert start.split() == whole[:24]
        # the line shown wins from the position after the four deals
        game = new_game("light-and-shade", seed=4)
        for move in ["deal"] * 4 + whole:
            game.play(move)
        assert game.status == "won"
    finally:
        context.close()


def card_width(page: Any) -> float:
    """The width of a card of the game's own board, in CSS pixels."""
    box = page.locator(".game > .board-box .card").first.bounding_box()
    assert box is not None
    return float(box["width"])
