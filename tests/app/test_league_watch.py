"""Live standings: a connection watching its league (``event`` with ``watch``) is sent
the standings again each time they change (a member joins, a member's daily counts, an
operator clears a held one, the week closes), whichever of three server processes on one
Redis made the change (``docs/protocol.md``, "event")."""

from __future__ import annotations

from typing import Any

from server.app.domain import daily as d
from server.app.domain import leagues as lg
from server.app.settings import Settings
from server.app.store.keys import name_key
from server.app.store.leagues import Leagues

from .client import player, signed_in
from .conftest import ManualClock, running, with_settings
from .test_daily import GAME, play_out, secret_winning_on
from .test_pace import review


def points(event: dict[str, Any]) -> dict[str, int]:
    return {row["name"]: row["points"] for row in event["standings"]}


async def test_a_watched_league_is_pushed_each_change_from_any_process(
    settings: Settings,
) -> None:
    clock = ManualClock()
    secret = secret_winning_on(d.day_of(clock.now_ms()))
    shared = with_settings(settings, clock=clock, secret=secret)
    async with running(shared) as one, running(shared) as two, running(shared) as three:
        ann = await player(one.url, "ann")
        bob = await player(two.url, "bob")
        cat = await player(three.url, "cat")
        await ann.call("event_join")
        watched = await ann.call("event", watch=True)
        assert watched["watching"] and watched["players"] == 1

        # a member joins through another process: ann's screen hears of it
        await bob.call("event_join")
        pushed = await ann.event("event", lambda e: e["players"] == 2)
        assert "id" not in pushed and pushed["watching"] and pushed["week"] == watched["week"]
        assert points(pushed) == {"ann": 0, "bob": 0}
        assert [row["name"] for row in pushed["standings"] if row["you"]] == ["ann"]

        # bob's daily counts (played at a person's pace on process two)
        await play_out(bob, await bob.call("daily", game=GAME), clock)
        assert "review" not in await bob.event("daily_result")
        pushed = await ann.event("event", lambda e: points(e).get("bob", 0) > 0)
        assert points(pushed) == {"bob": 20, "ann": 0}
        assert pushed["rank"] == 2

        # cat, on process three, plays at a script's pace: held, and pushed once cleared
        await cat.call("event_join")
        await ann.event("event", lambda e: e["players"] == 3)
        held = await play_out(cat, await cat.call("daily", game=GAME))
        assert (await cat.event("daily_result"))["review"]["state"] == "held"
        cleared = review(shared, "clear", held["game"], "--reason", "a fast player")
        assert cleared.returncode == 0, cleared.stderr
        pushed = await ann.event("event", lambda e: points(e).get("cat", 0) > 0)
        assert points(pushed) == {"cat": 20, "bob": 19, "ann": 0}  # cat's time the shorter

        # the week's end: its close, wherever it is done, is pushed as closed
        week = watched["week"]
        clock.advance((lg.week_end_ms(week) + lg.CLOSE_GRACE_MS - clock.now_ms()) / 1000 + 1)
        await three.service.weekly.close_due()
        pushed = await ann.event("event", lambda e: e["closed"])
        assert pushed["week"] == week and not pushed["current"] and pushed["zone"] == "stay"

        # nobody else was pushed anything: watching is asked for
        assert not [e for e in bob.events + cat.events if e.get("type") == "event"]


async def test_watching_stops_when_asked_and_is_refused_for_a_past_week(
    settings: Settings,
) -> None:
    clock = ManualClock()
    async with running(with_settings(settings, clock=clock)) as server:
        ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
        await ann.call("event_join")
        assert (await ann.call("event", watch=True))["watching"]
        stopped = await ann.call("event", watch=False)
        assert not stopped["watching"]
        await bob.call("event_join")
        # (one process: a push would be sent before bob's reply to a later request)
        await bob.call("event")
        await ann.call("ping")
        assert not [e for e in ann.events if e.get("type") == "event"]

        past = d.iso_week(clock.now_ms() - lg.WEEK_MS)
        refused = await ann.request("event", week=past, watch=True)
        assert refused["code"] == "bad_request" and "this week's" in refused["message"]
        # not joined yet: watching waits for the join, which is pushed to the watcher
        cat = await player(server.url, "cat")
        assert (await cat.call("event", watch=True))["watching"]
        joined = await cat.call("event_join")
        assert joined["watching"] and joined["players"] == 3


async def test_a_process_that_heard_nothing_for_a_while_sends_the_standings_again(
    settings: Settings,
) -> None:
    """What changed while a process could not hear the bus (Redis restarted) is lost to
    it: once it hears again, each of its watchers is sent the standings as they stand."""
    clock = ManualClock()
    async with running(with_settings(settings, clock=clock)) as server:
        ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
        await ann.call("event_join")
        await bob.call("event_join")
        await ann.call("event", watch=True)
        raw = await server.redis.get(name_key("bob"))
        assert isinstance(raw, bytes)
        pid = raw.decode()
        day, week = d.day_of(clock.now_ms()), d.iso_week(clock.now_ms())
        result = {"day": day, "game": "gate", "won": True, "time_ms": 60_000, "moves": 90}
        # scored with no notice on the bus, as one published while deaf
        await Leagues(server.redis).score(week, pid, {**result, "at": clock.now_ms()})
        await server.service.on_bus_back()
        pushed = await ann.event("event", lambda e: points(e).get("bob", 0) > 0)
        assert points(pushed) == {"bob": 20, "ann": 0}


async def test_a_watcher_not_joined_hears_their_join_from_another_connection(
    settings: Settings,
) -> None:
    """ann watches before she has joined (the terminal's ``league --watch``) and joins
    from another connection, through another process (a phone): her screen is sent her
    league from then on, and the week's end and close like any member's (it said "not
    joined" and "watching" until she looked again)."""
    clock = ManualClock()
    shared = with_settings(settings, clock=clock)
    async with running(shared) as one, running(shared) as two:
        ann = await player(one.url, "ann")
        watched = await ann.call("event", watch=True)
        assert watched["watching"] and not watched["joined"]
        phone = await signed_in(two.url, str(ann.token), side=True)
        await phone.call("event_join")
        pushed = await ann.event("event", lambda e: e["joined"])
        assert pushed["watching"] and pushed["players"] == 1 and pushed["rank"] == 1
        bob = await player(two.url, "bob")
        await bob.call("event_join")
        await ann.event("event", lambda e: e["players"] == 2)


async def test_the_weeks_end_is_pushed_to_its_watchers_before_its_close(
    settings: Settings,
) -> None:
    """At the week's end nothing in a league need change, yet its watchers' screens said
    "ends in 1m" and showed the day's points until the close, minutes later: each
    process sends its watchers of the week the standings once the week has ended
    (``ends_in_ms`` 0, ``today`` 0), joined or not, and again at the close."""
    clock = ManualClock()
    shared = with_settings(settings, clock=clock)
    async with running(shared) as one, running(shared) as two:
        ann = await player(one.url, "ann")
        cat = await player(two.url, "cat")
        await ann.call("event_join")
        week = (await ann.call("event", watch=True))["week"]
        assert (await cat.call("event", watch=True))["watching"]  # (not joined)
        clock.advance((lg.week_end_ms(week) - clock.now_ms()) / 1000 + 1)
        for server in (one, two):
            await server.service.weekly.look()
        ended = await ann.event("event", lambda e: e["ends_in_ms"] == 0)
        assert ended["week"] == week and not ended["current"] and not ended["closed"]
        told = await cat.event("event", lambda e: e["ends_in_ms"] == 0)
        assert told["week"] == week and not told["joined"] and not told["current"]
        # told once: another look before the close sends nothing more
        ann.events.clear()
        cat.events.clear()
        await one.service.weekly.look()
        await ann.call("ping")
        assert not [e for e in ann.events if e.get("type") == "event"]
        clock.advance(lg.CLOSE_GRACE_MS / 1000 + 1)
        await two.service.weekly.look()  # (it closes the week)
        assert (await ann.event("event", lambda e: e["closed"]))["week"] == week
        assert (await cat.event("event", lambda e: e["closed"]))["week"] == week


async def test_a_close_whose_process_died_before_telling_is_told_by_the_next_look(
    settings: Settings,
) -> None:
    """A process marked the week closed and died before it told anyone (an outside probe
    read it in the code): the other processes found the week closed, took it off the
    open weeks and told nobody, so a watcher never heard the close. The next look tells
    them, whichever process has them."""
    clock = ManualClock()
    shared = with_settings(settings, clock=clock)
    async with running(shared) as one, running(shared) as two:
        ann = await player(one.url, "ann")
        await ann.call("event_join")
        watched = await ann.call("event", watch=True)
        week = watched["week"]
        clock.advance((lg.week_end_ms(week) + lg.CLOSE_GRACE_MS - clock.now_ms()) / 1000 + 1)
        # the close done and marked by a process that died then (its claim let go)
        store = Leagues(two.redis)
        await store.shut(week)
        assert await store.mark_closed(week, await store.leagues(week), "a-dead-process")
        assert await two.service.weekly.close_due() == 0  # (closed before: nothing to do)
        pushed = await ann.event("event", lambda e: e["closed"], timeout=5)
        assert pushed["week"] == week and not pushed["current"]
        assert await two.service.weekly.close_due() == 0
        await ann.call("ping")
        assert len([e for e in ann.events if e.get("type") == "event" and e["closed"]]) == 0
