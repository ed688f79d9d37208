"""Ratings in the browser (``docs/ratings.md``, ``docs/web.md``): each racer's rating
in the lobby, the rating and its change in a rated race's results, the player's ratings
on the home screen, and a game's rating board."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from server.app.domain import ratings as rt
from tests.app.conftest import ServerProcess

from .conftest import http, shot


@pytest.fixture
def rated_server(redis_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """The real server, with a rating board that shows a player from their first race."""
    proc = ServerProcess(
        redis_url, tmp_path, PATIENCE_COUNTDOWN="0.5", PATIENCE_RATING_BOARD_RACES="1"
    )
    proc.start()
    yield proc
    proc.stop()


def test_ratings_in_the_lobby_the_results_the_home_screen_and_the_board(
    browser: Any, rated_server: ServerProcess
) -> None:
    base = http(rated_server)
    ann_ctx, bob_ctx = browser.new_context(), browser.new_context()
    try:
        ann, bob = ann_ctx.new_page(), bob_ctx.new_page()
        for page in (ann, bob):
            page.on("dialog", lambda dialog: dialog.accept())
        ann.goto(f"{base}/play")
        ann.fill("input[name=name]", "ann")
        ann.click("form.name-form button[type=submit]")
        # no rated race yet: the home screen says how to get a rating
        ann.wait_for_selector(".ratings:has-text('No rating yet')")
        # Doubles and Quits: every deal has a pair to take off, and ann's one pair ranks
        # bob below her (racers parted only by who joined first are rated a draw; moves
        # part nobody who has not won)
        ann.click('.game-row[data-game="doubles-and-quits"] [data-act=race]')
        link = ann.wait_for_selector("input.share").input_value()  # type: ignore[union-attr]
        bob.goto(link)
        bob.fill("input[name=name]", "bob")
        bob.click("form.name-form button[type=submit]")
        # the lobby: each racer's rating at the room's game (0 before any race)
        ann.wait_for_selector('.players li[data-player="bob"] .tag.rating:text-is("rating 0")')
        assert ann.inner_text('.players li[data-player="ann"] .tag.rating') == "rating 0"
        bob.click("[data-act=ready]")
        ann.wait_for_selector('.players li[data-player="bob"] .tag.ready')
        ann.click("[data-act=start]")
        for page in (ann, bob):
            page.wait_for_selector(".race-game .pile", timeout=10000)
        pair = next(m for m in ann.evaluate("window.patienceRace.screen.game.legal") if "+" in m)
        ann.fill("#notation", pair)
        ann.press("#notation", "Enter")
        bob.wait_for_selector('.bars .bar-row:has-text("ann"):has-text("1 move")')
        ann.wait_for_selector('.race-game .moves:text-is("1 move")')
        # (one deal in thirty has no move left after its first pair: that game is lost)
        if ann.get_attribute(".race-game .status", "data-status") == "playing":
            ann.click("[data-act=resign]")
        bob.click("[data-act=resign]")
        first, second = rt.update([rt.DEFAULT, rt.DEFAULT], [1, 2])
        for page in (ann, bob):
            page.wait_for_selector(".results table")
            assert page.inner_text(".results thead").split() == [
                "#", "player", "result", "time", "moves", "pairs", "rating",
            ]  # fmt: skip
            assert page.inner_text('.results tr[data-player="ann"] td.rating') == (
                f"{first.shown} (+{first.shown})"
            )
            assert page.inner_text('.results tr[data-player="bob"] td.rating') == (
                f"{second.shown} ({second.shown})"
            )
        shot(ann, "results-rated")
        # the home screen: the player's ratings, each game's linking to its board
        ann.click("[data-act=leave]")
        ann.wait_for_selector(".home")
        row = ann.wait_for_selector('.ratings li[data-game="doubles-and-quits"]')
        assert row is not None
        assert row.inner_text() == f"Doubles and Quits: {first.shown} (1 rated race)"
        ann.click('.ratings li[data-game="doubles-and-quits"] a')
        ann.wait_for_selector(".boards table tbody tr")
        assert ann.inner_text(".boards h1") == "Doubles and Quits: ratings"
        assert "A racer joins this board after 1 rated race." in ann.inner_text(".boards")
        # (bob's name with the Follow button beside it)
        rows = [r.split("\t") for r in ann.inner_text(".boards tbody").splitlines()]
        rows = [[cell.removesuffix("Follow") for cell in row] for row in rows]
        assert rows == [
            ["1", "ann", str(first.shown), "1"],
            ["2", "bob", str(second.shown), "1"],
        ]
        # bob's name: his page, his rating at each game (the terminal's profile bob)
        ann.click('.boards tr[data-player="bob"] a[data-to=player]')
        his = ann.wait_for_selector('.player li[data-game="doubles-and-quits"]')
        assert his is not None
        assert his.inner_text() == f"Doubles and Quits: {second.shown} (1 rated race)"
        assert ann.inner_text(".player h2") == "bob's ratings"
    finally:
        ann_ctx.close()
        bob_ctx.close()
