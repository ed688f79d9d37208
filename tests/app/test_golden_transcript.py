"""A golden transcript: one scripted day on the server, every frame each client receives
and every HTTP page read, compared with ``golden_transcript.txt`` beside this file.

It witnesses that a change meant to keep the server's behaviour (moving its code around)
keeps it: any change to a message's content, or to the order in which a client receives
its frames, fails this test with a diff of the transcript. The day, on fixed seeds, a
fixed daily secret and a clock that moves only when the script moves it: a solo game; a
race of three racers with a spectator, won, then a rematch ended by its time limit; a
daily won and a daily lost; board pages over the websocket and over HTTP; replays.

What varies from run to run is normalised, and nothing else:

- generated ids become placeholders named in order of first appearance, so that equal ids
  stay visibly equal: ``<ann:id>`` and ``<ann:token>`` (a player's id and token),
  ``<game-3>`` (a game, and its replay: they share an id), ``<room-1>`` (a room code),
  ``<commitment-1>`` and ``<salt-1>`` (a daily deal's commitment, made with a random salt;
  ``<hash-1>``, either, where a page shows it first);
- the server's address in a page (``og:url``) becomes ``http://<server>``, and its
  websocket in a page's terminal command ``ws://<server>``;
- server times are exact (the clock is frozen), written as offsets from its start,
  ``"<t+1500>"`` being 1.5 s after it, for reading;
- a rematch draws a random seed: its racers' deal (the ``race_start`` view's piles and
  legal moves) is checked against the seed in the rematch's replay, then replaced by a
  note.

Maps are written with their keys in the order the server sent them. Progress events are
throttled (``progress_interval``): the script waits for each one before the next move, so
each carries exactly one move. The pings that mark the end of each step (so that every
frame of a step has arrived before the next begins) are left out.

Regenerate the golden file after a deliberate change of behaviour with the variable the
client's golden files use (``tests/client_cli/conftest.py``)::

    PATIENCE_GOLDEN=update .venv/bin/pytest tests/app/test_golden_transcript.py

The test then rewrites the file and fails, saying so (it never passes while rewriting);
read the diff (``git diff tests/app/golden_transcript.txt``) and commit it with the change.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from server.app.settings import Settings
from server.engine import new_game

from .conftest import running, with_settings
from .test_pages import fetch, http
from .transcript import DAY_MS, T0, Actor, FrozenClock, Transcript, differences, render, wire

GOLDEN = Path(__file__).with_name("golden_transcript.txt")
#: PATIENCE_GOLDEN=update rewrites the golden file (and fails)
UPDATE = os.environ.get("PATIENCE_GOLDEN") == "update"

GAME = "doubles-and-quits"
#: a Doubles and Quits deal that "always the first legal move" wins in 26 moves
RACE_SEED = 1
#: the daily secret: on 2026-11-22 its Doubles and Quits deal is won in 26 moves by always
#: the first legal move, and lost in 10 by always the last
SECRET = "golden-35"
SOLO_GAME, SOLO_SEED = "gate", 1234
#: the race's time limit, seconds
TIME_LIMIT = 120


async def test_golden_transcript(settings: Settings) -> None:
    clock = FrozenClock(T0)
    pinned = with_settings(
        settings,
        clock=clock,
        secret=SECRET,
        countdown=0.3,
        rate=1000.0,
        burst=1000,
        max_frame=4096,
        # short, so that waiting for each progress event is quick; each still comes
        # through the throttle's tick (a finish comes at once, as always)
        progress_interval=0.02,
        # housekeeping runs on real time: never during the script
        sweep_interval=3600.0,
    )
    async with running(pinned) as server:
        t = Transcript(server)
        try:
            await script(t, clock)
        finally:
            await t.close()
    text = render(t.entries)
    if UPDATE:
        GOLDEN.write_text(text, encoding="utf-8")
        pytest.fail(
            f"PATIENCE_GOLDEN=update: rewrote {GOLDEN.name}; review its diff and commit it",
            pytrace=False,
        )
    if not GOLDEN.exists():
        pytest.fail(f"no {GOLDEN.name}: make it with PATIENCE_GOLDEN=update", pytrace=False)
    golden = GOLDEN.read_text(encoding="utf-8")
    if text != golden:
        shown = "\n".join(differences(golden, text, 300))
        pytest.fail(
            f"the transcript differs from {GOLDEN.name} (PATIENCE_GOLDEN=update rewrites it, "
            f"for a change of behaviour meant):\n{shown}",
            pytrace=False,
        )


async def script(t: Transcript, clock: FrozenClock) -> None:
    await t.step("connections: dan stays anonymous, ann, bob and cat register")
    dan = await t.connect("dan")
    await dan.call("hello", protocol=1)
    ann, bob, cat = [await t.connect(name) for name in ("ann", "bob", "cat")]
    for actor in (ann, bob, cat):
        await actor.call("hello", protocol=1, client="golden/1")
        await actor.call("register", name=actor.name)
    racers = [ann, bob, cat]
    everyone = [ann, bob, cat, dan]

    await solo(t, clock, ann)
    race_game = await race(t, clock, racers, everyone)
    daily_game = await daily(t, clock, ann, bob, dan)
    await boards(t, ann, bob, dan)
    await replays(t, clock, ann, bob, dan, race_game, daily_game)
    await t.collect()


async def solo(t: Transcript, clock: FrozenClock, ann: Actor) -> None:
    await t.step(f"ann deals a solo game of {SOLO_GAME}, seed {SOLO_SEED}")
    clock.advance(5)
    game = await ann.call("new_game", game=SOLO_GAME, seed=SOLO_SEED)
    await ann.refused("no_such_game", "new_game", game="chess")

    await t.step("ann moves, takes the move back, deals; a deal cannot be taken back")
    clock.advance(3)
    await ann.call("move", move=game["legal"][0])
    clock.advance(2)
    await ann.call("undo")
    clock.advance(2)
    await ann.call("move", move="deal", game=game["game"])
    await ann.refused("undo_refused", "undo")
    await ann.refused("illegal_move", "move", move="zz")

    await t.step("ann resigns the solo game; no move after that")
    clock.advance(4)
    await ann.call("resign")
    await ann.refused("game_over", "move", move="deal")


async def progress(everyone: list[Actor], name: str, moves: int) -> None:
    """Everyone in the room has had the racer's progress after their move ``moves``."""
    for actor in everyone:
        await actor.expect("progress", lambda f: f["player"] == name and f["moves"] == moves)


async def race(
    t: Transcript, clock: FrozenClock, racers: list[Actor], everyone: list[Actor]
) -> str:
    """The race and its rematch; ann's race game's id."""
    ann, bob, cat = racers
    dan = everyone[3]
    await t.step(f"ann opens a room: {GAME} on seed {RACE_SEED}, {TIME_LIMIT} s a race")
    clock.advance(60)
    code = (await ann.call("room_create", game=GAME, seed=RACE_SEED, time_limit=TIME_LIMIT))["code"]

    await t.step("bob and cat join (a code is read ignoring case), dan watches")
    clock.advance(1)
    await bob.call("room_join", code=code)
    clock.advance(1)
    await cat.call("room_join", code=code.lower())
    clock.advance(1)
    await dan.call("room_watch", code=code)
    await dan.refused("not_authenticated", "room_join", code=code)

    await t.step("bob and cat are ready; ann starts the countdown")
    clock.advance(1)
    await bob.call("ready")
    await ann.refused("not_ready", "start")
    await cat.call("ready")
    clock.advance(1)
    await ann.call("start")
    await bob.refused("not_started", "move", move="1+2")
    await cat.refused("race_started", "ready")

    await t.step("the countdown ends: the deal, the same for everyone")
    clock.advance(0.3)
    starts = [await racer.expect("race_start") for racer in racers]
    for actor in everyone:
        await actor.expect("room", lambda f: f["state"] == "racing")

    await t.step("bob plays two moves and resigns")
    reply = starts[1]
    for n in (1, 2):
        clock.advance(1.5)
        # naming no game: the one of the room bob races in (through the coroutine)
        reply = await bob.call("move", move=reply["legal"][0])
        await progress(everyone, "bob", n)
    clock.advance(1)
    await bob.call("resign")
    await bob.refused("game_over", "move", move=reply["legal"][0])

    await t.step("cat plays one move")
    clock.advance(2)
    await cat.call("move", move=starts[2]["legal"][0], game=starts[2]["game"])
    await progress(everyone, "cat", 1)

    await t.step("ann plays the first legal move until she wins")
    reply = starts[0]
    n = 0
    while reply["legal"]:
        clock.advance(1)
        # naming the game, as the terminal client does: the move path without a coroutine
        reply = await ann.call("move", move=reply["legal"][0], game=reply["game"])
        n += 1
        if reply["status"] == "playing":
            await progress(everyone, "ann", n)
    assert (reply["status"], n) == ("won", 26), "the race's premise: pick another RACE_SEED"

    await t.step("cat resigns: the race is over")
    clock.advance(3)
    await cat.call("resign")
    for actor in everyone:
        await actor.expect("results")
        await actor.expect("room", lambda f: f["state"] == "finished")

    await t.step("ann calls a rematch: a countdown to a deal drawn at random")
    clock.advance(10)
    await bob.refused("not_host", "rematch")
    await ann.call("rematch")

    await t.step("the rematch's countdown ends")
    clock.advance(0.3)
    rematch = [await racer.expect("race_start") for racer in racers]
    for actor in everyone:
        await actor.expect("room", lambda f: f["state"] == "racing")

    await t.step("bob resigns the rematch at once")
    clock.advance(1)
    await bob.call("resign")

    await t.step("the time limit passes: ann and cat time out")
    clock.advance(TIME_LIMIT)
    results = []
    for actor in everyone:
        results.append(await actor.expect("results"))
        await actor.expect("room", lambda f: f["state"] == "finished")
    table = {r["player"]: r["status"] for r in results[0]["results"]}
    assert table == {"ann": "timeout", "bob": "resigned", "cat": "timeout"}
    await check_rematch_deal(t, rematch, results[0])
    return str(starts[0]["game"])


async def check_rematch_deal(
    t: Transcript, starts: list[dict[str, Any]], results: dict[str, Any]
) -> None:
    """The rematch's deal is drawn at random: each racer's deal is checked against the
    seed its replay names (read over HTTP, outside the transcript), then left out."""
    for start in starts:
        entry = next(r for r in results["results"] if r["replay"] == start["game"])
        status, _, body = await fetch(f"{http(t.server)}/replay/{entry['replay']}.json")
        assert status == 200, body
        dealt = new_game(GAME, seed=json.loads(body)["seed"])
        assert start["view"]["piles"] == wire(dealt.view())["piles"]
        assert start["legal"] == [move.text for move in dealt.legal_moves()]
    for start in starts:
        start["view"]["piles"] = "<the deal of the rematch's seed, drawn at random: checked>"
        start["legal"] = "<its legal moves: checked>"


async def daily(t: Transcript, clock: FrozenClock, ann: Actor, bob: Actor, dan: Actor) -> str:
    """A daily won and a daily lost; ann's daily game's id."""
    await t.step(f"dan watches today's daily board of {GAME}, and its wins")
    clock.advance(60)
    await dan.call("board_watch", board=f"daily/{GAME}")
    await dan.call("board_watch", board=f"wins/{GAME}")

    await t.step("ann plays today's daily, the first legal move each time: won")
    clock.advance(30)
    reply = await ann.call("daily", game=GAME)
    game = str(reply["game"])
    while reply["legal"]:
        clock.advance(2)
        reply = await ann.call("move", move=reply["legal"][0])
    assert reply["status"] == "won", "the daily's premise: pick another SECRET"

    await t.step("bob plays today's daily, the last legal move each time: lost")
    clock.advance(30)
    reply = await bob.call("daily", game=GAME)
    while reply["legal"]:
        clock.advance(3)
        reply = await bob.call("move", move=reply["legal"][-1])
    assert reply["status"] == "lost", "the daily's premise: pick another SECRET"

    await t.step("ann asks for the daily again: practice, not ranked")
    clock.advance(5)
    await ann.call("daily", game=GAME)
    return game


async def boards(t: Transcript, ann: Actor, bob: Actor, dan: Actor) -> None:
    await t.step("board pages over the websocket")
    await dan.call("top", board=f"daily/{GAME}")
    await dan.call("top", board=f"daily/{GAME}", offset=1, limit=1)
    await dan.call("top", board=f"best/{GAME}")
    await dan.call("top", board=f"wins/{GAME}")
    await dan.call("top", board="races/all")
    await dan.call("top", board="races/week")
    await dan.refused("not_authenticated", "top", board=f"daily/{GAME}", around=True)
    await dan.refused("no_such_board", "top", board="daily/chess")
    await bob.call("top", board=f"daily/{GAME}", around=True)
    await ann.call("follow", name="BOB")
    await ann.call("top", board=f"daily/{GAME}", friends=True)
    await dan.call("board_unwatch", board=f"wins/{GAME}")

    await t.step("board pages over HTTP")
    await t.http("/")
    await t.http(f"/leaderboard/daily/{GAME}")
    await t.http(f"/leaderboard/daily/{GAME}.json")
    await t.http(f"/leaderboard/wins/{GAME}")


async def replays(
    t: Transcript,
    clock: FrozenClock,
    ann: Actor,
    bob: Actor,
    dan: Actor,
    race_game: str,
    daily_game: str,
) -> None:
    await t.step("replays: a race's is anyone's; a daily's is its player's until the reset")
    await dan.call("replay", replay=race_game)
    await dan.call("replay_view", replay=race_game, step=0)
    await dan.call("replay_view", replay=race_game, step=1)
    await dan.refused("bad_request", "replay_view", replay=race_game, step=99)
    await bob.refused("not_public", "replay", replay=daily_game)
    await ann.call("replay", replay=daily_game)
    await ann.call("replay_view", replay=daily_game, step=0)
    await bob.refused("not_public", "replay_view", replay=daily_game, step=0)
    await t.http(f"/replay/{race_game}")
    await t.http(f"/replay/{daily_game}.json")

    await t.step("the day's reset: yesterday's daily replays are public")
    clock.advance((DAY_MS - (clock.now_ms() % DAY_MS)) / 1000 + 5)
    await dan.call("replay", replay=daily_game)
    await dan.call("replay_view", replay=daily_game, step=0)
    await dan.call("replay_view", replay=daily_game, step=26)
    await t.http(f"/replay/{daily_game}")
    await t.http(f"/replay/{daily_game}.json")
    await t.http(f"/leaderboard?game={GAME}&day=2026-11-22")
    await t.http(f"/leaderboard/daily/{GAME}.json")
