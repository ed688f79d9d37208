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
import logging
import secrets
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

from server.protocol import ErrorCode, ProtocolError
from server.protocol import messages as m

from . import store
from .domain import games as g
from .domain.room import RoomConflict
from .handlers.base import Handler, Part, Session
from .handlers.boards import Leaderboards
from .handlers.certify import Certifier
from .handlers.daily import DailyChallenge
from .handlers.hints import Hints
from .handlers.home import Homing
from .handlers.host import HeldRoom, RoomHost
from .handlers.housekeeping import Housekeeping
from .handlers.play import Play, rules_text
from .handlers.players import Accounts
from .handlers.races import Races
from .handlers.replays import Replaying
from .handlers.rooms import Lobby
from .handlers.stuck import StuckWatch
from .moves import MovePath
from .settings import Settings
from .store import bus
from .store.boards import Boards
from .store.daily import Dailies
from .store.failures import FailureLog
from .store.games import Games
from .store.players import Players
from .store.presence import Presence
from .store.replays import Replays
from .store.rooms import Rooms
from .workers import Workers

__all__ = ["Service", "Session", "rules_text"]


def request_table(parts: Iterable[Part]) -> dict[type[m.Request], Handler]:
    """Every part's requests in one table; a request two parts answer is a mistake,
    refused here (:class:`ValueError`) rather than answered by whichever came last."""
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
    return table


class Service:
    def __init__(self, settings: Settings, redis: store.RedisClient) -> None:
        self.settings = settings
        self.redis = redis
        self.clock = settings.clock
        self.commit = store.GroupCommit(redis, settings.write_timeout or None)
        self.sessions: dict[str, Session] = {}
        self.games: dict[str, g.LiveGame] = {}
        self.rooms: dict[str, HeldRoom] = {}
        #: set when the server begins to stop: connections closing then are no one leaving
        self.stopping = False
        #: player -> code of the room they are in (not left); player -> their solo game
        self.room_of: dict[str, str] = {}
        self.solo_of: dict[str, str] = {}
        #: player -> server ms since when they have had no connection
        self.absent_since: dict[str, int] = {}
        #: this process's id among the processes sharing the Redis, and the bus to them
        self.proc = secrets.token_hex(6)
        self.bus = bus.Bus(redis, self.proc, self.on_bus, on_back=self.on_bus_back)
        #: the repositories
        self.players = Players(redis)
        self.dailies = Dailies(redis)
        self.presence = Presence(redis, self.proc)
        self.replays = Replays(redis)
        self.stored = Games(redis)
        self.boards = Boards(redis)
        self.stored_rooms = Rooms(redis, self.proc)
        #: room changes tried again because another process changed the room first, and
        #: appends refused because another process had taken the game (for /metrics)
        self.room_conflicts = 0
        self.fenced = 0
        #: background work (see spawn), finished before the Redis client is closed
        self._background: set[asyncio.Task[Any]] = set()
        #: failures while Redis is away: a line a kind every few seconds, not one each
        self.failures = FailureLog(logging.getLogger("patience.service"))
        #: worker processes for what takes CPU longer than a request may hold the loop
        self.workers = Workers()
        #: the parts, one a capability
        self.accounts = Accounts(self)
        self.play = Play(self)
        self.hints = Hints(self)
        self.host = RoomHost(self)
        self.lobby = Lobby(self)
        self.races = Races(self)
        self.daily = DailyChallenge(self)
        self.certifier = Certifier(self)
        self.replaying = Replaying(self)
        self.leaderboards = Leaderboards(self)
        self.housekeeping = Housekeeping(self)
        self.homing = Homing(self)
        self.stuck = StuckWatch(self)
        self.parts: tuple[Part, ...] = (
            self.accounts,
            self.play,
            self.hints,
            self.host,
            self.lobby,
            self.races,
            self.daily,
            self.certifier,
            self.replaying,
            self.leaderboards,
            self.housekeeping,
            self.homing,
            self.stuck,
        )
        self._handlers = request_table(self.parts)
        #: the move path (compiled with the engine): moves played without a coroutine
        self.moves = MovePath(self)

    def now(self) -> int:
        return self.clock.now_ms()

    async def handle(self, session: Session, request: m.Request) -> dict[str, Any]:
        """The reply to a request (an ``error`` reply for a :class:`ProtocolError`)."""
        if not session.hello and not isinstance(request, m.Hello):
            raise ProtocolError(ErrorCode.HELLO_FIRST, "send hello first", request.id)
        handler = self._handlers[type(request)]
        for attempt in range(4):
            try:
                reply: dict[str, Any] = await handler(session, request)
                break
            except ProtocolError as exc:
                exc.request_id = request.id
                raise
            except RoomConflict as exc:
                # another process changed the room meanwhile: read it again, try again
                self.room_conflicts += 1
                if attempt == 3:
                    raise
                await self.host.reload(exc.args[0])
        reply["id"] = request.id
        return reply

    def move_now(
        self, session: Session, req: m.Move, done: Callable[[bytes | BaseException], None]
    ) -> bool:
        """The move path without a coroutine (:meth:`MovePath.move_now`): a move on a
        game held here is played at once, and ``done`` is called with the ``moved``
        reply, encoded, or the error once Redis has its log entry. False, with nothing
        done, when the move needs what only :meth:`handle` does."""
        return self.moves.move_now(session, req.id, req.game, req.move, done)

    def disconnected(self, session: Session) -> None:
        self.accounts.forget_session(session)

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
        }

    def limits(self) -> dict[str, Any]:
        s = self.settings
        return {
            "max_frame": s.max_frame,
            "rate": s.rate,
            "burst": s.burst,
            "max_players": 16,
            "countdown": s.countdown,
        }

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background (shutdown waits for it)."""
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(self._log_task_error)

    def _log_task_error(self, task: asyncio.Task[Any]) -> None:
        if not task.cancelled() and (exc := task.exception()) is not None:
            self.failures.failed("background task", exc)

    async def on_bus(self, channel: str, data: dict[str, Any]) -> None:
        """A message from another process (see ``server.app.store.bus``)."""
        kind = data.get("k")
        if kind == "kick":
            session = self.sessions.get(data.get("pid", ""))
            if session is not None:
                self.accounts.kick(session)
        elif kind == "board":
            self.leaderboards.relay(data.get("id", ""), data["data"])
        elif channel.startswith("room:"):
            await self.host.on_bus(channel[len("room:") :], kind, data)

    async def on_bus_back(self) -> None:
        """The bus hears again after it could not (Redis restarted): what the other
        processes published meanwhile is lost to this one, so the rooms held here are
        read again from Redis and their audience told what changed (a race started or
        ended), and the board updates missed are read from the board feed."""
        await self.housekeeping.catch_up_rooms()
        await self.leaderboards.catch_up()

    async def start(self) -> int:
        """Agree the daily deals' secret with the other processes on this Redis (else
        :class:`~server.app.store.SecretMismatch`), join the bus, resume the rooms a
        previous run left, start the housekeeping."""
        await store.agree_secret(self.redis, self.daily.secret)
        await self.bus.start()
        count = await self.housekeeping.start()
        self.certifier.start()
        return count

    async def shutdown(self) -> None:
        """Stop the timers and housekeeping, write what is queued, leave the bus."""
        self.housekeeping.stop()
        self.certifier.stop()
        self.host.stop()
        self.races.stop()
        self.stuck.stop()
        if self._background:  # what closing connections started (presence, host)
            await asyncio.wait(set(self._background), timeout=5)
        await self.host.uncount_watchers()
        self.workers.close()
        await self.commit.close()
        await self.bus.stop()
