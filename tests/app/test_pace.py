"""The pace policy (``server/app/domain/pace.py``, docs/leaderboards.md "Fair play: the
pace policy"): a ranked result played faster than people play is kept, held off the
public boards, and told "held for review"; the operator's ``review`` command lists it,
clears it into its place or removes it. A player paced like a person is left alone."""

from __future__ import annotations

import doctest
import os
import random
import re
import subprocess
import sys
from itertools import count
from pathlib import Path
from typing import Any

from server import review_cli
from server.app import review as held
from server.app.domain import pace
from server.app.domain.daily import daily_seed, day_of
from server.app.settings import Settings
from server.engine import new_game

from .client import Client, player
from .conftest import Running, running, with_settings

ROOT = Path(__file__).resolve().parents[2]
#: a person's gap between moves, in the tests that pace a player (seconds)
HUMAN_GAP = 0.6


# -- the check, pure ----------------------------------------------------------------------


def spaced(gap_ms: int, n: int, start: int = 0) -> list[tuple[int, str]]:
    return [(start + gap_ms * k, f"m{k}") for k in range(1, n + 1)]


def test_the_examples_in_the_docstrings_hold() -> None:
    """The check's, the player's note's and the operator's listing's examples (the test
    run collects doctests under tests/ only)."""
    for module in (pace, held, review_cli):
        failed, tried = doctest.testmod(module)
        assert tried and not failed, module.__name__


def test_a_run_under_the_floor_is_fast_and_one_short_of_it_is_not() -> None:
    # ten quick moves after a slow start: the run is the first gap onward
    quick = [(5000, "a")] + [(5000 + 200 * k, f"m{k}") for k in range(1, pace.RUN_LENGTH + 1)]
    assert pace.check(quick, 0).figures["run"] == pace.RUN_LENGTH
    assert pace.check(quick, 0).fast
    assert not pace.check(quick[:-1], 0).fast
    # a gap at the floor breaks the run; the ten are still faster than the floor on
    # average (the fast stretch), and a real pause among them is not
    broken = quick[:5] + [(at + pace.FLOOR_MS, e) for at, e in quick[5:]]
    assert pace.check(broken, 0).figures["run"] < pace.RUN_LENGTH
    assert pace.check(broken, 0).why == ["10 actions in 2.25 s (people: 2.5 s at the very least)"]
    paused = quick[:5] + [(at + 1000, e) for at, e in quick[5:]]
    assert not pace.check(paused, 0).fast


def test_a_whole_game_faster_than_an_aimed_click_is_fast() -> None:
    steady = spaced(pace.MEDIAN_FLOOR_MS - 20, pace.MEDIAN_MIN_ACTIONS)
    check = pace.check(steady, 0)
    assert check.figures["run"] == 0 and check.fast
    assert check.figures["median_gap_ms"] == pace.MEDIAN_FLOOR_MS - 20
    assert "half the actions" in check.why[0]
    assert not pace.check(steady[:-1], 0).fast  # too few moves to judge so
    assert not pace.check(spaced(pace.MEDIAN_FLOOR_MS, 100), 0).fast


def test_half_the_actions_fast_is_fast_whatever_the_others() -> None:
    """A known winning line replayed with gaps of 40 and 600 ms in turn (an outside
    tester's second account): no run of fast actions, and the median, the mean of the
    two middle gaps, was 320 ms: it went on the board first, above people's games. Half
    its actions at 40 ms: the median is the lower middle gap."""
    at, log = 0, []
    for k in range(104):
        at += 40 if k % 2 else 600
        log.append((at, f"m{k}"))
    check = pace.check(log, 0)
    assert check.figures["run"] == 1 and check.figures["median_gap_ms"] == 40
    assert check.fast and "half the actions 40 ms or less each, over 104 actions" in check.why[0]


def test_the_issues_script_is_fast_and_the_person_below_it_is_not() -> None:
    """110 Gate moves in 21 s (the script) and in 58 s (the person), each at an even pace:
    the script at 0.19 s a move; the person's moves vary around 0.53 s."""
    script = spaced(21_000 // 110, 110)
    check = pace.check(script, 0)
    assert check.fast and check.figures["run"] == 110
    rng = random.Random(7)
    at, person = 0, []
    for k in range(110):
        at += rng.randint(300, 800)
        person.append((at, f"m{k}"))
    assert not pace.check(person, 0).fast, pace.check(person, 0).figures


def test_a_home_chain_a_held_key_and_hints_are_no_moves_of_their_own() -> None:
    # one `home` played eight cards 2 ms apart: one action
    log = [(1000, "t1>b2"), *((2000 + 2 * k, f"h{k}>f") for k in range(8)), (3000, "deal")]
    assert pace.gaps(log, 0, [(1, 8)]) == [1000, 1000, 986]
    assert pace.check(log, 0, [(1, 8)]).figures["actions"] == 3
    assert pace.gaps(log, 0) == [1000, 1000, 2, 2, 2, 2, 2, 2, 2, 986]  # unrecorded
    # the undo key held down: twelve undos at the key's repeat rate, one action
    held = [(1000, "t1>b2"), *((2000 + 33 * k, "!undo") for k in range(12))]
    assert pace.gaps(held, 0) == [1000, 1000]
    assert not pace.check(held, 0).fast
    # a hint is no move: the gap runs from the move before it
    assert pace.gaps([(500, "a"), (700, "!hint"), (1500, "b"), (1600, "!resign")], 0) == [
        500,
        1000,
    ]


def test_uneven_gaps_that_keep_clear_of_both_rules_are_fast_all_the_same() -> None:
    """An outside probe's script: just over half its moves 0.3 s apart, the rest 5 ms
    apart, never ten fast in a row; its median 0.3 s. It won a race at 168 ms a move, not
    held. Ten actions in under 2.5 s (a quarter of a second each, on average) are fast
    however the gaps are shared out."""
    gaps = [305, 5] * 12 + [305, 305]  # (twelve of 5 ms, fourteen of 305)
    at, log = 0, []
    for k, gap in enumerate(gaps):
        at += gap
        log.append((at, f"m{k}"))
    verdict = pace.check(log, 0)
    assert verdict.figures["run"] < pace.RUN_LENGTH
    assert verdict.figures["median_gap_ms"] >= pace.MEDIAN_FLOOR_MS
    assert verdict.fast and "10 actions in 1.55 s" in verdict.why[0], verdict.why
    # a person's quick moves after a pause are not
    person = [(1000 * k + (100 if k % 3 else 0), f"m{k}") for k in range(1, 30)]
    assert not pace.check(person, 0).fast


def test_a_game_of_few_actions_faster_than_aimed_clicks_is_fast() -> None:
    """One ``home`` won a ranked Doubles and Quits daily 58 ms after its deal (a chain is
    one action, and the median rule needs twenty); nine fast, one slow and nine fast made
    nineteen actions in 0.3 s. Fewer than ten actions whose chains made ten moves or more,
    under a quarter of a second each on average from the deal, are fast (a few single
    moves that quick gain a board nothing); and a pair is never "the same place clicked
    again" (the table closes up under it: new cards)."""
    chain = [(58 + k, f"{k}+{k + 1}") for k in range(26)]
    assert pace.check(chain, 0, [(0, 26)]).fast
    assert not pace.check([(1200 + k, f"{k}+{k + 1}") for k in range(26)], 0, [(0, 26)]).fast
    assert not pace.check([(20, "t1>b2"), (40, "deal")], 0).fast
    nineteen = [(k * 5 + (250 if k >= 9 else 0), f"m{k}") for k in range(19)]
    assert pace.check(nineteen, 0).fast
    pairs = [(700 * k + 600 if k % 2 == 0 else 700 * (k - 1) + 610, "4+5") for k in range(30)]
    assert pace.check(pairs, 0).figures["actions"] == 30


def test_the_figures_say_what_the_check_saw() -> None:
    check = pace.check(spaced(100, 30), 0)
    figures = check.figures
    assert figures["entries"] == figures["actions"] == 30
    assert figures["fastest_stretch_ms"] == 1000 and figures["fastest_per_s"] == 10.0
    assert figures["run_ms"] == 3000 and figures["time_ms"] == 3000
    assert "30 actions in a row each under 0.25 s (3.00 s in all)" in check.why[0]
    assert check.record() == {"fast": True, "figures": figures, "why": check.why}
    # a median under a second in ms, not "under 0.00 s" (a script's 3 ms)
    fast = pace.check(spaced(3, 60), 0).why[1]
    assert "half the actions 3 ms or less each, over 60 actions" in fast
    assert "half the actions 280 ms or less each" in pace.check(spaced(280, 60), 0).why[0]


# -- end to end: a script's Gate daily, a person's, and the operator's command -------------


def home_first_else_random(seed: int, rng_seed: int = 1) -> list[str] | None:
    """The issue's script: the home moves first, otherwise a random legal move; its moves
    if it wins the deal, else None."""
    game = new_game("gate", seed=seed)
    rng = random.Random(rng_seed)
    line = []
    while game.status == "playing":
        home = game.home_moves()
        move = home[0] if home else rng.choice(game.legal_moves())
        game.play(move)
        line.append(move.text)
    return line if game.status == "won" else None


def secret_the_script_wins(day: str) -> tuple[str, list[str]]:
    for n in count():
        secret = f"pace-secret-{n}"
        line = home_first_else_random(daily_seed(secret.encode(), day, "gate"))
        if line is not None:
            return secret, line
    raise AssertionError


async def scripted(client: Client, line: list[str]) -> dict[str, Any]:
    """Today's Gate daily played as fast as the websocket lets it."""
    gid = (await client.call("daily", game="gate"))["game"]
    for move in line:
        reply = await client.call("move", game=gid, move=move)
    assert reply["status"] == "won"
    return await client.event("daily_result")


async def paced(client: Client, line: list[str], server: Running) -> dict[str, Any]:
    """Today's Gate daily played at a person's pace: the server's clock moves on a
    person's gap before each move."""
    gid = (await client.call("daily", game="gate"))["game"]
    for move in line:
        server.clock.advance(HUMAN_GAP)
        reply = await client.call("move", game=gid, move=move)
    assert reply["status"] == "won"
    return await client.event("daily_result")


def review(settings: Settings, *args: str) -> subprocess.CompletedProcess[str]:
    """The operator's real command, against the test's Redis, at the server's clock."""
    offset = settings.clock.now_ms() - _real_ms()
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PATIENCE_REDIS_URL": str(settings.redis_url),
        "PATIENCE_DATA_DIR": str(settings.data_dir),
        "PATIENCE_CLOCK_OFFSET": str(offset / 1000),
    }
    return subprocess.run(
        [sys.executable, "-m", "server.cli", "review", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _real_ms() -> int:
    from server.app.settings import Clock

    return Clock().now_ms()


async def entries(client: Client, board: str) -> list[str]:
    return [e["player"] for e in (await client.call("top", board=board))["entries"]]


async def test_a_scripts_daily_is_held_and_the_operator_clears_or_removes_it(
    settings: Settings,
) -> None:
    day = day_of(settings.clock.now_ms())
    secret, line = secret_the_script_wins(day)
    async with running(with_settings(settings, secret=secret)) as server:
        ann = await player(server.url, "ann")
        held = await scripted(ann, line)
        assert held["status"] == "won" and held["rank"] is None
        assert held["review"]["state"] == "held"
        assert held["review"]["note"].startswith("held for review: played faster than people")
        assert held["streak"]["game"]["current"] == 1  # the streak is the player's own
        for board in ("daily/gate", "best/gate", "wins/gate"):
            assert await entries(ann, board) == [], board
        status = await ann.call("daily", game="gate", start=False)
        assert status["ranked_attempt"] == "ended" and status["review"]["state"] == "held"
        # looking for oneself on the day's board says why one is not on it
        for look in ({"around": True}, {"friends": True}):
            mine = await ann.call("top", board="daily/gate", **look)
            assert mine["entries"] == [] and mine["review"] == status["review"], look
        assert "review" not in await ann.call("top", board="daily/gate")  # (one's own look)
        # a person on the same deal is left alone, and ranks first while ann is held
        bob = await player(server.url, "bob")
        fair = await paced(bob, line, server)
        assert "review" not in fair and fair["rank"] == 1
        assert await entries(bob, "daily/gate") == ["bob"]
        bob_status = await bob.call("daily", game="gate", start=False)
        assert "review" not in bob_status
        assert "review" not in await bob.call("top", board="daily/gate", around=True)
        # carl is a script too
        carl = await player(server.url, "carl")
        assert (await scripted(carl, line))["review"]["state"] == "held"

        listed = review(server.settings, "list")
        assert listed.returncode == 0, listed.stderr
        assert held["game"] in listed.stdout and "ann" in listed.stdout
        assert f"daily gate {day}" in listed.stdout and "carl" in listed.stdout
        assert f"boards: daily/gate/{day}, best/gate, wins/gate" in listed.stdout
        assert f"{len(line)} moves" in listed.stdout and "in a row under 0.25 s" in listed.stdout
        assert "bob" not in listed.stdout

        watcher = await Client.connect(server.url)
        await watcher.call("hello", protocol=1)
        await watcher.call("board_watch", board="daily/gate")
        cleared = review(server.settings, "clear", held["game"], "--reason", "a fast player")
        assert cleared.returncode == 0, cleared.stderr
        assert "daily/gate/" in cleared.stdout
        # the board's watchers hear of it, as of a finish
        update = await watcher.event(
            "board_update", lambda e: (e["entry"] or {}).get("player") == "ann"
        )
        assert update["entry"]["rank"] == 1 and update["size"] == 2
        # in its place: ann finished first, in less time
        assert await entries(ann, "daily/gate") == ["ann", "bob"]
        assert await entries(ann, "best/gate") == ["ann", "bob"]
        assert await entries(ann, "wins/gate") == ["ann", "bob"]
        status = await ann.call("daily", game="gate", start=False)
        assert status["review"]["state"] == "cleared"
        assert "a fast player" in status["review"]["note"]

        carl_gid = (await carl.call("daily", game="gate", start=False))["game"]
        removed = review(server.settings, "remove", carl_gid, "--reason", "a script's pace")
        assert removed.returncode == 0, removed.stderr
        status = await carl.call("daily", game="gate", start=False)
        assert status["review"] == {
            "state": "removed",
            "note": "removed from the boards after review: a script's pace",
        }
        assert "carl" not in await entries(ann, "daily/gate")
        # decided once: a second decision is refused, and nothing changes
        again = review(server.settings, "clear", carl_gid, "--reason", "changed my mind")
        assert again.returncode == 1 and "removed already" in again.stderr
        assert "carl" not in await entries(ann, "daily/gate")
        unknown = review(server.settings, "remove", "0123456789abcdef", "--reason", "x")
        assert unknown.returncode == 1 and "no result" in unknown.stderr

        assert review(server.settings, "list").stdout.strip() == "no results held for review"
        everything = review(server.settings, "list", "--all").stdout
        assert "cleared" in everything and "a fast player" in everything
        assert "removed" in everything and "a script's pace" in everything


async def test_a_finish_written_again_holds_once(settings: Settings) -> None:
    """A held daily's finish written again (housekeeping's ``finish_owed``) holds it
    once, and still keeps it off the boards."""
    day = day_of(settings.clock.now_ms())
    secret, line = secret_the_script_wins(day)
    async with running(with_settings(settings, secret=secret)) as server:
        ann = await player(server.url, "ann")
        held = await scripted(ann, line)
        live = await server.service.ctx.stored.load(held["game"], fence=False)
        assert live is not None
        await server.service.daily.finished(live)
        listed = review(server.settings, "list").stdout
        assert listed.count(held["game"]) == 1
        assert await entries(ann, "daily/gate") == []


async def test_a_scripts_race_win_is_not_counted(server: Running) -> None:
    """A race won at a script's pace is held: its results say so, and the race boards do
    not count it; the same race won at a person's pace counts."""
    counted: list[str | None] = []
    for pace_gap in (0.0, HUMAN_GAP):
        ann, bob = (
            await player(server.url, f"ann{len(counted)}"),
            await player(server.url, f"bob{len(counted)}"),
        )
        code = (await ann.call("room_create", game="gate"))["code"]
        await bob.call("room_join", code=code)
        await bob.call("ready")
        await ann.call("start")
        for _ in range(30):  # until a race deals a deal the script wins
            start = await ann.event("race_start")
            await bob.event("race_start")
            seed = int(await server.redis.hget(f"g:{{{start['game']}}}", "seed") or 0)
            line = home_first_else_random(seed)
            await bob.call("resign")
            if line is not None:
                break
            await ann.call("resign")
            await ann.event("results")
            await ann.call("rematch")
        assert line is not None
        for move in line:
            server.clock.advance(pace_gap)
            await ann.call("move", move=move)
        results = await ann.event("results", lambda e: e["results"][0]["status"] == "won")
        counted.append(results["results"][0].get("review"))
    assert counted == ["held", None]
    week = await ann.call("top", board="races/week")
    assert [e["player"] for e in week["entries"]] == ["ann1"]
    listed = review(server.settings, "list").stdout
    assert "ann0" in listed and "race " in listed and "boards: races/all, races/week/" in listed
    # cleared: counted on the race boards, once however often it is cleared (the second
    # said it wrote them again, where nothing changed)
    gid = re.search(r"^(\S+)  held  ann0 ", listed, re.M)
    assert gid is not None, listed
    first = review(server.settings, "clear", gid[1], "--reason", "a quick hand")
    assert first.returncode == 0 and "boards written: races/all, races/week/" in first.stdout
    again = review(server.settings, "clear", gid[1], "--reason", "a quick hand")
    assert again.returncode == 0, again.stderr
    assert "boards written: none changed" in again.stdout, again.stdout
    week = await ann.call("top", board="races/week")
    assert sorted(e["player"] for e in week["entries"]) == ["ann0", "ann1"]
    assert [e["count"] for e in week["entries"]] == [1, 1]


async def test_a_home_request_records_its_chain(server: Running) -> None:
    """The moves one ``home`` plays are recorded as one chain (their first place in the
    log, how many), which the check counts as one action."""
    ann = await player(server.url, "ann")
    for seed in count(1):
        game = new_game("gate", seed=seed)
        rng = random.Random(seed)
        gid = (await ann.call("new_game", game="gate", seed=seed))["game"]
        homed: list[list[str]] = []
        while game.status == "playing" and not any(len(h) > 1 for h in homed):
            server.clock.advance(HUMAN_GAP)
            if game.home_moves():
                moves = (await ann.call("home", game=gid))["moves"]
                homed.append(moves)
                for move in moves:
                    game.play(move)
            else:
                move = rng.choice(game.legal_moves()).text
                await ann.call("move", game=gid, move=move)
                game.play(move)
        if any(len(h) > 1 for h in homed):
            break
    log = await server.service.ctx.stored.read_log(gid)
    chains = await server.service.ctx.reviews.chains(gid)
    assert chains and all(n > 1 for _, n in chains)
    assert [[e for _, e in log[first : first + n]] for first, n in chains] == [
        h for h in homed if len(h) > 1
    ]
    check = pace.check(log, 0, chains)
    assert check.figures["actions"] == check.figures["entries"] - sum(n - 1 for _, n in chains)
