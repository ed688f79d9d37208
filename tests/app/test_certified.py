"""Certified daily deals, end to end on a real Redis: the deal is a candidate the solver
proved winnable, its book line replays to a win and stays secret until the reset (through
every request and page), par shows once the ranked attempt is over, a day that comes
uncertified falls back to its first candidate, and two processes never solve one deal
twice."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from server.app.domain import commitments as c
from server.app.domain import daily as d
from server.app.domain import replays
from server.app.settings import Settings
from server.engine import new_game
from server.solver import check_line

from .client import player
from .conftest import Running, running, with_settings
from .test_daily import next_day, verify
from .test_pages import fetch, http

GAME = "gate"


def certifying(settings: Settings, **more: object) -> Settings:
    """Certification on, small: a few seconds a candidate (Gate deals take milliseconds)."""
    return with_settings(settings, **{"certify_budget": 5.0, "certify_candidates": 3, **more})


def beyond_the_window(server: Running) -> str:
    """The first day whose deals are not committed to yet (so not fixed): 8 days ahead."""
    return d.next_day(c.window(d.day_of(server.clock.now_ms()))[-1])


async def test_a_certified_deal_and_its_book_line_secret_until_the_reset(
    settings: Settings, tmp_path: Path
) -> None:
    async with running(certifying(settings)) as server:
        # certified ahead of the days whose deals are committed (and so fixed) already,
        # then played on its day
        day = beyond_the_window(server)
        fixed = await server.service.certifier.certify_one(day, GAME)
        assert fixed is not None and fixed["certified"] is True
        while d.day_of(server.clock.now_ms()) != day:
            next_day(server.clock)
        secret = server.service.daily.secret
        assert fixed["seed"] == d.candidate_seed(secret, day, GAME, fixed["n"])
        # the certificate is checked: it wins from the deal through the engine
        check_line(GAME, fixed["line"], seed=fixed["seed"])
        assert fixed["par"] == len(fixed["line"])

        ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
        reply = await ann.call("daily", game=GAME)
        assert reply["certified"] is True and reply["par"] is None  # not while ranked
        assert reply["ranked"] is True
        # committed to once its day entered the window: certified, as published
        committed = await server.service.commitments.record(day, GAME)
        assert committed["certified"] is True and committed["seed"] == fixed["seed"]
        assert reply["commitment"] == committed["commitment"]
        # the deal dealt is the certified one (the views match a fresh deal of its seed)
        assert reply["view"] == new_game(GAME, seed=fixed["seed"]).view()

        book = d.book_id(day, GAME)
        # secret before the reset: replay, replay_view, the pages, the board's JSON
        for client in (ann, bob):
            for kind, fields in (("replay", {}), ("replay_view", {"step": 0})):
                refused = await client.request(kind, replay=book, **fields)
                assert refused["code"] == "not_public", refused
                assert "book line" in refused["message"]
        for path in (f"/replay/{book}", f"/replay/{book}.json"):
            status, _, _ = await fetch(http(server) + path)
            assert status == 403, path
        board = await bob.call("top", board=f"daily/{GAME}")
        assert board["book"] is None
        status, _, body = await fetch(http(server) + f"/leaderboard/daily/{GAME}/{day}.json")
        assert status == 200 and json.loads(body)["book"] is None
        status, _, page = await fetch(http(server) + f"/leaderboard/daily/{GAME}/{day}")
        assert "book line" not in page and "Par" not in page

        # the ranked attempt over: par, on the reply, the event and the result line
        await ann.call("resign")
        result = await ann.event("daily_result")
        assert result["par"] == fixed["par"]
        assert result["line"].endswith(f" · par {fixed['par']}")
        again = await ann.call("daily", game=GAME)
        assert again["ranked"] is False and again["par"] == fixed["par"]
        assert again["ranked_result"].endswith(f" · par {fixed['par']}")
        # bob is still in his ranked attempt: no par for him
        assert (await bob.call("daily", game=GAME))["par"] is None

        # after the reset: the book line is public, replays to a win, and verifies
        next_day(server.clock)
        shown = (await bob.call("replay", replay=book))["replay"]
        assert shown["kind"] == "book" and shown["seed"] == fixed["seed"]
        assert [what for _, what in shown["moves"]] == fixed["line"]
        assert replays.verify(shown)["status"] == "won"
        book_file = tmp_path / "book.json"
        book_file.write_text(json.dumps(shown))
        assert verify(book_file).returncode == 0
        last = await bob.call("replay_view", replay=book, step=len(fixed["line"]))
        assert last["view"]["status"] == "won"
        board = await bob.call("top", board=f"daily/{GAME}/{day}")
        assert board["book"] == {
            "replay": book,
            "par": fixed["par"],
            "shortest": fixed["shortest"],
        }
        status, _, page = await fetch(http(server) + f"/leaderboard/daily/{GAME}/{day}")
        assert status == 200 and f"Par {fixed['par']}" in page and f"/replay/{book}" in page
        status, _, body = await fetch(http(server) + f"/replay/{book}.json")
        assert status == 200 and json.loads(body)["moves"] == shown["moves"]


async def test_a_day_that_comes_uncertified_uses_its_first_candidate(server: Running) -> None:
    """Nothing certified the deal before its day came: it is the first candidate (the
    seed the daily always had), marked uncertified, and stays so."""
    ann = await player(server.url, "ann")
    reply = await ann.call("daily", game=GAME)
    day = reply["day"]
    assert reply["certified"] is False and reply["par"] is None
    first = d.candidate_seed(server.service.daily.secret, day, GAME, 0)
    assert first == d.daily_seed(server.service.daily.secret, day, GAME)
    assert reply["view"] == new_game(GAME, seed=first).view()
    # a certification coming late finds the deal fixed, and changes nothing
    assert await server.service.certifier.certify_one(day, GAME) is None
    deal = await server.service.dailies.deal(day, GAME)
    assert deal == {"seed": first, "n": 0, "certified": False}
    await ann.call("resign")
    assert (await ann.event("daily_result"))["par"] is None


async def test_no_candidate_proved_in_the_budget_is_the_first_uncertified(
    settings: Settings,
) -> None:
    """Light and Shade's deals often take longer than a sliver of a second to prove: with
    that budget, the certifier gives up and fixes the first candidate, uncertified."""
    game = "light-and-shade"
    async with running(certifying(settings, certify_budget=0.001, certify_candidates=2)) as one:
        day = beyond_the_window(one)
        fixed = await one.service.certifier.certify_one(day, game)
        secret = one.service.daily.secret
        assert fixed == {"seed": d.candidate_seed(secret, day, game, 0), "n": 0, "certified": False}
        assert await one.service.replays.get(d.book_id(day, game)) is None


async def test_a_process_claiming_after_another_fixed_the_deal_solves_nothing(
    settings: Settings,
) -> None:
    """Two processes look at a deal not yet fixed; one claims it, solves it, fixes it and
    lets its claim go before the other claims: the other finds the deal fixed and
    solves nothing (it once solved it again and counted it as its own)."""
    game = "gate"
    async with (
        running(certifying(settings, certify_candidates=8)) as one,
        running(certifying(settings, certify_candidates=8)) as two,
    ):
        day = beyond_the_window(one)
        first_done = asyncio.Event()
        dailies = two.service.certifier.dailies
        claim = dailies.claim_certifying

        async def claim_after_the_first(day: str, game: str, proc: str, ms: int) -> bool:
            await first_done.wait()  # (the other looked while the deal was not fixed)
            return await claim(day, game, proc, ms)

        dailies.claim_certifying = claim_after_the_first  # type: ignore[method-assign]
        second = asyncio.create_task(two.service.certifier.fix_one(day, game))
        await asyncio.sleep(0.05)
        fixed = await one.service.certifier.fix_one(day, game)
        first_done.set()
        assert fixed is not None and fixed["certified"]
        assert await second is None
        assert (one.service.certifier.certified_here, two.service.certifier.certified_here) == (
            1,
            0,
        )


async def test_two_processes_never_solve_one_deal_twice(settings: Settings) -> None:
    games = ["gate", "nestor", "doubles-and-quits", "blockade-ten"]
    async with (
        running(certifying(settings, certify_candidates=8)) as one,
        running(certifying(settings, certify_candidates=8)) as two,
    ):
        day = beyond_the_window(one)  # ahead of its day, and of its commitment
        await asyncio.gather(
            one.service.certifier.certify_ahead([day], games),
            two.service.certifier.certify_ahead([day], games),
        )
        solved = one.service.certifier.certified_here + two.service.certifier.certified_here
        deals = [await one.service.dailies.deal(day, game) for game in games]
        assert all(deal is not None for deal in deals)
        assert solved == sum(1 for deal in deals if deal and deal["certified"])
        assert solved >= 2  # (a pairing game's eight candidates may all be lost)
        for game, deal in zip(games, deals, strict=True):
            assert deal is not None
            for service in (one.service, two.service):
                assert await service.certifier.deal(day, game) == deal
