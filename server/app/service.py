"""The race service: players, solo games, rooms and races, independent of the transport.

A :class:`Session` is one client connection as the service sees it: it can be sent
messages and closed. The websocket layer (``server.app.ws``) makes one per connection and
hands every decoded request to :meth:`Service.handle`, which returns the reply.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable
from pathlib import Path
from typing import Any, Protocol

from server import __version__
from server.engine import GAMES, UndoRefused
from server.protocol import PROTOCOL_VERSION, ErrorCode, ProtocolError, encode
from server.protocol import messages as m

from . import bus, replays, store
from . import daily as d
from . import games as g
from .boards import Board, Boards, parse_board
from .failures import FailureLog
from .moves import MovePath
from .rooms import (
    COUNTDOWN,
    FINISHED,
    LOBBY,
    RACING,
    Racer,
    Room,
    RoomConflict,
    new_code,
    normalize_code,
    rank,
)
from .settings import Settings
from .store import (
    DELETE_IF_OURS,
    ENDING_CLAIM_MS,
    ROOM_CAS,
    ending_key,
    online_key,
    standings_key,
    version_key,
    watchers_key,
)
from .store.daily import Dailies
from .store.players import Players
from .store.presence import Presence
from .store.replays import Replays

log = logging.getLogger("patience.service")

NAME_RE = re.compile(r"[A-Za-z0-9_-]{2,20}")
#: seconds between tries of a room's step (its start, its end) that failed on Redis, at
#: first and at most: it is tried until it goes through
RETRY_FIRST, RETRY_MAX = 0.25, 2.0
#: a race whose start is written this late (Redis was away at its start) starts when it
#: is written instead, so that its racers have all of its time
LATE_START_MS = 1000
#: close codes the server uses besides the standard ones
CLOSE_REPLACED = 4001


class Session(Protocol):
    """A client connection as the service sees it."""

    player: str | None
    name: str | None
    hello: bool
    watching: set[str]
    #: the client's address (the peer's, or as the proxy in front says), for limits
    address: str | None

    def send(self, message: dict[str, Any]) -> None: ...

    def send_encoded(self, data: bytes) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


def _error(code: ErrorCode, message: str) -> ProtocolError:
    return ProtocolError(code, message)


class Service:
    def __init__(self, settings: Settings, redis: store.RedisClient) -> None:
        self.settings = settings
        self.redis = redis
        self.clock = settings.clock
        self.commit = store.GroupCommit(redis, settings.write_timeout or None)
        self.sessions: dict[str, Session] = {}
        self.games: dict[str, g.LiveGame] = {}
        self.rooms: dict[str, Room] = {}
        #: set when the server begins to stop: connections closing then are no one leaving
        self.stopping = False
        #: player -> code of the room they are in (not left); player -> their solo game
        self.room_of: dict[str, str] = {}
        self.solo_of: dict[str, str] = {}
        #: player -> server ms since when they have had no connection
        self.absent_since: dict[str, int] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self.boards = Boards(redis)
        self.players = Players(redis)
        self.dailies = Dailies(redis)
        self.secret = d.load_secret(settings.secret, settings.data_dir)
        #: board id -> sessions watching it
        self.board_watchers: dict[str, set[Session]] = {}
        #: this process's id among the processes sharing the Redis, and the bus to them
        self.proc = secrets.token_hex(6)
        self.presence = Presence(redis, self.proc)
        self.replays = Replays(redis)
        self.bus = bus.Bus(redis, self.proc, self.on_bus)
        #: room changes tried again because another process changed the room first, and
        #: appends refused because another process had taken the game (for /metrics)
        self.room_conflicts = 0
        self.fenced = 0
        #: rooms with progress events waiting for the next tick, and the tick's timer
        self._progress_rooms: dict[str, Room] = {}
        self._progress_timer: asyncio.TimerHandle | None = None
        #: background work (see _spawn), finished before the Redis client is closed
        self._background: set[asyncio.Task[Any]] = set()
        #: the move path (compiled with the engine): moves played without a coroutine
        self.moves = MovePath(self)
        #: failures while Redis is away: a line a kind every few seconds, not one each
        self.failures = FailureLog(log)
        self._handlers: dict[type[m.Request], Callable[[Session, Any], Awaitable[Any]]] = {
            m.Hello: self.on_hello,
            m.Register: self.on_register,
            m.Games: self.on_games,
            m.Rules: self.on_rules,
            m.Ping: self.on_ping,
            m.NewGame: self.on_new_game,
            m.Move: self.on_move,
            m.Undo: self.on_undo,
            m.Resign: self.on_resign,
            m.RoomCreate: self.on_room_create,
            m.RoomJoin: self.on_room_join,
            m.RoomWatch: self.on_room_watch,
            m.RoomLeave: self.on_room_leave,
            m.Ready: self.on_ready,
            m.Start: self.on_start,
            m.Rematch: self.on_rematch,
            m.Daily: self.on_daily,
            m.Top: self.on_top,
            m.BoardWatch: self.on_board_watch,
            m.BoardUnwatch: self.on_board_unwatch,
            m.Follow: self.on_follow,
            m.Unfollow: self.on_unfollow,
            m.Replay: self.on_replay,
            m.ReplayView: self.on_replay_view,
        }

    # -- plumbing ------------------------------------------------------------------------

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
                await self._reload_room(exc.args[0])
        reply["id"] = request.id
        return reply

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
        }

    def _need_player(self, session: Session) -> str:
        if session.player is None:
            raise _error(ErrorCode.NOT_AUTHENTICATED, "register or sign in with hello first")
        return session.player

    def _games_list(self) -> list[dict[str, Any]]:
        return [
            {
                "id": info.id,
                "name": info.name,
                "packs": info.packs,
                "summary": info.summary,
                "rules_version": info.rules_version,
            }
            for info in GAMES.values()
        ]

    def limits(self) -> dict[str, Any]:
        s = self.settings
        return {
            "max_frame": s.max_frame,
            "rate": s.rate,
            "burst": s.burst,
            "max_players": 16,
            "countdown": s.countdown,
        }

    # -- players -------------------------------------------------------------------------

    async def on_hello(self, session: Session, req: m.Hello) -> dict[str, Any]:
        if req.protocol != PROTOCOL_VERSION:
            raise _error(
                ErrorCode.BAD_VERSION,
                f"this server speaks protocol {PROTOCOL_VERSION}, not {req.protocol}",
            )
        reply: dict[str, Any] = {
            "type": "welcome",
            "server": __version__,
            "protocol": PROTOCOL_VERSION,
            "time": self.now(),
            "limits": self.limits(),
            "games": self._games_list(),
        }
        if req.token is not None:
            pid_s = await self.players.by_token(req.token)
            if pid_s is None:
                raise _error(ErrorCode.BAD_TOKEN, "no player has this token")
            if session.player is not None and session.player != pid_s:
                raise _error(
                    ErrorCode.ALREADY_REGISTERED,
                    f"this connection is signed in as {session.name}: "
                    "open a new connection to sign in as another player",
                )
            name = await self.players.name_of(pid_s)
            if name is None:
                raise _error(ErrorCode.BAD_TOKEN, "no player has this token")
            session.hello = True
            await self._sign_in(session, pid_s, name)
            reply["player"] = {"id": pid_s, "name": session.name}
            reply["resume"] = await self._resume(session, pid_s)
        session.hello = True
        return reply

    async def on_register(self, session: Session, req: m.Register) -> dict[str, Any]:
        if session.player is not None:
            raise _error(ErrorCode.ALREADY_REGISTERED, f"already signed in as {session.name}")
        if not NAME_RE.fullmatch(req.name):  # not match and "$": "ann\n" is no name
            raise _error(ErrorCode.BAD_NAME, "a name is 2 to 20 letters, digits, '_' or '-'")
        counted = await self._registrations(session.address)
        pid = secrets.token_hex(8)
        token = secrets.token_urlsafe(24)  # 192 random bits
        if not await self.players.create(pid, req.name, token, self.now()):
            raise _error(ErrorCode.NAME_TAKEN, f"the name {req.name!r} is taken")
        if counted is not None:
            await self.players.count_registration(*counted)
        await self._sign_in(session, pid, req.name)
        return {"type": "registered", "player": {"id": pid, "name": req.name}, "token": token}

    async def _registrations(self, address: str | None) -> tuple[str, int] | None:
        """The address and hour that count this registration (None: not counted);
        refused with ``rate_limited`` once it has ``register_rate`` of them. A second
        account to scout a shared deal is what this makes costly."""
        limit = self.settings.register_rate
        if not address or limit <= 0:
            return None
        hour = self.now() // 3_600_000
        if await self.players.registered(address, hour) >= limit:
            raise _error(
                ErrorCode.RATE_LIMITED,
                f"no more than {limit} new players an hour from one address: "
                "try again later, or sign in with your token",
            )
        return address, hour

    async def _sign_in(self, session: Session, pid: str, name: str) -> None:
        """One connection per player, across processes: a connection signed in before,
        here or in another process, is signed out (4001)."""
        old = self.sessions.get(pid)
        session.player = pid
        session.name = name
        # the new session first: a takeover is no leave (the host stays the host)
        self.sessions[pid] = session
        self.absent_since.pop(pid, None)
        if old is not None and old is not session:
            self._kick(old)
        elsewhere = await self.presence.mark(pid, self._online_ttl())
        if elsewhere is not None:
            self.bus.publish_soon(store.proc_channel(elsewhere), "kick", pid=pid)
        room = self._racer_room(pid)
        if room is not None:
            await self._broadcast_room(room)

    def _kick(self, session: Session) -> None:
        session.send({"type": "signed_out", "reason": "signed in from another connection"})
        session.close(CLOSE_REPLACED, "signed in elsewhere")
        self._forget_session(session)

    def _online_ttl(self) -> int:
        """Seconds a player's online mark lasts unless renewed by housekeeping: a process
        that dies without cleaning up stops counting as theirs after this."""
        return max(30, int(self.settings.sweep_interval * 3))

    async def _resume(self, session: Session, pid: str) -> dict[str, Any]:
        """The player's solo game, room and race game, as they were at the last
        acknowledged move."""
        resume: dict[str, Any] = {}
        solo, code = await self.players.places(pid)
        # the player's games are taken afresh from Redis: they may have been played
        # through another process since this one last had them
        if solo:
            self.solo_of[pid] = solo
            live = await self._get_game(solo, fresh=True)
            if live is not None:
                resume["solo"] = live.snapshot_message()
        if code:
            room = await self._get_room(code)
            if room is not None and pid in room.racers and not room.racers[pid].left:
                self.room_of[pid] = code
                resume["room"] = await self._broadcast_room(room)
                racer = room.racers[pid]
                if room.state in (RACING, FINISHED) and racer.gid:
                    live = await self._get_game(racer.gid, fresh=True)
                    if live is not None:
                        resume["race"] = self._race_message(room, live)
        return resume

    def disconnected(self, session: Session) -> None:
        self._forget_session(session)

    def _forget_session(self, session: Session) -> None:
        for board_id in list(self.board_watchers):
            self._unwatch_board(board_id, session)
        for code in list(session.watching):
            room = self.rooms.get(code)
            if room is not None:
                room.watchers.discard(session)
                if not self.stopping:
                    self._spawn(self._watchers_changed(room))
        session.watching.clear()
        pid = session.player
        if pid is not None and self.sessions.get(pid) is session:
            del self.sessions[pid]
            self.absent_since[pid] = self.now()
            self._spawn(self._went_away(pid))

    async def _went_away(self, pid: str) -> None:
        try:
            await self.presence.unmark(pid)
        except Exception as exc:  # the mark lapses by itself (its time to live)
            self.failures.failed("a player going away", exc)
        room = self._racer_room(pid)
        if room is None or self.stopping:
            return

        async def hand_over(room: Room) -> None:
            if pid not in self.sessions:  # (back meanwhile: nobody went away)
                await self._hand_over(room, pid)

        if room.state in (LOBBY, FINISHED) and room.host == pid:
            # a lobby or a finished race must not wait on an absent host: tried until
            # it goes through
            await self._until_done("a host going away", room, hand_over)
        try:
            await self._broadcast_room(room)  # (who is present: told again when Redis is)
        except Exception as exc:
            self.failures.failed("a player going away", exc)

    async def _hand_over(self, room: Room, pid: str) -> None:
        """The host's part passes from ``pid`` to the longest-present member connected."""
        if room.state not in (LOBBY, FINISHED) or room.host != pid:
            return
        online = await self._online(room.members())
        others = [r for r in room.members() if r.pid in online and r.pid != pid]
        if not others:
            return
        async with self._locked(room):
            if room.host == pid:
                room.host = others[0].pid
                try:
                    await self._persist_room(room)
                except RoomConflict:
                    await self._reload_room(room.code)

    async def _online(self, racers: list[Racer]) -> set[str]:
        """Which of these players are connected, to this process or another."""
        online = {r.pid for r in racers if r.pid in self.sessions}
        online |= await self.presence.online([r.pid for r in racers if r.pid not in online])
        return online

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        """Run ``coro`` in the background (shutdown waits for it)."""
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)
        task.add_done_callback(self._log_task_error)

    def _log_task_error(self, task: asyncio.Task[Any]) -> None:
        if not task.cancelled() and (exc := task.exception()) is not None:
            self.failures.failed("background task", exc)

    async def on_games(self, session: Session, req: m.Games) -> dict[str, Any]:
        return {"type": "games", "games": self._games_list()}

    async def on_rules(self, session: Session, req: m.Rules) -> dict[str, Any]:
        info = GAMES.get(req.game)
        if info is None:
            raise _error(ErrorCode.NO_SUCH_GAME, f"no game {req.game!r}; see the games list")
        text = rules_text(self.settings.rules_dir or RULES_DIR, info.id)
        return {"type": "rules", "game": info.id, "name": info.name, "text": text}

    async def on_ping(self, session: Session, req: m.Ping) -> dict[str, Any]:
        return {"type": "pong", "time": self.now()}

    # -- games ---------------------------------------------------------------------------

    async def _get_game(self, gid: str, fresh: bool = False) -> g.LiveGame | None:
        """A game to play here: this process's copy, or (``fresh``, or none here) one
        rebuilt from Redis under a new fencing token."""
        live = None if fresh else self.games.get(gid)
        if live is None:
            live = await g.load(self.redis, gid, ttl=self.settings.idle_ttl)
            if live is not None:
                self.games[gid] = live
        return live

    async def on_new_game(self, session: Session, req: m.NewGame) -> dict[str, Any]:
        pid = self._need_player(session)
        if req.game not in GAMES:
            raise _error(ErrorCode.NO_SUCH_GAME, f"no game {req.game!r}; see the games list")
        live = await g.create(
            self.redis, g.dealt(req.game, req.seed, pid, g.SOLO, self.now()), self.settings.idle_ttl
        )
        self.games[live.gid] = live
        await self.players.set_solo(pid, live.gid)
        self._take_solo(pid, live.gid)
        return {"type": "game", **live.snapshot_message()}

    def _take_solo(self, pid: str, gid: str) -> None:
        """The player's solo game is now ``gid``: the one it replaces is let go from
        memory (it stays in Redis, and is rebuilt from its log if a move names it), so a
        player dealing game after game holds one here, not every one of them."""
        old = self.solo_of.get(pid)
        self.solo_of[pid] = gid
        if old is not None and old != gid:
            self.games.pop(old, None)

    async def _game_for(self, session: Session, gid: str | None) -> g.LiveGame:
        """The game a move names; with none named, the player's race game while their room
        counts down or races, else their solo game."""
        pid = self._need_player(session)
        if gid is None:
            room = self._racer_room(pid)
            if room is not None and room.state in (COUNTDOWN, RACING):
                gid = room.racers[pid].gid
        if gid is None:
            gid = self.solo_of.get(pid)
            if gid is None:
                gid = await self.players.solo(pid)
                if gid is not None:
                    self.solo_of[pid] = gid
        live = await self._get_game(gid) if gid else None
        if live is None or live.owner != pid:
            raise _error(ErrorCode.NO_SUCH_GAME, "no such game of yours: start one with new_game")
        return live

    async def _close_past_daily(self, live: g.LiveGame) -> None:
        """A ranked daily game ends at its day's reset (00:00 UTC): its replays become
        public then, and nobody may finish yesterday's game knowing them. It ends as it
        stands, as a time-out."""
        if live.kind != g.DAILY or live.finished or live.day is None:
            return
        reset = d.day_start_ms(live.day) + d.DAY_MS
        if self.now() < reset:
            return
        live.finish(g.TIMEOUT, reset)
        await self._log(live, f"{reset} {g.TIMEOUT_ENTRY}")
        await self._daily_finished(live)

    def _check_playable(self, live: g.LiveGame) -> Room | None:
        room: Room | None = self.moves.check_playable(live)
        return room

    def _log_write(self, live: g.LiveGame, entry: str) -> store.Write:
        """The group commit's write of a log entry: the append, fenced by the token this
        process took the game with; now and then the keys' time to live."""
        gid = live.gid
        ttl = self.settings.ended_ttl if live.finished else self.settings.idle_ttl
        finished = live.finished
        fence = live.fence
        assert fence is not None, "a game is played only where it was taken"
        renew = finished or live.log_length % 64 == 0

        def write(pipe: store.Commands) -> None:
            pipe.append_fenced(gid, fence, entry)
            if renew:
                pipe.expire(store.log_key(gid), ttl)
                pipe.expire(store.game_key(gid), ttl)
                pipe.expire(store.fence_key(gid), ttl)

        return write

    def _log_failed(self, live: g.LiveGame, exc: BaseException) -> BaseException:
        """What a failed log write means to its player: ``game_elsewhere`` when another
        process has taken the game (this copy is stale, and dropped), else the error.

        When the connection failed with the write sent, Redis may have run it: the copy
        here (the move taken back) may then be behind the log, so it is dropped too, and
        the game's next request reads it as the log has it."""
        if not isinstance(exc, store.Fenced):
            if store.outcome_unknown(exc) and self.games.get(live.gid) is live:
                del self.games[live.gid]
            return exc
        self.fenced += 1
        if self.games.get(live.gid) is live:
            del self.games[live.gid]
        return _error(
            ErrorCode.GAME_ELSEWHERE,
            "this game is being played from another connection: sign in again to play it here",
        )

    async def _log(self, live: g.LiveGame, entry: str) -> None:
        """Append a log entry through the group commit: returns once Redis has it."""
        try:
            await self.commit.submit(self._log_write(live, entry))
        except Exception as exc:
            failed = self._log_failed(live, exc)
            if failed is exc:
                raise
            raise failed from None
        live.log_length += 1

    def move_now(
        self, session: Session, req: m.Move, done: Callable[[bytes | BaseException], None]
    ) -> bool:
        """The move path without a coroutine (:meth:`MovePath.move_now`): a move on a
        game held here is played at once, and ``done`` is called with the ``moved``
        reply, encoded, or the error once Redis has its log entry. False, with nothing
        done, when the move needs what only :meth:`handle` does."""
        return self.moves.move_now(session, req.id, req.game, req.move, done)

    async def on_move(self, session: Session, req: m.Move) -> dict[str, Any]:
        live = self.games.get(req.game) if req.game is not None else None
        if live is None or live.owner != session.player:
            live = await self._game_for(session, req.game)
        if live.kind == g.DAILY:
            await self._close_past_daily(live)
        played: asyncio.Future[tuple[str, Room | None]] = asyncio.get_running_loop().create_future()

        def settle(outcome: tuple[str, Room | None] | BaseException) -> None:
            if played.done():
                return
            if isinstance(outcome, BaseException):
                played.set_exception(outcome)
            else:
                played.set_result(outcome)

        self.moves.start(live, req.move, settle)
        text, room = await played
        if live.finished and live.kind == g.DAILY:
            await self._daily_finished(live)
        return self._played("moved", live, text, room)

    async def on_undo(self, session: Session, req: m.Undo) -> dict[str, Any]:
        live = await self._game_for(session, req.game)
        await self._close_past_daily(live)
        room = self._check_playable(live)
        game = live.game
        now = self.now()
        home_before = game.cards_home()
        try:
            move = game.undo()
        except UndoRefused as exc:
            raise _error(ErrorCode.UNDO_REFUSED, str(exc)) from None
        try:
            await self._log(live, f"{now} {g.UNDO}")
        except Exception:
            game.play(move)
            raise
        live.note_home_change(home_before, now)
        return self._played("undone", live, move.text, room)

    def _played(self, kind: str, live: g.LiveGame, move: str, room: Room | None) -> dict[str, Any]:
        """The reply to an accepted move or undo (and the room's progress event)."""
        return self.moves.played(kind, live, move, room)

    async def on_resign(self, session: Session, req: m.Resign) -> dict[str, Any]:
        live = await self._game_for(session, req.game)
        await self._close_past_daily(live)
        room = self._check_playable(live)
        await self._resign(live, room)
        if live.kind == g.DAILY:
            await self._daily_finished(live)
        return {"type": "resigned", "game": live.gid, "status": live.status()}

    async def _resign(self, live: g.LiveGame, room: Room | None) -> None:
        now = self.now()
        live.finish(g.RESIGNED, now)
        try:
            await self._log(live, f"{now} {g.RESIGN}")
        except Exception:
            live.result = live.finished_ms = None  # not logged: not resigned
            raise
        if room is not None:
            self._race_progress(room, live)

    # -- rooms ---------------------------------------------------------------------------
    #
    # A room lives in Redis (``r:{code}``, changed only by compare-and-set on its version,
    # ROOM_CAS); each process keeps a copy of the rooms its connections are in or watch,
    # subscribed to the room's channel. A process that changes a room publishes the new
    # state; the others take it and tell their own connections. Events (progress,
    # results) travel the same channel as encoded frames. See docs/architecture.md.

    async def _room_message(self, room: Room) -> dict[str, Any]:
        members = room.members()
        racing = room.state in (RACING, FINISHED)
        others = [r.pid for r in members if r.pid not in self.sessions]
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid in others:
                pipe.exists(online_key(pid))
            pipe.hgetall(watchers_key(room.code))
            if racing:
                pipe.hgetall(standings_key(room.code))
            replies = await pipe.execute()
        online = {pid for pid, n in zip(others, replies, strict=False) if n}
        now = self.now()
        watchers = len(room.watchers)
        for proc, raw in replies[len(others)].items():
            count, _, until = raw.decode().partition(" ")
            if proc.decode() != self.proc and int(until or 0) > now:
                watchers += int(count)
        standings = replies[len(others) + 1] if racing else {}
        results = {r["player"]: r for r in room.results or []} if room.state == FINISHED else {}
        players = []
        for racer in members:
            entry: dict[str, Any] = {
                "name": racer.name,
                "ready": racer.ready,
                "present": racer.pid in self.sessions or racer.pid in online,
                "host": racer.pid == room.host,
            }
            if racing:
                standing = self._standing(racer, standings, results)
                if standing is not None:
                    home, total, moves, status = standing
                    entry.update(home=home, total=total, moves=moves, status=status)
            players.append(entry)
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
            "start_at": room.start_at_ms,
            "end_at": room.end_at_ms,
            "now": now,
            "players": players,
            "watchers": watchers,
            "results": room.results if room.state == FINISHED else None,
        }

    def _standing(
        self, racer: Racer, standings: dict[bytes, bytes], results: dict[str, Any]
    ) -> tuple[int, int, int, str] | None:
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
        raw = standings.get(racer.pid.encode())
        if raw is None:
            return None
        home, total, moves, status = store.unpack(raw)
        return home, total, moves, status

    def _race_message(self, room: Room, live: g.LiveGame) -> dict[str, Any]:
        return {
            "type": "race_start",
            "code": room.code,
            "race": room.race,
            "start_at": room.start_at_ms,
            "end_at": room.end_at_ms,
            **live.snapshot_message(),
        }

    def _audience(self, room: Room) -> list[Session]:
        """The room's members and watchers connected to this process."""
        out = [self.sessions[r.pid] for r in room.members() if r.pid in self.sessions]
        out.extend(room.watchers)
        return list(dict.fromkeys(out))  # a racer watching their own room hears it once

    def _broadcast(self, room: Room, message: dict[str, Any]) -> None:
        """An event to the room's audience, here and (through the bus) elsewhere."""
        data = encode(message)
        for session in self._audience(room):
            session.send_encoded(data)
        self.bus.publish_soon(store.room_channel(room.code), "frames", f=[data])

    async def _announce(self, room: Room) -> dict[str, Any]:
        """The room's state to its audience connected here; returned for a reply."""
        message = await self._room_message(room)
        data = encode(message)
        for session in self._audience(room):
            session.send_encoded(data)
        return message

    async def _broadcast_room(self, room: Room) -> dict[str, Any]:
        """The room's state to its audience here, and a word to the other processes to
        tell theirs (for what is not in the room's state: presence, watchers)."""
        message = await self._announce(room)
        self.bus.publish_soon(store.room_channel(room.code), "room")
        return message

    @contextlib.asynccontextmanager
    async def _locked(self, room: Room) -> AsyncIterator[None]:
        """Hold the room's lock, waiting at most ``lock_wait`` seconds for it
        (``room_busy`` past that): no request waits for ever on a change stuck on Redis.
        One room's lock is never held while another's is taken."""
        try:
            async with asyncio.timeout(self.settings.lock_wait):
                await room.lock.acquire()
        except TimeoutError:
            raise _error(
                ErrorCode.ROOM_BUSY, f"room {room.code} is busy: try again in a moment"
            ) from None
        try:
            yield
        finally:
            room.lock.release()

    async def _persist_room(self, room: Room, notice: str | None = "room") -> bytes:
        """Write the room's state if nobody changed it since this copy was read
        (:class:`RoomConflict` if someone did), and (with ``notice``) publish it.

        A write that fails, refused or on Redis, takes the copy back to the state it last
        had in common with Redis (:meth:`Room.roll_back`): the copy never runs ahead of
        Redis. (Where Redis may have run a write whose answer was lost, the copy's
        version is then behind, and its next write is refused and reads the room again.)"""
        ttl = self.settings.ended_ttl if room.state == FINISHED else self.settings.idle_ttl
        state = {**room.to_dict(), "version": room.version + 1}
        blob = store.pack(state)
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.eval(
                    ROOM_CAS,
                    2,
                    store.room_key(room.code),
                    version_key(room.code),
                    room.version,
                    blob,
                    ttl,
                )
                # (also when the write is refused: the room was changed by whoever got
                # there first, or closed, and housekeeping drops the codes of rooms gone)
                pipe.sadd(store.LIVE_ROOMS, room.code)
                version, _ = await pipe.execute()
            if not version:
                raise RoomConflict(room.code)
        except BaseException:
            room.roll_back()
            raise
        room.version = int(version)
        room.persisted = state
        if notice is not None:
            # the other processes hear of the change before anyone is told it is made
            await self.bus.publish_soon(store.room_channel(room.code), notice, room=blob)
        return blob

    async def _get_room(self, code: str) -> Room | None:
        room = self.rooms.get(code)
        if room is None:
            data = await self.redis.get(store.room_key(code))
            if data is None:
                return None
            room = await self._revive(store.unpack(data))
        return room

    async def _reload_room(self, code: str) -> Room | None:
        """This process's copy of the room, read again from Redis.

        Only a state newer than the copy's is taken (:meth:`_take_newer`): this process
        may be writing a change to the room right now (the copy changed, its
        compare-and-set on its way), and Redis then still holds the state from before it.
        Taking that would undo the change here while it lands in Redis, and leave the
        copy behind Redis under the same version, where nothing would notice."""
        return (await self._read_room(code))[0]

    async def _read_room(self, code: str) -> tuple[Room | None, bool]:
        """As :meth:`_reload_room`, and whether a state was taken from Redis."""
        data = await self.redis.get(store.room_key(code))
        room = self.rooms.get(code)
        if data is None:
            if room is not None:
                self._unload_room(room)
            return None, False
        if room is None:
            return await self._revive(store.unpack(data)), True
        return room, self._take_newer(room, store.unpack(data))

    def _take_newer(self, room: Room, state: dict[str, Any]) -> bool:
        """Take a state of the room read from Redis if it is newer than this copy's
        (versions only grow; a read answered after this process's own write has landed
        here may be older); whether it was taken."""
        if state.get("version", 0) <= room.version:
            return False
        self._take_state(room, state)
        return True

    def _take_state(self, room: Room, data: dict[str, Any]) -> None:
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
        self._schedule(room)

    def _racer_room(self, pid: str) -> Room | None:
        """The room the player is in (and has not left)."""
        code = self.room_of.get(pid)
        room = self.rooms.get(code) if code else None
        if room is None:
            return None
        racer = room.racers.get(pid)
        return room if racer is not None and not racer.left else None

    async def on_bus(self, channel: str, data: dict[str, Any]) -> None:
        """A message from another process (see ``server.app.bus``)."""
        kind = data.get("k")
        if kind == "kick":
            session = self.sessions.get(data.get("pid", ""))
            if session is not None:
                self._kick(session)
            return
        if kind == "board":
            for session in list(self.board_watchers.get(data.get("id", ""), ())):
                session.send_encoded(data["data"])
            return
        if not channel.startswith("room:"):
            return
        room = self.rooms.get(channel[len("room:") :])
        if room is None:
            return
        if kind == "frames":
            audience = self._audience(room)
            for frame in data.get("f", ()):
                for session in audience:
                    session.send_encoded(frame)
        elif kind in ("room", "start"):
            blob = data.get("room")
            if blob is not None:
                self._take_newer(room, store.unpack(blob))
            if kind == "start":
                await self._send_race_starts(room)
            await self._announce(room)
        elif kind == "closed":
            closed = {**await self._room_message(room), "state": "closed"}
            data_closed = encode(closed)
            for session in self._audience(room):
                session.send_encoded(data_closed)
            self._unload_room(room)

    async def on_room_create(self, session: Session, req: m.RoomCreate) -> dict[str, Any]:
        pid = self._need_player(session)
        if req.game not in GAMES:
            raise _error(ErrorCode.NO_SUCH_GAME, f"no game {req.game!r}; see the games list")
        await self._leave_current(pid)
        for _ in range(20):
            code = new_code()
            if await self.redis.set(store.code_key(code), 1, nx=True):
                break
        else:
            raise RuntimeError("no free room code")
        now = self.now()
        room = Room(
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
        await self._persist_room(room, notice=None)
        await self._hold(room)
        self.room_of[pid] = code
        await self.players.set_room(pid, code)
        return await self._room_message(room)

    async def _hold(self, room: Room) -> None:
        """Keep the room in this process, and hear of its changes."""
        self.rooms[room.code] = room
        await self.bus.subscribe(store.room_channel(room.code))

    async def on_room_join(self, session: Session, req: m.RoomJoin) -> dict[str, Any]:
        pid = self._need_player(session)
        code = normalize_code(req.code)
        room = await self._reload_room(code)
        if room is None:
            raise _error(ErrorCode.NO_SUCH_ROOM, f"no room {code}")
        if self._racer_room(pid) is room:
            return await self._room_message(room)  # already in: joining again is harmless
        self._check_joinable(room)
        # the room the player is in is left first, under its own lock only: holding this
        # room's lock while taking that one's would deadlock against a player joining the
        # other way round (then this room is checked again: it may have filled meanwhile)
        await self._leave_current(pid)
        async with self._locked(room):
            if self.rooms.get(code) is not room:
                raise _error(ErrorCode.NO_SUCH_ROOM, f"no room {code}")
            racer = room.racers.get(pid)
            if racer is not None and not racer.left:
                return await self._room_message(room)
            self._check_joinable(room)
            room.racers[pid] = Racer(pid, session.name or "", self.now())
            self.room_of[pid] = code
            await self._persist_room(room)
        await self.players.set_room(pid, code)
        return await self._announce(room)

    def _check_joinable(self, room: Room) -> None:
        if room.state != LOBBY:
            raise _error(ErrorCode.RACE_STARTED, "the race has started; watch it instead")
        if len(room.members()) >= room.max_players:
            raise _error(ErrorCode.ROOM_FULL, f"room {room.code} is full")

    async def on_room_watch(self, session: Session, req: m.RoomWatch) -> dict[str, Any]:
        code = normalize_code(req.code)
        room = await self._get_room(code)
        if room is None:
            raise _error(ErrorCode.NO_SUCH_ROOM, f"no room {code}")
        room.watchers.add(session)
        session.watching.add(code)
        return await self._watchers_changed(room)

    async def _watchers_changed(self, room: Room) -> dict[str, Any]:
        """Publish how many watch the room through this process, and tell everyone."""
        await self._count_watchers(room)
        return await self._broadcast_room(room)

    async def _count_watchers(self, room: Room) -> None:
        key = watchers_key(room.code)
        if room.watchers:
            until = self.now() + self._online_ttl() * 1000
            await self.redis.hset(key, self.proc, f"{len(room.watchers)} {until}")
            await self.redis.expire(key, self.settings.idle_ttl)
        else:
            await self.redis.hdel(key, self.proc)

    async def on_room_leave(self, session: Session, req: m.RoomLeave) -> dict[str, Any]:
        """Stop watching, and leave the room you race in (if signed in)."""
        for code in list(session.watching):
            room = self.rooms.get(code)
            if room is not None:
                room.watchers.discard(session)
                await self._watchers_changed(room)
        session.watching.clear()
        if session.player is not None:
            await self._leave_current(session.player)
        return {"type": "left"}

    async def _leave_current(self, pid: str) -> None:
        room = self._racer_room(pid)
        if room is None:
            return
        async with self._locked(room):
            racer = room.racers[pid]
            if room.state == RACING and racer.gid:
                live = await self._get_game(racer.gid)
                if live is not None and not live.finished:
                    await self._resign(live, room)
                racer.left = True
            elif room.state == FINISHED and racer.gid:
                racer.left = True
            else:
                del room.racers[pid]
            if room.host == pid:
                members = room.members()
                if members:
                    online = await self._online(members)
                    present = [r for r in members if r.pid in online]
                    room.host = (present or members)[0].pid
            if not room.members() and room.state != RACING:
                await self.players.clear_room(pid)
                self.room_of.pop(pid, None)
                await self._close_room(room)
                return
            await self._persist_room(room)
            await self.players.clear_room(pid)
            self.room_of.pop(pid, None)
        await self._announce(room)
        if room.state == RACING:
            await self._maybe_end_race(room)

    async def _close_room(self, room: Room) -> None:
        if room.timer is not None:
            room.timer.cancel()
        code = room.code
        closed = {**await self._room_message(room), "state": "closed"}
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.delete(
                store.room_key(code), version_key(code), standings_key(code), watchers_key(code)
            )
            pipe.srem(store.LIVE_ROOMS, code)
            await pipe.execute()
        data = encode(closed)
        for session in self._audience(room):
            session.send_encoded(data)
        self.bus.publish_soon(store.room_channel(code), "closed")
        self._unload_room(room)

    async def _own_room(self, session: Session) -> Room:
        """The room the player is in, as Redis has it now (another process may have
        changed it a moment ago, and its notice may be on its way)."""
        pid = self._need_player(session)
        room = self._racer_room(pid)
        if room is not None:
            room = await self._reload_room(room.code)
        if room is None or self._racer_room(pid) is not room:
            raise _error(ErrorCode.NOT_IN_ROOM, "you are not in a room")
        return room

    async def on_ready(self, session: Session, req: m.Ready) -> dict[str, Any]:
        room = await self._own_room(session)
        async with self._locked(room):
            if room.state == FINISHED:
                raise _error(
                    ErrorCode.RACE_STARTED, "the race is over: the host may call a rematch"
                )
            if room.state != LOBBY:
                raise _error(ErrorCode.RACE_STARTED, "the race has started")
            room.racers[self._need_player(session)].ready = req.ready
            await self._persist_room(room)
        return await self._announce(room)

    async def on_start(self, session: Session, req: m.Start) -> dict[str, Any]:
        room = await self._own_room(session)
        async with self._locked(room):
            if room.host != session.player:
                raise _error(ErrorCode.NOT_HOST, "only the host starts the race")
            if room.state != LOBBY:
                raise _error(ErrorCode.RACE_STARTED, "the race has started")
            waiting = [r.name for r in room.members() if not r.ready and r.pid != room.host]
            if waiting:
                raise _error(ErrorCode.NOT_READY, f"not ready yet: {', '.join(waiting)}")
            return await self._begin_countdown(room, room.fixed_seed)

    async def on_rematch(self, session: Session, req: m.Rematch) -> dict[str, Any]:
        room = await self._own_room(session)
        async with self._locked(room):
            if room.host != session.player:
                raise _error(ErrorCode.NOT_HOST, "only the host calls a rematch")
            if room.state != FINISHED:
                raise _error(ErrorCode.RACE_STARTED, "the race is not over yet")
            room.racers = {r.pid: r for r in room.members()}
            return await self._begin_countdown(room, None)

    async def _begin_countdown(self, room: Room, seed: int | None) -> dict[str, Any]:
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
                g.queue_create(pipe, live, ttl)
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
            g.created(live, replies[n * g.CREATE_REPLIES : (n + 1) * g.CREATE_REPLIES])
            self.games[live.gid] = live
            racer.gid = live.gid
        try:
            await self._persist_room(room)
        except BaseException:  # no race: its games, never named by the room, lapse
            for _, live in dealt:
                self.games.pop(live.gid, None)
            raise
        message = await self._announce(room)
        self._schedule(room)
        return message

    def _schedule(self, room: Room) -> None:
        """Arm the room's timer for its next step: the start, or the time limit. Every
        process holding the room arms it; the compare-and-set lets one of them act."""
        if room.timer is not None and room.timer is not asyncio.current_task():
            room.timer.cancel()
        room.timer = None
        if room.state == COUNTDOWN and room.start_at_ms is not None:
            room.timer = asyncio.get_running_loop().create_task(
                self._at(room.start_at_ms, self._start_race, room)
            )
        elif room.state == RACING and room.end_at_ms is not None:
            room.timer = asyncio.get_running_loop().create_task(
                self._at(room.end_at_ms, self._time_up, room)
            )

    async def _at(
        self, when_ms: int, action: Callable[[Room], Awaitable[None]], room: Room
    ) -> None:
        # wake at least every quarter second: the server clock is the truth, not the sleep
        while (delay := (when_ms - self.now()) / 1000) > 0:
            await asyncio.sleep(min(delay, 0.25))
        await self._until_done("room timer", room, action)

    async def _until_done(
        self, kind: str, room: Room, action: Callable[[Room], Awaitable[None]]
    ) -> None:
        """Carry out a step of the room (its start, its end...) and, while it fails (Redis
        away, the room busy), try it again, more slowly each time, until it goes through
        or this process lets go of the room. Each step looks at the room's state under its
        lock first, so trying again never does a thing twice."""
        pause = RETRY_FIRST
        while True:
            try:
                await action(room)
                return
            except Exception as exc:
                self.failures.failed(kind, exc, room=room.code)
            if self.stopping or self.rooms.get(room.code) is not room:
                return
            await asyncio.sleep(pause)
            pause = min(pause * 2, RETRY_MAX)

    async def _start_race(self, room: Room) -> None:
        async with self._locked(room):
            if room.state != COUNTDOWN:
                return
            room.state = RACING
            now = self.now()
            if room.start_at_ms is not None and now - room.start_at_ms > LATE_START_MS:
                # Redis was away at the start: nobody could play meanwhile (the room was
                # counting down here, and moves are refused), so the race starts now
                room.start_at_ms = now
            try:
                await self._persist_room(room, notice="start")
            except RoomConflict:  # another process started it (its notice says so too)
                await self._reload_room(room.code)  # (which arms the time limit's timer)
                if room.state != RACING:
                    return
            else:
                if room.timer is asyncio.current_task():
                    room.timer = None
                self._schedule(room)
        # the start is written: telling the racers here is tried until it goes through
        await self._until_done("race start", room, self._tell_started)

    async def _tell_started(self, room: Room) -> None:
        await self._send_race_starts(room)
        await self._announce(room)

    async def _send_race_starts(self, room: Room) -> None:
        """``race_start`` to each racer connected here, with their game (taken here),
        once a race each (a racer whose game could not be read is sent theirs when this
        is called again)."""
        race, sent = room.starts_sent
        if race != room.race:
            race, sent = room.race, frozenset()
        for racer in room.members():
            session = self.sessions.get(racer.pid)
            if session is None or racer.gid is None or racer.pid in sent:
                continue
            live = await self._get_game(racer.gid, fresh=racer.gid not in self.games)
            if live is not None and room.race == race:
                session.send(self._race_message(room, live))
                sent = sent | {racer.pid}
                room.starts_sent = (race, sent)

    def _race_progress(self, room: Room, live: g.LiveGame) -> None:
        """Tell the room how a racer stands after a move, undo or resignation.

        Progress is throttled: changes wait for the process's next progress tick, every
        ``progress_interval`` seconds, which sends each racer who changed in each room one
        event with their latest standing (a racer playing ten moves in that time is one
        event, not ten), and tells the other processes in one round trip to Redis for all
        rooms. A finish goes out at once, with the room's pending events."""
        room.progress_due[live.owner] = live
        interval = self.settings.progress_interval
        if live.finished or interval <= 0:
            self._send_progress(room)
        else:
            self._progress_rooms[room.code] = room
            if self._progress_timer is None:
                self._progress_timer = asyncio.get_running_loop().call_later(
                    interval, self._progress_tick
                )
        if live.finished:
            self._spawn(self._until_done("ending a race", room, self._maybe_end_race))

    def _progress_tick(self) -> None:
        self._progress_timer = None
        rooms, self._progress_rooms = self._progress_rooms, {}
        for code, room in rooms.items():
            if self.rooms.get(code) is room:
                self._send_progress(room)

    def _send_progress(self, room: Room) -> None:
        """The progress events of every racer due one, each encoded once for the room,
        sent here and through the bus; their standings kept in Redis for room events
        (both queued on the bus, which sends what a pass of the loop queued at once)."""
        due, room.progress_due = room.progress_due, {}
        if not due:
            return
        audience = self._audience(room)
        frames = []
        standings = []
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
            standings += [pid, store.pack([home, total, moves, status])]
        self.bus.publish_soon(store.room_channel(room.code), "frames", f=frames)
        key = standings_key(room.code)
        self.bus.command_soon("HSET", key, *standings)
        self.bus.command_soon("EXPIRE", key, self.settings.idle_ttl)

    async def _race_entries(self, room: Room) -> list[tuple[Racer, g.LiveGame]]:
        """Every racer dealt into the race, with their game: this process's copy where it
        is played here, else as its log in Redis has it (the truth)."""
        entries = []
        for racer in room.racers.values():
            if racer.gid is None:
                continue
            live = self.games.get(racer.gid) if racer.pid in self.sessions else None
            if live is None:
                live = await g.load(self.redis, racer.gid, fence=False)
            if live is not None:
                entries.append((racer, live))
        return entries

    async def _maybe_end_race(self, room: Room) -> None:
        async with self._locked(room):
            if room.state != RACING:
                return
            entries = await self._race_entries(room)
            if any(not live.finished for _, live in entries):
                return
            await self._end_race(room, entries)

    async def _time_up(self, room: Room) -> None:
        async with self._locked(room):
            if room.state != RACING:
                return
            # every process holding the room gets here: one at a time writes the
            # time-outs (each takes the games' fencing tokens, and two taking turns
            # would fence each other out), the others look again once its claim lapses
            claim = ending_key(room.code)
            if not await self.redis.set(claim, self.proc, nx=True, px=ENDING_CLAIM_MS):
                holder = await self.redis.get(claim)
                if holder is None or store.text(holder) != self.proc:
                    # (a claim of this process's own is one a failed try left behind)
                    wait = 1000 if holder is None else ENDING_CLAIM_MS + 1000
                    self._again_at(room, self.now() + wait, self._time_up)
                    return
            try:
                end = room.end_at_ms or self.now()
                timed_out = []
                for racer in room.racers.values():
                    if racer.gid is None:
                        continue
                    # taken here, wherever it was played: the time-out goes into its log
                    local = racer.pid in self.sessions and racer.gid in self.games
                    live = await self._get_game(racer.gid, fresh=not local)
                    if live is not None and not live.finished:
                        live.finish(g.TIMEOUT, end)
                        timed_out.append(live)
                # in the log too, so a restart rebuilds these games as ended; a time-out
                # not logged is taken back, to be logged when this is tried again
                logged = await asyncio.gather(
                    *(self._log(live, f"{end} {g.TIMEOUT_ENTRY}") for live in timed_out),
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
                    self._again_at(room, self.now() + 1000, self._time_up)
            finally:
                await self.redis.eval(DELETE_IF_OURS, 1, claim, self.proc)

    def _again_at(
        self, room: Room, when_ms: int, action: Callable[[Room], Awaitable[None]]
    ) -> None:
        """Arm the room's timer to try ``action`` again at ``when_ms``."""
        if room.timer is not None and room.timer is not asyncio.current_task():
            room.timer.cancel()
        room.timer = asyncio.get_running_loop().create_task(self._at(when_ms, action, room))

    async def _end_race(self, room: Room, entries: list[tuple[Racer, g.LiveGame]]) -> None:
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
        await self._keep_replays(
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
            (
                ("SET", store.results_key(room.code, room.race), store.pack(results)),
                *(
                    ("EXPIRE", key(live.gid), self.settings.ended_ttl)
                    for _, live in entries
                    for key in (store.game_key, store.log_key, store.fence_key)
                ),
            ),
        )
        online = await self._online(room.members())
        room.results = ranked
        room.state = FINISHED
        if room.host not in online:
            # the rematch must not wait on a host who has gone
            present = [r for r in room.members() if r.pid in online]
            if present:
                room.host = present[0].pid
        try:
            blob = await self._persist_room(room, notice=None)
        except RoomConflict:  # another process ended it
            await self._reload_room(room.code)
            return
        if room.timer is not None and room.timer is not asyncio.current_task():
            room.timer.cancel()
        room.timer = None
        try:
            await self._count_race_win(room, entries)
        except Exception as exc:  # the race is over all the same: its racers are told
            self.failures.failed("counting a race's win", exc, room=room.code)
        self._send_progress(room)  # the last standings before the results
        self._broadcast(
            room,
            {"type": "results", "code": room.code, "race": room.race, "results": room.results},
        )
        self.bus.publish_soon(store.room_channel(room.code), "room", room=blob)
        await self._announce(room)

    async def _count_race_win(self, room: Room, entries: list[tuple[Racer, g.LiveGame]]) -> None:
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
            await self._board_changed(board, pid)

        await asyncio.gather(
            *(
                count_win(parse_board(board_id, d.day_of(now), d.iso_week(now)))
                for board_id in ("races/all", f"races/week/{d.iso_week(now)}")
            )
        )

    # -- daily challenge -----------------------------------------------------------------

    def _streak_of(self, fields: dict[str, str], prefix: str, today: str) -> dict[str, int]:
        last = fields.get(f"{prefix}:last")
        current = int(fields.get(f"{prefix}:cur", 0))
        if last not in (today, d.previous_day(today)):
            current = 0  # a day was missed
        return {"current": current, "best": int(fields.get(f"{prefix}:best", 0))}

    async def _streaks(self, pid: str, game_id: str) -> dict[str, Any]:
        fields = await self.dailies.streak_fields(pid)
        today = d.day_of(self.now())
        return {
            "game": self._streak_of(fields, game_id, today),
            "all": self._streak_of(fields, "all", today),
        }

    async def on_daily(self, session: Session, req: m.Daily) -> dict[str, Any]:
        """Start or resume today's challenge: the first attempt is ranked; once it has
        ended, further attempts that day are practice."""
        pid = self._need_player(session)
        if req.game not in GAMES:
            raise _error(ErrorCode.NO_SUCH_GAME, f"no game {req.game!r}; see the games list")
        now = self.now()
        day = d.day_of(now)
        seed = d.daily_seed(self.secret, day, req.game)
        gid = await self.dailies.ranked(day, req.game, pid)
        live: g.LiveGame | None = None
        if gid is None:
            fresh = await g.create(
                self.redis,
                g.dealt(req.game, seed, pid, g.DAILY, now, day=day),
                self.settings.idle_ttl,
            )
            # two connections may race to start it: exactly one ranked attempt wins
            if await self.dailies.claim_ranked(day, req.game, pid, fresh.gid):
                self.games[fresh.gid] = live = fresh
            else:
                await self.redis.delete(store.game_key(fresh.gid))
                gid = await self.dailies.ranked(day, req.game, pid)
        if live is None:
            assert gid is not None
            live = await self._get_game(gid)
            if live is None:
                raise _error(ErrorCode.NO_SUCH_GAME, "today's ranked game has expired")
        ranked = not live.finished
        ranked_result = None
        if not ranked:
            ranked_result = self._result_line_of(live)
            pgid = await self.dailies.practice(day, req.game, pid)
            practice = await self._get_game(pgid) if pgid else None
            if practice is None or practice.finished:
                practice = await g.create(
                    self.redis,
                    g.dealt(req.game, seed, pid, g.PRACTICE, now, day=day),
                    self.settings.idle_ttl,
                )
                self.games[practice.gid] = practice
                await self.dailies.set_practice(day, req.game, pid, practice.gid)
            live = practice
        self._take_solo(pid, live.gid)
        await self.players.set_solo(pid, live.gid)
        reset = d.next_reset_ms(now)
        return {
            "type": "daily",
            "day": day,
            "ranked": ranked,
            "note": None
            if ranked
            else "practice: your ranked attempt today has ended; this one is not ranked",
            "reset_at": reset,
            "reset_in_ms": reset - now,
            "ranked_result": ranked_result,
            "streak": await self._streaks(pid, req.game),
            **live.snapshot_message(),
        }

    def _result_line_of(self, live: g.LiveGame) -> str:
        """The result line of an ended ranked daily (for a player who missed the event)."""
        home, total = live.game.progress
        end = live.finished_ms or live.created_ms
        return d.result_line(
            live.game.name,
            live.day or d.day_of(live.created_ms),
            live.result == g.WON,
            end - live.created_ms,
            live.game.moves,
            home,
            total,
        )

    async def _keep_replay(self, live: g.LiveGame, extra: dict[str, Any]) -> dict[str, Any]:
        (replay,) = await self._keep_replays([(live, extra)])
        return replay

    async def _keep_replays(
        self,
        games: list[tuple[g.LiveGame, dict[str, Any]]],
        also: Iterable[tuple[Any, ...]] = (),
    ) -> list[dict[str, Any]]:
        """The replays of ended games, built from their logs and kept for good: two round
        trips for them all (a race's), the first carrying the commands ``also``."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for command in also:
                pipe.execute_command(*command)
            for live, _ in games:
                pipe.lrange(store.log_key(live.gid), 0, -1)
            replies = await pipe.execute()
        logs = replies[len(replies) - len(games) :]
        out = [
            replays.build(live, g.parse_log(raw), extra)
            for (live, extra), raw in zip(games, logs, strict=True)
        ]
        await self.replays.keep(
            [(live.gid, replay, live.owner) for (live, _), replay in zip(games, out, strict=True)]
        )
        return out

    async def _daily_finished(self, live: g.LiveGame) -> None:
        """A ranked daily game has ended: its replay, the boards, the streaks, and the
        result line for the player."""
        pid = live.owner
        name = self.sessions[pid].name if pid in self.sessions else None
        if name is None:
            name = await self.players.name_of(pid) or "?"
        day = live.day or d.day_of(live.created_ms)
        replay = await self._keep_replay(live, {"player": name, "day": day})
        result = replay["result"]
        won = live.result == g.WON
        details = {
            "player": name,
            "won": won,
            "time_ms": result["time_ms"],
            "moves": result["moves"],
            "home": result["home"],
            "total": result["total"],
            "replay": live.gid,
            "day": day,
        }
        finished = live.finished_ms or self.now()
        today, week = d.day_of(self.now()), d.iso_week(self.now())
        daily_board = parse_board(f"daily/{live.game.id}/{day}", today, week)
        await self.boards.submit_time(daily_board, pid, details, finished, "first")
        changed = [daily_board]
        if won:
            best = parse_board(f"best/{live.game.id}", today, week)
            if await self.boards.submit_time(best, pid, details, finished, "best"):
                changed.append(best)
            wins = parse_board(f"wins/{live.game.id}", today, week)
            await self.boards.submit_count(
                wins, pid, {"player": name, "replay": live.gid}, finished
            )
            changed.append(wins)
            await self.dailies.count_win(pid, live.game.id, day, d.previous_day(day))
        for board in changed:
            await self._board_changed(board, pid)
        session = self.sessions.get(pid)
        if session is not None:
            session.send(
                {
                    "type": "daily_result",
                    "day": day,
                    "game": live.gid,
                    "rules": live.game.id,
                    "status": live.result,
                    "rank": await self.boards.rank_of(daily_board, pid),
                    "board": daily_board.id,
                    "streak": await self._streaks(pid, live.game.id),
                    "line": d.result_line(
                        live.game.name,
                        day,
                        won,
                        result["time_ms"],
                        result["moves"],
                        result["home"],
                        result["total"],
                    ),
                }
            )

    # -- leaderboards --------------------------------------------------------------------

    def _board(self, text: str) -> Board:
        now = self.now()
        try:
            board = parse_board(text, d.day_of(now), d.iso_week(now))
        except ValueError as exc:
            raise _error(ErrorCode.NO_SUCH_BOARD, str(exc)) from None
        if board.day is not None and board.day > d.day_of(now):
            raise _error(ErrorCode.NO_SUCH_BOARD, f"{board.day} has not come yet")
        return board

    async def board_page(
        self,
        board: Board,
        offset: int = 0,
        limit: int = 20,
        pid: str | None = None,
        around: bool = False,
        friends: bool = False,
    ) -> dict[str, Any]:
        if around:
            assert pid is not None
            page = await self.boards.around(board, pid)
        elif friends:
            assert pid is not None
            followed = await self.players.followed(pid)
            page = await self.boards.among(board, [pid, *followed])
        else:
            page = await self.boards.top(board, offset, limit)
        leader = page["entries"][0] if page["entries"] and page["entries"][0]["rank"] == 1 else None
        if leader is None and page["size"]:
            leader = (await self.boards.top(board, 0, 1))["entries"][0]
        page["leader"] = leader
        rank = page.get("rank")
        if around and rank is not None and rank > 1:
            above = [e for e in page["entries"] if e["rank"] == rank - 1]
            page["to_beat"] = above[0] if above else None
        else:
            page["to_beat"] = leader
        for entry in page["entries"]:
            entry.pop("pid", None)
        for entry in (page["leader"], page["to_beat"]):
            if entry:
                entry.pop("pid", None)
        return {"board": board.id, "title": board.title(), "kind": board.kind, **page}

    async def on_top(self, session: Session, req: m.Top) -> dict[str, Any]:
        board = self._board(req.board)
        pid = session.player
        if (req.around or req.friends) and pid is None:
            raise _error(ErrorCode.NOT_AUTHENTICATED, "sign in to see yourself or friends")
        page = await self.board_page(board, req.offset, req.limit, pid, req.around, req.friends)
        return {"type": "board", **page}

    async def on_board_watch(self, session: Session, req: m.BoardWatch) -> dict[str, Any]:
        board = self._board(req.board)
        self.board_watchers.setdefault(board.id, set()).add(session)
        return {"type": "board", **await self.board_page(board)}

    async def on_board_unwatch(self, session: Session, req: m.BoardUnwatch) -> dict[str, Any]:
        board = self._board(req.board)
        self._unwatch_board(board.id, session)
        return {"type": "unwatched", "board": board.id}

    def _unwatch_board(self, board_id: str, session: Session) -> None:
        """(A board nobody here watches any more is forgotten: the boards watched over
        time, a new one each day, are not kept for ever.)"""
        watchers = self.board_watchers.get(board_id)
        if watchers is not None:
            watchers.discard(session)
            if not watchers:
                del self.board_watchers[board_id]

    async def _board_changed(self, board: Board, pid: str) -> None:
        """``board_update`` to the board's watchers, here and in the other processes."""
        page = await self.boards.around(board, pid, radius=0)
        entry = page["entries"][0] if page["entries"] else None
        if entry is not None:
            entry.pop("pid", None)
        data = encode(
            {"type": "board_update", "board": board.id, "entry": entry, "size": page["size"]}
        )
        for session in list(self.board_watchers.get(board.id, ())):
            session.send_encoded(data)
        self.bus.publish_soon(bus.BOARDS, "board", id=board.id, data=data)

    async def _player_named(self, name: str) -> str:
        pid = await self.players.by_name(name)
        if pid is None:
            raise _error(ErrorCode.NO_SUCH_PLAYER, f"no player named {name!r}")
        return pid

    async def _following(self, pid: str) -> list[str]:
        names = []
        for other in sorted(await self.players.followed(pid)):
            name = await self.players.name_of(other)
            if name:
                names.append(name)
        return sorted(names, key=str.lower)

    async def on_follow(self, session: Session, req: m.Follow) -> dict[str, Any]:
        pid = self._need_player(session)
        other = await self._player_named(req.name)
        if other != pid:
            await self.players.follow(pid, other)
        return {"type": "following", "names": await self._following(pid)}

    async def on_unfollow(self, session: Session, req: m.Unfollow) -> dict[str, Any]:
        pid = self._need_player(session)
        other = await self._player_named(req.name)
        await self.players.unfollow(pid, other)
        return {"type": "following", "names": await self._following(pid)}

    async def public_replay(self, replay_id: str, pid: str | None) -> dict[str, Any]:
        """A replay as its viewer may see it: a daily game's is public only after the
        day's reset (its player sees it sooner, but not the seed)."""
        found = await self.replays.get(replay_id)
        if found is None:
            raise _error(ErrorCode.NO_SUCH_REPLAY, f"no replay {replay_id!r}")
        replay, owner = found
        day = replay.get("day")
        if replay.get("kind") == g.DAILY and day is not None and day >= d.day_of(self.now()):
            if pid is None or owner != pid:
                raise _error(
                    ErrorCode.NOT_PUBLIC, "a daily game's replay is public after the day's reset"
                )
            replay = {**replay, "seed": None}
        return replay

    async def on_replay(self, session: Session, req: m.Replay) -> dict[str, Any]:
        return {"type": "replay", "replay": await self.public_replay(req.replay, session.player)}

    async def on_replay_view(self, session: Session, req: m.ReplayView) -> dict[str, Any]:
        """The table after the first ``step`` entries of a replay, for a client that knows
        no rules to draw it; only where the replay's seed is public."""
        replay = await self.public_replay(req.replay, session.player)
        if replay.get("seed") is None:
            raise _error(ErrorCode.NOT_PUBLIC, "the deal is secret until the day's reset")
        moves = replay["moves"]
        if req.step > len(moves):
            raise _error(ErrorCode.BAD_REQUEST, f"this replay has {len(moves)} steps")
        try:
            view = replays.view_after(replay, req.step)
        except replays.OtherRules as exc:
            raise _error(ErrorCode.OTHER_RULES, str(exc)) from None
        return {"type": "replay_view", "replay": req.replay, "step": req.step, "view": view}

    # -- restart and housekeeping -------------------------------------------------------

    async def resume_rooms(self) -> int:
        """At the start: take up every live room with its timers, and end the races that
        ended while no process was running."""
        codes = await self.redis.smembers(store.LIVE_ROOMS)
        count = 0
        for raw in codes:
            code = store.text(raw)
            data = await self.redis.get(store.room_key(code))
            if not data:
                await self.redis.srem(store.LIVE_ROOMS, code)
                continue
            room = await self._revive(store.unpack(data))
            await self._settle(room)
            count += 1
        return count

    async def _settle(self, room: Room) -> None:
        """End a race whose time is up, or whose racers have all finished."""
        if room.state == RACING:
            end = room.end_at_ms
            if end is not None and self.now() >= end:
                await self._time_up(room)
            else:
                await self._maybe_end_race(room)

    async def _revive(self, data: dict[str, Any]) -> Room:
        """Hold a room read from Redis: its racers' games load when they are asked for."""
        room = Room.from_dict(data)
        existing = self.rooms.get(room.code)
        if existing is not None:
            return existing
        await self._hold(room)
        for racer in room.racers.values():
            if not racer.left:
                self.room_of[racer.pid] = room.code
        if room.state in (COUNTDOWN, RACING):
            self._schedule(room)
        return room

    def _unload_room(self, room: Room) -> None:
        """Forget a room in memory (its Redis state is gone, kept for good, or held by the
        processes its people are connected to)."""
        if self.rooms.get(room.code) is room:
            del self.rooms[room.code]
            self.bus.watch_soon(store.room_channel(room.code), False)
        if room.timer is not None and room.timer is not asyncio.current_task():
            room.timer.cancel()
        room.timer = None
        self._progress_rooms.pop(room.code, None)
        for pid in room.racers:
            if self.room_of.get(pid) == room.code:
                del self.room_of[pid]

    async def start(self) -> int:
        """Join the bus, resume the rooms a previous run left, start the housekeeping."""
        await self.bus.start()
        count = await self.resume_rooms()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
        return count

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_interval)
            await self.housekeeping()

    async def housekeeping(self) -> None:
        """A pass of :meth:`sweep`; a failure is logged (the next pass tries again)."""
        try:
            await self.sweep()
        except Exception as exc:
            self.failures.failed("housekeeping", exc)

    async def sweep(self) -> None:
        """Housekeeping: renew this process's marks in Redis (who is connected here, how
        many watch each room); a racer away longer than ``forfeit_after`` seconds resigns
        (a race with no time limit must not wait for ever); take up races nobody holds
        (their processes died); let go of rooms, and games, nobody here needs."""
        now = self.now()
        ttl = self._online_ttl()
        if self.sessions:
            await self.presence.renew(self.sessions, ttl)
        await self._catch_up_rooms()
        limit = self.settings.forfeit_after * 1000
        for room in list(self.rooms.values()):
            if room.watchers:
                await self._count_watchers(room)
            if room.state == RACING and limit > 0:
                members = room.members()
                online = await self._online(members)
                for racer in members:
                    if racer.pid in online:
                        self.absent_since.pop(racer.pid, None)
                        continue
                    since = self.absent_since.setdefault(racer.pid, now)
                    if now - since < limit or racer.gid is None:
                        continue
                    live = await self._get_game(racer.gid, fresh=True)
                    if live is not None and not live.finished:
                        log.info("forfeit", extra={"room": room.code, "player": racer.name})
                        try:
                            await self._resign(live, room)
                        except ProtocolError:  # another process forfeited them first
                            continue
            if room.state in (LOBBY, FINISHED) and not await self.redis.exists(
                store.room_key(room.code)
            ):
                self._unload_room(room)
            elif not self._audience(room) and (
                room.state in (LOBBY, FINISHED) or await self._online(room.members())
            ):
                self._unload_room(room)  # those who need it hold it
        await self._take_up_orphans(now)
        playing = {r.gid for room in self.rooms.values() for r in room.racers.values()}
        for gid, live in list(self.games.items()):
            # a game played elsewhere or by nobody, or one that has ended (it reloads
            # from Redis if asked for)
            if live.owner not in self.sessions or (live.finished and gid not in playing):
                del self.games[gid]

    async def _catch_up_rooms(self) -> None:
        """Read again the rooms held here that changed without this process hearing of
        it (pub/sub delivers at most once: a notice is lost if its sender dies at that
        moment, or while this process reconnects), and tell their audience here."""
        held = list(self.rooms.values())
        if not held:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for room in held:
                pipe.get(version_key(room.code))
            versions = await pipe.execute()
        for room, version in zip(held, versions, strict=True):
            if version is not None and int(version) == room.version:
                continue
            before = room.state
            fresh, taken = await self._read_room(room.code)
            if fresh is not room:
                continue  # gone: its Redis state expired or the room closed
            if not taken:
                continue  # what was read was this process's own change, being written
            log.info("caught up with a room", extra={"room": room.code, "state": room.state})
            if before in (LOBBY, COUNTDOWN) and room.state == RACING:
                await self._send_race_starts(room)
            await self._announce(room)

    async def _take_up_orphans(self, now: int) -> None:
        """Hold the rooms no process holds that need one: a countdown or time limit past
        due, or a race none of whose racers is connected anywhere (they forfeit)."""
        codes = [store.text(c) for c in await self.redis.smembers(store.LIVE_ROOMS)]
        codes = [c for c in codes if c not in self.rooms]
        if not codes:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.get(store.room_key(code))
            blobs = await pipe.execute()
        grace = 2000
        candidates: list[tuple[dict[str, Any], Room]] = []
        for code, blob in zip(codes, blobs, strict=True):
            if blob is None:
                await self.redis.srem(store.LIVE_ROOMS, code)
                continue
            data = store.unpack(blob)
            room = Room.from_dict(data)
            if room.state in (COUNTDOWN, RACING):
                candidates.append((data, room))
        # who of the racers of every race here is connected anywhere: one round trip
        racing = [r for _, room in candidates if room.state == RACING for r in room.members()]
        online = await self._online(racing) if racing else set()
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
                held = await self._revive(data)
                await self._settle(held)

    async def shutdown(self) -> None:
        """Stop the timers and housekeeping, write what is queued, leave the bus."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        for room in self.rooms.values():
            if room.timer is not None:
                room.timer.cancel()
        if self._progress_timer is not None:
            self._progress_timer.cancel()
        if self._background:  # what closing connections started (presence, host)
            await asyncio.wait(set(self._background), timeout=5)
        await self.commit.close()
        await self.bus.stop()


#: the game pages, the rules a client shows (read from the source tree)
RULES_DIR = Path(__file__).resolve().parents[2] / "docs" / "games"


@functools.cache
def rules_text(folder: Path, game_id: str) -> str:
    """A game's page from ``folder`` (docs/games/), or its one-line summary where the
    pages are not installed beside the server."""
    try:
        return (folder / f"{game_id}.md").read_text(encoding="utf-8")
    except OSError:
        info = GAMES[game_id]
        return f"# {info.name}\n\n{info.summary}\n"
