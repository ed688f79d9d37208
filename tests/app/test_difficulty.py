"""The difficulty of every daily, end to end on a real Redis: graded ahead of its day in
a worker process, fixed once, shown in ``daily``, ``daily_status``, the day's board and
its page; one process of several grades a deal, a restart keeps the grade, and a deal
fixed uncertified as its day came is graded at the next look."""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from redis import Redis as SyncRedis

from server.app.domain import daily as d
from server.app.domain import difficulty as df
from server.app.service import Service
from server.app.settings import Settings
from server.app.store.codec import pack
from server.app.store.keys import deal_grade_key, deal_key
from server.solver.difficulty import GRADES, grade_deal

from .client import player
from .conftest import Running, running
from .test_certified import beyond_the_window, certifying
from .test_daily import next_day
from .test_pages import fetch, http

#: a game whose deals grade in a fraction of a second
GAME = "doubles-and-quits"
SHOWN = {"grade", "board_wins", "tries", "line_wins", "searches", "home_pct"}


def test_a_grade_no_try_won_says_how_far_the_tries_got() -> None:
    """A Light and Shade deal graded easy that no try and no search won (the game's
    thresholds are its own): the words say the grade is the game's, and how far the
    tries got, which is what made it easy; they did not (2026-11-27: "easy (... won 0 of
    6 tries; 0 of 6 solver searches found a win)")."""
    kept = {
        "grade": "easy",
        "seed": 9,
        "board_wins": 0,
        "tries": 6,
        "line_wins": 0,
        "searches": 6,
        "home_pct": 31,
        "ease": 0.155,
        "version": 1,
        "seconds": 5.0,
    }
    shown = df.shown(kept, 9)
    assert shown is not None and shown["home_pct"] == 31
    assert df.words(shown) == (
        "easy for this game (the hint engine, seeing only the board, won 0 of 6 tries,"
        " 31% of the cards home on average; 0 of 6 short solver searches found a win)"
    )
    # where cards come off in pairs (Nestor, Doubles and Quits) they are paired off: the
    # pages said "cards home" of a game where nothing goes home
    assert ", 31% of the cards paired off on average;" in df.words(shown, "pairs")
    # every try won: all the cards home, nothing more to say
    assert df.words({**shown, "board_wins": 6, "home_pct": 100}).startswith(
        "easy for this game (the hint engine, seeing only the board, won 6 of 6 tries;"
    )


def test_a_grade_kept_without_the_cards_home_shows_them_from_its_ease() -> None:
    """Grades kept before ``home_pct`` was (the days graded ahead) show it all the same:
    the ease they kept is made of it (``server.solver.difficulty.ease``)."""
    graded = grade_deal("light-and-shade", 4, searches=2)
    old = {k: v for k, v in graded.items() if k != "home_pct"}
    shown = df.shown({**old, "seed": 4}, 4)
    assert shown is not None and shown["home_pct"] == graded["home_pct"]


async def test_a_deal_graded_ahead_is_shown_before_and_during_its_day(
    settings: Settings,
) -> None:
    async with running(certifying(settings)) as server:
        day = beyond_the_window(server)
        grader = server.service.grader
        # nothing to grade before the deal is fixed
        assert await grader.grade_one(day, GAME) is None
        fixed = await server.service.certifier.certify_one(day, GAME)
        assert fixed is not None
        graded = await grader.grade_one(day, GAME)
        assert graded is not None and graded["grade"] in GRADES
        assert graded["seed"] == fixed["seed"] and grader.graded_here == 1
        # what a grading gives again for that deal: the figures are reproducible
        again = grade_deal(GAME, int(fixed["seed"]))
        kept = {k: v for k, v in graded.items() if k not in ("seconds", "seed", "cpu_seconds")}
        assert kept == {k: v for k, v in again.items() if k != "seconds"}
        # graded once: a second look does nothing
        assert await grader.grade_one(day, GAME) is None and grader.graded_here == 1
        shown = {k: graded[k] for k in SHOWN}

        while d.day_of(server.clock.now_ms()) != day:
            next_day(server.clock)
        ann = await player(server.url, "ann")
        status = await ann.call("daily", game=GAME, start=False)
        assert status["ranked_attempt"] == "pending" and status["difficulty"] == shown
        reply = await ann.call("daily", game=GAME)
        assert reply["ranked"] is True and reply["difficulty"] == shown
        board = await ann.call("top", board=f"daily/{GAME}")
        assert board["difficulty"] == shown
        code, _, body = await fetch(http(server) + f"/leaderboard/daily/{GAME}/{day}.json")
        assert code == 200 and json.loads(body)["difficulty"] == shown
        code, _, page = await fetch(http(server) + f"/leaderboard/daily/{GAME}/{day}")
        assert f"Difficulty: {graded['grade']} for this game (the hint engine" in page
        code, _, index = await fetch(http(server) + "/")
        assert code == 200 and f"Doubles and Quits</a> · graded {graded['grade']} · " in index
        await ann.call("resign")
        await ann.event("daily_result")
        practice = await ann.call("daily", game=GAME)
        assert practice["ranked"] is False and practice["difficulty"] == shown


async def test_a_grade_kept_for_another_seed_is_never_shown(server: Running) -> None:
    """An operator put another deal in place of a graded one: its grade is not this
    deal's, and nothing shows it."""
    ann = await player(server.url, "ann")
    reply = await ann.call("daily", game=GAME)
    day = reply["day"]
    deal = await server.service.dailies.deal(day, GAME)
    assert deal is not None
    other = grade_deal(GAME, int(deal["seed"]) + 1)
    await server.service.grader.grades.fix(day, GAME, {**other, "seed": int(deal["seed"]) + 1})
    assert (await ann.call("daily", game=GAME, start=False))["difficulty"] is None
    assert (await ann.call("daily", game=GAME))["difficulty"] is None
    assert (await ann.call("top", board=f"daily/{GAME}"))["difficulty"] is None
    assert await server.service.grader.grades.of_day(day, [GAME]) == {}
    code, _, index = await fetch(http(server) + "/")
    assert code == 200 and "Doubles and Quits</a> · " in index


async def test_a_deal_not_graded_says_null(server: Running) -> None:
    """Grading is off where certifying is (``certify_ahead`` 0, the tests' default):
    the deal dealt as its day comes has no grade, and says so."""
    ann = await player(server.url, "ann")
    assert (await ann.call("daily", game=GAME, start=False))["difficulty"] is None
    assert (await ann.call("daily", game=GAME))["difficulty"] is None
    assert (await ann.call("top", board=f"daily/{GAME}"))["difficulty"] is None
    status, _, page = await fetch(http(server) + f"/leaderboard/daily/{GAME}")
    assert status == 200 and "Difficulty" not in page


async def test_an_uncertified_deal_is_graded_at_the_next_look(settings: Settings) -> None:
    async with running(certifying(settings)) as server:
        ann = await player(server.url, "ann")
        reply = await ann.call("daily", game=GAME)  # fixed now: its day has come
        day = reply["day"]
        assert reply["certified"] is False and reply["difficulty"] is None
        await server.service.grader.grade_ahead([day], [GAME])
        deal = await server.service.dailies.deal(day, GAME)
        assert deal is not None and deal["certified"] is False
        status = await ann.call("daily", game=GAME, start=False)
        assert status["difficulty"] is not None and status["difficulty"]["grade"] in GRADES
        expected = grade_deal(GAME, int(deal["seed"]))
        assert status["difficulty"] == {k: expected[k] for k in SHOWN}


async def test_two_processes_grade_a_deal_once_and_a_restart_keeps_it(
    settings: Settings,
) -> None:
    games = [GAME, "nestor"]
    async with (
        running(certifying(settings)) as one,
        running(certifying(settings)) as two,
    ):
        day = beyond_the_window(one)
        for game in games:
            await one.service.certifier.certify_one(day, game)
        await asyncio.gather(
            one.service.grader.grade_ahead([day], games),
            two.service.grader.grade_ahead([day], games),
        )
        graded = one.service.grader.graded_here + two.service.grader.graded_here
        kept = [await one.service.grader.grades.get(day, game) for game in games]
        assert graded == len(games) and all(k is not None for k in kept)
        for game, record in zip(games, kept, strict=True):
            assert record is not None
            deal = await one.service.dailies.deal(day, game)
            assert deal is not None and record["seed"] == deal["seed"]
            for service in (one.service, two.service):
                shown = await service.grader.difficulty(day, game, int(deal["seed"]))
                assert shown == {k: record[k] for k in SHOWN}
        # a process started afresh on the same Redis has nothing to grade, and shows the same
        fresh = Service(one.settings, one.redis)
        await fresh.grader.grade_ahead([day], games)
        assert fresh.grader.graded_here == 0
        for game, record in zip(games, kept, strict=True):
            assert record is not None
            assert await fresh.grader.grades.get(day, game) == record
        fresh.workers.close()


def graded_today(redis_url: str, secret: str, game: str) -> dict[str, Any]:
    """Today's deal of ``game`` under ``secret`` fixed (its first candidate, as a day
    that comes uncertified fixes it) and graded, as a grader would have: for the tests
    of the clients, whose server process grades nothing (``certify_ahead`` 0). What
    ``difficulty`` then says."""
    day = d.day_of(int(time.time() * 1000))
    seed = d.daily_seed(secret.encode(), day, game)
    graded = grade_deal(game, seed)
    client = SyncRedis.from_url(redis_url)
    try:
        client.set(deal_key(day, game), pack({"seed": seed, "n": 0, "certified": False}))
        client.set(deal_grade_key(day, game), pack({**graded, "seed": seed}))
    finally:
        client.close()
    return {k: graded[k] for k in SHOWN}
