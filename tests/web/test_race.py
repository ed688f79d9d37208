"""Two browser pages race each other from a shared link to the results and a rematch,
a third page watches from the same link, one racer reloads mid-race and is back where
he was, and the results' replay is stepped through as boards."""

from __future__ import annotations

import asyncio
import re
import signal
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.app.client import player, racing
from tests.app.conftest import ServerProcess

from .conftest import http, shot, signed_in


def register(page: Any, name: str) -> None:
    page.fill("input[name=name]", name)
    page.click("form.name-form button[type=submit]")


def legal(page: Any) -> list[str]:
    moves: list[str] = page.evaluate("window.patienceRace.screen.game.legal")
    return moves


def play_by_clicks(page: Any, move: str) -> None:
    """Play a Nestor move by clicks: a pair (``5+8``), its two piles; ``reserve``, the
    reserve pile."""
    if "+" not in move:
        page.click(f'.race-game .pile[data-label="{move}"]')
        return
    first, second = move.split("+")
    page.click(f'.race-game .pile[data-label="{first}"]')
    page.wait_for_selector(f'.race-game .pile.picked[data-label="{first}"]')
    page.click(f'.race-game .pile[data-label="{second}"]')


def test_two_pages_race_from_a_link_and_a_third_watches(
    browser: Any, web_server: ServerProcess
) -> None:
    base = http(web_server)
    ann_ctx, bob_ctx, eve_ctx = (browser.new_context() for _ in range(3))
    try:
        ann, bob, eve = ann_ctx.new_page(), bob_ctx.new_page(), eve_ctx.new_page()
        for page in (ann, bob, eve):
            page.on("dialog", lambda dialog: dialog.accept())
        ann.goto(f"{base}/play")
        register(ann, "ann")
        ann.select_option("select[aria-label='time limit']", "300")
        ann.click('.game-row[data-game="nestor"] [data-act=race]')
        share = ann.wait_for_selector("input.share")
        assert share is not None
        link = share.input_value()
        code = link.rsplit("/", 1)[1]
        assert link == f"{base}/r/{code}"
        assert "token" not in ann.url and "token" not in link
        shot(ann, "lobby")

        bob.goto(link)  # straight into the lobby, once named
        assert bob.inner_text("h1") == "ann invites you to race Nestor"  # (test_invite.py)
        register(bob, "bob")
        bob.wait_for_selector('.players li[data-player="bob"]')
        ann.wait_for_selector('.players li[data-player="bob"]')
        assert "bob joined" in ann.inner_text("#notices")

        eve.goto(link)
        eve.click("text=Just watch this race")
        eve.wait_for_selector("text=you are watching")

        bob.click("[data-act=ready]")
        ann.wait_for_selector('.players li[data-player="bob"] .tag.ready')
        notices = ann.inner_text("#notices")
        assert "bob is ready" in notices and "everyone is ready: start the race" in notices
        ann.dblclick("[data-act=start]")  # asked once (twice, the second was refused)
        for page in (ann, bob, eve):
            page.wait_for_selector(".countdown.on")
        assert ann.inner_text(".room-head .note") == ""
        shot(bob, "countdown")
        for page in (ann, bob):
            page.wait_for_selector(".race-game .pile", timeout=10000)
        eve.wait_for_selector('.bar-row[data-player="bob"]')
        # a watcher has no board whose heading names the game: theirs does
        assert eve.inner_text(".room-head h1") == f"Race {code}: Nestor"
        assert "5:00 limit" in ann.inner_text(".room-head")
        ann.wait_for_selector(".race-game .clock:has-text('left')")  # the time limit's clock
        # the time gone and the time left make the limit (each rounded down, they had made
        # a second less)
        shown = ann.inner_text(".race-game .clock")
        found = re.fullmatch(r"(\d+):(\d\d) \((\d+):(\d\d) left\)", shown)
        assert found is not None, shown
        gone_m, gone_s, left_m, left_s = map(int, found.groups())
        assert (gone_m + left_m) * 60 + gone_s + left_s == 300, shown
        assert ann.locator(".race-game [data-act=hint]").count() == 0  # a room without hints
        # nor its key among the shortcuts, nor Nestor's none to play cards home (listed)
        keys = ann.eval_on_selector_all(".shortcuts li kbd", "ks => ks.map(k => k.textContent)")
        assert "i" not in keys and "o" not in keys and "u" in keys, keys
        assert ann.locator(".race-game [data-act=resign]").count() == 1
        assert eve.locator(".race-game .pile").count() == 0  # a watcher sees no cards
        # but the race's clock, as the racers and the terminal's watcher do
        eve.wait_for_selector(".room-head .race-clock:has-text('left')")
        shown = eve.inner_text(".room-head .race-clock")
        found = re.fullmatch(r"(\d+):(\d\d) \((\d+):(\d\d) left\)", shown)
        assert found is not None, shown
        gone_m, gone_s, left_m, left_s = map(int, found.groups())
        assert (gone_m + left_m) * 60 + gone_s + left_s == 300, shown

        move = legal(bob)[0]
        play_by_clicks(bob, move)
        bob.wait_for_selector(".race-game .moves:text-is('1 move')")
        for page in (ann, eve):  # the live bars, the watcher's too
            page.wait_for_selector('.bar-row[data-player="bob"] .nums:has-text("· 1 move")')
        # Nestor takes pairs off: the bars count them, as the game does ("2/52" before)
        bars = eve.inner_text('.bar-row[data-player="bob"] .nums')
        assert re.fullmatch(r"[01]/26 pairs · 1 move", bars), bars  # (a pair off, or the reserve)
        shot(ann, "race")
        shot(eve, "watching")

        bob.reload()  # mid-race: the token in the browser brings him back to his game
        bob.wait_for_selector(".race-game .moves:text-is('1 move')")
        assert bob.inner_text("#who") == "bob"
        # Back (to the games, where ann came from) and Forward bring ann back to her game
        # (Forward once showed the race without her board, its buttons or its move box:
        # the room as room_join answers it, without the race)
        ann.go_back()
        ann.wait_for_url(f"{base}/play")
        ann.go_forward()
        ann.wait_for_selector(".race-game .pile")
        assert ann.url == link
        assert ann.locator(".race-game [data-act=resign]").count() == 1

        asked: list[str] = []
        ann.on("dialog", lambda dialog: asked.append(dialog.message))
        ann.dblclick("[data-act=resign]")  # the question once (twice, before)
        bob.click("[data-act=resign]")
        for page in (ann, bob, eve):
            page.wait_for_selector(".results table")
        assert asked == ["Resign this race? Your game ends here; the race goes on."], asked
        # the results say in a line where each stands, and to a watcher who came first
        said = ann.inner_text(".results h2")
        assert re.fullmatch(
            r"Race over: you came (1st|2nd|joint 1st) of 2(, level with bob)?\.", said
        )
        said = eve.inner_text(".results h2")
        assert re.fullmatch(r"Race over: (ann|bob|ann and bob) came (joint )?1st of 2\.", said)
        rows = eve.locator(".results tbody tr")
        assert rows.count() == 2
        assert eve.inner_text(".results thead").split()[:6] == [
            "#", "player", "result", "time", "moves", "pairs"]  # fmt: skip
        got = eve.inner_text('.results tr[data-player="bob"] td:nth-child(6)')
        assert re.fullmatch(r"[01]/26", got), got
        # a game not won has no time: a dash, as the boards and the terminal say (blank)
        assert eve.inner_text('.results tr[data-player="bob"] td:nth-child(4)') == "—"
        assert "· 1 move" in eve.inner_text('.bar-row[data-player="bob"]')
        shot(ann, "results")
        replay_link = eve.get_attribute('.results tr[data-player="bob"] a', "href")
        assert replay_link is not None and replay_link.startswith("/play#replay=")

        # the race over, its room takes racers for the rematch: bob is told who calls it;
        # he leaves, watches from the link, and joins again for it (a finished room had
        # refused him: the rematch went on without him). eve, who never named herself, is
        # offered no place.
        assert bob.inner_text("[data-rematch=host]") == "ann, the host, may call a rematch."
        assert eve.locator("[data-act=join]").count() == 0
        bob.click("[data-act=leave]")
        bob.wait_for_selector(".home")
        bob.goto(f"{link}#watch")
        bob.click("[data-act=join]")
        bob.wait_for_selector("[data-act=leave]:text('Leave the room')")
        ann.click("[data-act=rematch]")
        for page in (ann, bob):
            page.wait_for_selector(".room-head .muted:has-text('race 2')")
            page.wait_for_selector(".race-game .pile", timeout=10000)
        assert bob.inner_text(".race-game .moves") == "0 moves"
        # leaving the room mid-race resigns the game: asked first, as Resign is (it went
        # at once)
        asked.clear()
        bob.on("dialog", lambda dialog: asked.append(dialog.message))
        bob.click("[data-act=leave]")
        assert asked == ["Leave the room? Your game in this race is resigned."], asked

        # the first race's replay, from the watcher's link, stepped through as boards
        eve.goto(f"{base}{replay_link}")
        eve.wait_for_selector('.replay .board-box[data-step="0"] .pile')
        eve.click("[data-act=forward]")
        eve.wait_for_selector('.replay .board-box[data-step="1"] .pile')
        assert "step 1 of 2" in eve.inner_text(".replay .step")
        # Nestor takes pairs off: its replay counts them, as its game did ("2/52 home")
        facts = eve.inner_text(".replay > p.muted")
        assert "/26 pairs off" in facts and "/52" not in facts, facts
        # a visitor with no name is told how to race it or review it (nothing was offered)
        assert "Pick a name to race this game's ghost, or to review it." in eve.inner_text(
            ".replay"
        )
        shot(eve, "replay")
    finally:
        for ctx in (ann_ctx, bob_ctx, eve_ctx):
            ctx.close()


def test_a_seeded_rooms_first_race_says_it_is_not_rated(
    browser: Any, web_server: ServerProcess
) -> None:
    """A room made on a chosen seed (the terminal's race new --seed) says in the browser
    that its first race is not rated (it went unrated without a word)."""

    async def seeded() -> str:
        host = await player(web_server.url, "sid")
        room = await host.call("room_create", game="gate", seed=7)
        await host.close()  # (the room stays, its host away)
        return str(room["code"])

    with ThreadPoolExecutor(1) as pool:  # (Playwright's loop holds this thread)
        code = pool.submit(asyncio.run, seeded()).result(30)
    context = browser.new_context()
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/r/{code}")
        register(page, "tia")
        page.wait_for_selector(".players li[data-player=tia]")
        assert "not rated (a deal chosen by its seed)" in page.inner_text(".room-head")
    finally:
        context.close()


async def a_timed_race_under_way(url: str) -> tuple[str, str]:
    """ann and bob racing The Gate with ten seconds on the clock and hints, both gone from the
    protocol (ann's page takes her up): the room's code and her token."""
    ann, bob = await player(url, "tim"), await player(url, "tom")
    try:
        code = (await ann.call("room_create", game="gate", time_limit=10, hints=True))["code"]
        await bob.call("room_join", code=code)
        await bob.call("ready")
        await ann.call("start")
        await ann.event("race_start")
        assert ann.token is not None
        return str(code), ann.token
    finally:
        for who in (ann, bob):
            await who.close()


def test_a_timed_race_on_a_phone_to_its_end(browser: Any, web_server: ServerProcess) -> None:
    """At 360x740: the game's heading names it whole, the clock the time left alone (it
    was "T… RACE 1/52 home 0 moves 0:06 (0:03 left)"); the racers' bars are all as long;
    once the time is up every bar says so, as the results do (a page left open had said
    nothing, having had no `progress` for it)."""
    with ThreadPoolExecutor(1) as pool:
        code, token = pool.submit(asyncio.run, a_timed_race_under_way(web_server.url)).result(30)
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    try:
        page = context.new_page()
        signed_in(page, http(web_server), token, f"/r/{code}")
        page.wait_for_selector(".race-game .pile", timeout=10000)
        page.wait_for_selector(".race-game .clock:has-text('left')")
        clock_text = page.inner_text(".race-game .clock")
        assert re.fullmatch(r"0:\d\d left", clock_text), clock_text
        # the time left said, not only drawn (a blind racer heard nothing before it ran out)
        page.wait_for_selector(".race-game .game .live:has-text('seconds left')", state="attached")
        name = page.locator(".race-game .game-head strong")
        assert name.evaluate("e => e.scrollWidth <= e.clientWidth"), name.inner_text()
        page.tap(".race-game [data-act=hint]")
        # (its words: a hint to deal rings no pile)
        page.wait_for_selector(".race-game .note:has-text('hint: ')")
        page.wait_for_selector(".results table", timeout=20000)
        # the hint asked before the time ran out goes with the game (its words and its
        # ringed piles had stood over the results)
        assert page.locator(".race-game .pile.hinted").count() == 0
        assert "hint:" not in page.inner_text(".race-game")
        statuses = page.eval_on_selector_all(".bar-row", "rs => rs.map(r => r.dataset.status)")
        assert statuses == ["timeout", "timeout"], statuses
        # the hints each was given, in the results (they were said nowhere)
        heads = page.eval_on_selector_all(".results th", "hs => hs.map(h => h.textContent)")
        column = heads.index("hints")
        hints = page.eval_on_selector_all(
            ".results tbody tr",
            f"rs => rs.map(r => [r.dataset.player, r.children[{column}].textContent])",
        )
        assert sorted(hints) == [["tim", "1"], ["tom", "0"]], hints
        # (in words people say: "timeout" read like a fault of the software)
        assert page.locator(".bar-row .nums:has-text('time ran out')").count() == 2
        assert page.inner_text(".race-game .status").startswith("time ran out, ")
        ends = page.eval_on_selector_all(
            ".bar-row .track", "ts => ts.map(t => Math.round(t.getBoundingClientRect().right))"
        )
        assert len(set(ends)) == 1, ends
        # a game whose time ran out keeps its clock: the limit's
        assert page.inner_text(".race-game .clock") == "0:10"
        # and its line, longer once over, wraps rather than squeeze the game's name away
        assert name.evaluate("e => e.clientWidth > 0 && e.scrollWidth <= e.clientWidth")
        # a replay opened from the results is a screen of the page, not a page afresh:
        # the connection stays (a host's closing with the page had handed their part on)
        page.evaluate("() => { window.samePage = true; }")
        page.click(".results tbody tr:first-child a")
        page.wait_for_selector(".replay .board-box .pile")
        assert page.evaluate("location.pathname + location.hash").startswith("/play#replay=")
        assert page.evaluate("window.samePage === true")
        page.go_back()
        page.wait_for_selector(".results table")
        assert page.evaluate("location.pathname") == f"/r/{code}"
        assert page.evaluate("window.samePage === true")
    finally:
        context.close()


def test_a_race_whose_time_ran_out_while_the_server_was_down_ends_its_bars_so(
    browser: Any, web_server: ServerProcess
) -> None:
    """A page open through a server's outage, in which the race's time ran out, ends each
    racer's bar as the results do once the server is back (the room read afresh, with
    no ``results`` event): the bars had kept their last ``progress``, and said nothing
    of the time running out."""
    with ThreadPoolExecutor(1) as pool:
        code, token = pool.submit(asyncio.run, a_timed_race_under_way(web_server.url)).result(30)
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        signed_in(page, http(web_server), token, f"/r/{code}")
        page.wait_for_selector(".race-game .pile", timeout=10000)
        page.wait_for_selector(".bar-row[data-status=playing]")
        web_server.stop(signal.SIGKILL)
        time.sleep(11)  # the race's ten seconds run out while it is down
        web_server.start()
        page.wait_for_selector(".results table", timeout=30000)
        statuses = page.eval_on_selector_all(".bar-row", "rs => rs.map(r => r.dataset.status)")
        assert statuses == ["timeout", "timeout"], statuses
        assert page.locator(".bar-row .nums:has-text('time ran out')").count() == 2
    finally:
        context.close()


async def a_race_over(url: str) -> str:
    """Two racers' race at The Gate, both resigned: the room's code."""
    ann, bob = await player(url, "rae"), await player(url, "rob")
    try:
        code = await racing(ann, bob)
        for who in (ann, bob):
            await who.call("resign")
        await ann.event("results")
        return code
    finally:
        for who in (ann, bob):
            await who.close()


def test_one_who_joins_a_race_over_sees_the_bars_of_its_racers(
    browser: Any, web_server: ServerProcess
) -> None:
    """A player who joins a finished room from its link (for its rematch) sees the bars
    of the race's racers, as its results: they had a bar of their own, "0/52 · 0 moves",
    for a race they were not in."""
    with ThreadPoolExecutor(1) as pool:
        code = pool.submit(asyncio.run, a_race_over(web_server.url)).result(30)
    context = browser.new_context(viewport={"width": 360, "height": 740})
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/r/{code}")
        register(page, "maxi")
        page.wait_for_selector('.players li[data-player="maxi"]')
        page.wait_for_selector(".results table")
        bars = page.eval_on_selector_all(".bar-row", "rs => rs.map(r => r.dataset.player)")
        assert sorted(bars) == ["rae", "rob"], bars
    finally:
        context.close()
