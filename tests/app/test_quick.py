"""The quick race end to end: real servers, real Redis, real websocket clients. Players
matched into rooms by rating, two processes sharing one queue, a lone player racing
ghosts after the wait, leaving a quick race as resigning (docs/protocol.md, "The quick
race")."""

from __future__ import annotations

import asyncio
from collections import Counter

from server.app import store
from server.app.settings import Settings
from server.app.store.keys import QUICK_WAITING, quick_joined_key, quick_ratings_key, ratings_key
from server.engine import new_game

from .client import Client, player, racing, signed_in
from .conftest import ManualClock, Running, running, until, with_settings
from .test_resume import resume_of

GAME = "gate"


def quick_settings(settings: Settings) -> Settings:
    """The matcher looks often (the tests wait on what it does, not on its pauses)."""
    return with_settings(settings, quick_tick=0.05)


async def rated(server: Running, name: str, ordinal: float) -> tuple[Client, str]:
    """A registered player whose rating in The Gate shows ``ordinal``, and their id."""
    client = await Client.connect(server.url)
    await client.call("hello", protocol=1)
    reply = await client.call("register", name=name)
    client.token, client.name = reply["token"], name
    pid = reply["player"]["id"]
    rating = {"mu": ordinal + 3.0, "sigma": 1.0, "n": 10}
    await server.redis.hset(ratings_key(GAME), pid, store.pack(rating))
    return client, pid


async def matched_pair(server: Running) -> tuple[Client, Client]:
    """ann (10) and bob (11) in the queue of The Gate, the clock moved on to their match."""
    ann, _ = await rated(server, "ann", 10.0)
    bob, _ = await rated(server, "bob", 11.0)
    await ann.call("quick", game=GAME)
    await bob.call("quick", game=GAME)
    server.clock.advance(3)
    return ann, bob


async def test_ten_players_are_matched_into_rooms_by_rating(settings: Settings) -> None:
    async with running(quick_settings(settings)) as server:
        low = [await rated(server, f"low{n}", 10 + n / 2) for n in range(5)]
        high = [await rated(server, f"high{n}", 40 + n / 2) for n in range(5)]
        for client, _ in [*low, *high]:
            waiting = await client.call("quick", game=GAME)
            assert waiting["type"] == "quick_waiting" and waiting["window"] == 3.0
        assert await server.redis.zcard(quick_joined_key(GAME)) == 10
        server.clock.advance(3)  # the longest waiting has gathered long enough
        matched = {c.name: await c.event("quick_matched") for c, _ in [*low, *high]}
        rooms = {name: m["code"] for name, m in matched.items()}
        assert len({rooms[c.name] for c, _ in low}) == 1
        assert len({rooms[c.name] for c, _ in high}) == 1
        assert rooms["low0"] != rooms["high0"]
        assert sorted(matched["low3"]["players"]) == [f"low{n}" for n in range(5)]
        assert await server.redis.zcard(quick_joined_key(GAME)) == 0
        assert not await server.redis.hlen(QUICK_WAITING)
        # the race starts by itself, the same deal for the room, a fresh one per room
        starts = {c.name: await c.event("race_start") for c, _ in [*low, *high]}
        views = {n: s["view"]["piles"] for n, s in starts.items()}
        assert all(views[f"low{n}"] == views["low0"] for n in range(5))
        assert views["low0"] != views["high0"]
        room = await low[0][0].event("room", lambda e: e["state"] == "racing")
        assert room["quick"] is True and len(room["players"]) == 5
        # no host's actions, and nobody joins by the code
        host = next(c for c, _ in low if c.name == room["host"])
        refused = await host.request("rematch")
        assert refused["code"] == "quick_room"
        outsider = await player(server.url, "zed")
        joined = await outsider.request("room_join", code=rooms["low0"])
        assert joined["code"] == "quick_room"


async def test_two_processes_share_one_queue(settings: Settings) -> None:
    """Sixteen players of one rating, half on each process, both matchers running: each
    is matched once, into one of two full rooms."""
    quick = quick_settings(settings)
    async with running(quick) as one, running(quick) as two:
        clients = []
        for n in range(16):
            client, _ = await rated(one if n % 2 else two, f"p{n}", 20.0)
            await client.call("quick", game=GAME)
            clients.append(client)
        one.clock.advance(3)
        two.clock.advance(3)
        matched = [await c.event("quick_matched") for c in clients]
        sizes = Counter(m["code"] for m in matched)
        assert sorted(sizes.values()) == [8, 8]
        for m in matched:
            assert len(set(m["players"])) == 8
        members = Counter(
            name
            for code in sizes
            for name in next(m["players"] for m in matched if m["code"] == code)
        )
        assert set(members.values()) == {1} and len(members) == 16
        starts = [await c.event("race_start") for c in clients]
        assert {s["code"] for s in starts} == set(sizes)
        for client in clients:  # nobody was matched twice
            assert not [e for e in client.events if e.get("type") == "quick_matched"]


async def test_a_match_taken_up_and_told_at_once_is_told_once(settings: Settings) -> None:
    """A fresh-clone run on a loaded machine: a player was told ``quick_matched`` twice.
    Their process took the match's room up (``find_lost``: missing from the queue at two
    passes) while the match's notice came on the bus, and both told them. Here the two
    at once, on ann's process as it was before it heard of the match (made on bob's)."""
    quick = quick_settings(settings)
    async with running(quick) as one, running(quick) as two:
        ann, ann_pid = await rated(two, "ann", 20.0)
        bob, _ = await rated(one, "bob", 20.0)
        for client in (ann, bob):
            await client.call("quick", game=GAME)
        one.clock.advance(3)
        first = await ann.event("quick_matched")
        await ann.event("room")
        here = two.service.quick
        # (as the process was before it heard: ann waiting, in no room, none held here)
        here.waiting[ann_pid] = (GAME, first["start_at"] - 10_000, 3.0)
        here.room_of.pop(ann_pid)
        held = two.service.host.rooms.get(first["code"])
        if held is not None:
            two.service.host.unload(held)
        data = {"pid": ann_pid, "code": first["code"], "joined": 0, "rating": 20.0}
        told = {**data, "game": GAME, "players": first["players"], "start_at": first["start_at"]}
        await asyncio.gather(here.matched_here(data), here.matched_here(told))
        await ann.call("ping")
        assert len([e for e in ann.events if e.get("type") == "quick_matched"]) == 1


async def test_a_lone_player_races_ghosts_of_a_recorded_race(settings: Settings) -> None:
    async with running(quick_settings(settings)) as server:
        ann, _ = await rated(server, "ann", 12.0)
        bob, _ = await rated(server, "bob", 14.0)
        await racing(ann, bob)  # The Gate, seed 3
        await ann.call("resign")
        await bob.call("resign")
        await ann.event("results")
        cat, _ = await rated(server, "cat", 13.0)
        waiting = await cat.call("quick", game=GAME)
        assert waiting["ghosts_at"] == waiting["since"] + 20_000
        server.clock.advance(20)
        ghosts = await cat.event("quick_ghosts")
        assert sorted(g["name"] for g in ghosts["ghosts"]) == ["ann", "bob"]
        assert all("replay" not in g for g in ghosts["ghosts"])
        start = await cat.event("quick_ghosts_start")
        assert start["game"] == ghosts["game"]
        assert start["view"]["piles"] == new_game(GAME, seed=3).view()["piles"]
        await cat.call("resign", game=start["game"])
        result = await cat.event("quick_ghosts_result")
        assert sorted(e["player"] for e in result["table"]) == ["ann", "bob", "cat"]
        assert result["rank"] in (1, 2, 3) and result["beaten"] == 3 - result["rank"]
        assert result["you"]["status"] == "resigned"
        assert [e["taken_ms"] for e in result["table"] if e["ghost"]] == [0, 0]
        # raced once: never again; with no other race recorded, a fresh deal alone
        await cat.call("quick", game=GAME)
        server.clock.advance(20)
        alone = await cat.event("quick_ghosts")
        assert alone["ghosts"] == []
        # one who raced that race is never given it: ann, alone, races no ghost of it
        await ann.call("quick", game=GAME)
        server.clock.advance(20)
        assert (await ann.event("quick_ghosts"))["ghosts"] == []


async def test_leaving_a_quick_race_is_resigning(settings: Settings) -> None:
    async with running(quick_settings(settings)) as server:
        ann, bob = await matched_pair(server)
        await ann.event("race_start")
        await bob.event("race_start")
        await bob.call("room_leave")
        gone = await ann.event("progress", lambda e: e["player"] == "bob")
        assert gone["status"] == "resigned"
        await ann.call("resign")
        results = await ann.event("results")
        table = {r["player"]: r for r in results["results"]}
        assert table["bob"]["status"] == "resigned" and table["bob"]["resigned"]


async def test_leaving_in_the_countdown_is_resigning(settings: Settings) -> None:
    """Matched is in the race: leaving before the start resigns as leaving after it."""
    async with running(with_settings(quick_settings(settings), countdown=2.0)) as server:
        ann, bob = await matched_pair(server)
        await bob.event("quick_matched")
        await bob.call("room_leave")
        await ann.event("race_start")
        await ann.call("resign")
        results = await ann.event("results")
        table = {r["player"]: r for r in results["results"]}
        assert set(table) == {"ann", "bob"}
        assert table["bob"]["status"] == "resigned"


async def test_leaving_the_queue_and_going_away(settings: Settings) -> None:
    async with running(quick_settings(settings)) as server:
        ann, _ = await rated(server, "ann", 10.0)
        bob, _ = await rated(server, "bob", 10.0)
        await ann.call("quick", game=GAME)
        left = await ann.call("quick_leave")
        assert left["type"] == "quick_left" and left["left"] is True
        again = await ann.call("quick_leave")
        assert again["left"] is False
        await bob.call("quick", game=GAME)
        await bob.close()
        await until(lambda: not server.service.quick.waiting, timeout=10)
        async with asyncio.timeout(10):  # (the take is on its way)
            while await server.redis.zcard(quick_joined_key(GAME)):
                await asyncio.sleep(0.02)
        refused = await ann.request("quick", game="no-such-game")
        assert refused["code"] == "no_such_game"


async def test_a_queue_lost_by_redis_takes_its_waiters_back(settings: Settings) -> None:
    """Redis comes back without the queue (its data lost): the process whose player waits
    puts them back, their wait's start kept, and they race ghosts at its end all the same."""
    async with running(quick_settings(settings)) as server:
        ann, pid = await rated(server, "ann", 10.0)
        waiting = await ann.call("quick", game=GAME)
        await server.redis.delete(quick_joined_key(GAME), quick_ratings_key(GAME), QUICK_WAITING)
        async with asyncio.timeout(10):  # (a few of the matcher's passes)
            while await server.redis.zscore(quick_joined_key(GAME), pid) is None:
                await asyncio.sleep(0.02)
        assert await server.redis.zscore(quick_joined_key(GAME), pid) == waiting["since"]
        server.clock.advance(20)
        assert (await ann.event("quick_ghosts"))["ghosts"] == []


async def test_one_who_joined_a_room_meanwhile_is_left_out_of_the_match(
    settings: Settings,
) -> None:
    """A client that makes a room while it waits has chosen that room: the match goes on
    without it."""
    async with running(quick_settings(settings)) as server:
        ann, _ = await rated(server, "ann", 10.0)
        bob, _ = await rated(server, "bob", 10.5)
        cat, _ = await rated(server, "cat", 11.0)
        for client in (ann, bob, cat):
            await client.call("quick", game=GAME)
        await cat.call("room_create", game=GAME)
        server.clock.advance(3)
        matched = await ann.event("quick_matched")
        assert sorted(matched["players"]) == ["ann", "bob"]
        assert (await bob.event("quick_matched"))["code"] == matched["code"]
        assert not await server.redis.zcard(quick_joined_key(GAME))


async def test_starting_anything_else_leaves_the_queue(settings: Settings) -> None:
    """One thing at a time: a solo game, a daily, a challenge taken or a room made while
    waiting takes the player out of the queue at once (a custom client can ask for them
    while it waits); asking what a daily would do, or a refused request, does not."""
    async with running(quick_settings(settings)) as server:
        names = ("ann", "bob", "cat", "dan", "eve", "fay")
        players = {n: await rated(server, n, 10.0 + i / 10) for i, n in enumerate(names)}
        for client, _ in players.values():
            await client.call("quick", game=GAME)

        async def waiting(name: str) -> bool:
            pid = players[name][1]
            return await server.redis.zscore(quick_joined_key(GAME), pid) is not None

        ann, _bob, cat, dan, eve, fay = (players[n][0] for n in names)
        assert (await cat.request("new_game", game="no-such-game"))["code"] == "no_such_game"
        await cat.call("daily", game=GAME, start=False)
        assert await waiting("cat") and players["cat"][1] in server.service.quick.waiting
        await cat.call("new_game", game=GAME)
        await dan.call("daily", game=GAME)
        zed = await player(server.url, "zed")  # (a challenge for eve: zed's game resigned)
        gid = (await zed.call("new_game", game=GAME, seed=7))["game"]
        await zed.call("resign", game=gid)
        challenge = await zed.call("challenge_create", replay=gid)
        await eve.call("challenge_take", challenge=challenge["challenge"]["id"])
        await fay.call("room_create", game=GAME)
        for name in ("cat", "dan", "eve", "fay"):
            assert not await waiting(name), name
        assert await waiting("ann") and await waiting("bob")

        server.clock.advance(3)
        matched = await ann.event("quick_matched")
        assert sorted(matched["players"]) == ["ann", "bob"]
        assert not await server.redis.zcard(quick_joined_key(GAME))


async def test_a_ghost_race_is_taken_up_again_after_a_reconnect_and_kept_as_a_replay(
    settings: Settings,
) -> None:
    """A lone player racing ghosts who reconnects (to another process, before the start
    and during the race) finds their ghost race in ``resume``; its start is sent wherever
    they are; at its end the game is kept as a replay, and nothing is left to resume."""
    shared = quick_settings(settings)
    async with running(shared) as one, running(shared) as two:
        cat, _ = await rated(one, "cat", 13.0)
        await cat.call("quick", game=GAME)
        one.clock.advance(20)
        ghosts = await cat.event("quick_ghosts")
        gid = ghosts["game"]
        await cat.close()

        back = await signed_in(two.url, cat.token or "")
        resumed = back.welcome["resume"]["quick"]  # type: ignore[attr-defined]
        assert resumed["game"] == gid and resumed["rules"] == GAME
        assert resumed["ghosts"] == ghosts["ghosts"] and resumed["start_at"] == ghosts["start_at"]
        start = await back.event("quick_ghosts_start")  # armed again where cat is now
        assert start["game"] == gid
        moved = await back.call("move", game=gid, move=start["legal"][0])
        await back.close()

        again = await signed_in(one.url, cat.token or "")
        resumed = again.welcome["resume"]["quick"]  # type: ignore[attr-defined]
        assert resumed["game"] == gid and resumed["started"]["view"] == moved["view"]
        assert resumed["started"]["legal"] == moved["legal"]
        await again.call("resign", game=gid)
        result = await again.event("quick_ghosts_result")
        assert result["replay"] == gid
        replay = (await again.call("replay", replay=gid))["replay"]
        assert replay["player"] == "cat" and replay["result"]["status"] == "resigned"
        assert [move for _, move in replay["moves"]] == [start["legal"][0], "!resign"]
        await again.close()
        last = await signed_in(two.url, cat.token or "")
        assert "quick" not in last.welcome["resume"]  # type: ignore[attr-defined]


async def test_a_ghost_race_refuses_what_it_refuses_in_its_own_words(settings: Settings) -> None:
    """An outside tester: before its start, a quick ghost race's move was refused "wait
    for challenge_start" (the event that comes is ``quick_ghosts_start``), and a hint
    "the game this challenge races was played without hints" (a ghost race has hints
    off, whatever its race had)."""
    async with running(with_settings(quick_settings(settings), countdown=30.0)) as server:
        cat, _ = await rated(server, "cat", 13.0)
        await cat.call("quick", game=GAME)
        server.clock.advance(20)
        ghosts = await cat.event("quick_ghosts")
        early = await cat.request("move", game=ghosts["game"], move="x")
        assert early["code"] == "not_started", early
        assert "wait for quick_ghosts_start" in early["message"], early
        hint = await cat.request("hint", game=ghosts["game"])
        assert hint["code"] == "hints_off", hint
        assert hint["message"] == "hints are off in a race against ghosts", hint


async def test_a_wait_kept_through_a_restart_is_taken_up_at_sign_in(settings: Settings) -> None:
    """An operator's rolling restart: a waiter's process stops (its waiters stay in the
    queue, to come back), and they sign in again on a new process without sending
    ``quick`` (a bot, a client of another's making). The new process did not know they
    waited: the matcher dropped them as connected to a stopped process, and nothing was
    said. Now their sign-in takes the wait up: ``welcome.resume.quick_waiting``, their
    wait's start kept, and they are matched with one who comes later."""
    quick = quick_settings(settings)
    async with running(quick) as first:
        ann, _ = await rated(first, "ann", 20.0)
        token = ann.token or ""
        waited = await ann.call("quick", game=GAME)
        first.service.ctx.stopping = True  # (as SIGTERM's drain: the queue kept)
    async with running(quick) as second:
        ann = await signed_in(second.url, token)
        resumed = resume_of(ann).get("quick_waiting")
        assert resumed is not None, resume_of(ann)
        assert resumed["game"] == GAME and resumed["since"] == waited["since"]
        bob, _ = await rated(second, "bob", 20.0)
        await bob.call("quick", game=GAME)
        second.clock.advance(3)
        matched = await ann.event("quick_matched")
        assert sorted(matched["players"]) == ["ann", "bob"]


async def test_a_waiter_back_within_a_minute_keeps_their_time_in_the_queue(
    settings: Settings,
) -> None:
    """A phone's link that drops while its player waits takes them out of the queue; back
    within a minute, they wait from when they first joined (it counted afresh: on a link
    that dropped every 15 s the ghosts, 20 s on, never came). Left by choice, or back
    later, they wait from then."""
    clock = ManualClock()
    async with running(with_settings(quick_settings(settings), clock=clock)) as server:
        ann, _ = await rated(server, "ann", 10.0)
        token = ann.token
        assert token is not None
        first = await ann.call("quick", game=GAME)
        await ann.close()
        await until(lambda: not server.service.quick.waiting, timeout=10)
        clock.advance(15)
        ann = await signed_in(server.url, token)
        again = await ann.call("quick", game=GAME)
        assert again["since"] == first["since"]
        assert again["ghosts_at"] == first["ghosts_at"]
        # left by choice: from now
        await ann.call("quick_leave")
        clock.advance(1)
        fresh = await ann.call("quick", game=GAME)
        assert fresh["since"] > first["since"]
        # gone longer than a minute: from now too
        await ann.close()
        await until(lambda: not server.service.quick.waiting, timeout=10)
        clock.advance(61)
        ann = await signed_in(server.url, token)
        later = await ann.call("quick", game=GAME)
        assert later["since"] > fresh["since"]


async def test_one_who_left_a_quick_race_waits_for_another_at_once(settings: Settings) -> None:
    """Left by ``room_leave``, the match's mark on the player stayed, and their next
    ``quick`` waited for a match's room on its way: 5 s of the server's clock (for ever
    on the tests' clock, which moves only when told), their wait begun that much late."""
    async with running(quick_settings(settings)) as server:
        ann, bob = await matched_pair(server)
        await ann.event("race_start")
        await bob.event("race_start")
        clock = server.clock
        assert isinstance(clock, ManualClock)
        clock.freeze()  # (so that such a wait never ends by itself)
        try:
            for leaver in (bob, ann):  # (bob asks while ann still races, then ann)
                await leaver.call("room_leave")
                again = await leaver.request("quick", game=GAME, timeout=8)
                assert again["type"] == "quick_waiting", again
                await leaver.call("quick_leave")
        finally:
            clock.frozen_ms = None  # (a wait left over ends, and the server can stop)


async def test_the_wait_says_the_rating_as_every_table_shows_it(settings: Settings) -> None:
    """``rating`` is to two decimals, for the window; rounded again it could say another
    figure than the profile (an ordinal of 0.50498 sent as 0.5: the terminal said 0,
    the profile 1). ``rating_shown`` is the whole number shown everywhere."""
    async with running(quick_settings(settings)) as server:
        ann, pid = await rated(server, "ann", 0.0)
        exact = {"mu": 0.50498 + 3.0, "sigma": 1.0, "n": 10}
        await server.redis.hset(ratings_key(GAME), pid, store.pack(exact))
        waiting = await ann.call("quick", game=GAME)
        assert waiting["rating"] == 0.5 and waiting["rating_shown"] == 1
        profile = await ann.call("profile", name="ann")
        assert [r["rating"] for r in profile["ratings"] if r["game"] == GAME] == [1]
