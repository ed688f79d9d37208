"""The quick race in Chromium against the real server (a child process, its quick race
figures shortened by setting) and Redis: two pages press "Quick race" on the home screen,
wait, are matched into one room and race; a page alone races the ghosts of that race."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app.conftest import ServerProcess

from .conftest import http, shot
from .test_race import register


@pytest.fixture
def quick_server(redis_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(
        redis_url,
        tmp_path,
        PATIENCE_COUNTDOWN="1.0",
        PATIENCE_QUICK_TICK="0.1",
        PATIENCE_QUICK_GATHER="0",
        PATIENCE_QUICK_GHOSTS_AFTER="600",  # (ghosts later: the server restarted sooner)
    )
    proc.start()
    yield proc
    if proc.process is not None:
        proc.stop()


def resign(page: Any) -> None:
    page.click("[data-act=resign]")


def test_quick_race_matches_two_pages_then_one_races_their_ghosts(
    browser: Any, quick_server: ServerProcess
) -> None:
    base = http(quick_server)
    contexts = [browser.new_context() for _ in range(3)]
    try:
        ann, bob, cat = (c.new_page() for c in contexts)
        for page in (ann, bob, cat):
            page.on("dialog", lambda dialog: dialog.accept())
        for page, name in ((ann, "ann"), (bob, "bob")):
            page.goto(f"{base}/play")
            register(page, name)
            page.click('.game-row[data-game="gate"] [data-act=quick]')
        ann.wait_for_selector(".quick-wait")
        for page in (ann, bob):
            try:
                page.wait_for_selector(".race-game .pile", timeout=15000)
            except Exception as exc:  # (once in many runs: say what each page showed)
                shown = [(p.url, p.inner_text("main")[:300]) for p in (ann, bob)]
                raise AssertionError(f"no match in 15 s; the pages showed {shown}") from exc
            assert "/r/" in page.url
        room = ann.evaluate("window.patienceRace.screen.room")
        assert room["quick"] is True and sorted(p["name"] for p in room["players"]) == [
            "ann",
            "bob",
        ]
        assert ann.query_selector("[data-act=start]") is None
        shot(ann, "quick-race")
        for page in (ann, bob):
            resign(page)
        ann.wait_for_selector(".results")
        ann.wait_for_selector("[data-act=quick]")
        assert ann.query_selector("[data-act=rematch]") is None
        # nobody hosts a quick race (the racers' list said "ann host")
        assert ann.locator(".players li").count() == 2
        assert ann.locator(".players .tag:text-is('host')").count() == 0

        # the same server again (the same Redis, the race recorded), its ghosts sooner:
        # the two pages above were not raced against the clock
        quick_server.stop()
        quick_server.env["PATIENCE_QUICK_GHOSTS_AFTER"] = "2"
        quick_server.start()
        base = http(quick_server)
        cat.goto(f"{base}/play")
        register(cat, "cat")
        cat.click('.game-row[data-game="gate"] [data-act=quick]')
        cat.wait_for_selector(".quick-wait:has-text('ghosts in')")
        shot(cat, "quick-waiting")
        cat.wait_for_selector(".quick-wait:has-text('racing the ghosts of')", timeout=15000)
        cat.wait_for_selector(".race-game .pile", timeout=10000)
        cat.wait_for_selector('.bar-row.ghost[data-player="ann"]')
        cat.wait_for_selector('.bar-row.ghost[data-player="bob"]')
        # what the player started, as the terminal's "quick race vs 2 ghosts" says (the
        # server plays it as a challenge game, which the head said)
        assert cat.inner_text(".race-game .game-head .kind").lower() == "quick race"
        resign(cat)
        verdict = cat.wait_for_selector(".verdict")
        assert verdict is not None
        assert "against the ghosts" in verdict.inner_text()
        # read out too: the heading is no live region (the screen's region says it)
        assert cat.inner_text("[role=status].live") == verdict.inner_text()
        assert len(cat.query_selector_all(".results tr[data-player]")) == 3
        shot(cat, "quick-ghosts-result")
    finally:
        for context in contexts:
            context.close()


@pytest.fixture
def ghosts_soon(redis_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    proc = ServerProcess(
        redis_url,
        tmp_path,
        PATIENCE_COUNTDOWN="1.0",
        PATIENCE_QUICK_TICK="0.1",
        PATIENCE_QUICK_GHOSTS_AFTER="1",
    )
    proc.start()
    yield proc
    if proc.process is not None:
        proc.stop()


def test_a_ghost_race_goes_on_after_the_page_is_reloaded(
    browser: Any, ghosts_soon: ServerProcess
) -> None:
    """A page racing ghosts, reloaded mid-race, takes up the same ghost race (not a new
    wait in the queue); at its end the result links to its replay."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        page.goto(f"{http(ghosts_soon)}/play")
        register(page, "dot")
        page.click('.game-row[data-game="gate"] [data-act=quick]')
        page.wait_for_selector(".race-game .pile", timeout=15000)
        game = page.evaluate("window.patienceRace.screen.race.game")

        page.reload()
        page.wait_for_selector(".race-game .pile", timeout=15000)
        assert page.evaluate("window.patienceRace.screen.race.game") == game
        assert "Waiting" not in page.inner_text(".quick-wait")

        # no race is recorded on this server: a fresh deal, alone, and said as such at
        # its end too (it said "You finished 1st of 1 against the ghosts", over a table
        # of one)
        assert "no recorded race is left for you to race" in page.inner_text(".quick-wait")
        resign(page)
        verdict = page.wait_for_selector(".verdict")
        assert verdict is not None and verdict.inner_text() == "Your game is over: resigned"
        link = page.wait_for_selector("a.replay-link")
        assert link is not None and link.get_attribute("href") == f"/play#replay={game}"
        assert page.locator(".results table").count() == 0
    finally:
        context.close()
