"""Room locks: no request waits on one room while holding another, and no request waits on
a room for ever."""

from __future__ import annotations

import asyncio
from typing import Any

import hypothesis
from hypothesis import HealthCheck, given
from hypothesis import strategies as st
from redis import Redis as SyncRedis

from server.app import store
from server.app.settings import Settings

from .client import Client, player
from .conftest import Running, running, until, with_settings


async def room_of(client: Client, code: str | None = None) -> str:
    if code is None:
        return str((await client.call("room_create", game="nestor"))["code"])
    await client.call("room_join", code=code)
    return code


async def test_crossed_joins_both_go_through(server: Running) -> None:
    """ann (in Y) joins X while bob (in X) joins Y, with X's lock busy a moment: before,
    ann held X's lock waiting for Y's (to leave Y) while bob held Y's waiting for X's."""
    ann, bob, cat, dan = [await player(server.url, n) for n in ("ann", "bob", "cat", "dan")]
    y = await room_of(ann)
    await room_of(cat, y)  # so that Y outlives ann's leaving it
    x = await room_of(bob)
    await room_of(dan, x)

    lock = server.service.rooms[x].lock
    await lock.acquire()  # someone else's change to X, under way
    try:
        joins = [
            asyncio.ensure_future(ann.request("room_join", code=x, timeout=20)),
            asyncio.ensure_future(bob.request("room_join", code=y, timeout=20)),
        ]
        # both requests are in: each has asked for X's lock (ann to join it, bob to
        # leave it), one of them holding Y's as the code was
        await until(lambda: len(lock._waiters or ()) >= 2)
    finally:
        lock.release()
    ann_joined, bob_joined = await asyncio.gather(*joins)
    assert (ann_joined["type"], ann_joined["code"]) == ("room", x)
    assert (bob_joined["type"], bob_joined["code"]) == ("room", y)
    assert {p["name"] for p in ann_joined["players"]} >= {"ann", "dan"}
    assert {p["name"] for p in bob_joined["players"]} >= {"bob", "cat"}
    assert "ann" not in {p["name"] for p in bob_joined["players"]}
    # and the rooms still answer
    assert (await cat.call("ready"))["code"] == y
    assert (await dan.call("ready"))["code"] == x


async def test_a_room_busy_past_the_lock_wait_answers_room_busy(settings: Settings) -> None:
    async with running(with_settings(settings, lock_wait=0.3)) as server:
        ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
        code = await room_of(ann)
        await room_of(bob, code)
        lock = server.service.rooms[code].lock
        await lock.acquire()  # held past the wait: as by a change stuck on Redis
        try:
            reply = await bob.request("ready", timeout=10)
        finally:
            lock.release()
        assert reply["type"] == "error" and reply["code"] == "room_busy", reply
        assert "try again" in reply["message"]
        ready = await bob.call("ready")  # the room answers once it is free
        assert [p["ready"] for p in ready["players"]] == [False, True]


# -- random interleavings ------------------------------------------------------------------

PLAYERS = 4
#: every player sends a request in every round, most of them joins (crossing joins among
#: them), while changes to some rooms are under way ("hold", as on a slow Redis)
ACTIONS = ("create", "leave", "watch", "ready", "unready", "start", "rematch", "join", "join")
requests = st.tuples(st.sampled_from(ACTIONS), st.integers(0, 2))
rounds = st.lists(
    st.tuples(
        st.lists(requests, min_size=PLAYERS, max_size=PLAYERS),
        st.lists(st.integers(0, 2), max_size=2),
    ),
    min_size=1,
    max_size=8,
)
Plan = list[tuple[list[tuple[str, int]], list[int]]]


def request_of(action: str, target: int, codes: list[str]) -> tuple[str, dict[str, Any]]:
    code = codes[target % len(codes)] if codes else "NOROOM"
    requests: dict[str, tuple[str, dict[str, Any]]] = {
        "create": ("room_create", {"game": "nestor"}),
        "join": ("room_join", {"code": code}),
        "leave": ("room_leave", {}),
        "watch": ("room_watch", {"code": code}),
        "ready": ("ready", {"ready": True}),
        "unready": ("ready", {"ready": False}),
        "start": ("start", {}),
        "rematch": ("resign", {}) if target % 2 else ("rematch", {}),
    }
    return requests[action]


async def held(lock: asyncio.Lock) -> dict[str, Any]:
    async with lock:
        await asyncio.sleep(0.02)
    return {"type": "held"}


async def interleaved(settings: Settings, plan: Plan) -> None:
    SyncRedis.from_url(settings.redis_url or "").flushall()
    async with running(settings) as server:
        clients = [await player(server.url, f"p{n}") for n in range(PLAYERS)]
        codes: list[str] = []
        for batch, holds in plan:
            sent = []
            for target in holds:
                room = server.service.rooms.get(codes[target % len(codes)]) if codes else None
                if room is not None:
                    sent.append(("hold", held(room.lock)))
            for who, (action, target) in enumerate(batch):
                kind, fields = request_of(action, target, codes)
                sent.append((kind, clients[who].request(kind, timeout=15, **fields)))
            replies = await asyncio.gather(*(reply for _, reply in sent))
            for (kind, _), reply in zip(sent, replies, strict=True):
                # every request answered, none failing inside the server
                assert reply["type"] != "error" or reply["code"] not in (
                    "internal_error",
                    "room_busy",
                ), (kind, reply)
                if kind == "room_create":
                    codes.append(reply["code"])
        # a player races in one room at most, the one their record names
        member_of: dict[str, list[str]] = {}
        for code in codes:
            raw = await server.redis.get(store.room_key(code))
            if raw is None:
                continue
            for racer in store.unpack(raw)["racers"]:
                if not racer["left"]:
                    member_of.setdefault(racer["pid"], []).append(code)
        for pid, rooms in member_of.items():
            assert len(rooms) == 1, (pid, rooms)
            named = await server.redis.hget(store.player_key(pid), "room")
            assert isinstance(named, bytes) and named.decode() == rooms[0]


@hypothesis.settings(
    max_examples=100,  # (a server started for each: about a second each on one core)
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plan=rounds)
def test_random_interleavings_of_room_requests_are_all_answered(
    settings: Settings, plan: Plan
) -> None:
    asyncio.run(interleaved(with_settings(settings, countdown=0.05, lock_wait=5.0), plan))
