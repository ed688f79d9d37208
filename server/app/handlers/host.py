"""The room host: the race rooms this process holds.

A room lives in Redis (``r:{code}``, changed only by compare-and-set on its version,
``ROOM_CAS``); each process keeps a copy (:class:`HeldRoom`) of the rooms its connections
are in or watch, subscribed to the room's channel. A process that changes a room
publishes the new state; the others take it and tell their own connections. Events
(progress, results) travel the same channel as encoded frames. The host holds the copies:
their lock, their writes and reads, who hears of them, and their timers.
See docs/architecture.md."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from server.protocol import ErrorCode, encode

from .. import store
from ..domain.room import (
    COUNTDOWN,
    FINISHED,
    LOBBY,
    RACING,
    Racer,
    RoomConflict,
)
from ..events import RoomDue
from ..held import HeldRoom
from ..store.rooms import Standing
from .base import Part, Session, refuse

__all__ = ["HeldRoom", "RoomHost"]

log = logging.getLogger("patience.service")

#: a room's step that failed on Redis is tried again after ``Settings.retry_pause``
#: seconds, twice as long each time up to this many times that: until it goes through
RETRY_MAX_TIMES = 8


class RoomHost(Part):
    async def room_message(self, room: HeldRoom) -> dict[str, Any]:
        members = room.members()
        gone = room.gone()
        racing = room.state in (RACING, FINISHED)
        others = [r.pid for r in members if r.pid not in self.sessions]
        now = self.now()
        # who is connected elsewhere, who watches elsewhere, the standings: one round trip
        found = await self.stored_rooms.around(room.code, others, racing, now)
        online = found.online
        watchers = len(room.watchers) + found.watchers
        standings = found.standings
        results = {r["player"]: r for r in room.results or []} if room.state == FINISHED else {}
        ratings = await self.ctx.ratings.read(room.game_id, [r.pid for r in members])
        players = []
        for racer in members:
            entry: dict[str, Any] = {
                "name": racer.name,
                "ready": racer.ready,
                "present": racer.pid in self.sessions or racer.pid in online,
                "host": racer.pid == room.host,
                "rating": ratings[racer.pid].shown,  # (the game's: handlers/ratings.py)
            }
            if racing:
                entry.update(self._standing_fields(racer, standings, results))
                if racer.forfeited:
                    entry["forfeited"] = True
            players.append(entry)
        # (a watcher who came after a racer left saw the race one racer short, and the
        # results then ranked someone they had never seen)
        left = [
            {"name": racer.name, **self._standing_fields(racer, standings, results)}
            for racer in gone
        ]
        host = room.racers.get(room.host)
        return {
            "type": "room",
            "code": room.code,
            "game": room.game_id,
            "state": room.state,
            "race": room.race,
            "host": host.name if host else None,
            "max_players": room.max_players,
            "time_limit": room.time_limit,
            "hints": room.hints,
            # whether the race on show (in the lobby, the next) may be rated: not a
            # seeded room's first race (ratings.md)
            "rated": room.fixed_seed is None or room.race + (room.state == LOBBY) > 1,
            "start_at": room.start_at_ms,
            "end_at": room.end_at_ms,
            "now": now,
            "players": players,
            "left": left,
            "watchers": watchers,
            "results": room.results if room.state == FINISHED else None,
            **({"quick": True} if room.quick else {}),  # (a quick race's room alone)
        }

    def _standing_fields(
        self, racer: Racer, standings: dict[str, Standing], results: dict[str, Any]
    ) -> dict[str, Any]:
        """A racer's ``home``, ``total``, ``moves`` and ``status`` for a room message
        (none where no standing is known)."""
        standing = self._standing(racer, standings, results)
        if standing is None:
            return {}
        home, total, moves, status = standing
        return {"home": home, "total": total, "moves": moves, "status": status}

    def _standing(
        self, racer: Racer, standings: dict[str, Standing], results: dict[str, Any]
    ) -> Standing | None:
        """A racer's cards home, total, moves and status: from the results once the race
        is over, from their game where it is played here, else from the standings their
        process keeps in Redis."""
        result = results.get(racer.name)
        if result is not None:
            return result["home"], result["total"], result["moves"], result["status"]
        live = self.games.get(racer.gid) if racer.gid else None
        if live is not None and racer.pid in self.sessions:
            home, total = live.game.progress
            return home, total, live.game.moves, live.status()
        return standings.get(racer.pid)

    def audience(self, room: HeldRoom) -> list[Session]:
        """The room's members and watchers connected to this process."""
        out = [self.sessions[r.pid] for r in room.members() if r.pid in self.sessions]
        out.extend(room.watchers)
        return list(dict.fromkeys(out))  # a racer watching their own room hears it once

    def broadcast(self, room: HeldRoom, message: dict[str, Any]) -> None:
        """An event to the room's audience, here and (through the bus) elsewhere."""
        data = encode(message)
        for session in self.audience(room):
            session.send_encoded(data)
        self.bus.publish_soon(store.room_channel(room.code), "frames", f=[data])

    async def announce(self, room: HeldRoom) -> dict[str, Any]:
        """The room's state to its audience connected here; returned for a reply."""
        message = await self.room_message(room)
        room.told_around = (message["watchers"], tuple(p["present"] for p in message["players"]))
        data = encode(message)
        for session in self.audience(room):
            session.send_encoded(data)
        return message

    async def retell(self, room: HeldRoom) -> None:
        """The room's state told again to its audience here if who is connected or how
        many watch has changed since it was last told: a process that dies leaves its
        marks (who is connected there, how many watch there) to lapse by themselves, and
        nothing else would say they had (housekeeping asks, each pass)."""
        if room.told_around is None or not self.audience(room):
            return
        members = room.members()
        others = [r.pid for r in members if r.pid not in self.sessions]
        found = await self.stored_rooms.around(room.code, others, False, self.now())
        present = tuple(r.pid in self.sessions or r.pid in found.online for r in members)
        if (len(room.watchers) + found.watchers, present) != room.told_around:
            await self.announce(room)

    async def broadcast_room(self, room: HeldRoom) -> dict[str, Any]:
        """The room's state to its audience here, and a word to the other processes to
        tell theirs (for what is not in the room's state: presence, watchers)."""
        message = await self.announce(room)
        self.bus.publish_soon(store.room_channel(room.code), "room")
        return message

    @contextlib.asynccontextmanager
    async def locked(self, room: HeldRoom) -> AsyncIterator[None]:
        """Hold the room's lock, waiting at most ``lock_wait`` seconds for it
        (``room_busy`` past that): no request waits for ever on a change stuck on Redis.
        One room's lock is never held while another's is taken."""
        try:
            async with asyncio.timeout(self.settings.lock_wait):
                await room.lock.acquire()
        except TimeoutError:
            raise refuse(
                ErrorCode.ROOM_BUSY, f"room {room.code} is busy: try again in a moment"
            ) from None
        try:
            yield
        finally:
            room.lock.release()

    async def persist(
        self, room: HeldRoom, notice: str | None = "room", expect: int | None = None
    ) -> bytes:
        """Write the room's state if nobody changed it since this copy was read
        (:class:`RoomConflict` if someone did), and (with ``notice``) publish it.
        ``expect``: the version the change was made on; a copy that has taken a newer
        state since (from the bus, while the step waited on Redis) is not written, and
        holds that state (:class:`RoomConflict`).

        A write that fails, refused or on Redis, takes the copy back to the state it last
        had in common with Redis (:meth:`HeldRoom.roll_back`): the copy never runs ahead of
        Redis. (Where Redis may have run a write whose answer was lost, the copy's
        version is then behind, and its next write is refused and reads the room again.)"""
        if expect is not None and room.version != expect:
            room.roll_back()
            raise RoomConflict(room.code)
        ttl = self.settings.ended_ttl if room.state == FINISHED else self.settings.idle_ttl
        state = {**room.to_dict(), "version": room.version + 1}
        blob = store.pack(state)
        try:
            version = await self.stored_rooms.write(room.code, room.version, state, ttl)
            if not version:
                raise RoomConflict(room.code)
        except BaseException:
            room.roll_back()
            raise
        room.version = version
        room.persisted = state
        if notice is not None:
            # the other processes hear of the change before anyone is told it is made
            await self.bus.publish_soon(store.room_channel(room.code), notice, room=blob)
        return blob

    async def get(self, code: str) -> HeldRoom | None:
        room = self.rooms.get(code)
        if room is None:
            data = await self.stored_rooms.read(code)
            if data is None:
                return None
            room = await self.revive(data)
        return room

    async def reload(self, code: str) -> HeldRoom | None:
        """This process's copy of the room, read again from Redis.

        Only a state newer than the copy's is taken (:meth:`take_newer`): this process
        may be writing a change to the room right now (the copy changed, its
        compare-and-set on its way), and Redis then still holds the state from before it.
        Taking that would undo the change here while it lands in Redis, and leave the
        copy behind Redis under the same version, where nothing would notice."""
        return (await self.read(code))[0]

    async def read(self, code: str) -> tuple[HeldRoom | None, bool]:
        """As :meth:`reload`, and whether a state was taken from Redis."""
        data = await self.stored_rooms.read(code)
        room = self.rooms.get(code)
        if data is None:
            if room is not None:
                self.unload(room)
            return None, False
        if room is None:
            return await self.revive(data), True
        return room, self.take_newer(room, data)

    def racer_room(self, pid: str) -> HeldRoom | None:
        """The room the player is in (and has not left)."""
        return self.ctx.racer_room(pid)

    def take_newer(self, room: HeldRoom, state: dict[str, Any]) -> bool:
        """Take a state of the room read from Redis if it is newer than this copy's
        (versions only grow; a read answered after this process's own write has landed
        here may be older); whether it was taken."""
        if state.get("version", 0) <= room.version:
            return False
        self.take_state(room, state)
        return True

    def take_state(self, room: HeldRoom, data: dict[str, Any]) -> None:
        """Take a newer state of the room (from Redis or the bus) into this copy."""
        before = (room.state, room.race)
        held = [r.gid for r in room.racers.values() if r.gid is not None]
        room.refresh(data)
        for pid, racer in room.racers.items():
            if pid in self.sessions and not racer.left:
                self.room_of[pid] = room.code
        if before == (room.state, room.race):
            return
        if room.state == FINISHED or room.race != before[1]:
            # another process ended the race: it may have written to the race games
            # (time-outs), so copies held here are stale; they reload when asked for
            room.progress_due.clear()
            for gid in [*held, *(r.gid for r in room.racers.values())]:
                if gid is not None:
                    self.games.pop(gid, None)
        self.schedule(room)

    async def on_bus(self, code: str, kind: Any, data: dict[str, Any]) -> HeldRoom | None:
        """A message from another process on a room's channel: the room held here it
        changed (None: not held here, or closed) and is to be announced."""
        room = self.rooms.get(code)
        if room is None:
            return None
        if kind == "results":  # (told once a race: ``Races.tell_results``)
            race = data.get("race", 0)
            if room.results_told == race:
                return None
            room.results_told = race
        if kind in ("frames", "results"):
            audience = self.audience(room)
            for frame in data.get("f", ()):
                for session in audience:
                    session.send_encoded(frame)
        elif kind in ("room", "start"):
            # (a race's start: the service has the racers here sent ``race_start`` first)
            blob = data.get("room")
            if blob is not None:
                self.take_newer(room, store.unpack(blob))
        elif kind == "closed":
            closed = {**await self.room_message(room), "state": "closed"}
            data_closed = encode(closed)
            for session in self.audience(room):
                session.send_encoded(data_closed)
            self.unload(room)
            return None
        return room if kind in ("room", "start") else None

    def stop(self) -> None:
        """Stop every room's timer (the server is stopping)."""
        for room in self.rooms.values():
            if room.timer is not None:
                room.timer.cancel()

    async def uncount_watchers(self) -> None:
        """The server is stopping and its connections are closed: take its watchers' marks
        out of Redis, so that no room counts them as watching while they lapse (they would
        be counted twice once they watch again through a restarted server). If Redis is
        away, the marks lapse by themselves (``count_watchers``'s ``until``)."""
        try:
            await self.stored_rooms.uncount_watchers()
        except Exception as exc:
            self.failures.failed("taking back the watchers' marks", exc)

    async def hold(self, room: HeldRoom) -> None:
        """Keep the room in this process, and hear of its changes."""
        self.rooms[room.code] = room
        await self.bus.subscribe(store.room_channel(room.code))

    async def watchers_changed(self, room: HeldRoom) -> dict[str, Any]:
        """Publish how many watch the room through this process, and tell everyone."""
        await self.count_watchers(room)
        return await self.broadcast_room(room)

    async def count_watchers(self, room: HeldRoom) -> None:
        until = self.now() + self.ctx.online_ttl() * 1000
        await self.stored_rooms.count_watchers(
            room.code, len(room.watchers), until, self.settings.idle_ttl
        )

    async def close(self, room: HeldRoom, expect: int | None = None) -> None:
        """Close the room: gone from Redis, its audience told. Only as the step saw it
        (``expect``, its version then) and as Redis has it: a change that came first (a
        join through another process, heard here or not yet) leaves the room standing,
        the copy back as Redis has it (:class:`RoomConflict`: the step is tried again)."""
        code = room.code
        if expect is not None and room.version != expect:
            room.roll_back()
            raise RoomConflict(code)
        closed = {**await self.room_message(room), "state": "closed"}
        if not await self.stored_rooms.delete(code, room.version):
            room.roll_back()
            raise RoomConflict(code)
        if room.timer is not None:
            room.timer.cancel()
        data = encode(closed)
        for session in self.audience(room):
            session.send_encoded(data)
        self.bus.publish_soon(store.room_channel(code), "closed")
        self.unload(room)

    def schedule(self, room: HeldRoom) -> None:
        """Arm the room's timer for its next step: the start, or the time limit. Every
        process holding the room arms it; the compare-and-set lets one of them act."""
        if room.timer is not None and room.timer is not asyncio.current_task():
            room.timer.cancel()
        room.timer = None
        if room.state == COUNTDOWN and room.start_at_ms is not None:
            due = room.start_at_ms
        elif room.state == RACING and room.end_at_ms is not None:
            due = room.end_at_ms
        else:
            return
        room.timer = asyncio.get_running_loop().create_task(self._at(due, self.fall_due, room))

    async def fall_due(self, room: HeldRoom) -> None:
        """The room's timer has fallen due: who carries out its step hears of it
        (``RoomSteps``: the race starts, or its time is up)."""
        await self.events.publish(RoomDue(room))

    async def _at(
        self, when_ms: int, action: Callable[[HeldRoom], Awaitable[None]], room: HeldRoom
    ) -> None:
        # wake at least every quarter second: the server clock is the truth, not the sleep
        while (delay := (when_ms - self.now()) / 1000) > 0:
            await asyncio.sleep(min(delay, 0.25))
        await self.until_done("room timer", room, action)

    async def until_done(
        self, kind: str, room: HeldRoom, action: Callable[[HeldRoom], Awaitable[None]]
    ) -> None:
        """Carry out a step of the room (its start, its end...) and, while it fails (Redis
        away, the room busy), try it again, more slowly each time, until it goes through
        or this process lets go of the room. Each step looks at the room's state under its
        lock first, so trying again never does a thing twice."""
        first = self.settings.retry_pause
        pause = first
        while True:
            try:
                await action(room)
                return
            except RoomConflict:  # (the way it is meant to go: no failure, no traceback)
                log.info(
                    "%s: the room changed elsewhere first; again", kind, extra={"room": room.code}
                )
            except Exception as exc:
                self.failures.failed(kind, exc, room=room.code)
            if self.ctx.stopping or self.rooms.get(room.code) is not room:
                return
            await asyncio.sleep(pause)
            pause = min(pause * 2, first * RETRY_MAX_TIMES)

    def again_at(
        self, room: HeldRoom, when_ms: int, action: Callable[[HeldRoom], Awaitable[None]]
    ) -> None:
        """Arm the room's timer to try ``action`` again at ``when_ms``."""
        if room.timer is not None and room.timer is not asyncio.current_task():
            room.timer.cancel()
        room.timer = asyncio.get_running_loop().create_task(self._at(when_ms, action, room))

    async def revive(self, data: dict[str, Any]) -> HeldRoom:
        """Hold a room read from Redis: its racers' games load when they are asked for."""
        room = HeldRoom.from_dict(data)
        existing = self.rooms.get(room.code)
        if existing is not None:
            return existing
        await self.hold(room)
        for racer in room.racers.values():
            if not racer.left:
                self.room_of[racer.pid] = room.code
        if room.state in (COUNTDOWN, RACING):
            self.schedule(room)
        return room

    def unload(self, room: HeldRoom) -> None:
        """Forget a room in memory (its Redis state is gone, kept for good, or held by the
        processes its people are connected to)."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            self.bus.watch_soon(store.room_channel(room.code), False)
        if room.timer is not None and room.timer is not asyncio.current_task():
            room.timer.cancel()
        room.timer = None
        for pid in room.racers:
            if self.room_of.get(pid) == room.code:
                del self.room_of[pid]
