"""A race's end: its time limit (ranked by cards home, then by when, across a restart),
the host leaving and the room closing when empty, and the rematch. Split from
``test_resume.py``, whose helpers it shares.
"""

from __future__ import annotations

from server.app import store
from server.app.settings import Settings

from .client import signed_in
from .conftest import Running, running
from .test_resume import (
    GAME,
    MOVES,
    VIEWS,
    WINNING_SEED,
    drained,
    entry,
    game_log,
    lobby,
    play,
    resume_of,
    start,
    stored,
)

# -- 5. time limit ----------------------------------------------------------------------


async def test_time_limit_ends_the_race_and_ranks_by_cards_home_then_by_when(
    server: Running,
) -> None:
    clients, code = await lobby(
        server.url, ["ann", "bob", "cat"], game=GAME, seed=WINNING_SEED, time_limit=10
    )
    ann, bob, cat = clients
    starts = await start(clients)
    assert starts[0]["end_at"] == starts[0]["start_at"] + 10_000
    # bob and ann both get two cards home, bob first; cat gets four
    await bob.call("move", move=MOVES[0])
    server.clock.advance(1)
    await ann.call("move", move=MOVES[0])
    await play(cat, MOVES[:2])

    server.clock.advance(11)
    # time is up, whether or not the room's timer has woken yet
    late = await cat.request("move", move=MOVES[2], game=starts[2]["game"])
    assert late["type"] == "error" and late["code"] == "game_over"
    results = (await ann.event("results"))["results"]
    assert [(r["player"], r["home"], r["status"]) for r in results] == [
        ("cat", 4, "timeout"),
        ("bob", 2, "timeout"),
        ("ann", 2, "timeout"),
    ]
    assert all(r["time_ms"] is None for r in results)
    for client in (bob, cat):
        assert (await client.event("results"))["results"] == results
    late = await ann.request("move", move=MOVES[1], game=starts[0]["game"])
    assert late["type"] == "error" and late["code"] == "game_over"
    # the time-out is in the log, so a restart rebuilds the game as ended
    log = [what for _, what in await game_log(server.redis, starts[2]["game"])]
    assert log == [*MOVES[:2], "!timeout"]
    kept = await stored(server.redis, store.results_key(code, 1))
    assert kept["results"] == results and kept["start_at"] == starts[0]["start_at"]


async def test_ranking_by_time_survives_a_restart(settings: Settings) -> None:
    """The time a racer's count of cards home last changed is rebuilt from the log as it
    was when played, undo included."""
    async with running(settings) as first:
        (ann, bob), code = await lobby(
            first.url, ["ann", "bob"], game=GAME, seed=WINNING_SEED, time_limit=10
        )
        await start([ann, bob])
        await bob.call("move", move=MOVES[0])  # bob: 2 home
        first.clock.advance(1)
        await bob.call("move", move=MOVES[1])  # bob: 4 home
        first.clock.advance(1)
        await ann.call("move", move=MOVES[0])  # ann: 2 home
        first.clock.advance(1)
        assert (await bob.call("undo"))["view"] == VIEWS[1]  # bob: back to 2, after ann

    async with running(settings) as second:
        ann = await signed_in(second.url, ann.token or "")
        bob = await signed_in(second.url, bob.token or "")
        second.clock.advance(11)
        results = await ann.event("results")
        assert results["code"] == code
        assert [(r["player"], r["home"]) for r in results["results"]] == [("ann", 2), ("bob", 2)]


# -- 6. host leaving, closing, rematch ---------------------------------------------------


async def test_host_passes_to_the_longest_present_and_the_room_closes_when_empty(
    server: Running,
) -> None:
    clients, code = await lobby(server.url, ["ann", "bob", "cat", "dan"], game=GAME)
    ann, bob, cat, dan = clients
    await bob.close()  # bob is still in the room, but not present
    await cat.event("room", lambda e: not entry(e, "bob")["present"])

    assert (await ann.call("room_leave"))["type"] == "left"
    room = await cat.event("room", lambda e: "ann" not in [p["name"] for p in e["players"]])
    assert room["host"] == "cat"
    assert [p["name"] for p in room["players"]] == ["bob", "cat", "dan"]
    joined = await ann.call("room_join", code=code)  # back in, now the newest
    assert joined["host"] == "cat"

    await cat.call("room_leave")
    room = await dan.event("room", lambda e: "cat" not in [p["name"] for p in e["players"]])
    assert room["host"] == "dan"  # present and in before ann; bob is away
    for client in (dan, ann):
        await client.call("room_leave")
    assert await server.redis.get(store.room_key(code)) is not None  # bob is still in
    bob = await signed_in(server.url, bob.token or "")
    assert resume_of(bob)["room"]["host"] == "bob"
    await bob.call("room_leave")

    assert await server.redis.get(store.room_key(code)) is None
    assert not await server.redis.sismember(store.LIVE_ROOMS, code)
    gone = await ann.request("room_join", code=code)
    assert gone["type"] == "error" and gone["code"] == "no_such_room"
    bob = await signed_in(server.url, bob.token or "")
    assert "room" not in resume_of(bob)


async def test_rematch_after_results_deals_a_new_seed_to_those_still_in(server: Running) -> None:
    clients, code = await lobby(server.url, ["ann", "bob", "cat"], game=GAME, seed=WINNING_SEED)
    ann, bob, cat = clients
    first = await start(clients)
    await bob.call("resign")
    await cat.call("resign")
    assert (await play(ann, MOVES))["status"] == "won"
    for client in clients:
        await client.event("results")
    refused = await ann.request("start")
    assert refused["type"] == "error"
    await cat.call("room_leave")
    refused = await bob.request("rematch")
    assert refused["type"] == "error" and refused["code"] == "not_host"

    again = await ann.call("rematch")
    assert again["race"] == 2 and again["state"] == "countdown"
    assert [p["name"] for p in again["players"]] == ["ann", "bob"]
    second = [await c.event("race_start", lambda e: e["race"] == 2) for c in (ann, bob)]
    assert second[0]["view"] == second[1]["view"] != first[0]["view"]
    assert {s["game"] for s in second}.isdisjoint(s["game"] for s in first)
    assert second[0]["start_at"] > first[0]["start_at"]
    room = await stored(server.redis, store.room_key(code))
    assert room["race"] == 2 and room["seed"] != WINNING_SEED
    assert sorted(r["name"] for r in room["racers"]) == ["ann", "bob"]
    await drained(cat)
    assert not [f for f in cat.frames if f.get("race") == 2]
    await ann.call("move", move=second[0]["legal"][0])
