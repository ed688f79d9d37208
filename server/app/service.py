"""The race service: the app's parts put together, independent of the transport.

Each capability is a part of its own in ``server.app.handlers`` (players and sign-in,
play, hints, rooms, races, the daily challenge, leaderboards, replays, housekeeping, and
the room host that holds the rooms); each declares the requests it answers, and :class:`Service`
merges them, refusing a request two parts answer. The service holds what the parts
share: the connections, the games and rooms held in this process, the repositories
(``server.app.store``), the bus to the other processes.

A session (:class:`~server.app.handlers.base.Session`) is one client connection as the
service sees it: it can be sent messages and closed. The websocket layer makes one per
connection and hands every decoded request to :meth:`Service.handle`, which returns the
reply.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterable
from typing import Any, Protocol

from server.protocol import ErrorCode, ProtocolError
from server.protocol import messages as m

from . import store
from .context import Context, Session, told
from .domain.room import RoomConflict
from .handlers.base import Handler, Part
from .handlers.boards import Leaderboards
from .handlers.certify import Certifier
from .handlers.challenges import Challenging
from .handlers.commitments import Commitments
from .handlers.daily import DailyChallenge
from .handlers.devices import Linking
from .handlers.difficulty import Grader
from .handlers.ghosts import BoardGhosts
from .handlers.groups import Grouping
from .handlers.hints import Hints
from .handlers.home import Homing
from .handlers.host import RoomHost
from .handlers.housekeeping import Housekeeping
from .handlers.keeper import GameKeeper
from .handlers.leagues import WeeklyEvents
from .handlers.names import Naming
from .handlers.play import Play, rules_text
from .handlers.players import Accounts
from .handlers.quick import QuickRace, starts_other
from .handlers.quick_ghosts import GhostRace
from .handlers.races import Races
from .handlers.ratings import RaceRatings
from .handlers.replays import Replaying
from .handlers.review import Reviewing
from .handlers.rooms import Lobby
from .handlers.steps import RoomSteps
from .handlers.stuck import StuckWatch
from .moves import MovePath
from .settings import Settings

__all__ = ["Service", "Session", "rules_text"]


class Answering(Protocol):
    """What the table reads of a part: the requests it answers (``Part.requests``)."""

    def requests(self) -> dict[type[m.Request], Handler]: ...


def request_table(
    parts: Iterable[Answering], requests: Iterable[type[m.Request]]
) -> dict[type[m.Request], Handler]:
    """Every part's requests in one table. A request two parts answer, or one of
    ``requests`` (the protocol's) that none answers, is a mistake, refused here
    (:class:`ValueError`) rather than answered by whichever came last, or ``internal_error``
    at run time."""
    table: dict[type[m.Request], Handler] = {}
    answered_by: dict[type[m.Request], str] = {}
    for part in parts:
        name = type(part).__name__
        for kind, handler in part.requests().items():
            if kind in table:
                raise ValueError(
                    f"{kind.__name__} is answered by both {answered_by[kind]} and {name}"
                )
            table[kind] = handler
            answered_by[kind] = name
    unanswered = sorted(kind.__name__ for kind in requests if kind not in table)
    if unanswered:
        raise ValueError(
            f"answered by no part: {', '.join(unanswered)} (a part's ``requests`` names "
            "each request it answers)"
        )
    return table


#: how many times the catch-up after the bus hears again is tried (:meth:`Service.on_bus_back`)
BACK_TRIES = 3
#: requests that leave the player's room for another (a quick race's room being told
#: them, made elsewhere, is waited for first: it is the room they leave)
LEAVING = (m.RoomCreate, m.RoomJoin)


class Service:
    """The app put together: each part built with what it uses, lowest first (no part is
    given one built after it: what would call back up is an event, ``server.app.events``,
    subscribed to where the part that hears it is built)."""

    def __init__(self, settings: Settings, redis: store.RedisClient) -> None:
        self.settings = settings
        self.redis = redis
        self.ctx = ctx = Context(settings, redis, self.on_bus, self.on_bus_back)
        self.clock = ctx.clock
        self.commit = ctx.commit
        self.sessions = ctx.sessions
        self.games = ctx.games
        self.rooms = ctx.rooms
        self.proc = ctx.proc
        self.bus = ctx.bus
        self.failures = ctx.failures
        self.workers = ctx.workers
        self.room_of, self.solo_of = ctx.room_of, ctx.solo_of
        #: the repositories
        self.players, self.dailies, self.presence = ctx.players, ctx.dailies, ctx.presence
        self.replays, self.stored, self.boards = ctx.replays, ctx.stored, ctx.boards
        self.stored_rooms = ctx.stored_rooms
        #: the parts, one a capability, each given the parts it calls
        self.keeper = GameKeeper(ctx)
        self.stuck = StuckWatch(ctx)
        self.moves = MovePath(
            ctx.games,
            ctx.rooms,
            settings,
            ctx.clock,
            ctx.commit,
            self.keeper,
            self.stuck,
            ctx.events,
        )
        self.replaying = Replaying(ctx)
        self.challenging = Challenging(ctx, self.keeper, self.replaying)
        self.leaderboards = Leaderboards(ctx)
        self.certifier = Certifier(ctx)
        self.commitments = Commitments(ctx, self.certifier)
        self.grader = Grader(ctx)  # the daily deals' difficulty (handlers/difficulty.py)
        self.board_ghosts = BoardGhosts(ctx)
        self.daily = DailyChallenge(
            ctx,
            self.keeper,
            self.leaderboards,
            self.certifier,
            self.replaying,
            self.board_ghosts,
            self.commitments,
        )
        self.play = Play(ctx, self.keeper, self.daily, self.moves)
        self.hints = Hints(ctx, self.keeper, self.daily, self.moves)
        self.homing = Homing(ctx, self.keeper, self.daily, self.play, self.moves)
        self.host = RoomHost(ctx)
        self.races = Races(ctx, self.host, self.leaderboards)
        self.ratings = RaceRatings(ctx, self.leaderboards)  # (handlers/ratings.py)
        self.steps = RoomSteps(
            ctx, self.host, self.races, self.keeper, self.replaying, self.ratings
        )
        self.lobby = Lobby(ctx, self.host, self.steps)
        self.accounts = Accounts(
            ctx, self.keeper, self.host, self.steps, self.leaderboards, self.challenging
        )
        self.housekeeping = Housekeeping(
            ctx, self.host, self.steps, self.races, self.keeper, self.daily, self.accounts.book
        )
        self.naming = Naming(ctx, self.host, self.steps)
        self.weekly = WeeklyEvents(ctx)  # weekly events and leagues (handlers/leagues.py)
        self.grouping = Grouping(ctx, self.leaderboards, self.challenging)  # handlers/groups.py
        # the quick race's ghosts (handlers/quick_ghosts.py), and its queue and matcher
        self.ghost_race = GhostRace(ctx, ctx.ratings, self.keeper, self.replaying)
        self.quick = QuickRace(ctx, self.host, self.steps, self.lobby, ctx.ratings, self.ghost_race)
        self.accounts.resumers["quick"] = self.ghost_race.resume  # (a ghost race, taken up)
        self.accounts.resumers["quick_waiting"] = self.quick.resume_wait  # (a wait in its queue)
        self.reviewing = Reviewing(ctx, self.replaying)  # post-game reviews (handlers/review.py)
        self.parts: tuple[Part, ...] = (
            self.accounts,
            Linking(ctx, self.accounts),  # link codes and devices (handlers/devices.py)
            self.keeper,
            self.play,
            self.hints,
            self.host,
            self.steps,
            self.lobby,
            self.races,
            self.daily,
            self.certifier,
            self.commitments,
            self.grader,
            self.replaying,
            self.challenging,
            self.board_ghosts,
            self.leaderboards,
            self.housekeeping,
            self.homing,
            self.stuck,
            self.naming,
            self.grouping,
            self.weekly,
            self.ratings,
            self.ghost_race,
            self.quick,
            self.reviewing,
        )
        self._handlers = request_table(self.parts, m.REQUESTS.values())

    @property
    def stopping(self) -> bool:
        """Set when the server begins to stop: connections closing then are no one
        leaving."""
        return self.ctx.stopping

    @stopping.setter
    def stopping(self, value: bool) -> None:
        self.ctx.stopping = value

    @property
    def room_conflicts(self) -> int:
        return self.ctx.room_conflicts

    @property
    def fenced(self) -> int:
        return self.ctx.fenced

    def now(self) -> int:
        return self.clock.now_ms()

    async def handle(self, session: Session, request: m.Request) -> dict[str, Any]:
        """The reply to a request (an ``error`` reply for a :class:`ProtocolError`)."""
        if not session.hello and not isinstance(request, m.Hello):
            raise ProtocolError(ErrorCode.HELLO_FIRST, "send hello first", request.id)
        if session.side and type(request) not in m.SIDE_REQUESTS:
            raise ProtocolError(ErrorCode.SIDE_CONNECTION, side_refusal(request), request.id)
        handler = self._handlers[type(request)]
        if session.player is not None and isinstance(request, LEAVING):
            await self.quick.until_arrived(session.player)  # (its match's room left, told)
        for attempt in range(4):
            try:
                reply: dict[str, Any] = await handler(session, request)
                break
            except ProtocolError as exc:
                exc.request_id = request.id
                raise
            except RoomConflict as exc:
                # another process changed the room meanwhile: read it again, try again
                self.ctx.room_conflicts += 1
                if attempt == 3:
                    raise
                await self.host.reload(exc.args[0])
        if session.player in self.quick.waiting and starts_other(request):
            await self.quick.chose_other(session.player)  # (one thing at a time)
        reply["id"] = request.id
        return reply

    def disconnected(self, session: Session) -> None:
        self.accounts.forget_session(session)
        self.weekly.forget(session)  # (its league's standings watched)
        self.grouping.forget(session)  # (its group watched)
        if session.side:
            return  # it held nothing of the player's: their own connection carries on
        if session.player is not None and session.player not in self.sessions:
            self.quick.went_away(session.player)

    def counters(self) -> dict[str, tuple[str, int]]:
        """Counters for /metrics beyond the websocket layer's."""
        return {
            "bus_published": ("Messages published to the other processes.", self.bus.published),
            "bus_received": ("Messages received from the other processes.", self.bus.received),
            "room_conflicts": (
                "Room changes tried again: another process changed the room first.",
                self.room_conflicts,
            ),
            "fenced": (
                "Appends refused: another process had taken the game (game_elsewhere).",
                self.fenced,
            ),
            "stuck_searched": (
                "Positions the stuck check searched in a worker process.",
                self.stuck.searched,
            ),
            "stuck_told": ("Stuck events sent to players.", self.stuck.told),
            "deals_refused": (
                "Daily deals refused: they no longer match their published commitment.",
                self.commitments.refused,
            ),
        }

    def limits(self) -> dict[str, Any]:
        return self.ctx.limits()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background (shutdown waits for it)."""
        self.ctx.spawn(coro)

    async def on_bus(self, channel: str, data: dict[str, Any]) -> None:
        """A message from another process (see ``server.app.store.bus``)."""
        kind = data.get("k")
        if kind == "kick":
            session = self.sessions.get(data.get("pid", ""))
            if session is not None:
                self.accounts.kick(session, *self.accounts.book.told(session, data))
        elif kind == "tell":  # an event for a player connected here
            session = self.sessions.get(data.get("pid", ""))
            if session is not None and isinstance(data.get("message"), dict):
                told(session, data["message"])
                self.naming.told_elsewhere(session.player or "", data["message"])
        elif kind == "quick":  # a player connected here matched by another process
            self.quick.on_bus(data)
        elif kind == "board":
            self.leaderboards.relay(data.get("id", ""), data["data"])
        elif kind == "league":  # a league's standings changed: to its watchers here
            self.weekly.relay(data)
        elif kind == "group":  # a group's members or who is online changed
            self.grouping.relay(data)
        elif kind == "signed_out":  # a player's devices: their connections here close
            devices = data.get("devices")
            if isinstance(devices, list):
                self.accounts.sign_out_here(str(data.get("pid", "")), devices, str(data.get("by")))
        elif channel.startswith("room:"):
            room = await self.host.on_bus(channel[len("room:") :], kind, data)
            if room is not None:
                if kind == "start":
                    await self.steps.send_race_starts(room)
                await self.host.announce(room)

    async def on_bus_back(self) -> None:
        """The bus hears again after it could not (Redis restarted): what the other
        processes published meanwhile is lost to this one, so the rooms held here are
        read again from Redis and their audience told what changed (a race started or
        ended), the board updates missed are read from the board feed, the watchers
        of a weekly league or a group are sent it again, and the connections whose
        device was signed out meanwhile are closed.

        Tried again, :data:`BACK_TRIES` times at most, a ``retry_pause`` apart, when it
        fails: the bus hears again on a new connection, while the store's connection
        (``store/direct.py``) may have died with the old one and be found dead only by
        the catch-up's first command (every step of it can be taken again)."""
        for tries_left in range(BACK_TRIES - 1, -1, -1):
            try:
                await self.housekeeping.catch_up_rooms()
                await self.leaderboards.catch_up()
                await self.weekly.catch_up()
                await self.grouping.catch_up()
                await self.accounts.kick_signed_out()
                return
            except Exception as exc:
                if not tries_left:
                    raise
                self.ctx.failures.failed("catching up after the bus", exc)
                await asyncio.sleep(self.settings.retry_pause)

    async def start(self) -> int:
        """Agree the daily deals' secret with the other processes on this Redis (else
        :class:`~server.app.store.SecretMismatch`), join the bus, resume the rooms a
        previous run left, start the housekeeping."""
        await store.agree_secret(self.redis, self.ctx.secret)
        await self.bus.start()
        count = await self.housekeeping.start()
        self.certifier.start()
        self.commitments.start()
        self.grader.start()
        self.weekly.start()
        self.quick.start()
        return count

    async def shutdown(self) -> None:
        """Stop the timers and housekeeping, write what is queued, leave the bus."""
        # the periodic looks: each ends after its step under way, whose cancel may be
        # lost in a Redis call (server/app/periodic.py), before Redis is let go of
        looks = [
            *self.housekeeping.stop(),
            *self.certifier.stop(),
            *self.grader.stop(),
            *self.weekly.stop(),
            *self.quick.stop(),
            *self.ghost_race.stop(),
        ]
        if (published := self.commitments.stop()) is not None:
            looks.append(published)
        self.host.stop()
        self.races.stop()
        self.stuck.stop()
        self.challenging.stop()
        # and what closing connections started (presence, host)
        if waited := {*looks, *self.ctx.background}:
            await asyncio.wait(waited, timeout=5)
        await self.host.uncount_watchers()
        self.workers.close()
        await self.commit.close()
        await self.bus.stop()


def side_refusal(request: m.Request) -> str:
    """Why a connection signed in beside the player's (``hello`` with ``side``) may not
    do ``request``: play, or sign in as a player (``register``, ``link``), which needs a
    connection signed in as nobody.

    >>> side_refusal(m.Register(id=1, name="ann")).split(", and ")[1]
    'cannot sign in as a player: send it on a connection without side'
    >>> side_refusal(m.Undo(id=2)).split(", and ")[1]
    'cannot play: play on a connection signed in without side'
    """
    said = f"{request.TYPE}: this connection is signed in beside your own (hello with side)"
    if isinstance(request, m.Register | m.Link):
        return f"{said}, and cannot sign in as a player: send it on a connection without side"
    return f"{said}, and cannot play: play on a connection signed in without side"
