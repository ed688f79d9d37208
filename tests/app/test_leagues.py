"""Weekly events and their leagues on the real server and Redis: joining and placement,
points from real dailies (and from a held result once cleared), standings, and the
week's close with its promotions and relegations, once with three processes sharing
one Redis (``docs/leaderboards.md``, "Weekly leagues")."""

from __future__ import annotations

import asyncio

from server.app import review
from server.app.domain import daily as d
from server.app.domain import leagues as lg
from server.app.settings import Settings
from server.app.store.boards import Boards
from server.app.store.keys import name_key
from server.app.store.leagues import Leagues

from .client import Client, player
from .conftest import ManualClock, Running, running, with_settings
from .test_daily import GAME, play_out, secret_winning_on
from .test_pace import review as operator_review


async def pid_of(server: Running, client: Client) -> str:
    raw = await server.redis.get(name_key(str(client.name)))
    assert isinstance(raw, bytes)
    return raw.decode()


async def test_31_joiners_make_two_leagues_and_joining_again_changes_nothing(
    server: Running,
) -> None:
    players = [await player(server.url, f"p{n:02d}") for n in range(31)]
    # all at once: the placement is one script, so the first league holds exactly 30
    joined = await asyncio.gather(*(p.call("event_join") for p in players))
    leagues = sorted(j["league"] for j in joined)
    assert leagues.count("bronze-1") == 30 and leagues.count("bronze-2") == 1
    assert all(j["joined_now"] and j["tier"] == "bronze" and j["joined"] for j in joined)
    lone = next(p for p, j in zip(players, joined, strict=True) if j["league"] == "bronze-2")
    alone = await lone.call("event")
    assert alone["players"] == 1
    # how many move each way in this league, at its size (the rules say at most 5)
    assert alone["movers"] == 0 and alone["rules"]["movers"] == 5
    full = await next(p for p in players if p is not lone).call("event")
    assert full["players"] == 30 and full["movers"] == 5
    again = await players[0].call("event_join")
    assert not again["joined_now"] and again["league"] == joined[0]["league"]
    view = await players[0].call("event")
    assert (
        view["current"] and not view["closed"] and view["week"] == d.iso_week(server.clock.now_ms())
    )
    assert 0 < view["ends_in_ms"] <= lg.WEEK_MS
    assert [e["name"] for e in view["standings"] if e["you"]] == [players[0].name]
    assert all(e["points"] == 0 for e in view["standings"])


async def test_points_from_real_dailies_ranked_by_time_within_the_league(
    settings: Settings,
) -> None:
    clock = ManualClock()
    secret = secret_winning_on(d.day_of(clock.now_ms()))
    async with running(with_settings(settings, clock=clock, secret=secret)) as server:
        ann, bob, cat, dan = [await player(server.url, n) for n in ("ann", "bob", "cat", "dan")]
        for who in (ann, bob, cat):
            await who.call("event_join")
        # ann wins first and fastest, bob wins slower; cat resigns; dan has not joined
        won = await play_out(ann, await ann.call("daily", game=GAME), clock)
        assert won["status"] == "won" and "review" not in await ann.event("daily_result")
        await bob.call("daily", game=GAME)
        clock.advance(30)
        await play_out(bob, await bob.call("daily", game=GAME), clock)
        await bob.event("daily_result")
        await cat.call("daily", game=GAME)
        await cat.call("resign")
        await cat.event("daily_result")
        await play_out(dan, await dan.call("daily", game=GAME), clock)
        await dan.event("daily_result")

        view = await cat.call("event")
        table = [(e["name"], e["points"], e["wins"], e["played"]) for e in view["standings"]]
        assert table == [("ann", 20, 1, 1), ("bob", 19, 1, 1), ("cat", 2, 0, 1)]
        assert [e["today"] for e in view["standings"]] == [20, 19, 2]
        assert view["rank"] == 3 and view["points"] == 2
        assert not (await dan.call("event"))["joined"]
        # dan joins now: his daily ended before he joined, and does not count
        assert (await dan.call("event_join"))["standings"][-1] == {
            "rank": 4,
            "name": "dan",
            "points": 0,
            "wins": 0,
            "played": 0,
            "today": 0,
            "zone": "stay",
            "you": True,
        }

        # a finish written again (after a failure, finish_owed) scores nothing more
        gid = won["game"]
        live = await server.service.stored.load(gid, fence=False)
        assert live is not None
        await server.service.daily.finished(live)
        again = await ann.call("event")
        top = again["standings"][0]
        assert (top["name"], top["points"], top["played"]) == ("ann", 20, 1)


async def test_a_held_result_scores_only_once_cleared(settings: Settings) -> None:
    clock = ManualClock()
    secret = secret_winning_on(d.day_of(clock.now_ms()))
    async with running(with_settings(settings, clock=clock, secret=secret)) as server:
        ann = await player(server.url, "ann")
        await ann.call("event_join")
        # played as fast as a script plays: held for review by the pace policy
        won = await play_out(ann, await ann.call("daily", game=GAME))
        assert (await ann.event("daily_result"))["review"]["state"] == "held"
        view = await ann.call("event")
        assert view["standings"][0]["points"] == 0 and view["standings"][0]["played"] == 0
        # cleared by the operator's command, which says the league was written too (an
        # outside tester: it listed the day's boards and not the league it scored in)
        cleared = operator_review(server.settings, "clear", won["game"], "--reason", "ok")
        assert cleared.returncode == 0, cleared.stderr
        week = d.iso_week(clock.now_ms())
        assert f"league/{week}" in cleared.stdout.split("boards written:")[1], cleared.stdout
        view = await ann.call("event")
        assert view["standings"][0]["points"] == 20 and view["standings"][0]["wins"] == 1
        again = await review.clear(
            server.service.ctx.reviews, Boards(server.redis), won["game"], "ok", clock.now_ms()
        )
        assert again["again"]
        view = await ann.call("event")
        assert view["standings"][0]["points"] == 20  # (scored once)


async def test_event_refuses_bad_weeks(server: Running) -> None:
    ann = await player(server.url, "ann")
    week = d.iso_week(server.clock.now_ms())
    for bad, words in (
        ("2026-W60", "no ISO week"),
        ("week 1", "no ISO week"),
        (d.iso_week(server.clock.now_ms() + lg.WEEK_MS), "has not come"),
        ("2020-W01", "no longer kept"),
    ):
        reply = await ann.request("event", week=bad)
        assert reply["type"] == "error" and reply["code"] == "no_such_week", bad
        assert words in reply["message"]
    not_joined = await ann.call("event", week=week)
    assert not not_joined["joined"] and not_joined["tier"] == "bronze"
    anon = await Client.connect(server.url)
    await anon.call("hello", protocol=1)
    assert (await anon.request("event"))["code"] == "not_authenticated"


async def test_a_past_week_nobody_joined_reads_closed(server: Running) -> None:
    """An outside tester asked for weeks long over that nobody had joined: ``closed``
    false, as if they were still closing (there was nothing to close: no close runs)."""
    ann = await player(server.url, "ann")
    last = d.iso_week(server.clock.now_ms() - lg.WEEK_MS)
    past = await ann.call("event", week=last)
    assert not past["current"] and past["ends_in_ms"] == 0
    assert past["closed"] is True
    this = await ann.call("event")
    assert this["current"] and this["closed"] is False


async def test_the_weeks_close_moves_the_top_up_and_the_bottom_down_once_with_three_processes(
    settings: Settings,
) -> None:
    clock = ManualClock()
    shared = with_settings(settings, clock=clock)
    async with running(shared) as one, running(shared) as two, running(shared) as three:
        names = [f"s{n}" for n in range(6)]
        people = [await player((one, two, three)[n % 3].url, name) for n, name in enumerate(names)]
        pids = [await pid_of(one, p) for p in people]
        store = Leagues(one.redis)
        await store.set_tiers(dict.fromkeys(pids, "silver"))  # as a week closed before left them
        for p in people:
            assert (await p.call("event_join"))["league"] == "silver-1"
        week = d.iso_week(clock.now_ms())
        day = d.day_of(clock.now_ms())
        # s0 fastest ... s3 slowest win; s4 and s5 ended not won
        for n, pid in enumerate(pids):
            won = n < 4
            result = {"day": day, "game": GAME, "won": won, "time_ms": 60_000 + n, "moves": 9}
            assert await store.score(week, pid, {**result, "at": clock.now_ms()}) == "silver-1"
        live = await people[0].call("event")
        assert live["movers"] == 2  # (a third of six)
        assert [e["zone"] for e in live["standings"]] == [
            "up",
            "up",
            "stay",
            "stay",
            "down",
            "down",
        ]

        # the week ends: not closed during the grace, and joining waits for the close
        clock.advance((lg.week_end_ms(week) - clock.now_ms()) / 1000 + 1)
        assert sum([await s.service.weekly.close_due() for s in (one, two, three)]) == 0
        refused = await people[0].request("event_join")
        assert refused["type"] == "error" and refused["code"] == "event_closing"

        clock.advance(lg.CLOSE_GRACE_MS / 1000)  # the grace over: the close is due
        counts = await asyncio.gather(*(s.service.weekly.close_due() for s in (one, two, three)))

        for _ in range(200):  # (a periodic look may hold the claim: it ends its close)
            if await store.closed(week):
                break
            await asyncio.sleep(0.05)
        # exactly once, however many looked (the periodic looks of each process too)
        closers = [s.service.weekly.closed_here.count(week) for s in (one, two, three)]
        assert sum(closers) == 1 and sum(counts) <= 1
        tiers = [await store.tier(pid) for pid in pids]
        assert tiers == ["gold", "gold", "silver", "silver", "bronze", "bronze"]
        # a result after the close is refused: the standings are final
        late = {"day": day, "game": "gate", "won": True, "time_ms": 1, "moves": 1, "at": 0}
        assert await store.score(week, pids[5], late) == "shut"
        # closed again (a close cut short, taken over): the same tiers, not two steps
        await one.service.weekly.close(week)
        assert [await store.tier(pid) for pid in pids] == tiers

        # the past week stays readable, as it closed
        past = await people[5].call("event", week=week)
        assert past["closed"] and not past["current"] and past["ends_in_ms"] == 0
        assert past["tier"] == "silver" and past["rank"] == 6 and past["zone"] == "down"
        # the new week: each joins in the tier the close gave them
        fresh = [await p.call("event_join") for p in people]
        assert [f["tier"] for f in fresh] == tiers
        assert fresh[0]["week"] != week and fresh[0]["league"] == "gold-1"


def test_tiers_hold_at_the_ends_and_nobody_rises_without_points() -> None:
    rows = [lg.Standing(str(n), 10 - n) for n in range(9)]
    assert set(lg.moves("diamond", rows).values()) == {"platinum"}
    assert set(lg.moves("bronze", rows).values()) == {"silver"}
    nothing = [lg.Standing(str(n)) for n in range(9)]
    assert lg.moves("gold", nothing) == dict.fromkeys("678", "silver")


async def test_a_close_cut_short_is_done_by_the_next_look_and_a_restart_keeps_the_league(
    settings: Settings,
) -> None:
    clock = ManualClock()
    shared = with_settings(settings, clock=clock)
    async with running(shared) as first:
        people = [await player(first.url, f"r{n}") for n in range(3)]
        for p in people:
            await p.call("event_join")
        week = d.iso_week(clock.now_ms())
        store = Leagues(first.redis)
        pids = [await pid_of(first, p) for p in people]
        result = {"day": d.day_of(clock.now_ms()), "game": GAME, "won": True, "moves": 9, "at": 0}
        for n, pid in enumerate(pids):
            await store.score(week, pid, {**result, "time_ms": 1000 * (n + 1)})
    # the server is gone; another starts on the same Redis: the league is as it was
    async with running(shared) as again:
        store = Leagues(again.redis)
        ann = await player(again.url, "reader")
        assert (await ann.call("event_join"))["league"] == "bronze-1"
        view = await ann.call("event")
        assert [e["points"] for e in view["standings"]] == [20, 19, 18, 0]
        # a process claimed the close, shut the week and died before it was done
        clock.advance((lg.week_end_ms(week) + lg.CLOSE_GRACE_MS - clock.now_ms()) / 1000 + 1)
        assert await store.claim_close(week, "a-dead-process")
        await store.shut(week)
        assert await again.service.weekly.close_due() == 0  # its claim stands
        assert not await store.closed(week)
        await store.release_close(week, "a-dead-process")  # (as its claim lapses)
        for _ in range(200):  # the next look, here or the periodic one
            if await store.closed(week):
                break
            await again.service.weekly.close_due()
            await asyncio.sleep(0.05)
        assert await store.closed(week)
        assert again.service.weekly.closed_here == [week]
        assert [await store.tier(pid) for pid in pids] == ["silver", "bronze", "bronze"]
