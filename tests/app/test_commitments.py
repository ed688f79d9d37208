"""Committed daily deals, end to end on a real Redis (docs/commitments.md): today's and
the next 7 days' commitments published for every game, never with a seed or salt before
the day is over; revealed at the reset, checking out by hand; never changed by a day
change; a daily replay verified against its commitment by the real ``verify`` command;
a deal changed in Redis after its commitment refused by the server and caught by
``verify``; and two processes on one Redis publishing the same commitments."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from server.app.domain import daily as d
from server.app.service import Service
from server.app.settings import Settings
from server.app.store.codec import pack
from server.app.store.keys import commitment_key, deal_key
from server.engine import GAMES, new_game
from server.solver.certify import first_winnable

from .client import player
from .conftest import Running, running, with_settings
from .test_daily import next_day
from .test_pages import fetch, http

GAME = "gate"
PAGE = "/daily/commitments"


async def listing(server: Running) -> dict[str, Any]:
    status, kind, body = await fetch(http(server) + PAGE + ".json")
    assert status == 200 and kind == "application/json", (status, body)
    found: dict[str, Any] = json.loads(body)
    return found


def by_day(found: dict[str, Any]) -> dict[str, dict[str, dict[str, Any]]]:
    """day -> game -> its commitment as published."""
    return {day["day"]: {deal["game"]: deal for deal in day["deals"]} for day in found["days"]}


def by_hand(game: str, day: str, seed: int, salt: str) -> str:
    """The commitment as docs/commitments.md says anyone can compute it."""
    return hashlib.sha256(f"daily-commitment/v1/{game}/{day}/{seed}/{salt}".encode()).hexdigest()


def verify(path: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.cli", "verify", *more, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )


def window(today: str) -> list[str]:
    days = [today]
    while len(days) < 8:
        days.append(d.next_day(days[-1]))
    return days


async def test_committed_a_week_ahead_revealed_at_the_reset_and_verified(
    server: Running, tmp_path: Path
) -> None:
    today = d.day_of(server.clock.now_ms())
    before = by_day(await listing(server))
    # today and the next 7 days, every game, and nothing of any deal
    assert sorted(before) == window(today)
    for day, deals in before.items():
        assert sorted(deals) == sorted(GAMES), day
        for deal in deals.values():
            assert set(deal) == {"game", "commitment", "certified"}, deal
            assert len(deal["commitment"]) == 64 and deal["certified"] is False
    status, _, page = await fetch(http(server) + PAGE)
    assert status == 200 and before[today][GAME]["commitment"] in page
    for day in before:
        for game in GAMES:
            record = await server.service.ctx.commitments.get(day, game)
            assert record is not None
            assert record["salt"] not in page and str(record["seed"]) not in page
            fixed = await server.service.dailies.deal(day, game)  # fixed with its commitment
            assert fixed is not None and fixed["seed"] == record["seed"]

    # the daily and its status say the day's commitment
    ann = await player(server.url, "ann")
    status_reply = await ann.call("daily", game=GAME, start=False)
    assert status_reply["commitment"] == before[today][GAME]["commitment"]
    assert status_reply["certified"] is False
    reply = await ann.call("daily", game=GAME)
    assert reply["commitment"] == before[today][GAME]["commitment"]
    await ann.call("move", move=reply["legal"][0])
    await ann.call("resign")
    await ann.event("daily_result")
    own = (await ann.call("replay", replay=reply["game"]))["replay"]  # before the reset
    assert own["seed"] is None and "salt" not in own
    assert own["commitment"] == before[today][GAME]["commitment"]

    # the day changes: yesterday revealed, and checks out by hand
    tomorrow = next_day(server.clock)
    after = by_day(await listing(server))
    assert sorted(d for d in after if d >= tomorrow) == window(tomorrow)  # a new day 8 ahead
    for day in window(today)[1:]:  # what was ahead is unchanged, and still sealed
        assert after[day] == before[day], day
    for game in GAMES:
        shown = after[today][game]
        assert shown["commitment"] == before[today][game]["commitment"]
        assert by_hand(game, today, shown["seed"], shown["salt"]) == shown["commitment"]
        assert shown["seed"] == d.candidate_seed(server.service.daily.secret, today, game, 0)
    status, _, page = await fetch(http(server) + PAGE)
    assert status == 200 and after[today][GAME]["salt"] in page

    # yesterday's daily replay carries its commitment and salt, and verify checks them
    status, _, body = await fetch(http(server) + f"/replay/{reply['game']}.json")
    assert status == 200
    replay = json.loads(body)
    assert replay["commitment"] == before[today][GAME]["commitment"]
    assert replay["salt"] == after[today][GAME]["salt"]
    status, _, page = await fetch(http(server) + f"/replay/{reply['game']}")
    assert status == 200 and replay["commitment"] in page and replay["salt"] in page
    saved = tmp_path / "daily.json"
    saved.write_text(body)
    checked = verify(saved)
    assert checked.returncode == 0, checked
    assert f"committed: the seed and salt hash to the commitment {replay['commitment']}" in (
        checked.stdout
    )
    published = before[today][GAME]["commitment"]
    assert verify(saved, "--commitment", published).returncode == 0
    other = before[tomorrow][GAME]["commitment"]
    wrong = verify(saved, "--commitment", other)
    assert wrong.returncode == 1 and "does not match its commitment" in wrong.stdout


async def test_a_deal_changed_after_its_commitment_is_refused_and_caught(
    server: Running, tmp_path: Path
) -> None:
    today = d.day_of(server.clock.now_ms())
    published = by_day(await listing(server))[today][GAME]
    committed = await server.service.dailies.deal(today, GAME)
    assert committed is not None
    # someone changes today's deal in Redis after it was committed to
    changed_seed = int(committed["seed"]) ^ 1
    await server.redis.set(deal_key(today, GAME), pack({**committed, "seed": changed_seed}))

    ann = await player(server.url, "ann")
    refused = await ann.request("daily", game=GAME)
    assert refused["code"] == "deal_changed", refused
    assert published["commitment"][:12] in refused["message"]
    assert server.service.commitments.refused == 1
    # nothing dealt: the ranked attempt is still to come
    status = await ann.call("daily", game=GAME, start=False)
    assert status["ranked_attempt"] == "pending" and status["game"] is None
    assert status["commitment"] == published["commitment"]  # the commitment stands
    # another game's deal is dealt as ever
    assert (await ann.call("daily", game="nestor"))["ranked"] is True
    # the committed deal put back, it is dealt
    await server.redis.set(deal_key(today, GAME), pack(committed))
    dealt = await ann.call("daily", game=GAME)
    assert dealt["ranked"] is True
    assert dealt["view"] == new_game(GAME, seed=committed["seed"]).view()
    assert server.service.commitments.refused == 1

    # after the reset the true seed is revealed; a replay of the changed deal fails verify
    next_day(server.clock)
    revealed = by_day(await listing(server))[today][GAME]
    assert revealed["seed"] == committed["seed"] != changed_seed
    game = new_game(GAME, seed=changed_seed)
    home, total = game.progress
    start = d.day_start_ms(today)
    replay = {
        "id": "0123456789abcdef",
        "game": GAME,
        "rules_version": game.rules_version,
        "seed": changed_seed,
        "kind": "daily",
        "start_ms": start,
        "moves": [[start, "!resign"]],
        "result": {"status": "resigned", "time_ms": 0, "moves": 0, "home": home, "total": total},
        "player": "ann",
        "day": today,
        "commitment": revealed["commitment"],
        "salt": revealed["salt"],
    }
    saved = tmp_path / "changed.json"
    saved.write_text(json.dumps(replay))
    caught = verify(saved)
    assert caught.returncode == 1, caught
    assert "does not match its commitment" in caught.stdout
    # the same moves on the committed seed check out
    replay["seed"] = committed["seed"]
    home, total = new_game(GAME, seed=committed["seed"]).progress
    replay["result"] = {**replay["result"], "home": home, "total": total}
    saved.write_text(json.dumps(replay))
    assert verify(saved).returncode == 0


async def test_two_processes_publish_the_same_commitments(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    async with running(settings) as one, running(settings) as two:
        # both write the window at once, from nothing (their own looks stopped, and what
        # those wrote at the start wiped): each serves the commitment written first
        for service in (one.service, two.service):
            service.commitments.stop()
        today = d.day_of(one.clock.now_ms())
        await one.redis.delete(*[commitment_key(day, g) for day in window(today) for g in GAMES])
        caplog.clear()
        caplog.set_level(logging.INFO, logger="patience.service")
        first, second = await asyncio.gather(
            one.service.commitments.publish(), two.service.commitments.publish()
        )
        assert first == second
        # the log counts the commitments written, not those another process wrote first
        # (three processes starting together logged three times the keys there were)
        logged = [r for r in caplog.records if r.getMessage() == "daily deals committed"]
        assert sum(getattr(r, "committed", 0) for r in logged) == len(window(today)) * len(GAMES)
        assert await one.service.commitments.listing() == await two.service.commitments.listing()
        for game in GAMES:
            record = await one.service.commitments.record(today, game)
            assert (await two.service.commitments.deal(today, game))[1] == record


async def test_a_new_server_leaves_deals_to_the_certifier_and_commits_them_as_fixed(
    server: Running,
) -> None:
    # a new server, certifying 9 days ahead: its first looks find no deal fixed (the test
    # server's own looks, which fixed them at once with certification off, stopped and
    # wiped)
    looking = server.service.commitments.stop()
    if looking is not None:
        await asyncio.wait({looking})  # (a look under way goes on to its end)
    today = d.day_of(server.clock.now_ms())
    days = window(today)
    await server.redis.delete(
        *[key(day, g) for day in days for g in GAMES for key in (commitment_key, deal_key)]
    )
    fresh = Service(with_settings(server.settings, certify_ahead=9), server.redis)
    looks = fresh.commitments
    # nothing fixed uncertified to publish it: every day pending, no deal fixed
    assert all(record is None for _, records in await looks.publish() for record in records)
    for day in days:
        assert await fresh.dailies.deal(day, GAME) is None, day
    listed = await looks.listing()
    pending = {day["day"]: day.get("pending") for day in listed["days"]}
    assert pending == {day: list(GAMES) for day in days}
    status = await fresh.daily.status("0123456789abcdef", GAME)
    assert status["commitment"] is None and status["certified"] is None
    assert await fresh.dailies.deal(today, GAME) is None  # (a look deals nothing)
    # the certifier fixes a deal 5 days ahead, certified: the next look commits to it
    ahead = days[5]
    seeds = [d.candidate_seed(fresh.daily.secret, ahead, GAME, n) for n in range(3)]
    found = first_winnable(GAME, seeds, 5.0)
    assert found is not None
    await fresh.dailies.fix_deal(ahead, GAME, {**found, "certified": True})
    committed = dict(await looks.publish())[ahead]
    record = committed[list(GAMES).index(GAME)]
    assert record is not None and record["certified"] is True
    assert record["commitment"] == by_hand(GAME, ahead, found["seed"], record["salt"])
    assert sum(r is not None for r in committed) == 1  # the day's others still pending
    # today's daily asked for: its day has come, so it is fixed as it stands and committed
    dealt, made = await looks.deal(today, "nestor")
    assert dealt["certified"] is False and made["certified"] is False
    assert (await fresh.daily.status("0123456789abcdef", "nestor"))["commitment"] == (
        made["commitment"]
    )
    # certification that does not reach a day of the window: that day committed at once
    short = Service(with_settings(server.settings, certify_ahead=3), server.redis)
    published = dict(await short.commitments.publish())
    assert all(r is not None for day in days[4:] for r in published[day])
    assert (await short.dailies.deal(days[4], GAME) or {}).get("certified") is False
    assert await short.dailies.deal(days[2], GAME) is None  # still the certifier's
