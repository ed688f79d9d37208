"""A room's step works its change out on the copy this process holds, and may wait on
Redis while it does (the end of a race loads the racers' games); meanwhile the bus may
bring another process's newer state into that copy. The step's write must then be
refused, not made on top of it.

An outside probe (three processes, rooms of three racers all resigning at once) found a
race's end written twice, once by each of two processes: the second had seen the race
still on, then, while it loaded the games, took the first's end from the bus, and its
compare-and-set passed against the new version. Each end counted the winner's race on
the race boards, so a race won counted twice there."""

from __future__ import annotations

from typing import Any

import pytest

from server.app.domain import room as rm
from server.app.domain.room import FINISHED, RACING, RoomConflict
from server.app.held import HeldRoom
from server.app.settings import Settings

from .client import player
from .conftest import running, until


async def test_a_race_ended_elsewhere_while_this_process_ends_it_is_ended_once(
    settings: Settings,
) -> None:
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        bob = await player(one.url, "bob")
        cid = await player(two.url, "cid")  # (the room is held on both processes)
        code = (await ann.call("room_create", game="gate", seed=3))["code"]
        for racer in (bob, cid):
            await racer.call("room_join", code=code)
            await racer.call("ready")
        await ann.call("start")
        for racer in (ann, bob, cid):
            await racer.event("race_start")
        await cid.call("resign")  # (the race goes on: ann and bob play)
        here, there = two.service.rooms[code], one.service.rooms[code]
        await until(lambda: here.version == there.version and here.state == RACING)
        started = here.version
        steps = two.service.steps

        async def end_late(room: HeldRoom) -> Any:
            # this process sees the race on, and goes to load its games (as the end's
            # check does) ...
            assert room.state == RACING
            # ... while the others resign on the other process, which ends the race
            for racer in (ann, bob):
                await racer.call("resign")
            await until(lambda: there.state == FINISHED)
            # and this process hears of it meanwhile (the bus, into the copy in the step)
            await until(lambda: room.version > started)
            entries = await steps._race_entries(room)
            return await steps._end(room, entries)

        with pytest.raises(RoomConflict):
            await steps.step(here, end_late)
        # the other process's end stands, written once; this copy holds it
        assert there.version == started + 1
        assert here.version == started + 1 and here.state == FINISHED
        await cid.call("ping")
        assert sum(e.get("type") == "results" for e in cid.events) == 1


async def test_a_lobby_joined_elsewhere_while_its_last_member_leaves_is_not_closed(
    settings: Settings,
) -> None:
    """The close of a room is its step's write too. An outside probe (three processes,
    the last member leaving as five others joined) saw a join answered ``room`` while the
    leaver's process deleted the room whatever its version: the joiner was left in a
    room that was gone, told nothing."""
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        bob = await player(two.url, "bob")
        code = (await ann.call("room_create", game="gate"))["code"]
        here = one.service.rooms[code]
        seen = here.version
        steps = one.service.steps

        async def leave_late(room: HeldRoom) -> Any:
            # ann leaves an empty lobby: the room is to close ...
            pid = next(r.pid for r in room.members() if r.name == "ann")
            effects = rm.leave(room, pid, set())
            # ... while bob joins it through the other process, and the bus brings that
            # here before the close is carried out
            await bob.call("room_join", code=code)
            await until(lambda: room.version > seen)
            return effects

        with pytest.raises(RoomConflict):
            await steps.step(here, leave_late)
        # the room stands, bob in it; ann's leave, asked again, leaves it to him
        assert await one.service.stored_rooms.exists(code)
        left = await ann.call("room_leave")
        assert left.get("state") != "closed", left
        room = await bob.event("room", lambda e: [p["name"] for p in e["players"]] == ["bob"])
        assert room["host"] == "bob" and room["state"] == "lobby"
        assert (await bob.call("ready"))["type"] == "room"
