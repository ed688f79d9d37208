"""The room requests: create, join, watch, leave, ready, start, rematch. Each takes the
room's lock (``RoomHost.locked``), changes the room and writes it (``RoomHost.persist``)."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from server.engine import GAMES
from server.protocol import ErrorCode
from server.protocol import messages as m

from .. import store
from ..domain import games as g
from ..domain.room import (
    COUNTDOWN,
    FINISHED,
    LOBBY,
    RACING,
    Racer,
    RoomConflict,
    new_code,
    normalize_code,
)
from ..store import (
    standings_key,
)
from ..store.games import CREATE_REPLIES, created, queue_create
from .base import Handler, Part, Session, refuse
from .host import HeldRoom

log = logging.getLogger("patience.service")


class Lobby(Part):
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
            raise refuse(ErrorCode.NO_SUCH_GAME, f"no game {req.game!r}; see the games list")
        await self.leave_current(pid)
        for _ in range(20):
            code = new_code()
            if await self.redis.set(store.code_key(code), 1, nx=True):
                break
        else:
            raise RuntimeError("no free room code")
        now = self.now()
        room = HeldRoom(
            code=code,
            game_id=req.game,
            host=pid,
            max_players=req.max_players,
            time_limit=req.time_limit,
            created_ms=now,
            fixed_seed=req.seed,
        )
        room.racers[pid] = Racer(pid, session.name or "", now)
        # written before it is held: a room held here that Redis has not got is one
        # housekeeping lets go of as expired (nobody else knows its code before the reply)
        await self.host.persist(room, notice=None)
        await self.host.hold(room)
        self.room_of[pid] = code
        await self.players.set_room(pid, code)
        return await self.host.room_message(room)

    async def on_room_join(self, session: Session, req: m.RoomJoin) -> dict[str, Any]:
        pid = self.need_player(session)
        code = normalize_code(req.code)
        room = await self.host.reload(code)
        if room is None:
            raise refuse(ErrorCode.NO_SUCH_ROOM, f"no room {code}")
        if self.host.racer_room(pid) is room:
            return await self.host.room_message(room)  # already in: joining again is harmless
        self._check_joinable(room)
        # the room the player is in is left first, under its own lock only: holding this
        # room's lock while taking that one's would deadlock against a player joining the
        # other way round (then this room is checked again: it may have filled meanwhile)
        await self.leave_current(pid)
        async with self.host.locked(room):
            if self.rooms.get(code) is not room:
                raise refuse(ErrorCode.NO_SUCH_ROOM, f"no room {code}")
            racer = room.racers.get(pid)
            if racer is not None and not racer.left:
                return await self.host.room_message(room)
            self._check_joinable(room)
            room.racers[pid] = Racer(pid, session.name or "", self.now())
            self.room_of[pid] = code
            await self.host.persist(room)
        await self.players.set_room(pid, code)
        return await self.host.announce(room)

    def _check_joinable(self, room: HeldRoom) -> None:
        if room.state != LOBBY:
            raise refuse(ErrorCode.RACE_STARTED, "the race has started; watch it instead")
        if len(room.members()) >= room.max_players:
            raise refuse(ErrorCode.ROOM_FULL, f"room {room.code} is full")

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
        if session.player is not None:
            await self.leave_current(session.player)
        return {"type": "left"}

    async def leave_current(self, pid: str) -> None:
        room = self.host.racer_room(pid)
        if room is None:
            return
        async with self.host.locked(room):
            racer = room.racers[pid]
            if room.state == RACING and racer.gid:
                live = await self.play.get_game(racer.gid)
                if live is not None and not live.finished:
                    await self.play.resign(live, room)
                racer.left = True
            elif room.state == FINISHED and racer.gid:
                racer.left = True
            else:
                del room.racers[pid]
            if room.host == pid:
                members = room.members()
                if members:
                    online = await self.accounts.online(members)
                    present = [r for r in members if r.pid in online]
                    room.host = (present or members)[0].pid
            if not room.members() and room.state != RACING:
                await self.players.clear_room(pid)
                self.room_of.pop(pid, None)
                await self.host.close(room)
                return
            await self.host.persist(room)
            await self.players.clear_room(pid)
            self.room_of.pop(pid, None)
        await self.host.announce(room)
        if room.state == RACING:
            await self.races.maybe_end_race(room)

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
        async with self.host.locked(room):
            if room.state == FINISHED:
                raise refuse(
                    ErrorCode.RACE_STARTED, "the race is over: the host may call a rematch"
                )
            if room.state != LOBBY:
                raise refuse(ErrorCode.RACE_STARTED, "the race has started")
            room.racers[self.need_player(session)].ready = req.ready
            await self.host.persist(room)
        return await self.host.announce(room)

    async def on_start(self, session: Session, req: m.Start) -> dict[str, Any]:
        room = await self._own_room(session)
        async with self.host.locked(room):
            if room.host != session.player:
                raise refuse(ErrorCode.NOT_HOST, "only the host starts the race")
            if room.state != LOBBY:
                raise refuse(ErrorCode.RACE_STARTED, "the race has started")
            waiting = [r.name for r in room.members() if not r.ready and r.pid != room.host]
            if waiting:
                raise refuse(ErrorCode.NOT_READY, f"not ready yet: {', '.join(waiting)}")
            return await self.begin_countdown(room, room.fixed_seed)

    async def on_rematch(self, session: Session, req: m.Rematch) -> dict[str, Any]:
        room = await self._own_room(session)
        async with self.host.locked(room):
            if room.host != session.player:
                raise refuse(ErrorCode.NOT_HOST, "only the host calls a rematch")
            if room.state != FINISHED:
                raise refuse(ErrorCode.RACE_STARTED, "the race is not over yet")
            room.racers = {r.pid: r for r in room.members()}
            return await self.begin_countdown(room, None)

    async def begin_countdown(self, room: HeldRoom, seed: int | None) -> dict[str, Any]:
        """Deal every racer the same seed (kept secret until the start) and count down;
        the room's state as told to its audience."""
        now = self.now()
        room.race += 1
        room.seed = seed if seed is not None else secrets.randbits(64)
        room.state = COUNTDOWN
        room.results = None
        room.start_at_ms = now + int(self.settings.countdown * 1000)
        room.progress_due.clear()
        ttl = self.settings.idle_ttl
        dealt = []
        for racer in room.members():
            racer.ready = False
            live = g.dealt(
                room.game_id, room.seed, racer.pid, g.RACE, now, room=room.code, race=room.race
            )
            dealt.append((racer, live))
        # every racer's game and the room's standings in one round trip
        key = standings_key(room.code)
        async with self.redis.pipeline(transaction=False) as pipe:
            for _, live in dealt:
                queue_create(pipe, live, ttl)
            pipe.delete(key)
            standings: dict[str, bytes] = {}
            for racer, live in dealt:
                home, total = live.game.progress
                standings[racer.pid] = store.pack([home, total, 0, live.status()])
            if standings:
                pipe.hset(key, mapping=standings)  # type: ignore[arg-type]
                pipe.expire(key, ttl)
            replies = await pipe.execute()
        for n, (racer, live) in enumerate(dealt):
            created(live, replies[n * CREATE_REPLIES : (n + 1) * CREATE_REPLIES])
            self.games[live.gid] = live
            racer.gid = live.gid
        try:
            await self.host.persist(room)
        except BaseException:  # no race: its games, never named by the room, lapse
            for _, live in dealt:
                self.games.pop(live.gid, None)
            raise
        message = await self.host.announce(room)
        self.host.schedule(room)
        return message

    async def hand_over(self, room: HeldRoom, pid: str) -> None:
        """The host's part passes from ``pid`` to the longest-present member connected."""
        if room.state not in (LOBBY, FINISHED) or room.host != pid:
            return
        online = await self.accounts.online(room.members())
        others = [r for r in room.members() if r.pid in online and r.pid != pid]
        if not others:
            return
        async with self.host.locked(room):
            if room.host == pid:
                room.host = others[0].pid
                try:
                    await self.host.persist(room)
                except RoomConflict:
                    await self.host.reload(room.code)
