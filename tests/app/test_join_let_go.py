"""A join that meets the room let go of meanwhile joins all the same.

A process holds a room its people are in or watch; housekeeping lets go of one that
nobody connected here needs. A player joining through a process that held the room only
for that join (read from Redis a moment before) could find it let go of by the time the
room's lock was theirs, and was told ``no_such_room`` for a room that exists (seen by the
three-process soak, ``bench/soak_many.py``)."""

from __future__ import annotations

import asyncio

from server.app.settings import Settings

from .client import player
from .conftest import running, until


async def test_a_join_meeting_housekeeping_letting_go_of_the_room(settings: Settings) -> None:
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        bob = await player(two.url, "bob")
        code = (await ann.call("room_create", game="gate"))["code"]
        host = two.service.host
        room = await host.reload(code)  # held on bob's process, with nobody there yet
        assert room is not None
        async with host.locked(room):
            join = asyncio.ensure_future(bob.request("room_join", code=code))
            # bob's join has read the room and waits for its lock
            await until(lambda: bool(room.lock._waiters))
            await two.service.housekeeping.sweep()  # which lets go of it meanwhile
            assert code not in two.service.rooms
        reply = await join
        assert reply["type"] == "room", reply
        assert {p["name"] for p in reply["players"]} == {"ann", "bob"}
        await ann.event("room", lambda e: any(p["name"] == "bob" for p in e["players"]))
