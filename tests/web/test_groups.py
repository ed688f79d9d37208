"""Groups in Chromium, on the real server and Redis: a player makes a group on the home
screen, a friend opens its link in another browser (a new player: the name form, then the
group joined), and the group's boards show its members only, not another player who
played the same daily; who is online shows; a bad link says why and joins nothing."""

from __future__ import annotations

from typing import Any

from tests.app.conftest import ServerProcess

from .conftest import http, misaligned, shot
from .test_play import until
from .test_race import register


def play_nestor_daily(page: Any) -> None:
    """The page's player starts today's Nestor daily and resigns it, by the protocol the
    page holds (what the daily screen does is tested elsewhere)."""
    page.evaluate(
        """async () => {
            const link = window.patienceRace.link;
            await link.request("daily", { game: "nestor" });
            await link.request("resign", {});
        }"""
    )


def test_a_group_link_opened_in_a_browser_joins_and_its_boards_show_members_only(
    browser: Any, web_server: ServerProcess
) -> None:
    base = http(web_server)
    # cy, in no group, plays today's Nestor daily too
    cy_context = browser.new_context()
    cy_page = cy_context.new_page()
    cy_page.goto(f"{base}/play")
    register(cy_page, "cy")
    cy_page.wait_for_selector(".groups-area")
    play_nestor_daily(cy_page)
    cy_context.close()
    ann_context = browser.new_context(viewport={"width": 1280, "height": 800})
    bo_context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    try:
        ann = ann_context.new_page()
        ann.goto(f"{base}/play")
        register(ann, "ann")
        ann.wait_for_selector(".groups-area")
        # a name pasted too long is said too long (maxlength had cut it to 32 unsaid)
        ann.fill("input[name=group-name]", "Friday Club & Co. is the best club of all time")
        assert ann.inner_text(".groups-area .note") == (
            "A group's name has at most 32 characters: this one has 46."
        )
        ann.fill("input[name=group-name]", "Friday Club")
        assert ann.inner_text(".groups-area .note") == ""
        ann.click("form.group-create button[type=submit]")
        ann.wait_for_selector(".group h1:text('Friday Club')")
        link = ann.inner_text(".group-link")
        assert link.startswith(f"{base}/g/") and "?k=" in link
        play_nestor_daily(ann)

        bo = bo_context.new_page()
        bo.goto(link)
        register(bo, "bo")  # a new player: the name form first, then the group joined
        bo.wait_for_selector(".group h1:text('Friday Club')")
        until(bo, "() => location.hash.startsWith('#group=')")
        names = bo.locator(".members li").all_inner_texts()
        assert any("ann" in n and "owner" in n and "online" in n for n in names), names
        assert any("bo" in n for n in names)
        play_nestor_daily(bo)

        # today's Nestor among the members: ann and bo, never cy (on the whole board too)
        bo.select_option("select[aria-label='group board']", "daily/nestor")
        bo.wait_for_selector(".group-board tr[data-player=bo]")
        players = bo.locator(".group-board tbody tr").evaluate_all(
            "rows => rows.map(r => r.dataset.player)"
        )
        assert sorted(players) == ["ann", "bo"]
        assert misaligned(bo, ".group-board table") == []
        shot(bo, "group-phone")
        # the week board: the same two, a daily played each
        bo.select_option("select[aria-label='group board']", "week/nestor")
        until(bo, "() => document.querySelector('.group-board h3')?.textContent.includes('week')")
        week = bo.locator(".group-board tbody tr").all_inner_texts()
        assert len(week) == 2 and all("1 played" in row for row in week), week

        # a rating board among them: nobody rated five times yet, and it says why
        bo.select_option("select[aria-label='group board']", "rating/nestor")
        bo.wait_for_selector(".group-board p:text('A racer joins this board after 5 rated races.')")
        assert bo.locator(".group-board p:text('No member is on this board yet.')").count() == 1

        # ann's home screen lists the group, with its two members
        ann.goto(f"{base}/play#home")
        ann.wait_for_selector(".group-list li[data-group] a:text('Friday Club')")
        assert "2 members" in ann.inner_text(".group-list")
        shot(ann, "group-home")

        # a link with a wrong key, opened by a newcomer: said, and nothing joined (a
        # member opening it is in the group already: it changes nothing for them)
        dee_context = browser.new_context()
        try:
            dee = dee_context.new_page()
            wrong = link[:-1] + ("A" if link[-1] != "A" else "B")
            dee.goto(wrong)
            register(dee, "dee")
            dee.wait_for_selector("text=that link is not this group's")
        finally:
            dee_context.close()
        member = bo_context.new_page()
        member.goto(wrong)
        member.wait_for_selector(".group h1:text('Friday Club')")
        assert len(member.locator(".members li").all_inner_texts()) == 2

        # ann, its owner, leaves: told who owns it now (it said nothing of bo)
        ann.click(".group-list li[data-group] a:text('Friday Club')")
        ann.wait_for_selector(".group [data-act=leave]")
        ann.on("dialog", lambda dialog: dialog.accept())
        ann.click(".group [data-act=leave]")
        ann.wait_for_selector(".notice:text('You left Friday Club; bo owns it now.')")
        until(ann, "() => location.hash === '#home'")
    finally:
        ann_context.close()
        bo_context.close()


def test_who_is_online_changes_on_an_open_group_screen(
    browser: Any, web_server: ServerProcess
) -> None:
    """The group's screen watches the group: a member joining, and going away, show on
    it without asking again (it asked only when opened, or Refresh, before)."""
    base = http(web_server)
    one = browser.new_context()
    two = browser.new_context()
    try:
        gus = one.new_page()
        gus.goto(f"{base}/play")
        register(gus, "gus")
        gus.wait_for_selector(".groups-area")
        gus.fill("input[name=group-name]", "Night Owls")
        gus.click("form.group-create button[type=submit]")
        gus.wait_for_selector(".group h1:text('Night Owls')")
        link = gus.inner_text(".group-link")

        hal = two.new_page()
        hal.goto(link)
        register(hal, "hal")
        hal.wait_for_selector(".group h1:text('Night Owls')")
        # gus's screen, untouched: hal is in, and online
        gus.wait_for_selector(".members li[data-member=hal].online", timeout=15_000)
        assert "2 online" in gus.inner_text(".group")

        hal.close()  # hal goes away
        gus.wait_for_selector(".members li[data-member=hal]:not(.online)", timeout=15_000)
        assert "1 online" in gus.inner_text(".group")

        # removed while looking at the group: hal's screen says so (it went on showing
        # him a member, the join link and Leave the group)
        hal = two.new_page()
        hal.goto(link)
        hal.wait_for_selector(".members li[data-member=hal]")
        gus.on("dialog", lambda dialog: dialog.accept())
        gus.click(".members li[data-member=hal] [data-act=remove]")
        hal.wait_for_selector(".group .note:text('You are no longer in Night Owls')")
        assert hal.locator(".group-link, .members").count() == 0
        assert "1 online" in gus.inner_text(".group")
    finally:
        one.close()
        two.close()
