"""Housekeeping: rooms taken up at the start and from processes that died, marks
renewed, absent racers forfeited, the ranked dailies still open ended at the day's reset,
and what nobody here needs let go of."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from server.protocol import ProtocolError

from ..domain import daily as d
from ..domain import room as rm
from ..domain.room import (
    COUNTDOWN,
    FINISHED,
    LOBBY,
    RACING,
    Racer,
    RoomConflict,
)
from ..held import HeldRoom
from ..periodic import Periodic
from ..store.failures import unavailable
from .base import Context, Part
from .daily import DailyChallenge
from .devicebook import DeviceBook
from .host import RoomHost
from .keeper import GameKeeper
from .races import Races
from .steps import Change, RoomSteps

log = logging.getLogger("patience.service")

#: seconds between looks at the clock while waiting for a day's reset (the clock, not
#: the sleep, says when it has come: a moved clock is honoured within this)
RESET_LOOK = 1.0


class Housekeeping(Part):
    def __init__(
        self,
        ctx: Context,
        host: RoomHost,
        steps: RoomSteps,
        races: Races,
        keeper: GameKeeper,
        daily: DailyChallenge,
        book: DeviceBook,
    ) -> None:
        super().__init__(ctx)
        #: which device each player here is connected on (their online marks say it)
        self.book = book
        self.host = host
        self.steps = steps
        self.races = races
        self.keeper = keeper
        self.daily = daily
        self._sweeper = Periodic(
            "housekeeping",
            self.sweep,
            lambda: self.settings.sweep_interval,
            ctx.failures,
            wait_first=True,
        )
        self._resets = Periodic(
            "ending dailies at the reset", self._reset_look, self._to_reset_look, ctx.failures
        )
        #: the server time of the reset the looks wait for (None before the first look)
        self.next_reset: int | None = None

    async def start(self) -> int:
        """Resume the rooms a previous run left, and start the housekeeping and the
        wait for the day's reset (which first ends what a reset passed while this
        process was not running left open); how many rooms were resumed."""
        count = await self.resume_rooms()
        self._sweeper.start()
        self._resets.start()
        return count

    def stop(self) -> list[asyncio.Task[None]]:
        """Stop the sweeps and the looks for the reset; their tasks, to await where a
        step under way must be over (each ends after it, its cancel lost or not)."""
        return [t for t in (self._sweeper.stop(), self._resets.stop()) if t is not None]

    async def _reset_look(self) -> None:
        """At the first look, and at each day's reset (00:00 UTC on the server clock)
        after it: end the ranked dailies left open by the resets passed. Every
        housekeeping pass looks too, for what a failure or another process's claim left.

        The wait between looks is the :class:`Periodic`'s own, a step at a time (at most
        :data:`RESET_LOOK`), not a loop within the step: a step whose cancel is lost in
        a Redis call (server/app/periodic.py) ends at once, where a wait for the next
        reset within it would have run until then, a day, and kept the process (or a
        test's event loop) from ending."""
        if self.next_reset is None or self.now() >= self.next_reset:
            await self.end_dailies()
            self.next_reset = d.next_reset_ms(self.now())

    def _to_reset_look(self) -> float:
        """Seconds to the next look: to the reset, :data:`RESET_LOOK` at most."""
        if self.next_reset is None:
            return 0.0
        return max(0.0, min((self.next_reset - self.now()) / 1000, RESET_LOOK))

    async def end_dailies(self) -> None:
        """:meth:`DailyChallenge.close_ended`; a failure is logged (the next look tries
        again)."""
        try:
            await self.daily.close_ended()
        except Exception as exc:
            self.failures.failed("ending dailies at the reset", exc)

    async def resume_rooms(self) -> int:
        """At the start: take up every live room with its timers, and end the races that
        ended while no process was running."""
        count = 0
        for code in await self.stored_rooms.live_codes():
            data = await self.stored_rooms.read(code)
            if not data:
                await self.stored_rooms.forget(code)
                continue
            try:
                room = await self.host.revive(data)
                await self.steps.settle(room)
            except Exception as exc:
                if unavailable(exc):
                    raise  # (Redis away: the start waits for it, as for any read)
                # one room that cannot be taken up (its record unreadable, its race's end
                # failing to settle) is an error in the log, not a process that cannot start
                self.failures.failed("taking up a room", exc, room=code)
                continue
            count += 1
        return count

    async def run_once(self) -> None:
        """A pass of :meth:`sweep`; a failure is logged (the next pass tries again)."""
        try:
            await self.sweep()
        except Exception as exc:
            self.failures.failed("housekeeping", exc)

    async def sweep(self) -> None:
        """Housekeeping: renew this process's marks in Redis (who is connected here, how
        many watch each room), and tell a room whose marks elsewhere have lapsed; a racer
        away longer than ``forfeit_after`` seconds resigns (a race with no time limit must
        not wait for ever); take up races nobody holds (their processes died); end the
        ranked dailies whose day is over; finish the ranked dailies whose finish is owed;
        let go of rooms, and games, nobody here needs."""
        now = self.now()
        ttl = self.ctx.online_ttl()
        if self.sessions:
            renewed = list(self.sessions)
            await self.presence.renew({pid: self.book.device_id_here(pid) for pid in renewed}, ttl)
            # a player who left while the renewal was on its way had their mark taken
            # away before it landed, and it made the mark again: take it away again
            # (only if still this process's: they may have come back elsewhere)
            for pid in renewed:
                if pid not in self.sessions:
                    await self.presence.unmark(pid, now)
        await self.catch_up_rooms()
        limit = self.settings.forfeit_after * 1000
        for room in list(self.rooms.values()):
            if room.watchers:
                await self.host.count_watchers(room)
            await self.host.retell(room)
            if room.state == RACING:
                members = room.members()
                online = await self.ctx.online(members)
                await self._untold_ends(room, members, online)
                for racer in members if limit > 0 and room.state == RACING else []:
                    away = await self._away_ms(racer.pid, racer.pid in online, now)
                    if away < limit or racer.gid is None:
                        continue
                    try:
                        await self.steps.step(room, self._forfeit(racer.pid, racer.gid))
                    except (ProtocolError, RoomConflict):  # another process did it first
                        continue
            if room.state in (LOBBY, FINISHED) and self.settings.host_grace and room.host:
                await self._host_away(room, now, self.settings.host_grace * 1000)
            if room.state in (LOBBY, FINISHED) and not await self.stored_rooms.exists(room.code):
                self.host.unload(room)
            elif not self.host.audience(room) and (
                room.state in (LOBBY, FINISHED) or await self.ctx.online(room.members())
            ):
                self.host.unload(room)  # those who need it hold it
        await self._take_up_orphans(now)
        await self.daily.close_ended()
        await self.daily.finish_owed()
        playing = {r.gid for room in self.rooms.values() for r in room.racers.values()}
        for gid, live in list(self.games.items()):
            # a game played elsewhere or by nobody, or one that has ended (it reloads
            # from Redis if asked for)
            if live.owner not in self.sessions or (live.finished and gid not in playing):
                del self.games[gid]

    async def _untold_ends(self, room: HeldRoom, members: list[Racer], online: set[str]) -> None:
        """A racer away whose game has ended: the process they played on died between
        the game's last entry and the race's end, and told nobody. Each away racer's log
        is looked at once while they are away (nobody plays a game meanwhile); the race
        ends if that was the end it waited for (they came back: ``Accounts._resume``)."""
        away = {r.gid for r in members if r.gid is not None and r.pid not in online}
        room.ends_looked &= away  # (one back since is looked at again when next away)
        for gid in away - room.ends_looked:
            room.ends_looked.add(gid)
            live = await self.stored.load(gid, fence=False)
            if live is not None and live.finished:
                await self.steps.maybe_end_race(room)
                return

    def _forfeit(self, pid: str, gid: str) -> Change:
        """The room step of a racer's forfeit, if their game is still being played."""

        async def change(room: HeldRoom) -> list[rm.Effect]:
            live = await self.keeper.get_game(gid, fresh=True)
            if live is None:
                return []
            if live.finished:
                # ended where nobody was told (its process died between the game's last
                # entry and the race's end): the race may be over; it had waited on
                return rm.racer_finished(room)
            racer = room.racers.get(pid)
            log.info("forfeit", extra={"room": room.code, "player": racer and racer.name})
            return rm.forfeit(room, pid)

        return change

    async def _host_away(self, room: HeldRoom, now: int, grace: int) -> None:
        """A lobby's or a finished race's host away (connected to no process) for
        ``grace`` ms: the part passes on, so that the start or the rematch does not wait on
        them for ever; away less (a reload, a replay's page opened from the results), they
        keep it."""
        pid = room.host
        host = room.racers.get(pid)
        if host is None:
            return
        if await self._away_ms(pid, bool(await self.ctx.online([host])), now) >= grace:
            await self.steps.hand_over(room, pid)
            await self.host.broadcast_room(room)  # (who hosts now, told)

    async def _away_ms(self, pid: str, here: bool, now: int) -> int:
        """How long a player has had no connection to any process (``here``: they have
        one now), counted from when the process they left saw them go, or from the first
        pass of any process that found them away (``Presence.away_since``: in Redis, the
        same for every process; each had kept its own, in memory)."""
        if here:
            return 0
        return now - await self.presence.away_since(pid, now)

    async def catch_up_rooms(self) -> None:
        """Read again the rooms held here that changed without this process hearing of
        it (pub/sub delivers at most once: a notice is lost if its sender dies at that
        moment, or while this process cannot hear the bus), and tell their audience
        here: the room, and a race's start or its results they missed."""
        held = list(self.rooms.values())
        if not held:
            return
        versions = await self.stored_rooms.versions([room.code for room in held])
        for room, version in zip(held, versions, strict=True):
            if version == room.version:
                continue
            before = room.state
            fresh, taken = await self.host.read(room.code)
            if fresh is not room:
                continue  # gone: its Redis state expired or the room closed
            if not taken:
                continue  # what was read was this process's own change, being written
            log.info("caught up with a room", extra={"room": room.code, "state": room.state})
            if before in (LOBBY, COUNTDOWN) and room.state == RACING:
                await self.steps.send_race_starts(room)
            if before != FINISHED and room.state == FINISHED:
                self.races.tell_results(room)
            await self.host.announce(room)

    async def _take_up_orphans(self, now: int) -> None:
        """Hold the rooms no process holds that need one: a countdown or time limit past
        due, or a race none of whose racers is connected anywhere (they forfeit)."""
        codes = [c for c in await self.stored_rooms.live_codes() if c not in self.rooms]
        if not codes:
            return
        states = await self.stored_rooms.read_many(codes)
        grace = 2000
        candidates: list[tuple[dict[str, Any], HeldRoom]] = []
        for code, data in zip(codes, states, strict=True):
            if data is None:
                await self.stored_rooms.forget(code)
                continue
            try:
                room = HeldRoom.from_dict(data)
            except Exception as exc:  # (a record unreadable: the other rooms go on)
                self.failures.failed("reading a room", exc, room=code)
                continue
            if room.state in (COUNTDOWN, RACING):
                candidates.append((data, room))
        # who of the racers of every race here is connected anywhere: one round trip
        racing = [r for _, room in candidates if room.state == RACING for r in room.members()]
        online = await self.ctx.online(racing) if racing else set()
        for data, room in candidates:
            end = room.end_at_ms
            if room.state == COUNTDOWN:
                orphan = (room.start_at_ms or 0) + grace < now
            else:
                orphan = (end is not None and end + grace < now) or not any(
                    r.pid in online for r in room.members()
                )
            if orphan:
                log.info("taking up a room", extra={"room": room.code, "state": room.state})
                try:
                    held = await self.host.revive(data)
                    await self.steps.settle(held)
                except Exception as exc:
                    if unavailable(exc):
                        raise
                    self.failures.failed("taking up a room", exc, room=room.code)
