"""The one way a room changes (:meth:`RoomSteps.step`): take the room's lock, run a step
of its state machine (``server.app.domain.room``, whose docstring tables a room's life),
carry out the effects the step returns, in order, then what comes after the lock. Every
change goes through it: the requests (``handlers/rooms.py``), the countdown's end and the
time limit (the room's timer: ``RoomDue``), a racer's game ending (``GameEnded``), the end
of a race, housekeeping's forfeits and a host going away.

The race's own steps live here too: its start (``race_start`` to each racer) and its end
(ranking, the results and replays kept, the time-outs a time limit writes)."""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .. import store
from ..domain import games as g
from ..domain import room as rm
from ..domain.results import rank
from ..domain.room import COUNTDOWN, RACING, Racer, RoomConflict
from ..events import GameEnded, RoomDue
from ..held import HeldRoom
from ..store import ENDING_CLAIM_MS
from .base import Context, Part
from .host import RoomHost
from .keeper import GameKeeper
from .races import Races
from .ratings import RaceRatings
from .replays import Replaying

log = logging.getLogger("patience.service")

#: a step of the machine run under the room's lock: the effects to carry out (it may read
#: what it needs first: a coroutine function is awaited)
Change = Callable[[HeldRoom], "list[rm.Effect] | Awaitable[list[rm.Effect]]"]
Entries = list[tuple[Racer, g.LiveGame]]


def race_message(room: HeldRoom, live: g.LiveGame) -> dict[str, Any]:
    """``race_start``: the race's times and the racer's game."""
    return {
        "type": "race_start",
        "code": room.code,
        "race": room.race,
        "start_at": room.start_at_ms,
        "end_at": room.end_at_ms,
        **live.snapshot_message(),
    }


class RoomSteps(Part):
    def __init__(
        self,
        ctx: Context,
        host: RoomHost,
        races: Races,
        keeper: GameKeeper,
        replaying: Replaying,
        ratings: RaceRatings,
    ) -> None:
        super().__init__(ctx)
        self.ratings = ratings
        self.host = host
        self.races = races
        self.keeper = keeper
        self.replaying = replaying
        ctx.events.on_async(RoomDue, self.on_due)
        ctx.events.on(GameEnded, self.on_game_ended)

    # -- the entry ------------------------------------------------------------------------

    async def step(self, room: HeldRoom, change: Change) -> dict[str, Any] | None:
        """Change ``room`` by one step: under its lock, ``change`` (the machine's step,
        after reading what it needs) says what to do, and it is carried out
        (:meth:`carry_out`); then what comes after the lock (:meth:`after`). Returns the
        room's state as its audience was told it (None: not told). A refusal
        (``ProtocolError``) leaves the room as it was; :class:`RoomConflict` (another
        process changed it first) too, and so does another process's state heard on the
        bus while ``change`` was worked out (it waited on Redis): a change made on the
        room as it was is never written over the room as it is."""
        async with self.host.locked(room):
            seen = room.version
            effects = change(room)
            if inspect.isawaitable(effects):
                effects = await effects
            message = await self.carry_out(room, effects, seen)
        await self.after(room, effects)
        return message

    async def request(self, room: HeldRoom, change: Change) -> dict[str, Any]:
        """:meth:`step` for a request: the reply is the room's state (as told, or as it
        stands)."""
        message = await self.step(room, change)
        return message if message is not None else await self.host.room_message(room)

    async def carry_out(
        self, room: HeldRoom, effects: list[rm.Effect], seen: int
    ) -> dict[str, Any] | None:
        """Carry out, in order, what a step of the room's state machine says; the caller
        holds the room's lock, and worked the step out on the room at version ``seen``.
        Returns the room's state as told to its audience (``Announce``; None without one).

        Whatever fails takes the copy back to its state in Redis (:meth:`Room.roll_back`),
        and the games dealt for a race never written are let go. What comes after the lock
        (``TellStarted``, ``CheckEnd``) is :meth:`after`'s."""
        host = self.host
        message: dict[str, Any] | None = None
        dealt: list[g.LiveGame] = []
        written = False
        blob = b""
        try:
            for effect in effects:
                if isinstance(effect, rm.Resign):
                    live = await self.keeper.get_game(effect.gid)
                    if live is not None and not live.finished:
                        await self.keeper.resign(live, room)
                elif isinstance(effect, rm.Deal):
                    dealt = await self.deal(room, effect)
                elif isinstance(effect, rm.KeepResults):
                    await self.keep_results(room, effect.entries)
                elif isinstance(effect, rm.Persist):
                    blob = await host.persist(room, notice=effect.notice, expect=seen)
                    written = True
                    seen = room.version
                elif isinstance(effect, rm.Publish):
                    self.bus.publish_soon(store.room_channel(room.code), effect.notice, room=blob)
                elif isinstance(effect, rm.Hold):
                    await host.hold(room)
                elif isinstance(effect, rm.Seat):
                    self.room_of[effect.pid] = room.code
                    await self.players.set_room(effect.pid, room.code)
                elif isinstance(effect, rm.Unseat):
                    await self.players.clear_room(effect.pid)
                    self.room_of.pop(effect.pid, None)
                elif isinstance(effect, rm.CountWin):
                    try:
                        await self.races.count_race_win(room, effect.entries)
                    except Exception as exc:  # the race is over all the same
                        self.failures.failed("counting a race's win", exc, room=room.code)
                elif isinstance(effect, rm.TellResults):
                    self.races.send_progress(room)  # the last standings before the results
                    self.races.tell_results(room)
                elif isinstance(effect, rm.Close):
                    await host.close(room, expect=seen)
                elif isinstance(effect, rm.Arm):
                    host.schedule(room)
                elif isinstance(effect, rm.Announce):
                    message = await host.announce(room)
        except BaseException:
            room.roll_back()
            if not written:  # no race: its games, never named by the room, lapse
                for live in dealt:
                    self.games.pop(live.gid, None)
            raise
        return message

    async def after(self, room: HeldRoom, effects: list[rm.Effect]) -> None:
        """What a step says to do once the room's lock is let go."""
        for effect in effects:
            if isinstance(effect, rm.TellStarted):
                # the start is written: telling the racers is tried until it goes through
                await self.host.until_done("race start", room, self.tell_started)
            elif isinstance(effect, rm.CheckEnd):
                await self.maybe_end_race(room)

    async def hand_over(self, room: HeldRoom, pid: str) -> None:
        """The host has gone away: their part passes on (``domain.room.host_away``) to one
        who is here (the caller has seen that they are not)."""
        if room.state not in (rm.LOBBY, rm.FINISHED) or room.host != pid:
            return
        online = await self.ctx.online(room.members())
        try:
            await self.step(room, lambda room: rm.host_away(room, pid, online))
        except RoomConflict:
            await self.host.reload(room.code)

    async def deal(self, room: HeldRoom, deal: rm.Deal) -> list[g.LiveGame]:
        """Every racer's game of the race, and the room's standings, written in one round
        trip; each racer's ``gid`` set."""
        room.progress_due.clear()
        ttl = self.settings.idle_ttl
        dealt = [
            g.dealt(
                room.game_id, deal.seed, pid, g.RACE, deal.at_ms, room=room.code, race=deal.race
            )
            for pid in deal.pids
        ]
        await self.stored.create_race(room.code, dealt, ttl)
        for live in dealt:
            self.games[live.gid] = live
            room.racers[live.owner].gid = live.gid
        return dealt

    # -- what tells the steps -------------------------------------------------------------

    async def on_due(self, event: RoomDue) -> None:
        """The room's timer: the countdown is over, or the race's time is up."""
        room = event.room
        if room.state == COUNTDOWN:
            await self.start_race(room)
        elif room.state == RACING:
            await self.time_up(room)

    def on_game_ended(self, event: GameEnded) -> None:
        """A racer's game ended: the race may be over (tried until it goes through)."""
        room = event.room
        if room is not None and rm.racer_finished(room):
            self.spawn(self.host.until_done("ending a race", room, self.maybe_end_race))

    # -- the race's start -----------------------------------------------------------------

    async def start_race(self, room: HeldRoom) -> None:
        """The countdown is over (``domain.room.countdown_due``: late, where Redis was
        away at the start, it starts now: nobody could play meanwhile)."""
        try:
            await self.step(room, lambda room: rm.countdown_due(room, self.now()))
        except RoomConflict:  # another process started it (its notice says so too)
            await self.host.reload(room.code)  # (which arms the time limit's timer)
            if room.state == RACING:
                await self.host.until_done("race start", room, self.tell_started)

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
                fresh = racer.gid not in self.games
                live = await self.keeper.get_game(racer.gid, fresh=fresh)
                if live is not None and room.race == race:
                    session.send(race_message(room, live))
                    sent = sent | {racer.pid}
                    room.starts_sent = (race, sent)

    # -- the race's end -------------------------------------------------------------------

    async def _race_entries(self, room: HeldRoom) -> Entries:
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

    async def _end(self, room: HeldRoom, entries: Entries) -> list[rm.Effect]:
        """The machine's ``end``: the racers ranked, a host who is not here replaced."""
        assert room.start_at_ms is not None
        ranked = rank(entries, room.start_at_ms)
        await self.races.review_win(room, ranked, entries)
        await self.ratings.rate(room, ranked, entries)  # (once a race: handlers/ratings.py)
        online = await self.ctx.online(room.members())
        return rm.end(room, ranked, online, tuple(entries))

    async def maybe_end_race(self, room: HeldRoom) -> None:
        """End the race if every racer has finished. Several processes may find it over
        at once: the compare-and-set on the room lets one of them end it."""

        async def check_end(room: HeldRoom) -> list[rm.Effect]:
            if room.state != RACING:
                return []
            entries = await self._race_entries(room)
            if any(not live.finished for _, live in entries):
                return []
            return await self._end(room, entries)

        try:
            await self.step(room, check_end)
        except RoomConflict:  # another process ended it
            await self.ended_elsewhere(room)

    async def time_up(self, room: HeldRoom) -> None:
        """The race's time is up: the games not ended time out (in their logs), and the
        race ends. Every process holding the room gets here: one at a time writes the
        time-outs (each takes the games' fencing tokens, and two taking turns would fence
        each other out), the others look again once its claim lapses."""
        claimed = False

        async def time_out(room: HeldRoom) -> list[rm.Effect]:
            nonlocal claimed
            if room.state != RACING:
                return []
            claim = await self.stored_rooms.claim_ending(room.code)
            if claim != "ours":
                wait = 1000 if claim == "lapsed" else ENDING_CLAIM_MS + 1000
                self.host.again_at(room, self.now() + wait, self.time_up)
                return []
            claimed = True
            await self._time_out_games(room)
            entries = await self._race_entries(room)
            if all(live.finished for _, live in entries):
                return await self._end(room, entries)
            # a game was taken meanwhile (its player came back): again
            self.host.again_at(room, self.now() + 1000, self.time_up)
            return []

        try:
            await self.step(room, time_out)
        except RoomConflict:  # another process ended it
            await self.ended_elsewhere(room)
        finally:
            if claimed:
                await self.stored_rooms.release_ending(room.code)

    async def ended_elsewhere(self, room: HeldRoom) -> None:
        """Another process changed the room first (it ended the race): the room is read
        again, and its results told here if its bus has not told them yet (they may have
        been published while this process could not hear)."""
        fresh = await self.host.reload(room.code)
        if fresh is not None:
            self.races.tell_results(fresh)

    async def _time_out_games(self, room: HeldRoom) -> None:
        """Every racer's game not ended times out at the race's end, in its log too, so a
        restart rebuilds it as ended; a time-out not logged is taken back, to be logged
        when this is tried again."""
        end = room.end_at_ms or self.now()
        timed_out = []
        for racer in room.racers.values():
            if racer.gid is None:
                continue
            # taken here, wherever it was played: the time-out goes into its log
            local = racer.pid in self.sessions and racer.gid in self.games
            live = await self.keeper.get_game(racer.gid, fresh=not local)
            if live is not None and not live.finished:
                live.finish(g.TIMEOUT, end)
                timed_out.append(live)
        logged = await asyncio.gather(
            *(self.keeper.log(live, f"{end} {g.TIMEOUT_ENTRY}") for live in timed_out),
            return_exceptions=True,
        )
        failed = [e for e in logged if isinstance(e, BaseException)]
        for live, outcome in zip(timed_out, logged, strict=True):
            if isinstance(outcome, BaseException):
                live.result = live.finished_ms = None
        if failed:
            raise failed[0]

    async def keep_results(
        self, room: HeldRoom, entries: tuple[tuple[Racer, g.LiveGame], ...]
    ) -> None:
        """The results and every racer's replay, kept for good (written again the same if
        the end is tried again, or by another process ending the race too)."""
        results = {
            "code": room.code,
            "race": room.race,
            "game": room.game_id,
            "seed": room.seed,
            "start_at": room.start_at_ms,
            "results": room.results,
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
                        "hints_allowed": room.hints,
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

    async def settle(self, room: HeldRoom) -> None:
        """End a race whose time is up, or whose racers have all finished."""
        if room.state == RACING:
            end = room.end_at_ms
            if end is not None and self.now() >= end:
                await self.time_up(room)
            else:
                await self.maybe_end_race(room)
