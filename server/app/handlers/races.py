"""A race from its start to its results: the start (``race_start`` to each racer), the
racers' progress, the time limit, the end (ranking, replays, the results)."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from server.protocol import encode

from .. import store
from ..domain import daily as d
from ..domain import games as g
from ..domain import room as rm
from ..domain.boards import Board, parse_board
from ..domain.room import (
    RACING,
    Racer,
    RoomConflict,
    rank,
)
from ..store import (
    ENDING_CLAIM_MS,
)
from ..store.rooms import Standing
from .base import Part
from .host import HeldRoom

if TYPE_CHECKING:
    from ..service import Service

log = logging.getLogger("patience.service")


class Races(Part):
    def __init__(self, app: Service) -> None:
        super().__init__(app)
        #: rooms with progress events waiting for the next tick, and the tick's timer
        self._progress_rooms: dict[str, HeldRoom] = {}
        self._progress_timer: asyncio.TimerHandle | None = None

    def stop(self) -> None:
        """Stop the progress tick (the server is stopping)."""
        if self._progress_timer is not None:
            self._progress_timer.cancel()

    def race_message(self, room: HeldRoom, live: g.LiveGame) -> dict[str, Any]:
        return {
            "type": "race_start",
            "code": room.code,
            "race": room.race,
            "start_at": room.start_at_ms,
            "end_at": room.end_at_ms,
            **live.snapshot_message(),
        }

    async def start_race(self, room: HeldRoom) -> None:
        """The countdown is over (``domain.room.countdown_due``: late, where Redis was
        away at the start, it starts now: nobody could play meanwhile)."""
        async with self.host.locked(room):
            effects = rm.countdown_due(room, self.now())
            if not effects:
                return
            try:
                await self.host.carry_out(room, effects)
            except RoomConflict:  # another process started it (its notice says so too)
                await self.host.reload(room.code)  # (which arms the time limit's timer)
                if room.state != RACING:
                    return
        await self.host.after(room, effects)

    async def tell_started(self, room: HeldRoom) -> None:
        await self.send_race_starts(room)
        await self.host.announce(room)

    async def send_race_starts(self, room: HeldRoom) -> None:
        """``race_start`` to each racer connected here, with their game (taken here),
        once a race each (a racer whose game could not be read is sent theirs when this
        is called again).

        Single-flight: two callers at once (the bus's start message and this process's
        countdown timer) take turns, and the second finds the starts sent. Each racer's
        game is taken once, under one new fencing token; two takes at once could leave
        the copy held here with the older token, and the racer's first move refused."""
        async with room.starts_lock:
            race, sent = room.starts_sent
            if race != room.race:
                race, sent = room.race, frozenset()
            for racer in room.members():
                session = self.sessions.get(racer.pid)
                if session is None or racer.gid is None or racer.pid in sent:
                    continue
                live = await self.play.get_game(racer.gid, fresh=racer.gid not in self.games)
                if live is not None and room.race == race:
                    session.send(self.race_message(room, live))
                    sent = sent | {racer.pid}
                    room.starts_sent = (race, sent)

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
        if live.finished and rm.racer_finished(room):  # (CheckEnd, tried until it goes through)
            self.spawn(self.host.until_done("ending a race", room, self.maybe_end_race))

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

    async def _race_entries(self, room: HeldRoom) -> list[tuple[Racer, g.LiveGame]]:
        """Every racer dealt into the race, with their game: this process's copy where it
        is played here, else as its log in Redis has it (the truth)."""
        entries = []
        for racer in room.racers.values():
            if racer.gid is None:
                continue
            live = self.games.get(racer.gid) if racer.pid in self.sessions else None
            if live is None:
                live = await self.stored.load(racer.gid, fence=False)
            if live is not None:
                entries.append((racer, live))
        return entries

    async def maybe_end_race(self, room: HeldRoom) -> None:
        async with self.host.locked(room):
            if room.state != RACING:
                return
            entries = await self._race_entries(room)
            if any(not live.finished for _, live in entries):
                return
            await self._end_race(room, entries)

    async def time_up(self, room: HeldRoom) -> None:
        async with self.host.locked(room):
            if room.state != RACING:
                return
            # every process holding the room gets here: one at a time writes the
            # time-outs (each takes the games' fencing tokens, and two taking turns
            # would fence each other out), the others look again once its claim lapses
            claim = await self.stored_rooms.claim_ending(room.code)
            if claim != "ours":
                wait = 1000 if claim == "lapsed" else ENDING_CLAIM_MS + 1000
                self.host.again_at(room, self.now() + wait, self.time_up)
                return
            try:
                end = room.end_at_ms or self.now()
                timed_out = []
                for racer in room.racers.values():
                    if racer.gid is None:
                        continue
                    # taken here, wherever it was played: the time-out goes into its log
                    local = racer.pid in self.sessions and racer.gid in self.games
                    live = await self.play.get_game(racer.gid, fresh=not local)
                    if live is not None and not live.finished:
                        live.finish(g.TIMEOUT, end)
                        timed_out.append(live)
                # in the log too, so a restart rebuilds these games as ended; a time-out
                # not logged is taken back, to be logged when this is tried again
                logged = await asyncio.gather(
                    *(self.play.log(live, f"{end} {g.TIMEOUT_ENTRY}") for live in timed_out),
                    return_exceptions=True,
                )
                failed = [e for e in logged if isinstance(e, BaseException)]
                for live, outcome in zip(timed_out, logged, strict=True):
                    if isinstance(outcome, BaseException):
                        live.result = live.finished_ms = None
                if failed:
                    raise failed[0]
                entries = await self._race_entries(room)
                if all(live.finished for _, live in entries):
                    await self._end_race(room, entries)
                else:  # a game was taken meanwhile (its player came back): again
                    self.host.again_at(room, self.now() + 1000, self.time_up)
            finally:
                await self.stored_rooms.release_ending(room.code)

    async def _end_race(self, room: HeldRoom, entries: list[tuple[Racer, g.LiveGame]]) -> None:
        """Rank, store the results for good, and tell everyone. Caller holds the lock.
        Several processes may find the race over at once: the compare-and-set on the
        room lets one of them end it."""
        assert room.start_at_ms is not None
        ranked = rank(entries, room.start_at_ms)
        # kept for good first, the results and the replays (written again the same if
        # this is tried again, or by another process ending the race too), then the
        # room's change that says the race is over: once that is written, nothing is left
        # undone for a retry to find
        results = {
            "code": room.code,
            "race": room.race,
            "game": room.game_id,
            "seed": room.seed,
            "start_at": room.start_at_ms,
            "results": ranked,
        }
        await self.replaying.keep_all(
            [
                (
                    live,
                    {
                        "player": racer.name,
                        "room": room.code,
                        "race": room.race,
                        "start_ms": room.start_at_ms,
                    },
                )
                for racer, live in entries
            ],
            self.stored_rooms.results_commands(
                room.code,
                room.race,
                results,
                [live.gid for _, live in entries],
                self.settings.ended_ttl,
            ),
        )
        online = await self.accounts.online(room.members())
        rm.end(room, ranked, online)  # (says to write it, without a notice: done here)
        try:
            blob = await self.host.persist(room, notice=None)
        except RoomConflict:  # another process ended it
            await self.host.reload(room.code)
            return
        if room.timer is not None and room.timer is not asyncio.current_task():
            room.timer.cancel()
        room.timer = None
        try:
            await self._count_race_win(room, entries)
        except Exception as exc:  # the race is over all the same: its racers are told
            self.failures.failed("counting a race's win", exc, room=room.code)
        self.send_progress(room)  # the last standings before the results
        self.tell_results(room)
        self.bus.publish_soon(store.room_channel(room.code), "room", room=blob)
        await self.host.announce(room)

    def tell_results(self, room: HeldRoom) -> None:
        """``results`` to the room's audience here."""
        self.host.broadcast(
            room,
            {"type": "results", "code": room.code, "race": room.race, "results": room.results},
        )

    async def _count_race_win(
        self, room: HeldRoom, entries: list[tuple[Racer, g.LiveGame]]
    ) -> None:
        """A race won counts on the race boards, against someone, on a deal nobody chose."""
        winner = room.results[0] if room.results else None
        counts = len(entries) >= 2 and (room.fixed_seed is None or room.race > 1)
        if not counts or winner is None or winner["status"] != g.WON:
            return
        name = winner["player"]
        pid = next(r.pid for r, _ in entries if r.name == name)
        now = self.now()

        async def count_win(board: Board) -> None:
            await self.boards.submit_count(board, pid, {"player": name}, now)
            await self.leaderboards.changed(board, pid)

        await asyncio.gather(
            *(
                count_win(parse_board(board_id, d.day_of(now), d.iso_week(now)))
                for board_id in ("races/all", f"races/week/{d.iso_week(now)}")
            )
        )

    async def settle(self, room: HeldRoom) -> None:
        """End a race whose time is up, or whose racers have all finished."""
        if room.state == RACING:
            end = room.end_at_ms
            if end is not None and self.now() >= end:
                await self.time_up(room)
            else:
                await self.maybe_end_race(room)
