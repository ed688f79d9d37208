"""The quick race: a public queue per game (``quick``, ``quick_leave``), players matched by
rating within a window that widens while they wait (``domain/quick.py``), and a room of 2
to ``quick_players`` made for them that starts by itself after the countdown, on a seed
drawn then (nobody knows the deal before). A player nobody is matched with within
``quick_ghosts_after`` seconds races ghosts instead: the replays of a recorded race of
players of a similar rating, on a deal they have not played (``quick_ghosts.py``).

The queue lives in Redis (``store/queue.py``): every process runs the matcher over it
every ``quick_tick`` seconds, and the script that takes a match's players out of the
queue runs once for them, whichever process runs it. That process makes the room and
tells the processes the players are connected to (the bus's ``quick`` notice), which take
the room and tell them. Each process keeps only its own connections' waits (for the
widening window they are told of, and the time to send them to the ghosts); a connection
that goes away leaves the queue. Leaving a quick race is resigning, as in any race.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import secrets
from typing import Any, Final

from server.engine import GAMES
from server.protocol import messages as m

from .. import store
from ..domain import quick as q
from ..domain import room as rm
from ..held import HeldRoom
from ..periodic import Periodic
from ..store.queue import MuSigma, OrdinalsOf, QuickQueue, Waiter, Window
from .base import Context, Handler, Part, Session, no_such_game
from .host import RoomHost
from .quick_ghosts import GhostRace
from .quick_where import Whereabouts
from .rooms import Lobby
from .steps import RoomSteps

log = logging.getLogger("patience.service")

#: the most ghosts a lone player races
GHOSTS: Final = 7
#: recorded races looked at on each side of the player's rating
NEAR: Final = 10
#: a waiter this many times ``quick_ghosts_after`` old is one whose process has gone
STALE_TIMES: Final = 3
#: ms a match's room takes to be made at most: a match that took a player longer ago and
#: made them no room failed (its process or Redis went away as it made it)
ROOM_DUE_MS: Final = 5000
#: seconds between looks for a room on its way, while a ``quick`` waits for it
ROOM_LOOK_S: Final = 0.02
#: days a ghost race's replay is kept after its end (as long as a challenge's)
REPLAY_DAYS: Final = 30
#: the requests that start something else (a solo game, a daily, a challenge, a room):
#: one who asks for one while waiting has chosen it, and leaves the queue
OTHER_STARTS: Final = (m.NewGame, m.Daily, m.ChallengeTake, m.RoomCreate, m.RoomJoin)


def starts_other(request: m.Request) -> bool:
    """Whether ``request`` starts something other than a quick race (a ``daily`` with
    ``start`` false only says what it would do)."""
    if isinstance(request, m.Daily):
        return request.start
    return isinstance(request, OTHER_STARTS)


class QuickRace(Part):
    def __init__(
        self,
        ctx: Context,
        host: RoomHost,
        steps: RoomSteps,
        lobby: Lobby,
        ratings: MuSigma,
        ghosts: GhostRace,
    ) -> None:
        super().__init__(ctx)
        self.host = host
        self.steps = steps
        self.lobby = lobby
        #: the ghost race of one nobody was matched with in time (``handlers/quick_ghosts.py``)
        self.ghosts = ghosts
        self.queue = QuickQueue(ctx.redis)
        self.where = Whereabouts(ctx.players, ctx.presence, ctx.stored_rooms, self.queue)
        # the players' ratings, as shown (the ratings' store: ``ctx.ratings``)
        self.ordinals = OrdinalsOf(ratings)
        s = ctx.settings
        self.rule = q.Rule(
            base=s.quick_window,
            widen=s.quick_widen,
            every_ms=int(s.quick_widen_every * 1000),
            most=s.quick_players,
            gather_ms=int(s.quick_gather * 1000),
        )
        #: the players connected here who wait: pid -> (game, joined ms, window told)
        self.waiting: dict[str, tuple[str, int, float]] = {}
        #: waiters here missing from the queue at the last passes: how many passes
        self.missing: dict[str, int] = {}
        #: players told of a match another process made, whose room is being held here:
        #: set once it is (a room made or joined meanwhile waits for it, to leave it)
        self.arriving: dict[str, asyncio.Event] = {}
        self.passes = Periodic(
            "the quick race's matcher", self.tick, lambda: s.quick_tick, ctx.failures
        )

    def requests(self) -> dict[type[m.Request], Handler]:
        return {m.Quick: self.on_quick, m.QuickLeave: self.on_quick_leave}

    def start(self) -> None:
        self.passes.start()

    def stop(self) -> list[asyncio.Task[None]]:
        """Stop the passes; their task, to await where a pass under way must be over."""
        passes = self.passes.stop()
        return [passes] if passes is not None else []

    def window_of(self) -> Window:
        r = self.rule
        stale = int(self.settings.quick_ghosts_after * 1000) * STALE_TIMES
        return Window(r.base, r.widen, r.every_ms, r.most, r.gather_ms, stale)

    # -- the requests ---------------------------------------------------------------------

    async def on_quick(self, session: Session, req: m.Quick) -> dict[str, Any]:
        pid = self.need_player(session)
        if req.game not in GAMES:
            raise no_such_game(req.game)
        if await self.lobby.leave_current(pid) is not None:  # (a race left is resigned)
            await self.queue.unmark(pid)  # (a match's room among them: it is left)
        rating = (await self.ordinals.ordinals(req.game, [pid]))[pid]
        now = self.now()
        # back within a minute of their link going, in the same queue: from their first
        # join (a phone whose link dropped every 15 s had waited afresh each time, and
        # its ghosts, 20 s on, never came)
        since = await self.queue.gone_since(pid, req.game, now)
        joining = min(since, now) if since is not None else now
        found = await self.queue.join(pid, req.game, rating, joining, now - ROOM_DUE_MS)
        if found is None:
            # a match took them a moment ago: its room, once here, is left as any is
            await self.room_on_its_way(pid)
            await self.lobby.leave_current(pid)
            await self.queue.unmark(pid)
            now = self.now()
            found = await self.queue.join(pid, req.game, rating, now, 0)
        joined = found[0] if found is not None else now
        if since is not None:
            await self.queue.came_back(pid)
        # (this process runs the matcher from now: a match made before its first pass
        # keeps its waiter)
        await self.queue.alive(self.proc, self.alive_s())
        window = self.rule.window(now - joined)
        self.waiting[pid] = (req.game, joined, window)
        return self.waiting_message(req.game, joined, rating, window)

    async def room_on_its_way(self, pid: str) -> None:
        """Wait, at most :data:`ROOM_DUE_MS`, for the room of the match that took the
        player to be held here (``matched_here``, or made here)."""
        until = self.now() + ROOM_DUE_MS  # (the server's clock, as the mark's)
        while self.host.racer_room(pid) is None and self.now() < until:
            await asyncio.sleep(ROOM_LOOK_S)

    def waiting_message(
        self, game: str, joined: int, rating: float, window: float
    ) -> dict[str, Any]:
        return {
            "type": "quick_waiting",
            "game": game,
            "rating": round(rating, 2),
            # (as every table shows it: the two decimals rounded again could say another)
            "rating_shown": round(rating),
            "window": window,
            "since": joined,
            "now": self.now(),
            "ghosts_at": joined + int(self.settings.quick_ghosts_after * 1000),
        }

    async def on_quick_leave(self, session: Session, req: m.QuickLeave) -> dict[str, Any]:
        pid = self.need_player(session)
        await self.queue.came_back(pid)  # (left by choice: a later join waits afresh)
        game = self.waiting.pop(pid, (None,))[0] or await self.queue.waiting_in(pid)
        left = bool(game) and await self.queue.take(pid, game or "")
        return {"type": "quick_left", "game": game, "waiting": False, "left": left}

    async def chose_other(self, pid: str) -> None:
        """The player, waiting here, started something else (:func:`starts_other`, done):
        they leave the queue, as a room made while waiting leaves the match (``busy``).
        A match that took them a moment before goes on to its room's ``busy`` look."""
        found = self.waiting.pop(pid, None)
        if found is not None:
            self.missing.pop(pid, None)
            await self.queue.take(pid, found[0])

    def went_away(self, pid: str) -> None:
        """The player's connection here has gone: they leave the queue (where a match has
        not taken them already)."""
        found = self.waiting.pop(pid, None)
        if found is not None and not self.ctx.stopping:
            self.spawn(self._take(pid, found[0], found[1], self.now()))

    async def _take(self, pid: str, game: str, joined: int, now: int) -> None:
        try:
            if await self.queue.take(pid, game):  # (back soon, they wait from ``joined``)
                await self.queue.gone(pid, game, joined, now)
        except Exception as exc:  # (the matcher drops one who is not online)
            self.failures.failed("a player leaving the quick queue", exc)

    # -- the matcher ----------------------------------------------------------------------

    async def tick(self) -> None:
        """One pass: every game's queue with players in it matched (whichever process
        runs it), then this process's waiters told of a wider window or sent to the
        ghosts. A process with nobody waiting here sends Redis nothing: each waiter's own
        process runs the matcher, which takes in the other processes' waiters too, and an
        idle server's connections to Redis stay idle (so that a connection that died
        silently meanwhile is found by its health check, not by a request)."""
        if not self.waiting:
            return
        await self.queue.alive(self.proc, self.alive_s())
        now = self.now()
        sizes = await self.queue.sizes(GAMES)
        window = self.window_of()
        for game, size in sizes.items():
            if size < 1:
                continue
            groups, _gone = await self.queue.match(game, now, window)
            for group in groups:
                await self.make_room(game, group)
        await self.look_at_waiters(now)

    def alive_s(self) -> int:
        """Seconds this process's mark of a running matcher lasts: three passes, and at
        least one second."""
        return max(1, math.ceil(3 * self.settings.quick_tick))

    async def look_at_waiters(self, now: int) -> None:
        after = int(self.settings.quick_ghosts_after * 1000)
        await self.find_lost()
        for pid, (game, joined, told) in list(self.waiting.items()):
            session = self.sessions.get(pid)
            if session is None:
                self.went_away(pid)
                continue
            if now - joined >= after:
                taken = await self.queue.take(pid, game)
                if taken and self.waiting.pop(pid, None) is not None:
                    self.missing.pop(pid, None)
                    await self.ghosts.race_ghosts(session, pid, game)
                # (else a match took them: its room's notice says so, or, where none
                # came of it, find_lost puts them back)
                continue
            window = self.rule.window(now - joined)
            if window != told:
                self.waiting[pid] = (game, joined, window)
                rating = (await self.ordinals.ordinals(game, [pid]))[pid]
                session.send(self.waiting_message(game, joined, rating, window))

    async def find_lost(self) -> None:
        """Waiters here whom the queue has lost: a Redis that came back without its data,
        or a match whose room was not made in :data:`ROOM_DUE_MS` (its process or Redis
        failed as it made it). Missing at two passes in a row (a match's notice takes
        milliseconds, not a pass), they are put back as they were, their wait's start
        kept; or, made after all (its notice lost), their room is taken up here."""
        if not self.waiting:
            return
        waits = {pid: w[0] for pid, w in self.waiting.items()}
        present = await self.queue.present(waits, self.now() - ROOM_DUE_MS)
        for pid, (game, joined, _told) in list(self.waiting.items()):
            if pid in present:
                self.missing.pop(pid, None)
                continue
            self.missing[pid] = self.missing.get(pid, 0) + 1
            if self.missing[pid] < 2:
                continue
            del self.missing[pid]
            rating = (await self.ordinals.ordinals(game, [pid]))[pid]
            code = await self.where.room_racing(pid) or await self.where.noted_racing(pid)
            if code is not None:
                await self.matched_here({"pid": pid, "code": code, "joined": joined,
                                         "rating": rating})  # fmt: skip
            elif pid in self.waiting:
                await self.queue.put_back(game, [Waiter(pid, joined, rating)])

    async def make_room(self, game: str, group: list[Waiter]) -> None:
        """A room for a match taken out of the queue: those still connected race (the
        others are gone); one left alone goes back to the queue as they were."""
        pids = [w.pid for w in group]
        online = {p for p in pids if p in self.sessions}
        online |= await self.where.elsewhere([p for p in pids if p not in online])
        busy = await self.where.busy([p for p in pids if p in online])
        racers = [w for w in group if w.pid in online and w.pid not in busy]
        if len(racers) < 2:
            await self.queue.put_back(game, racers)
            return
        players = []
        for w in racers:
            session = self.sessions.get(w.pid)
            name = session.name if session is not None else None
            players.append((w.pid, name or await self.players.name_of(w.pid) or "?"))
        code = await self.stored_rooms.claim_new_code()
        # (where the match goes, should its news be lost: ``find_lost`` reads it)
        await self.queue.note_room([w.pid for w in racers], code, self.window_of().stale_ms)
        now = self.now()
        room = HeldRoom(
            code=code,
            game_id=game,
            host=players[0][0],
            max_players=len(players),
            time_limit=self.settings.quick_time_limit,
            created_ms=now,
            quick=True,
        )
        seed = secrets.randbits(64)
        countdown = int(self.settings.countdown * 1000)

        def start(room: HeldRoom) -> list[rm.Effect]:
            # (the room told after quick_matched, below: not in the step)
            effects = rm.quick_start(room, players, now, countdown, seed)
            return [e for e in effects if not isinstance(e, rm.Announce)]

        await self.steps.step(room, start)
        for w in racers:
            self.waiting.pop(w.pid, None)
            session = self.sessions.get(w.pid)
            if session is not None:
                session.send(self.matched_message(room, w))
                continue
            proc = await self.presence.where(w.pid)
            if proc is not None and proc != self.proc:
                self.bus.publish_soon(
                    store.proc_channel(proc),
                    "quick",
                    pid=w.pid,
                    code=code,
                    rating=w.rating,
                    joined=w.joined_ms,
                    # (what quick_matched says, sent before the room is held there)
                    game=game,
                    players=[name for _, name in players],
                    start_at=room.start_at_ms,
                )
        await self.host.announce(room)

    def matched_message(self, room: HeldRoom, waiter: Waiter) -> dict[str, Any]:
        return {
            "type": "quick_matched",
            "game": room.game_id,
            "code": room.code,
            "players": [r.name for r in room.members()],
            "waited": max(self.now() - waiter.joined_ms, 0),
            "start_at": room.start_at_ms,
        }

    def on_bus(self, data: dict[str, Any]) -> None:
        """Another process matched a player connected here: hold their room, tell them
        (on a task of its own: holding a room subscribes to its channel, which the bus's
        reader, running this, must be free to do)."""
        self.spawn(self.matched_here(data))

    async def matched_here(self, data: dict[str, Any]) -> None:
        """``quick_matched`` to the player, then their room (held here, which brings its
        events): the match's notice says what the first needs, sent before the room is
        held (its events had come first); one without it (a room found in Redis) waits
        for the room."""
        pid, code = data.get("pid", ""), data.get("code", "")
        under_way = self.arriving.get(pid)
        if under_way is not None:
            # being taken up here already (``find_lost`` and the match's notice at once,
            # on a loaded machine): once it is, this one finds it told (it had been told
            # twice)
            await under_way.wait()
        session = self.sessions.get(pid)
        waited = self.waiting.pop(pid, None) is not None
        other = self.host.racer_room(pid)
        if other is not None and other.code == code and not waited:
            return  # told already: taken up here (``find_lost``) before this news came
        if other is not None and other.code != code:
            # they made or joined a room since the match took them: they chose it, and
            # leave the match's (as one in another room is left out of a match)
            room = await self.host.get(code)
            if room is not None and room.racers.get(pid) is not None:
                await self.lobby.leave(pid, room)
            return
        arrived = self.arriving[pid] = asyncio.Event()
        try:
            await self._matched_here(pid, code, session, data)
        finally:
            if self.arriving.get(pid) is arrived:
                del self.arriving[pid]
            arrived.set()

    async def until_arrived(self, pid: str) -> None:
        """Wait (at most :data:`ROOM_DUE_MS`) for the room of the player's match, told
        here a moment ago, to be held here: a request that leaves the player's room
        (making or joining another) leaves it, not a room half told."""
        arriving = self.arriving.get(pid)
        if arriving is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(arriving.wait(), ROOM_DUE_MS / 1000)

    async def _matched_here(
        self, pid: str, code: str, session: Session | None, data: dict[str, Any]
    ) -> None:
        waiter = Waiter(pid, int(data.get("joined", 0)), float(data.get("rating", 0)))
        told = session is not None and isinstance(data.get("players"), list)
        if session is not None and told:
            session.send({
                "type": "quick_matched",
                "game": data.get("game"),
                "code": code,
                "players": data.get("players"),
                "waited": max(self.now() - waiter.joined_ms, 0),
                "start_at": data.get("start_at"),
            })  # fmt: skip
        room = await self.host.get(code)
        if room is None:
            return
        self.room_of[pid] = code
        if session is not None:
            if not told:
                session.send(self.matched_message(room, waiter))
            session.send(await self.host.room_message(room))
        if room.state == rm.RACING:
            await self.steps.send_race_starts(room)

    async def resume_wait(self, pid: str) -> dict[str, Any] | None:
        """The player's wait in a quick race's queue, taken up here at their sign-in, for
        ``welcome.resume.quick_waiting`` (as ``quick_waiting`` says it, their wait's
        start kept). The process they waited through stopped (a rolling restart keeps
        its waiters in the queue, to come back) and this one runs the matcher for them
        from now: it had not known they waited, and the matcher dropped them, as
        connected to a stopped process, with nothing said."""
        if pid in self.waiting:
            return None  # (waiting here already: another connection of theirs)
        game = await self.queue.waiting_in(pid)
        if game is None:
            return None
        rating = (await self.ordinals.ordinals(game, [pid]))[pid]
        now = self.now()
        found = await self.queue.join(pid, game, rating, now, now - ROOM_DUE_MS)
        if found is None:
            return None  # (a match took them a moment ago: its room on its way)
        joined = found[0]
        await self.queue.alive(self.proc, self.alive_s())
        window = self.rule.window(now - joined)
        self.waiting[pid] = (game, joined, window)
        return self.waiting_message(game, joined, rating, window)
