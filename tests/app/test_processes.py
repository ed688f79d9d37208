"""Several server processes on one Redis: a race whose racers sit on different processes
works as on one, a sign-in elsewhere signs the first connection out, and a process killed
mid-race loses no acknowledged move and stops no race."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any, cast

import pytest

from server.app import store
from server.app.settings import Settings
from server.app.store.games import Games

from .client import Client, player, signed_in
from .conftest import ManualClock, Running, ServerProcess, running, with_settings


def seats(room: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {p["name"]: p for p in room["players"]}


async def test_a_race_across_two_processes(settings: Settings) -> None:
    await race_across_two_processes(settings)


async def race_across_two_processes(settings: Settings) -> None:
    """Lobby, countdown, progress, a spectator, results and a rematch, with the host on
    one process and the other racer and the spectator on another."""
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        bob = await player(two.url, "bob")
        cat = await Client.connect(two.url)  # a spectator, on bob's process
        await cat.call("hello", protocol=1)
        lobby = await ann.call("room_create", game="gate", seed=3)
        code = lobby["code"]
        # bob joins through the other process: ann hears of it from there
        await bob.call("room_join", code=code)
        joined = await ann.event("room", lambda e: "bob" in seats(e))
        assert seats(joined)["bob"]["present"] and not seats(joined)["bob"]["ready"]
        watched = await cat.call("room_watch", code=code)
        assert set(seats(watched)) == {"ann", "bob"}
        counted = await ann.event("room", lambda e: e["watchers"] == 1)
        assert counted["code"] == code
        await bob.call("ready")
        await ann.event("room", lambda e: seats(e)["bob"]["ready"])
        await ann.call("start")
        # the countdown runs in both processes; each racer's start comes from their own
        ann_start = await ann.event("race_start")
        bob_start = await bob.event("race_start")
        assert ann_start["view"] == bob_start["view"]
        assert ann_start["start_at"] == bob_start["start_at"]
        assert ann_start["game"] != bob_start["game"]
        # ann's moves reach bob and the spectator, on the other process
        first = ann_start["legal"][0]
        await ann.call("move", move=first)
        seen = await bob.event("progress", lambda e: e["player"] == "ann")
        assert seen["moves"] == 1
        assert (await cat.event("progress", lambda e: e["player"] == "ann"))["moves"] == 1
        await bob.call("move", move=bob_start["legal"][0])
        assert (await ann.event("progress", lambda e: e["player"] == "bob"))["moves"] == 1
        # the race ends when both are done, wherever that is seen
        await bob.call("resign")
        await ann.call("resign")
        results = (await ann.event("results"))["results"]
        assert (await bob.event("results"))["results"] == results
        assert (await cat.event("results"))["results"] == results
        assert {r["player"]: (r["status"], r["moves"]) for r in results} == {
            "ann": ("resigned", 1),
            "bob": ("resigned", 1),
        }
        assert one.service.bus.received > 0 and two.service.bus.received > 0
        finished = await bob.event("room", lambda e: e["state"] == "finished")
        assert finished["results"] == results
        # and a rematch called on one process deals on both
        await ann.call("rematch")
        again = await bob.event("race_start", lambda e: e["race"] == 2)
        assert (await ann.event("race_start", lambda e: e["race"] == 2))["view"] == again["view"]


async def test_signing_in_through_another_process_signs_out_the_first(settings: Settings) -> None:
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        game = await ann.call("new_game", game="gate", seed=3)
        await ann.call("move", move=game["legal"][0])
        twin = await signed_in(two.url, ann.token or "")
        out = await ann.event("signed_out")
        assert out["reason"] == (
            "signed in again on this device (unnamed device), on another connection"
        )
        assert out["cause"] == "replaced"
        assert (await ann.closed())[0] == 4001
        # the game goes on through the second process, from the acknowledged move
        resumed = twin.welcome["resume"]["solo"]  # type: ignore[attr-defined]
        assert resumed["game"] == game["game"] and resumed["view"]["moves"] == 1
        await twin.call("move", move=resumed["legal"][0])


def three(redis_url: str, tmp_path: Path) -> list[ServerProcess]:
    out = []
    for n in range(3):
        folder = tmp_path / f"p{n}"
        folder.mkdir()
        out.append(
            ServerProcess(
                redis_url,
                folder,
                PATIENCE_COUNTDOWN="1.0",
                PATIENCE_SWEEP_INTERVAL="0.5",
                PATIENCE_SECRET="s3cret",
            )
        )
    return out


async def test_a_race_survives_killed_processes(redis_url: str, tmp_path: Path) -> None:
    procs = three(redis_url, tmp_path)
    try:
        for proc in procs:
            await asyncio.to_thread(proc.start)
        p1, p2, p3 = procs
        ann = await player(p1.url, "ann")
        bob = await player(p2.url, "bob")
        cat = await player(p3.url, "cat")
        code = (await ann.call("room_create", game="gate", seed=3))["code"]
        for racer in (bob, cat):
            await racer.call("room_join", code=code)
            await racer.call("ready")
        await ann.call("start")
        # the host's process dies during the countdown: the race starts all the same
        await asyncio.to_thread(p1.stop, signal.SIGKILL)
        bob_start = await bob.event("race_start")
        cat_start = await cat.event("race_start")
        assert bob_start["view"] == cat_start["view"]
        # ann comes back through cat's process, and finds her race
        ann = await signed_in(p3.url, ann.token or "")
        race = ann.welcome["resume"]["race"]  # type: ignore[attr-defined]
        assert race["code"] == code and race["view"] == bob_start["view"]
        await ann.call("move", move=race["legal"][0])
        await bob.call("move", move=bob_start["legal"][0])
        await cat.call("move", move=cat_start["legal"][0])
        await bob.event("progress", lambda e: e["player"] == "cat")
        # cat's process (ann's too now) dies mid-race: both come back through bob's
        await asyncio.to_thread(p3.stop, signal.SIGKILL)
        ann = await signed_in(p2.url, ann.token or "")
        cat = await signed_in(p2.url, cat.token or "")
        for client in (ann, cat):
            resumed = client.welcome["resume"]  # type: ignore[attr-defined]
            assert resumed["race"]["view"]["moves"] == 1  # the acknowledged move is there
            assert resumed["room"]["state"] == "racing"
        for client in (ann, bob, cat):
            await client.call("resign")
        results = (await bob.event("results"))["results"]
        assert sorted((r["player"], r["moves"], r["status"]) for r in results) == [
            ("ann", 1, "resigned"),
            ("bob", 1, "resigned"),
            ("cat", 1, "resigned"),
        ]
        assert (await ann.event("results"))["results"] == results
    finally:
        for proc in procs:
            if proc.process is not None:
                proc.stop(signal.SIGKILL)


async def test_a_move_whose_progress_died_with_its_process_is_told_on_the_racers_return(
    redis_url: str, tmp_path: Path
) -> None:
    """A process killed after acknowledging a move but before its progress tick took the
    news with it: the racers on other processes kept the racer one move behind until
    they moved again. The racer's return (here through another process) tells the room
    how the racer's game stands in its log."""
    (tmp_path / "one").mkdir()
    (tmp_path / "two").mkdir()
    one = ServerProcess(redis_url, tmp_path / "one", PATIENCE_SECRET="s3cret")
    # (progress held back a minute: the window between a move's acknowledgement and its
    # progress event, 0.1 s by default, made wide enough to kill the process in)
    two = ServerProcess(
        redis_url, tmp_path / "two", PATIENCE_SECRET="s3cret", PATIENCE_PROGRESS_INTERVAL="60"
    )
    try:
        for proc in (one, two):
            await asyncio.to_thread(proc.start)
        ann, bob = await player(one.url, "ann"), await player(two.url, "bob")
        code = (await ann.call("room_create", game="gate", seed=3))["code"]
        await bob.call("room_join", code=code)
        await bob.call("ready")
        await ann.call("start")
        await ann.event("race_start")
        start = await bob.event("race_start")
        moved = await bob.call("move", move=start["legal"][0])
        assert moved["view"]["moves"] == 1  # acknowledged: in Redis
        await asyncio.to_thread(two.stop, signal.SIGKILL)
        bob = await signed_in(one.url, bob.token or "")
        told = await ann.event("progress", lambda e: e["player"] == "bob", timeout=5)
        assert told["moves"] == 1 and told["status"] == "playing"
    finally:
        for proc in (one, two):
            if proc.process is not None:
                proc.stop(signal.SIGKILL)


async def test_a_dead_processs_watchers_leave_the_count_once_their_mark_lapses(
    server: Running,
) -> None:
    """A process killed with a watcher on it leaves its count in Redis until the count's
    time runs out; the rooms it counted in said "2 watching" long after (four minutes,
    till something else in the room changed), since nothing told them it had lapsed.
    Housekeeping now tells a room whose watchers or presence it shows have changed."""
    ann = await player(server.url, "ann")
    code = (await ann.call("room_create", game="gate"))["code"]
    # what a process killed with one watcher of the room leaves behind: its count, with
    # the time it stands till (its housekeeping would have renewed it)
    until = server.clock.now_ms() + 5_000
    await server.redis.hset(store.watchers_key(code), "dead-process", f"1 {until}")
    bob = await player(server.url, "bob")
    await bob.call("room_join", code=code)  # (any change in the room tells its count)
    await ann.event("room", lambda e: e["watchers"] == 1 and len(e["players"]) == 2)
    server.clock.advance(10)
    await server.service.housekeeping.run_once()
    told = await ann.event("room", lambda e: e["watchers"] == 0, timeout=5)
    assert [p["name"] for p in told["players"]] == ["ann", "bob"]
    # and a pass that finds nothing changed tells nothing
    await server.service.housekeeping.run_once()
    with pytest.raises(TimeoutError):
        await ann.event("room", timeout=0.5)


async def timed_race(host: Running, guest: Running) -> tuple[str, Client, Client]:
    """ann (through ``host``) and bob (through ``guest``) racing The Gate with a time limit
    of 10 s, ann one move in."""
    ann, bob = await player(host.url, "ann"), await player(guest.url, "bob")
    code = (await ann.call("room_create", game="gate", seed=3, time_limit=10))["code"]
    await bob.call("room_join", code=code)
    await bob.call("ready")
    await ann.call("start")
    start = await ann.event("race_start")
    await bob.event("race_start")
    await ann.call("move", move=start["legal"][0])
    return code, ann, bob


async def test_a_race_nobody_holds_is_taken_up_and_timed_out(settings: Settings) -> None:
    clock = ManualClock()
    shared = with_settings(settings, clock=clock, countdown=0.0)
    async with running(shared) as two:
        async with running(shared) as one:
            code, _, _ = await timed_race(one, one)
        # the process holding the room is gone; the other never held it
        assert code not in two.service.rooms
        clock.advance(15)  # past the time limit and its grace
        await two.service.housekeeping.sweep()
        raw = await two.redis.get(store.results_key(code, 1))
        assert raw is not None, "the race was not ended"
        results = store.unpack(raw)["results"]
        assert {r["player"]: (r["status"], r["moves"]) for r in results} == {
            "ann": ("timeout", 1),
            "bob": ("timeout", 0),
        }
        assert two.service.rooms[code].state == "finished"


async def test_housekeeping_catches_up_with_a_change_it_missed(settings: Settings) -> None:
    """Pub/sub delivers at most once: a process that missed a room's change (its sender
    died as it made it) reads the room again at its next housekeeping pass."""
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        bob = await player(two.url, "bob")
        code = (await ann.call("room_create", game="gate"))["code"]
        await bob.call("room_join", code=code)
        # a change written on one with its notice lost
        room = one.service.rooms[code]
        pid = next(p for p, r in room.racers.items() if r.name == "ann")
        room.racers[pid].ready = True
        await one.service.host.persist(room, notice=None)
        await two.service.housekeeping.sweep()
        caught = await bob.event("room", lambda e: seats(e)["ann"]["ready"])
        assert caught["code"] == code
        assert two.service.rooms[code].version == room.version


async def test_reading_a_room_again_never_undoes_a_change_being_written(server: Running) -> None:
    """While this process writes a change to a room (its copy changed, the compare-and-set
    on its way), Redis still has the state before it, under the copy's own version. A
    request's read of the room (``_own_room``, ``room_join``) or housekeeping's in that
    moment must leave the copy alone, and so must a read answered late, older than a
    write that has landed since; a newer state is taken."""
    ann = await player(server.url, "ann")
    bob = await player(server.url, "bob")
    code = (await ann.call("room_create", game="gate"))["code"]
    await bob.call("room_join", code=code)
    service = server.service
    room = service.rooms[code]
    version = room.version
    bob_pid = next(p for p, r in room.racers.items() if r.name == "bob")
    before = store.unpack(cast(bytes, await server.redis.get(store.room_key(code))))
    room.racers[bob_pid].ready = True  # the change, not written yet
    assert await service.host.reload(code) is room
    await service.housekeeping.sweep()
    assert room.racers[bob_pid].ready and room.version == version
    await service.host.persist(room)  # it lands
    assert not service.host.take_newer(room, before)  # the read from before, answered late
    assert room.racers[bob_pid].ready and room.version == version + 1
    # another process's change (Redis newer than the copy) is taken
    other = {**before, "version": version + 2, "host": bob_pid}
    assert service.host.take_newer(room, other)
    assert room.host == bob_pid and not room.racers[bob_pid].ready


async def test_a_time_limit_held_by_two_processes_ends_the_race_once(settings: Settings) -> None:
    clock = ManualClock()
    shared = with_settings(settings, clock=clock, countdown=0.0)
    async with running(shared) as one, running(shared) as two:
        code, ann, bob = await timed_race(one, two)
        clock.advance(11)  # both processes' timers find the time up
        results = (await ann.event("results"))["results"]
        assert (await bob.event("results"))["results"] == results
        assert {r["player"]: (r["status"], r["moves"]) for r in results} == {
            "ann": ("timeout", 1),
            "bob": ("timeout", 0),
        }
        for entry in results:
            log = await Games(one.redis).read_log(entry["replay"])
            assert [what for _, what in log].count("!timeout") == 1
        assert not await one.redis.exists(f"r:{{{code}}}:ending")


async def test_presence_host_and_boards_across_processes(settings: Settings) -> None:
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        bob = await player(two.url, "bob")
        code = (await ann.call("room_create", game="gate"))["code"]
        await bob.call("room_join", code=code)
        # a board watched through one process hears of a result made in the other
        watcher = await Client.connect(two.url)
        await watcher.call("hello", protocol=1)
        await watcher.call("board_watch", board="daily/nestor")
        await ann.call("daily", game="nestor")
        await ann.call("resign")
        update = await watcher.event("board_update")
        assert update["entry"]["player"] == "ann" and update["size"] == 1
        # the host leaves the lobby's process: bob, on the other, sees her gone, and once
        # she has been away ``host_grace`` seconds his process passes the part to him
        await ann.close()
        gone = await bob.event("room", lambda e: not seats(e)["ann"]["present"])
        assert seats(gone)["ann"]["host"]
        await two.service.housekeeping.sweep()  # (her time away counted from here)
        two.clock.advance(settings.host_grace + 1)
        await two.service.housekeeping.sweep()
        handed = await bob.event("room", lambda e: seats(e)["bob"]["host"])
        assert not seats(handed)["ann"]["present"]


async def one_move_in(one: Running, two: Running) -> tuple[Client, Client, str]:
    """ann (through ``one``) and bob (through ``two``) racing The Gate on seed 3 in ann's
    room, bob one move in and ann told of it: the two and the room's code."""
    ann = await player(one.url, "ann")
    bob = await player(two.url, "bob")
    code = (await ann.call("room_create", game="gate", seed=3))["code"]
    await bob.call("room_join", code=code)
    await bob.call("ready")
    await ann.event("room", lambda e: bool(seats(e).get("bob", {}).get("ready")))
    await ann.call("start")
    await ann.event("race_start")
    started = await bob.event("race_start")
    await bob.call("move", move=started["legal"][0])
    await ann.event("progress", lambda e: e["player"] == "bob" and e["moves"] == 1)
    return ann, bob, code


async def test_a_racer_who_left_is_listed_by_every_process(settings: Settings) -> None:
    """Three processes on one Redis: bob races on the second and leaves mid-race; a
    watcher who comes after, on the third, is told of him in the room's ``left`` with his
    standing, which that process has only from Redis (he was never its player)."""
    async with running(settings) as one, running(settings) as two, running(settings) as three:
        ann, bob, code = await one_move_in(one, two)
        await bob.call("room_leave")
        await ann.event("progress", lambda e: e["player"] == "bob" and e["status"] == "resigned")
        dot = await player(three.url, "dot")
        room = await dot.call("room_watch", code=code)
        assert list(seats(room)) == ["ann"]
        assert [(p["name"], p["moves"], p["status"]) for p in room["left"]] == [
            ("bob", 1, "resigned")
        ]


async def test_a_racer_away_too_long_forfeits_once_whichever_processes_look(
    settings: Settings,
) -> None:
    """Three processes on one Redis hold a race: ann's on the first, bob's on the second,
    a watcher's on the third. bob drops his link; once every process has counted him
    away longer than ``forfeit_after``, all three sweep at once. He forfeits once (one
    resignation in his game's log), every process's audience hears it marked
    ``forfeited``, and the results say so."""
    clock = ManualClock()
    shared = with_settings(settings, clock=clock, countdown=0.0)
    async with running(shared) as one, running(shared) as two, running(shared) as three:
        ann, bob, code = await one_move_in(one, two)
        dot = await player(three.url, "dot")
        await dot.call("room_watch", code=code)
        await bob.close()
        await ann.event("room", lambda e: not seats(e)["bob"]["present"])
        await dot.event("room", lambda e: not seats(e)["bob"]["present"])
        for server in (one, two, three):
            await server.service.housekeeping.sweep()  # (his time away counted from here)
        clock.advance(settings.forfeit_after + 1)
        await asyncio.gather(*(s.service.housekeeping.sweep() for s in (one, two, three)))
        for watching in (ann, dot):
            # (the third process may pass on bob's move late: a "playing" is not the answer)
            told = await watching.event(
                "progress", lambda e: e["player"] == "bob" and e["status"] != "playing"
            )
            assert (told["status"], told.get("forfeited")) == ("resigned", True)
        room = await dot.call("room_watch", code=code)
        assert seats(room)["bob"].get("forfeited") is True
        gid = (
            one.service.rooms[code]
            .racers[next(p for p, r in one.service.rooms[code].racers.items() if r.name == "bob")]
            .gid
        )
        assert gid is not None
        log = await Games(one.redis).read_log(gid)
        assert [what for _, what in log].count("!resign") == 1
        # one more pass of each changes nothing
        await asyncio.gather(*(s.service.housekeeping.sweep() for s in (one, two, three)))
        assert [what for _, what in await Games(one.redis).read_log(gid)].count("!resign") == 1
        await ann.call("resign")
        results = (await dot.event("results"))["results"]
        assert {r["player"]: (r["status"], r.get("forfeited", False)) for r in results} == {
            "ann": ("resigned", False),
            "bob": ("resigned", True),
        }


async def test_a_racer_away_earlier_on_another_process_is_counted_away_from_now(
    settings: Settings,
) -> None:
    """zed left the first process long ago, came back on the second, and races ann,
    whose race the first holds. He drops his link: he is away from now, not from when
    he left the first process (it had kept that time, never told he came back, and
    resigned him for being away too long seconds into the race)."""
    clock = ManualClock()
    shared = with_settings(settings, clock=clock, countdown=0.0)
    async with running(shared) as one, running(shared) as two:
        zed = await player(one.url, "zed")
        assert zed.token is not None
        await zed.close()
        await one.service.housekeeping.sweep()
        clock.advance(settings.forfeit_after + 10)
        zed = await signed_in(two.url, zed.token)
        ann = await player(one.url, "ann")
        code = (await ann.call("room_create", game="gate", seed=3))["code"]
        await zed.call("room_join", code=code)
        await zed.call("ready")
        await ann.call("start")
        await ann.event("race_start")
        await zed.event("race_start")
        await zed.close()
        await ann.event("room", lambda e: not seats(e)["zed"]["present"])
        clock.advance(2)
        for server in (one, two):
            await server.service.housekeeping.sweep()
        room = await ann.call("room_watch", code=code)
        assert not seats(room)["zed"].get("forfeited"), seats(room)["zed"]
        assert seats(room)["zed"]["status"] == "playing"
        # away as long as forfeit_after from his drop, he does forfeit
        clock.advance(settings.forfeit_after + 1)
        await one.service.housekeeping.sweep()
        told = await ann.event(
            "progress", lambda e: e["player"] == "zed" and e["status"] != "playing"
        )
        assert (told["status"], told.get("forfeited")) == ("resigned", True)
