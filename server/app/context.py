"""What every part of the app shares (:class:`Context`): the settings and clock, the
repositories, the group commit and the bus, the connections and what this process holds
(games, rooms, who is where), the events, the background tasks. No part: a part is
given the few other parts it calls where the service puts them together."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from . import store
from .datadir import load_secret
from .domain import games as g
from .domain.room import Racer
from .events import Events
from .held import HeldRoom, racer_room
from .settings import Settings
from .store import bus
from .store.boards import Boards
from .store.challenges import Challenges
from .store.commitments import DailyCommitments
from .store.daily import Dailies
from .store.direct import DirectRedis
from .store.failures import FailureLog
from .store.games import Games
from .store.pace import Reviews
from .store.players import Players
from .store.presence import Presence
from .store.ratings import Ratings
from .store.replays import Replays
from .store.rooms import Rooms
from .workers import Workers


class Session(Protocol):
    """A client connection as the handlers see it."""

    player: str | None
    name: str | None
    hello: bool
    #: signed in beside the player's own connection (``hello``'s ``side``): cannot play
    side: bool
    watching: set[str]
    #: the client's address (the peer's, or as the proxy in front says), for limits
    address: str | None

    def send(self, message: dict[str, Any]) -> None: ...

    def send_encoded(self, data: bytes) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


def renamed_to(message: dict[str, Any]) -> str | None:
    """The new name a ``renamed`` told to a player's connection gives; None for any
    other message."""
    name = (message.get("player") or {}).get("name") if message.get("type") == "renamed" else None
    return name if isinstance(name, str) else None


def told(session: Session, message: dict[str, Any]) -> None:
    """Send ``message`` to ``session``; a ``renamed`` (the player's name changed from
    another device) is its new name too, which it joins rooms and challenges under."""
    name = renamed_to(message)
    if name is not None:
        session.name = name
    session.send(message)


class Context:
    def __init__(
        self,
        settings: Settings,
        redis: store.RedisClient,
        on_bus: bus.Handler,
        on_back: Callable[[], Coroutine[Any, Any, None]],
    ) -> None:
        self.settings = settings
        self.redis = redis
        self.clock = settings.clock
        self.commit = store.GroupCommit(redis, settings.write_timeout or None)
        if isinstance(redis, DirectRedis):  # its everyday commands in the commit's batches
            redis.direct(self.commit)
        self.sessions: dict[str, Session] = {}
        self.games: dict[str, g.LiveGame] = {}
        self.rooms: dict[str, HeldRoom] = {}
        #: set when the server begins to stop: connections closing then are no one leaving
        self.stopping = False
        #: player -> code of the room they are in (not left); player -> their solo game
        self.room_of: dict[str, str] = {}
        self.solo_of: dict[str, str] = {}
        #: this process's id among the processes sharing the Redis, and the bus to them
        self.proc = secrets.token_hex(6)
        self.bus = bus.Bus(
            redis,
            self.proc,
            on_bus,
            on_back=on_back,
            retry=settings.retry_pause,
            redis_ms=self.clock.redis_ms,
        )
        #: the repositories
        self.players = Players(redis)
        self.dailies = Dailies(redis)
        self.presence = Presence(redis, self.proc)
        self.replays = Replays(redis)
        self.stored = Games(redis)
        self.boards = Boards(redis)
        self.ratings = Ratings(redis)
        self.stored_rooms = Rooms(redis, self.proc)
        self.challenges = Challenges(redis)
        self.commitments = DailyCommitments(redis)
        #: home chains and results held for review (the pace check)
        self.reviews = Reviews(redis)
        #: room changes tried again because another process changed the room first, and
        #: appends refused because another process had taken the game (for /metrics)
        self.room_conflicts = 0
        self.fenced = 0
        #: what the daily seeds are made from (``domain.daily.daily_seed``)
        self.secret = load_secret(settings.secret, settings.data_dir)
        #: failures while Redis is away: a line a kind every few seconds, not one each
        self.failures = FailureLog(logging.getLogger("patience.service"))
        #: worker processes for what takes CPU longer than a request may hold the loop
        self.workers = Workers()
        #: what one part tells the others (``server.app.events``)
        self.events = Events()
        #: background work (see spawn), finished before the Redis client is closed
        self.background: set[asyncio.Task[Any]] = set()

    def now(self) -> int:
        return self.clock.now_ms()

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background (shutdown waits for it)."""
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(coro)
        self.background.add(task)
        task.add_done_callback(self.background.discard)
        task.add_done_callback(self._log_task_error)

    def _log_task_error(self, task: asyncio.Task[Any]) -> None:
        if not task.cancelled() and (exc := task.exception()) is not None:
            self.failures.failed("background task", exc)

    def limits(self) -> dict[str, Any]:
        """The limits ``welcome`` tells a client."""
        s = self.settings
        return {
            "max_frame": s.max_frame,
            "rate": s.rate,
            "burst": s.burst,
            "max_players": 16,
            "countdown": s.countdown,
        }

    async def tell(self, pid: str, message: dict[str, Any]) -> None:
        """An event for the player's connection, wherever it is: here, or on the process
        their online mark names (the bus's ``tell``, which calls :func:`told` there)."""
        session = self.sessions.get(pid)
        if session is not None:
            told(session, message)
            return
        proc = await self.presence.where(pid)
        if proc is not None and proc != self.proc:
            self.bus.publish_soon(store.proc_channel(proc), "tell", pid=pid, message=message)

    def racer_room(self, pid: str) -> HeldRoom | None:
        """The room the player is in (and has not left), as held here."""
        return racer_room(self.rooms, self.room_of, pid)

    def online_ttl(self) -> int:
        """Seconds a player's online mark lasts unless renewed by housekeeping: a process
        that dies without cleaning up stops counting as theirs after this."""
        return max(30, int(self.settings.sweep_interval * 3))

    async def online(self, racers: list[Racer]) -> set[str]:
        """Which of these players are connected, to this process or another."""
        online = {r.pid for r in racers if r.pid in self.sessions}
        online |= await self.presence.online([r.pid for r in racers if r.pid not in online])
        return online
