"""Where a quick race's matched players are, as Redis has it: whether each is free to
race a match (connected to a process that still runs the matcher, in no other room), and
the room a match of theirs was made in when its news did not reach them. Read by the
quick race's matcher (``handlers/quick.py``) before a room is made, and when a waiter's
match made no room it heard of."""

from __future__ import annotations

from ..domain import room as rm
from ..store.players import Players
from ..store.presence import Presence
from ..store.queue import QuickQueue
from ..store.rooms import Rooms


class Whereabouts:
    def __init__(
        self, players: Players, presence: Presence, rooms: Rooms, queue: QuickQueue
    ) -> None:
        self.players = players
        self.presence = presence
        self.rooms = rooms
        self.queue = queue

    async def elsewhere(self, pids: list[str]) -> set[str]:
        """Those of ``pids`` connected to another process that still runs its matcher (a
        process killed leaves its players' online marks for their TTL, 45 s: its waiters
        raced nobody's room)."""
        where = {pid: await self.presence.where(pid) for pid in pids}
        running = await self.queue.running({proc for proc in where.values() if proc})
        return {pid for pid, proc in where.items() if proc in running}

    async def busy(self, pids: list[str]) -> set[str]:
        """Those in another room's lobby or race meanwhile (a client that made or joined
        one while it waited): they have chosen it, and leave the match (and the queue)."""
        return {pid for pid in pids if await self.room_racing(pid) is not None}

    async def room_racing(self, pid: str) -> str | None:
        """The code of the room the player is in, as Redis has it, if not finished and
        they have not left it."""
        _solo, code = await self.players.places(pid)
        return await self.racing_in(pid, code) if code else None

    async def noted_racing(self, pid: str) -> str | None:
        """The room of the player's last match, if they race in it (made, its news lost)."""
        code = await self.queue.noted_room(pid)
        return await self.racing_in(pid, code) if code else None

    async def racing_in(self, pid: str, code: str) -> str | None:
        """``code`` if the player is in that room, not finished, and has not left it."""
        data = await self.rooms.read(code)
        if data is None or data.get("state") == rm.FINISHED:
            return None
        racer = next((r for r in data.get("racers", ()) if r.get("pid") == pid), None)
        return code if racer is not None and not racer.get("left") else None
