"""A race's racers as the room hears of them: their progress (throttled), the results
told, and a race's win counted on the race boards. (The race's start and end are steps of
the room: ``handlers/steps.py``.)"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

from server.protocol import encode

from .. import review, store
from ..domain import daily as d
from ..domain import games as g
from ..domain.boards import Board, parse_board
from ..domain.room import FINISHED, Racer
from ..events import RacerProgress
from ..held import HeldRoom
from ..store.rooms import Standing
from .base import Context, Part
from .boards import Leaderboards
from .host import RoomHost

log = logging.getLogger("patience.service")


class Races(Part):
    def __init__(self, ctx: Context, host: RoomHost, leaderboards: Leaderboards) -> None:
        super().__init__(ctx)
        self.host = host
        self.leaderboards = leaderboards
        ctx.events.on(RacerProgress, self.on_progress)
        #: rooms with progress events waiting for the next tick, and the tick's timer
        self._progress_rooms: dict[str, HeldRoom] = {}
        self._progress_timer: asyncio.TimerHandle | None = None

    def stop(self) -> None:
        """Stop the progress tick (the server is stopping)."""
        if self._progress_timer is not None:
            self._progress_timer.cancel()

    def on_progress(self, event: RacerProgress) -> None:
        self.progress(event.room, event.live)

    def progress(self, room: HeldRoom, live: g.LiveGame) -> None:
        """Tell the room how a racer stands after a move, undo or resignation.

        Progress is throttled: changes wait for the process's next progress tick, every
        ``progress_interval`` seconds, which sends each racer who changed in each room one
        event with their latest standing (a racer playing ten moves in that time is one
        event, not ten), and tells the other processes in one round trip to Redis for all
        rooms. A finish goes out at once, with the room's pending events."""
        room.progress_due[live.owner] = live
        interval = self.settings.progress_interval
        if live.finished or interval <= 0:
            self.send_progress(room)
        else:
            self._progress_rooms[room.code] = room
            if self._progress_timer is None:
                self._progress_timer = asyncio.get_running_loop().call_later(
                    interval, self._progress_tick
                )

    def _progress_tick(self) -> None:
        self._progress_timer = None
        rooms, self._progress_rooms = self._progress_rooms, {}
        for code, room in rooms.items():
            if self.rooms.get(code) is room:
                self.send_progress(room)

    def send_progress(self, room: HeldRoom) -> None:
        """The progress events of every racer due one, each encoded once for the room,
        sent here and through the bus; their standings kept in Redis for room events
        (both queued on the bus, which sends what a pass of the loop queued at once)."""
        due, room.progress_due = room.progress_due, {}
        if not due:
            return
        audience = self.host.audience(room)
        frames = []
        standings: dict[str, Standing] = {}
        for pid, live in due.items():
            racer = room.racers.get(pid)
            home, total = live.game.progress
            moves, status = live.game.moves, live.status()
            data = encode(
                {
                    "type": "progress",
                    "code": room.code,
                    "player": racer.name if racer else "",
                    "home": home,
                    "total": total,
                    "moves": moves,
                    "status": status,
                    # (resigned by the server, away too long: not given up)
                    **({"forfeited": True} if racer and racer.forfeited else {}),
                }
            )
            for session in audience:
                session.send_encoded(data)
            frames.append(data)
            standings[pid] = (home, total, moves, status)
        self.bus.publish_soon(store.room_channel(room.code), "frames", f=frames)
        ttl = self.settings.idle_ttl
        for command in self.stored_rooms.standings_commands(room.code, standings, ttl):
            self.bus.command_soon(*command)

    def tell_results(self, room: HeldRoom) -> None:
        """``results`` to the room's audience, here and (the bus) elsewhere, once a race:
        the process that ends the race tells them; one that finds it ended by reading
        Redis (its bus may have missed them) tells its own audience, and whichever of
        the two reaches a process second is not told again (``HeldRoom.results_told``,
        ``RoomHost.on_bus``)."""
        if room.state != FINISHED or room.results_told == room.race:
            return
        room.results_told = room.race
        data = encode(
            {"type": "results", "code": room.code, "race": room.race, "results": room.results}
        )
        for session in self.host.audience(room):
            session.send_encoded(data)
        self.bus.publish_soon(store.room_channel(room.code), "results", f=[data], race=room.race)

    @staticmethod
    def counts(room: HeldRoom, entries: Sequence[tuple[Racer, g.LiveGame]]) -> bool:
        """Whether the race's win counts on the race boards: against someone, on a deal
        nobody chose."""
        return len(entries) >= 2 and (room.fixed_seed is None or room.race > 1)

    async def review_win(
        self,
        room: HeldRoom,
        results: list[dict[str, Any]],
        entries: Sequence[tuple[Racer, g.LiveGame]],
    ) -> None:
        """The pace check of a win that counts (``domain/pace.py``), before the results
        are kept: a win played faster than people play says so in the results
        (``review: held``), and :meth:`count_race_win` holds it for review rather than
        count it."""
        winner = results[0] if results else None
        if winner is None or winner["status"] != g.WON or not self.counts(room, entries):
            return
        gid = winner["replay"]
        log = await self.stored.read_log(gid)
        start = room.start_at_ms if room.start_at_ms is not None else 0
        check = await review.judge(self.ctx.reviews, gid, log, start)
        if check.fast:
            winner["review"] = review.HELD

    async def count_race_win(
        self, room: HeldRoom, entries: tuple[tuple[Racer, g.LiveGame], ...]
    ) -> None:
        """A race won counts on the race boards, against someone, on a deal nobody chose;
        one its pace check held (:meth:`review_win`) is kept for review instead, to be
        counted if an operator clears it."""
        winner = room.results[0] if room.results else None
        if not self.counts(room, entries) or winner is None or winner["status"] != g.WON:
            return
        name = winner["player"]
        pid = next(r.pid for r, _ in entries if r.name == name)
        now = self.now()
        boards = ("races/all", f"races/week/{d.iso_week(now)}")
        if winner.get("review") == review.HELD:
            await self._hold_win(room, winner["replay"], pid, name, now, boards)
            return

        async def count_win(board: Board) -> None:
            await self.boards.submit_count(board, pid, {"player": name}, now)
            await self.leaderboards.changed(board, pid)

        await asyncio.gather(
            *(count_win(parse_board(b, d.day_of(now), d.iso_week(now))) for b in boards)
        )

    async def _hold_win(
        self, room: HeldRoom, gid: str, pid: str, name: str, now: int, boards: tuple[str, ...]
    ) -> None:
        """Hold a race's win for review, with the counts it would have made (each
        counted once a game, when an operator clears it: ``review.clear``)."""
        start = room.start_at_ms if room.start_at_ms is not None else 0
        check = await review.judge(self.ctx.reviews, gid, await self.stored.read_log(gid), start)
        writes = [review.count_write(b, {"player": name}, now, gid) for b in boards]
        record = review.held_record(
            gid=gid,
            kind=g.RACE,
            pid=pid,
            name=name,
            rules=room.game_id,
            finished_ms=now,
            check=check,
            writes=writes,
            room=room.code,
            race=room.race,
        )
        if await self.ctx.reviews.hold(record, now) == review.CLEARED:
            for write in writes:  # (cleared before this was tried again: counted once)
                board = await review.put(self.boards, pid, write, now)
                if board is not None:
                    await self.leaderboards.changed(board, pid)
