"""Challenges in the browser: a solo game finished and made a challenge ("Challenge a
friend": its link, copied, and the share line); the link opened cold on a phone, the
taker named, the challenge shown and raced against its ghost in the racers' panel
(a reload on the way), the verdict, both replays and the table; the challenger told at
once, with a badge and their list of challenges; a desktop page racing the same ghost
from its replay ("Race this"); a race's results made a challenge; and a challenge of
today's daily shown closed to one who has not played it. Nothing may be wider than the
phone."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from tests.app.client import player, racing
from tests.app.conftest import ServerProcess

from .conftest import http, shot, signed_in
from .test_play import until
from .test_race import register

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1100, "height": 900}}


def fits(page: Any) -> None:
    """Nothing on the page is wider than the viewport, nor the racers' rows, the tables
    and the challenge's boxes wider than themselves (hidden overflow or a scroll bar).
    The viewport is the one the context was given: on a phone, a page wider than it
    widens ``window.innerWidth`` itself (the layout viewport grows to fit it)."""
    width = page.viewport_size["width"]
    seen = page.evaluate(
        "() => ({page: document.documentElement.scrollWidth,"
        " over: [...document.querySelectorAll('.bar-row, .bar-row .nums, .table-box,"
        " .challenge-head, .challenge-result, .challenge-share, #bar')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.className || e.id)})"
    )
    assert seen["page"] <= width, seen
    assert seen["over"] == [], seen
    # nor does a game over draw its board or buttons over a table beside it: the game's
    # screen fits the window while it is played, and scrolls once more is shown with it
    # (what is drawn: a closed box's content has boxes of its own in Chromium)
    spans = page.evaluate(
        "() => { const game = document.querySelector('section.game');"
        " const table = document.querySelector('.results');"
        " if (!game || !table || !table.firstChild) return null;"
        " const rects = [...game.querySelectorAll('*')].filter(e => e.checkVisibility())"
        ".map(e => e.getBoundingClientRect()).filter(r => r.height > 0);"
        " const t = table.getBoundingClientRect();"
        " return {game: [Math.min(...rects.map(r => r.top)),"
        " Math.max(...rects.map(r => r.bottom))], table: [t.top, t.bottom]}; }"
    )
    if spans is not None:
        (top, bottom), (table_top, table_bottom) = spans["game"], spans["table"]
        assert bottom <= table_top + 1 or top >= table_bottom - 1, spans


def widest_racers_fit(page: Any) -> None:
    """The racers' panel at its widest (the longest names, four-digit move counts, an
    end's status), drawn by the client's own code in the page's panel, fits."""
    seen = page.evaluate(
        "async () => { const { drawRacers } = await import('/web/app/room.js');"
        f" {TAG_SEEN}"
        " const box = document.querySelector('.bars');"
        " const row = (name, ghost) => ({name, ghost, home: 51, total: 104, moves: 1234,"
        " status: 'resigned'});"
        " drawRacers(box, [row('m'.repeat(20), false), row('W'.repeat(20), true)], 'x');"
        " const over = [...box.querySelectorAll('.bar-row, .bar-row .nums')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).length;"
        " const out = {over, page: document.documentElement.scrollWidth,"
        " right: Math.max(...[...box.querySelectorAll('.bar-row *')]"
        ".map(e => e.getBoundingClientRect().right)),"
        " tags: [...box.querySelectorAll('.tag')].map(tagSeen)};"
        " window.patienceRace.screen.drawn = null; return out; }"
    )
    width = page.viewport_size["width"]
    assert seen["over"] == 0 and seen["page"] <= width and seen["right"] <= width, seen
    assert len(seen["tags"]) == 1 and all(t["whole"] for t in seen["tags"]), seen


#: a tag ("ghost") as drawn: on one line (a break inside the word gives two boxes),
#: and not cut by the box it is in (a racer's name is shortened with an ellipsis, not
#: its tag)
TAG_SEEN = (
    "const tagSeen = (tag) => { const r = tag.getBoundingClientRect();"
    " const box = tag.closest('.who, td').getBoundingClientRect();"
    " return {text: tag.textContent, lines: tag.getClientRects().length,"
    " whole: tag.getClientRects().length === 1 && r.left >= box.left - 1"
    " && r.right <= box.right + 1}; };"
)


def widest_table_fits(page: Any) -> None:
    """The results table at its widest (the longest names, a ghost among them, four-digit
    move counts, a held win's result, the ratings' column), drawn by the client's own code
    in place of the page's table, fits; its ghost's tag is whole, and a name of a dozen
    letters and digits is not broken (on a phone the result goes under the name)."""
    seen = page.evaluate(
        "async () => { const { resultsTable } = await import('/web/app/room.js');"
        " const box = document.querySelector('.results');"
        " const row = (rank, player, ghost) => ({rank, player, ghost, status: 'won',"
        " review: 'held', time_ms: 3599000, moves: 1234, home: 104, total: 104,"
        " replay: 'r1', rating: -12, rating_change: -10});"
        " box.replaceChildren(resultsTable([row(1, 'm'.repeat(20), false),"
        " row(2, 'W'.repeat(20), true), row(3, 'ann37032', true),"
        " row(4, 'ra12113', false), row(5, 'bob2026dec01', false)], 'x'));"
        " const over = [...box.querySelectorAll('.table-box')]"
        ".filter(e => e.scrollWidth > e.clientWidth + 1).length;"
        f" {TAG_SEEN}"
        " const lines = (name) => box.querySelector(`tr[data-player=${name}] a`)"
        ".getClientRects().length;"
        " const shown = (e) => e.checkVisibility();"
        " return {over, page: document.documentElement.scrollWidth,"
        " tags: [...box.querySelectorAll('.tag')].map(tagSeen),"
        " lines: ['ann37032', 'ra12113', 'bob2026dec01'].map(lines),"
        " column: [...box.querySelectorAll('th.result, td.result')].filter(shown).length,"
        " under: [...box.querySelectorAll('.result-under')].filter(shown)"
        ".map(e => e.textContent)}; }"
    )
    assert seen["over"] == 0 and seen["page"] <= page.viewport_size["width"], seen
    assert len(seen["tags"]) == 2 and all(t["whole"] for t in seen["tags"]), seen
    assert seen["lines"] == [1, 1, 1], seen
    if page.viewport_size["width"] <= 480:  # the result under each name, its column gone
        assert seen["column"] == 0 and seen["under"] == ["won (held for review)"] * 5, seen
    else:
        assert seen["column"] == 6 and seen["under"] == [], seen


def play_one_move(page: Any) -> None:
    """The first legal move, typed in the notation box; its reply awaited."""
    moves = page.evaluate("window.patienceRace.screen.game.legal")
    page.fill("#notation", moves[0])
    page.press("#notation", "Enter")
    page.wait_for_selector(".race-game .moves:text-is('1 move')")


def test_a_challenge_made_raced_cold_on_a_phone_and_from_its_replay(
    browser: Any, web_server: ServerProcess
) -> None:
    base = http(web_server)
    ann_ctx = browser.new_context(**DESKTOP)
    ann_ctx.grant_permissions(["clipboard-read", "clipboard-write"])
    bob_ctx = browser.new_context(**PHONE)
    cy_ctx = browser.new_context(**DESKTOP)
    try:
        ann, bob, cy = ann_ctx.new_page(), bob_ctx.new_page(), cy_ctx.new_page()
        for page in (ann, bob, cy):
            page.on("dialog", lambda dialog: dialog.accept())

        # ann finishes a solo game and makes it a challenge
        ann.goto(f"{base}/play")
        register(ann, "ann")
        ann.click('.game-row[data-game="gate"] [data-act=solo]')
        ann.wait_for_selector(".game .pile")
        assert ann.locator("[data-act=challenge]").count() == 0  # not while it is played
        moves = ann.evaluate("window.patienceRace.screen.legal")
        ann.fill("#notation", moves[0])
        ann.press("#notation", "Enter")
        ann.wait_for_selector(".game .moves:text-is('1 move')")
        ann.click("[data-act=resign]")
        ann.click("[data-act=challenge]")
        field = ann.wait_for_selector(".challenge-share input.share")
        assert field is not None
        link = field.input_value()
        found = re.fullmatch(re.escape(base) + r"/c/([a-z2-7]{16})", link)
        assert found is not None, link
        cid = found[1]
        ann_game = ann.evaluate("window.patienceRace.screen.id")
        # the line shown is the line copied, with the whole link: where the clipboard
        # cannot be written (a page over plain http from another machine), the player is
        # told to select it, and it showed "/c/ID" alone
        line = ann.inner_text(".challenge-share .share-line code")
        assert line.startswith("Beat my ") and line.endswith(f" · {link}"), line
        ann.click("[data-act=copy-share]")
        ann.wait_for_selector("[data-act=copy-share]:text('Copied')")
        assert ann.evaluate("navigator.clipboard.readText()") == line
        ann.click("[data-act=copy-challenge]")
        ann.wait_for_selector("[data-act=copy-challenge]:text('Copied')")
        assert ann.evaluate("navigator.clipboard.readText()") == link
        shot(ann, "challenge-made")

        # bob opens the link cold on a phone: names himself, sees the challenge
        bob.goto(link)
        assert bob.inner_text("h1") == "ann challenges you to The Gate"  # (test_invite.py)
        register(bob, "bob")
        bob.wait_for_selector(".challenge-head [data-act=take]")
        assert bob.inner_text(".challenge-head h1").startswith("Beat ann's ")
        assert "ann's ghost · a solo game · resigned" in bob.inner_text(".challenge-head")
        assert bob.locator(".results tbody tr").count() == 1
        assert bob.locator('.results tr.ghost[data-player="ann"] .tag.ghost').count() == 1
        # the name and its tag read as two words ("annghost" to a screen reader)
        assert bob.get_by_role("cell", name="ann ghost resigned", exact=True).count() == 1
        assert bob.locator(".results a").count() == 0  # no replay of the deal before racing
        fits(bob)
        shot(bob, "phone-challenge")

        # the race: a countdown, then the game with the ghost in the racers' panel
        bob.tap("[data-act=take]")
        bob.wait_for_selector(".countdown.on")
        bob.wait_for_selector(".race-game .pile", timeout=10000)
        bob.wait_for_selector('.bars .bar-row.ghost[data-player="ann"] .tag.ghost')
        bob.wait_for_selector('.bars .bar-row.mine[data-player="bob"]')
        assert bob.locator(".challenge-head [data-act=take]").count() == 0
        assert bob.locator(".race-game [data-act=hint]").count() == 1  # a solo game's hints
        play_one_move(bob)
        bob.wait_for_selector('.bar-row.mine[data-player="bob"] .nums:has-text("· 1 move")')
        # the ghost's end, once its time has come: ann resigned after one move
        bob.wait_for_selector('.bar-row.ghost[data-status="resigned"] .nums:has-text("· 1 move")')
        fits(bob)
        # the heading as short as a race's room's while the race is on: its title and its
        # line about the ghost took 160 pixels of a phone's 740, and the board had less
        head = bob.locator(".challenge-head").bounding_box()
        assert head is not None and head["height"] <= 56, head
        shot(bob, "phone-challenge-race")
        # the game's line names its game whole, wrapping on a phone (it read "The G…",
        # and the heading "... on Th…": nothing said which game was raced)
        name = bob.locator(".race-game .game-head strong")
        assert name.inner_text() == "The Gate"
        whole = "e => { e.textContent = 'The Blockade (rows of ten)';"
        whole += " return e.scrollWidth <= e.clientWidth + 1; }"  # (the longest name)
        assert name.evaluate(whole), name.bounding_box()
        widest_racers_fit(bob)

        bob.reload()  # mid-game: back in it, the ghost beside him
        bob.wait_for_selector(".race-game .moves:text-is('1 move')")
        bob.wait_for_selector('.bars .bar-row.ghost[data-player="ann"]')
        assert bob.evaluate("location.pathname") == f"/c/{cid}"

        bob.click(".race-game [data-act=resign]")
        verdict = bob.wait_for_selector(".challenge-result .verdict")
        assert verdict is not None
        rows = bob.locator(".results tbody tr")
        until(bob, "n => document.querySelectorAll('.results tbody tr').length === n", 2)
        # both played the deal's first legal move and resigned: with nothing home they did
        # just the same, share the table's first place, and tie; a card home parts them by
        # who got it there first
        places = [rows.nth(i).locator("td").first.inner_text() for i in range(2)]
        order = [rows.nth(i).get_attribute("data-player") for i in range(2)]
        tied = places == ["=1", "=1"]
        beat = not tied and order == ["bob", "ann"]
        assert tied or places == ["1", "2"], places
        assert verdict.get_attribute("data-tied") == str(tied).lower()
        assert verdict.get_attribute("data-beat") == str(beat).lower()
        text = verdict.inner_text()
        # read out too: the heading is no live region (the screen's region says it)
        assert bob.inner_text(".challenge [role=status].live") == text
        if tied:
            said = r"A tie with ann's ghost: as many cards home, as soon\."
        else:
            said = (
                r"(You beat ann's ghost: as many cards home, and you got there first"
                r"|ann's ghost beat you: as many cards home, and the ghost got there first)\."
            )
        assert re.fullmatch(said, text), text
        bob_game = bob.evaluate("window.patienceRace.screen.game.id")
        you = bob.get_attribute(".challenge-result a[data-replay=you]", "href")
        ghost = bob.get_attribute(".challenge-result a[data-replay=ghost]", "href")
        assert (you, ghost) == (f"/play#replay={bob_game}", f"/play#replay={ann_game}")
        assert bob.locator('.results tr.ghost[data-player="ann"] .tag.ghost').count() == 1
        assert bob.locator('.results tr.mine[data-player="bob"]').count() == 1
        assert bob.locator(".challenge-result [data-act=challenge]").count() == 1
        fits(bob)
        shot(bob, "phone-challenge-result")
        widest_table_fits(bob)

        # ann is told at once, and her list marks the new result
        ann.wait_for_selector("#notices :text('bob raced your challenge')")
        told = "level with you" if tied else "beat you" if beat else "you stay ahead"
        assert f"({told})" in ann.inner_text("#notices")  # the verdict, told her too
        assert ann.inner_text("#challenges-new") == "1"
        ann.click("#challenges-link")
        ann.wait_for_selector(f'.challenge-row.new[data-challenge="{cid}"] .tag.new')
        assert "1 new" in ann.inner_text(f'.challenge-row[data-challenge="{cid}"]')
        assert "1 taker" in ann.inner_text(f'.challenge-row[data-challenge="{cid}"]')
        assert ann.locator("#challenges-new").is_hidden()
        shot(ann, "challenges")

        # the link again, once raced: the table
        bob.goto(link)
        bob.wait_for_selector(".challenge-head :text('You have raced this challenge')")
        assert bob.locator(".results tbody tr").count() == 2
        assert bob.locator(".challenge-head [data-act=take]").count() == 0

        # a desktop page: the challenge screen cold, then ann's replay raced ("Race this")
        cy.goto(link)
        register(cy, "cy")
        cy.wait_for_selector(".challenge-head [data-act=take]")
        assert cy.locator(".results tbody tr").count() == 2
        fits(cy)
        shot(cy, "challenge")
        cy.goto(f"{base}/play#replay={ann_game}")
        cy.wait_for_selector('.replay .board-box[data-step="0"] .pile')
        cy.click("[data-act=race-replay]")
        cy.wait_for_selector(".race-game .pile", timeout=10000)
        assert cy.evaluate("location.pathname") == f"/c/{cid}"  # the same challenge
        cy.wait_for_selector('.bars .bar-row.ghost[data-player="ann"]')
        cy.click(".race-game [data-act=resign]")
        cy.wait_for_selector(".challenge-result .verdict")
        until(cy, "n => document.querySelectorAll('.results tbody tr').length === n", 3)
        fits(cy)
        shot(cy, "challenge-result")
        widest_table_fits(cy)  # (a desktop's: the result in its column)
    finally:
        for ctx in (ann_ctx, bob_ctx, cy_ctx):
            ctx.close()


def test_a_race_result_is_made_a_challenge(browser: Any, web_server: ServerProcess) -> None:
    base = http(web_server)
    contexts = [browser.new_context(**DESKTOP), browser.new_context(**PHONE)]
    try:
        ann, bob = (ctx.new_page() for ctx in contexts)
        for page in (ann, bob):
            page.on("dialog", lambda dialog: dialog.accept())
        ann.goto(f"{base}/play")
        register(ann, "ann")
        ann.click('.game-row[data-game="nestor"] [data-act=race]')
        share = ann.wait_for_selector("input.share")
        assert share is not None
        bob.goto(share.input_value())
        register(bob, "bob")
        bob.click("[data-act=ready]")
        ann.click("[data-act=start]")
        for page in (ann, bob):
            page.wait_for_selector(".race-game .pile", timeout=10000)
            page.click(".race-game [data-act=resign]")
        for page in (ann, bob):
            page.wait_for_selector(".results table")
        assert bob.locator(".race-game [data-act=challenge]").count() == 0  # the results' own
        # a notice at the race's end leaves the results' button to be seen (it lay over it)
        bob.evaluate("() => window.patienceRace.notice('ann: resigned')")
        covered = bob.evaluate(
            "() => { const n = document.querySelector('.notice').getBoundingClientRect();"
            " const b = document.querySelector('.results [data-act=challenge]')"
            ".getBoundingClientRect(); return [n.top, n.bottom, b.top, b.bottom]; }"
        )
        assert covered[1] <= covered[2] + 1 or covered[0] >= covered[3] - 1, covered
        bob.click(".results [data-act=challenge]")
        field = bob.wait_for_selector(".results .challenge-share input.share")
        assert field is not None
        link = field.input_value()
        assert re.fullmatch(re.escape(base) + r"/c/[a-z2-7]{16}", link), link
        # (Nestor takes pairs off: its share line counts them)
        assert bob.inner_text(".results .share-line code").startswith("Beat my 0/26 pairs off")
        fits(bob)
        shot(bob, "phone-race-challenge")
        # ann races bob's race from its link: the challenge of a race
        ann.goto(link)
        ann.wait_for_selector(".challenge-head [data-act=take]")
        assert "bob's ghost · a race · resigned" in ann.inner_text(".challenge-head")
    finally:
        for ctx in contexts:
            ctx.close()


async def a_daily_challenge(url: str, name: str) -> str:
    """``name`` resigns today's ranked daily of The Gate and makes it a challenge: its id."""
    client = await player(url, name)
    try:
        daily = await client.call("daily", game="gate")
        await client.call("resign", game=daily["game"])
        made = await client.call("challenge_create", replay=daily["game"])
        cid: str = made["challenge"]["id"]
        return cid
    finally:
        await client.close()


def test_a_challenge_of_todays_daily_is_closed_to_one_who_has_not_played_it(
    browser: Any, web_server: ServerProcess
) -> None:
    with ThreadPoolExecutor(1) as pool:  # (Playwright's loop holds this thread)
        cid = pool.submit(asyncio.run, a_daily_challenge(web_server.url, "kim")).result(30)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"{http(web_server)}/c/{cid}")
        register(page, "lee")
        closed = page.wait_for_selector(".challenge-head .note.closed")
        assert closed is not None
        assert "opens once your own ranked attempt at it is over" in closed.inner_text()
        assert closed.inner_text().startswith("This challenge is of today's daily deal")
        assert page.locator("[data-act=take]").count() == 0
        # the way on: today's daily first (it was a dead end)
        assert page.get_attribute("[data-act=daily-first]", "href") == "/play#daily=gate"
        assert "a daily of " in page.inner_text(".challenge-head .muted")
        fits(page)
    finally:
        context.close()


async def a_race_over_then_a_challenge_taken(url: str) -> tuple[str, str]:
    """bob races ann to the results and stays in the room; then he takes ann's challenge
    (a solo game of hers, resigned at once), whose clock runs: his token and its id."""
    ann, bob = await player(url, "ann"), await player(url, "bob")
    try:
        await racing(ann, bob)
        for who in (ann, bob):
            await who.call("resign")
        await ann.event("results")
        game = await ann.call("new_game", game="gate", seed=5)
        await ann.call("resign", game=game["game"])
        cid = (await ann.call("challenge_create", replay=game["game"]))["challenge"]["id"]
        await bob.call("challenge_take", challenge=cid)
        await bob.event("challenge_start")
        assert bob.token is not None
        return bob.token, cid
    finally:
        for who in (ann, bob):
            await who.close()


def test_a_reload_takes_up_the_challenge_in_play_not_a_race_over(
    browser: Any, web_server: ServerProcess
) -> None:
    """``/play`` opened again goes back to the game in play (a challenge against a ghost,
    its clock running), not to the results of a race its player has not left: it went to
    the finished room, and nothing said a challenge was running."""
    with ThreadPoolExecutor(1) as pool:
        token, cid = pool.submit(asyncio.run, a_race_over_then_a_challenge_taken(
            web_server.url)).result(60)  # fmt: skip
    context = browser.new_context()
    try:
        page = context.new_page()
        signed_in(page, http(web_server), token, "/play")
        page.wait_for_selector(".race-game .pile", timeout=10000)
        page.wait_for_selector('.bars .bar-row.ghost[data-player="ann"]')
        assert page.evaluate("location.pathname") == f"/c/{cid}"
    finally:
        context.close()


async def a_ghost_that_moved_late(url: str) -> tuple[str, str]:
    """ann plays one move of a Gate four seconds into her game and resigns, and makes it a
    challenge: bob's token, and its id."""
    ann, bob = await player(url, "ann"), await player(url, "bob")
    try:
        game = await ann.call("new_game", game="gate", seed=5)
        await asyncio.sleep(4)
        await ann.call("move", move=game["legal"][0])
        await ann.call("resign")
        cid = (await ann.call("challenge_create", replay=game["game"]))["challenge"]["id"]
        assert bob.token is not None
        return bob.token, cid
    finally:
        for who in (ann, bob):
            await who.close()


def test_a_challenge_given_up_early_shows_the_ghost_as_it_ended(
    browser: Any, web_server: ServerProcess
) -> None:
    """bob resigns before the ghost's move came: the verdict says how ann's game ended
    (one move, resigned), and the ghost's bar says the same, not where her clock had got
    to when bob gave up (no move yet, playing)."""
    with ThreadPoolExecutor(1) as pool:
        token, cid = pool.submit(asyncio.run, a_ghost_that_moved_late(web_server.url)).result(60)
    context = browser.new_context()
    try:
        page = taken(context, web_server, token, cid)
        page.wait_for_selector('.bars .bar-row.ghost[data-player="ann"] .nums:has-text("0 moves")')
        page.click(".race-game [data-act=resign]")
        page.wait_for_selector(".challenge-result .verdict")
        assert "ann: resigned, 0/52 home · 1 move" in page.inner_text(".challenge-result")
        # at once, well before the ghost's clock reaches its move
        bar = page.locator('.bars .bar-row.ghost[data-player="ann"]')
        assert bar.get_attribute("data-status") == "resigned"
        assert "1 move" in bar.locator(".nums").inner_text()
    finally:
        context.close()


def taken(context: Any, web_server: ServerProcess, token: str, cid: str) -> Any:
    """A page of ``context`` signed in with ``token`` that takes challenge ``cid``: its
    game dealt (each question, a resignation's, answered yes)."""
    page = context.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    signed_in(page, http(web_server), token, f"/c/{cid}")
    page.click("[data-act=take]")
    page.wait_for_selector(".race-game .pile", timeout=10000)
    return page


async def a_daily_played(url: str, name: str) -> str:
    """``name`` resigns today's ranked daily of The Gate: their token."""
    client = await player(url, name)
    try:
        daily = await client.call("daily", game="gate")
        await client.call("resign", game=daily["game"])
        return str(client.token)
    finally:
        await client.close()


def test_a_challenge_of_todays_daily_raced_offers_nothing_the_reset_keeps(
    browser: Any, web_server: ServerProcess
) -> None:
    """One whose ranked attempt is over races a challenge of today's daily: its game over
    offers no Review (the server refused it: a review tells the order of the stock) and
    its table no replay but their own (the ghost's was refused: public after the reset)."""
    with ThreadPoolExecutor(1) as pool:
        cid = pool.submit(asyncio.run, a_daily_challenge(web_server.url, "kip")).result(30)
        token = pool.submit(asyncio.run, a_daily_played(web_server.url, "lou")).result(30)
    context = browser.new_context()
    try:
        page = taken(context, web_server, token, cid)
        page.click(".race-game [data-act=resign]")
        page.wait_for_selector(".challenge-result .verdict")
        page.wait_for_selector(".results-table tr[data-player=kip]")
        assert page.locator("[data-act=review]").count() == 0
        assert page.locator(".results-table tr[data-player=kip] a").count() == 0
        assert page.locator(".results-table tr[data-player=lou] a").count() == 1
    finally:
        context.close()


async def two_challenges_one_taken(url: str) -> tuple[str, str, str]:
    """ann's two Gate games (resigned at once) made challenges; bob takes the first:
    his token, the first's id and the second's."""
    ann, bob = await player(url, "ann"), await player(url, "bob")
    try:
        ids = []
        for seed in (5, 6):
            game = await ann.call("new_game", game="gate", seed=seed)
            await ann.call("resign", game=game["game"])
            ids.append((await ann.call("challenge_create", replay=game["game"]))["challenge"]["id"])
        await bob.call("challenge_take", challenge=ids[0])
        await bob.event("challenge_start")
        assert bob.token is not None
        return bob.token, ids[0], ids[1]
    finally:
        for who in (ann, bob):
            await who.close()


def test_racing_a_second_challenge_points_back_to_the_first(
    browser: Any, web_server: ServerProcess
) -> None:
    """One challenge at a time: "Race" on another challenge's page while one is in play
    says so, and links back to the one in play, which carries on."""
    with ThreadPoolExecutor(1) as pool:
        token, first, second = pool.submit(asyncio.run, two_challenges_one_taken(
            web_server.url)).result(60)  # fmt: skip
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        signed_in(page, http(web_server), token, f"/c/{second}")
        page.click("[data-act=take]")
        note = page.wait_for_selector(".challenge-head .note:has-text('finish or resign it first')")
        assert "you are racing ann's challenge on The Gate" in (note.text_content() or "")
        page.click("[data-act=back-to-challenge]")
        page.wait_for_selector(".race-game .pile", timeout=10000)
        page.wait_for_selector('.bars .bar-row.ghost[data-player="ann"]')
        assert page.evaluate("location.pathname") == f"/c/{first}"
        fits(page)
    finally:
        context.close()
