"""The room requests: create, join, watch, leave, ready, start, rematch. Each changes the
room through its one entry (``RoomSteps.step``: the lock, the machine's step, its effects)."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from server.engine import GAMES
from server.protocol import ErrorCode
from server.protocol import messages as m

from ..domain import room as rm
from ..domain.room import normalize_code
from ..held import HeldRoom
from ..store.queue import QuickQueue
from .base import Context, Handler, Part, Session, no_such_game, refuse
from .host import RoomHost
from .steps import RoomSteps

log = logging.getLogger("patience.service")


#: reads of a room a join makes when the room is let go of while the join waits for it
_JOIN_TRIES = 3


class _Gone(Exception):
    """The room was let go of (or closed) while the request waited for its lock."""


class Lobby(Part):
    def __init__(self, ctx: Context, host: RoomHost, steps: RoomSteps) -> None:
        super().__init__(ctx)
        self.host = host
        self.steps = steps
        #: the quick race's queue: a match's mark on a player goes as they leave its room
        self.queue = QuickQueue(ctx.redis)

    def requests(self) -> dict[type[m.Request], Handler]:
        return {
            m.RoomCreate: self.on_room_create,
            m.RoomJoin: self.on_room_join,
            m.RoomWatch: self.on_room_watch,
            m.RoomLeave: self.on_room_leave,
            m.Ready: self.on_ready,
            m.Start: self.on_start,
            m.Rematch: self.on_rematch,
        }

    async def on_room_create(self, session: Session, req: m.RoomCreate) -> dict[str, Any]:
        pid = self.need_player(session)
        if req.game not in GAMES:
            raise no_such_game(req.game)
        await self.leave_current(pid)
        code = await self.stored_rooms.claim_new_code()
        now = self.now()
        room = HeldRoom(
            code=code,
            game_id=req.game,
            host=pid,
            max_players=req.max_players,
            time_limit=req.time_limit,
            created_ms=now,
            fixed_seed=req.seed,
            hints=req.hints,
        )
        name = session.name or ""
        return await self.steps.request(room, lambda room: rm.create(room, pid, name, now))

    async def on_room_join(self, session: Session, req: m.RoomJoin) -> dict[str, Any]:
        pid = self.need_player(session)
        code = normalize_code(req.code)
        for _ in range(_JOIN_TRIES):
            room = await self.host.reload(code)
            if room is None:
                raise refuse(ErrorCode.NO_SUCH_ROOM, f"no room {code}")
            if self.host.racer_room(pid) is room:
                return await self.host.room_message(room)  # already in: harmless
            rm.check_joinable(room)
            # the room the player is in is left first, under its own lock only: holding
            # this room's lock while taking that one's would deadlock against a player
            # joining the other way round (then this room is checked again: it may have
            # filled meanwhile)
            await self.leave_current(pid)

            def join(room: HeldRoom, name: str = session.name or "") -> list[rm.Effect]:
                if self.rooms.get(code) is not room:
                    # let go of meanwhile (housekeeping: nobody here needed it yet), or
                    # closed: read it again
                    raise _Gone
                return rm.join(room, pid, name, self.now())

            try:
                return await self.steps.request(room, join)
            except _Gone:
                continue
        raise refuse(ErrorCode.ROOM_BUSY, f"room {code} is busy: try again in a moment")

    async def on_room_watch(self, session: Session, req: m.RoomWatch) -> dict[str, Any]:
        code = normalize_code(req.code)
        room = await self.host.get(code)
        if room is None:
            raise refuse(ErrorCode.NO_SUCH_ROOM, f"no room {code}")
        room.watchers.add(session)
        session.watching.add(code)
        return await self.host.watchers_changed(room)

    async def on_room_leave(self, session: Session, req: m.RoomLeave) -> dict[str, Any]:
        """Stop watching, and leave the room you race in (if signed in)."""
        for code in list(session.watching):
            room = self.rooms.get(code)
            if room is not None:
                room.watchers.discard(session)
                await self.host.watchers_changed(room)
        session.watching.clear()
        left = await self.leave_current(session.player) if session.player is not None else None
        return {"type": "left", **(left or {})}

    async def leave_current(self, pid: str) -> dict[str, str] | None:
        """The player leaves the room they are a member of: its code and its state once
        they have gone (``closed``: they were the last in it), or None (in none)."""
        room = self.host.racer_room(pid)
        return None if room is None else await self.leave(pid, room)

    async def leave(self, pid: str, room: HeldRoom) -> dict[str, str]:
        """The player leaves ``room`` (a race in it resigned), as :meth:`leave_current`."""
        closed = False

        async def leave(room: HeldRoom) -> list[rm.Effect]:
            nonlocal closed
            online: set[str] = set()
            others = [r for r in room.members() if r.pid != pid]
            if room.host == pid and others:  # (who is here: asked only when it matters)
                online = await self.ctx.online(others)
            effects = rm.leave(room, pid, online)
            closed = any(isinstance(effect, rm.Close) for effect in effects)
            return effects

        await self.steps.step(room, leave)
        if room.quick:
            # (the match's mark goes with them: left on, their next `quick` waited 5 s
            # for a match's room on its way, and began its wait that much late)
            await self.queue.unmark(pid)
        return {"code": room.code, "state": "closed" if closed else room.state}

    async def _own_room(self, session: Session) -> HeldRoom:
        """The room the player is in, as Redis has it now (another process may have
        changed it a moment ago, and its notice may be on its way)."""
        pid = self.need_player(session)
        room = self.host.racer_room(pid)
        if room is not None:
            room = await self.host.reload(room.code)
        if room is None or self.host.racer_room(pid) is not room:
            raise refuse(ErrorCode.NOT_IN_ROOM, "you are not in a room")
        return room

    async def on_ready(self, session: Session, req: m.Ready) -> dict[str, Any]:
        room = await self._own_room(session)
        pid = self.need_player(session)
        return await self.steps.request(room, lambda room: rm.ready(room, pid, req.ready))

    async def on_start(self, session: Session, req: m.Start) -> dict[str, Any]:
        room = await self._own_room(session)
        pid = self.need_player(session)
        seed = secrets.randbits(64)

        async def start(room: HeldRoom) -> list[rm.Effect]:
            waiting = rm.unready(room)  # (who is here: asked only when it matters)
            online = await self.ctx.online(waiting) if waiting else set()
            return rm.start(room, pid, self.now(), self._countdown_ms(), seed, online)

        return await self.steps.request(room, start)

    async def on_rematch(self, session: Session, req: m.Rematch) -> dict[str, Any]:
        room = await self._own_room(session)
        pid = self.need_player(session)
        seed = secrets.randbits(64)
        return await self.steps.request(
            room, lambda room: rm.rematch(room, pid, self.now(), self._countdown_ms(), seed)
        )

    def _countdown_ms(self) -> int:
        return int(self.settings.countdown * 1000)
