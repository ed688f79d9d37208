"""``race_start`` goes to each racer exactly once, whichever way a process hears that the
race started.

A process that did not deal the race hears of its start twice at about the same moment:
from the bus (the dealing process's ``start`` message) and from its own countdown timer
(which loses the start's compare-and-set and goes on to tell its racers). Both used to
pass the "already sent" check before either recorded it; each then loaded the racer's
game again under a new fencing token, so the racer got ``race_start`` twice and the copy
kept could hold the older token: the racer's first move was refused as "played from
another connection"."""

from __future__ import annotations

import asyncio

from server.app.settings import Settings

from .client import player, racing
from .conftest import running


async def test_two_starts_at_once_send_race_start_once(settings: Settings) -> None:
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        bob = await player(two.url, "bob")
        code = await racing(ann, bob)
        # the moment before bob's process has told him: its copy of the room says none
        # is sent, and his game is not held there yet
        room = two.service.rooms[code]
        bob_pid = next(p for p, r in room.racers.items() if r.name == "bob")
        gid = room.racers[bob_pid].gid
        assert gid is not None
        room.starts_sent = (0, frozenset())
        two.service.games.pop(gid, None)
        fences = int(await two.redis.get(f"g:{{{gid}}}:fence") or 0)
        # the bus's start message and the countdown timer, at once
        await asyncio.gather(
            two.service.steps.send_race_starts(room),
            two.service.steps.tell_started(room),
        )
        await bob.call("ping")  # every frame sent before its reply has arrived
        again = [e for e in bob.events if e.get("type") == "race_start"]
        assert len(again) == 1, f"race_start sent {len(again)} times"
        # one load of the game, one new fencing token, and the copy kept holds it
        assert int(await two.redis.get(f"g:{{{gid}}}:fence") or 0) == fences + 1
        reply = await bob.request("move", move=again[0]["legal"][0])
        assert reply["type"] == "moved", reply
