"""The move path: a ``move`` on a game held here is checked, played on the engine, sent
to the group commit as its log entry, and answered once Redis has it, with no coroutine.

:class:`MovePath` is the service's half of it (``Service.moves``): the service's other
requests (``undo``, ``resign``, a move on a game to load first) use the same checks and
the same reply. Compiled with the rules engine (``server/native.py``), so it keeps to
strict types; what it is built with (the rooms, the group commit, the game log's writer,
the stuck check, the events) stays Python objects, each named by a narrow type here.

A log entry goes to Redis as ``EVALSHA`` of the fenced append
(:data:`~server.app.store.FENCED_APPEND`), packed from a head kept per game (the script,
the game's keys and this process's fencing token do not change between moves):
``store.append_head`` and ``store.packed_append``, beside the group commit that sends it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final, Protocol

from server.engine import IllegalMove
from server.protocol import ErrorCode, ProtocolError
from server.protocol.codec import array_header, encode, map_header, pack_str, pack_uint

from . import store
from .domain import games as g
from .domain.room import COUNTDOWN, RACING
from .events import Events, GameEnded, RacerProgress
from .held import HeldRoom
from .store.packing import append_head, packed_append

if TYPE_CHECKING:
    from .settings import Clock, Settings

#: what a move's caller hears: the reply's frame (``moved``, its ``id`` set, encoded)
#: or the error
Answer = Callable[["bytes | BaseException"], None]
#: what :meth:`MovePath.start` tells once Redis has the entry: the move's text and the
#: room it was raced in, or the error (the move taken back)
Started = Callable[["tuple[str, HeldRoom | None] | BaseException"], None]

#: the ``moved`` reply's fields up to the game id (a game over has ``finished_at`` too,
#: a lost game's ``lost``), and the names of the others, encoded
_MOVED_FIELDS: Final = pack_str("type") + pack_str("moved") + pack_str("game")
_MOVED: Final = map_header(7) + _MOVED_FIELDS
_LOST: Final = pack_str("lost")
_FINISHED_AT: Final = pack_str("finished_at")
_MOVE: Final = pack_str("move")
_VIEW: Final = pack_str("view")
_LEGAL: Final = pack_str("legal")
_STATUS: Final = pack_str("status")
_ID: Final = pack_str("id")
#: moves' texts, encoded (a game's moves are a few hundred texts at most)
_TEXTS: Final[dict[str, bytes]] = {}


def _text(text: str) -> bytes:
    packed = _TEXTS.get(text)
    if packed is None:
        packed = pack_str(text)
        if len(_TEXTS) < 8192:
            _TEXTS[text] = packed
    return packed


def _refused(code: ErrorCode, message: str) -> ProtocolError:
    return ProtocolError(code, message)


class Mover(Protocol):
    """The connection a move came on, as the move path reads it."""

    @property
    def hello(self) -> bool: ...

    @property
    def player(self) -> str | None: ...

    @property
    def side(self) -> bool: ...


class GameLog(Protocol):
    """How a game's log is written (``handlers.keeper.GameKeeper``)."""

    def log_write(self, live: g.LiveGame, entry: str) -> store.Write: ...

    def log_failed(self, live: g.LiveGame, exc: BaseException) -> BaseException: ...


class StuckCheck(Protocol):
    """Who looks further when no move plainly gets a game on (``handlers.stuck``)."""

    def check_later(self, live: g.LiveGame) -> None: ...


class MovePath:
    """The service's move path (``Service.moves``): built with the games and rooms held
    here, the settings and clock, the group commit, how a game's log is written, the stuck
    check, and the events a move tells (:class:`~server.app.events.RacerProgress`, and
    :class:`~server.app.events.GameEnded` when it ends the game)."""

    def __init__(
        self,
        games: dict[str, g.LiveGame],
        rooms: dict[str, HeldRoom],
        settings: Settings,
        clock: Clock,
        commit: store.GroupCommit,
        game_log: GameLog,
        stuck: StuckCheck,
        events: Events,
    ) -> None:
        self.games = games
        self.rooms = rooms
        self.settings = settings
        self.clock = clock
        self.commit = commit
        self.game_log = game_log
        self.stuck = stuck
        self.events = events

    def move_now(
        self, session: Mover, request_id: int, gid: str | None, text: str, done: Answer
    ) -> bool:
        """A move on a game held here, played at once: ``done`` is called with the reply
        (:meth:`moved_frame`) or the error once Redis has its log entry. False, with nothing
        done, when the move needs what only the service's coroutine does (a game to load,
        a daily's day to check, ``hello`` first). Refusals found at once (an illegal move,
        a race over) raise :class:`ProtocolError`."""
        live = self.games.get(gid) if gid is not None else None
        if (
            live is None
            or not session.hello
            or session.side
            or live.owner != session.player
            or live.kind == g.DAILY
        ):
            return False

        def moved(outcome: tuple[str, HeldRoom | None] | BaseException) -> None:
            if isinstance(outcome, BaseException):
                done(outcome)
                return
            try:
                frame = self.moved_frame(live, outcome[0], outcome[1], request_id)
            except Exception as failure:
                done(failure)
                return
            done(frame)

        self.start(live, text, moved)
        return True

    def check_playable(self, live: g.LiveGame) -> HeldRoom | None:
        """The room a move on ``live`` is raced in (None: not a race), or
        :class:`ProtocolError` when the game cannot take a move now."""
        if live.result is not None:
            if live.kind == g.DAILY and live.result == g.TIMEOUT:
                raise _refused(ErrorCode.GAME_OVER, "the day is over: a daily ends at 00:00 UTC")
            raise _refused(ErrorCode.GAME_OVER, f"the game is over ({live.result})")
        if live.kind != g.RACE:
            if live.kind == g.CHALLENGE and self.clock.now_ms() < live.created_ms:
                # (a quick race's ghosts are raced on a challenge's game of no challenge)
                raise _refused(
                    ErrorCode.NOT_STARTED,
                    "the challenge has not started: wait for challenge_start"
                    if live.challenge is not None
                    else "the race has not started: wait for quick_ghosts_start",
                )
            return None
        room = self.rooms.get(live.room or "")
        if room is not None and room.state == COUNTDOWN and room.race == live.race:
            raise _refused(ErrorCode.NOT_STARTED, "the race has not started: wait for race_start")
        if room is None or room.state != RACING or room.race != live.race:
            raise _refused(ErrorCode.GAME_OVER, "the race is over")
        end = room.end_at_ms
        if end is not None and self.clock.now_ms() >= end:
            raise _refused(ErrorCode.GAME_OVER, "time is up")
        return room

    def check_log_room(self, live: g.LiveGame) -> None:
        """Refuse a move or undo once the game's log holds ``log_limit`` entries: what one
        player keeps in Redis is bounded (moving a card back and forth would grow a log
        without end). Resigning is still allowed."""
        most: int = self.settings.log_limit
        if most > 0 and live.log_length >= most:
            raise _refused(
                ErrorCode.RATE_LIMITED,
                f"this game has had {most} moves and undos, as many as a game may: "
                "resign it or start another",
            )

    def start(self, live: g.LiveGame, text: str, done: Started) -> None:
        """Play a move on the engine at once and send its log entry; ``done`` hears the
        move's text and its room once Redis has the entry, or the error (the move taken
        back). Refusals raise :class:`ProtocolError` here, before anything changes."""
        room = self.check_playable(live)
        self.check_log_room(live)
        game = live.game
        now: int = self.clock.now_ms()
        home_before = game.cards_home()
        try:
            move = game.play(text)
        except IllegalMove as illegal:
            raise _refused(ErrorCode.ILLEGAL_MOVE, str(illegal)) from None
        status = game.status
        if status != "playing":
            live.finish(status, now)
        game_log = self.game_log

        def logged(error: BaseException | None) -> None:
            if error is not None:
                game.pop()
                live.result = live.finished_ms = None
                done(game_log.log_failed(live, error))
                return
            live.log_length += 1
            live.note_home_change(home_before, now)
            done((move.text, room))

        self.log(live, f"{now} {move.text}", logged)

    def log(
        self, live: g.LiveGame, entry: str, done: Callable[[BaseException | None], None]
    ) -> None:
        """Send a log entry to the group commit; ``done`` hears None or the error once
        Redis has answered. Every 64th entry, and a finished game's, renews the keys' time
        to live too (the service's general write)."""
        fence = live.fence
        commit = self.commit
        if (
            live.result is not None
            or live.log_length % 64 == 0
            or fence is None
            or not commit.packs
        ):
            commit.submit_callback(self.game_log.log_write(live, entry), done)
            return
        head = live.append_head
        if head is None or head[0] != fence:
            head = live.append_head = (fence, append_head(live.gid, fence))
        commit.submit_packed(packed_append(head[1], entry), done)

    def played(
        self, kind: str, live: g.LiveGame, move: str, room: HeldRoom | None
    ) -> dict[str, Any]:
        """The reply to an accepted move or undo (and the room's progress event)."""
        game = live.game
        reply: dict[str, Any] = {
            "type": kind,
            "game": live.gid,
            "move": move,
            "view": live.encoded_view(),
            "legal": [mv.text for mv in game.legal_moves()],
            "status": live.status(),
        }
        if live.finished_ms is not None:
            reply["finished_at"] = live.finished_ms
        lost = live.lost()
        if lost is not None:
            reply["lost"] = lost
        self.tell(live, room)
        return reply

    def after(self, live: g.LiveGame) -> None:
        """A move, undo or ``home`` on ``live`` is answered (its reply queued or about
        to be): when no legal move now plainly gets the game on
        (:meth:`~server.engine.Game.plain_progress`), the service's stuck check looks
        further, off the event loop (``StuckWatch``). Cheap for every other position."""
        if live.result is None and not live.game.plain_progress():
            self.stuck.check_later(live)

    def moved_frame(
        self, live: g.LiveGame, move: str, room: HeldRoom | None, request_id: int
    ) -> bytes:
        """The ``moved`` reply as :meth:`played` makes it, with its ``id``, encoded (what
        ``codec.encode`` makes of it), and the room's progress event."""
        lost = live.lost()
        ended = live.finished_ms
        out = [
            _MOVED if ended is None else map_header(8 + (lost is not None)) + _MOVED_FIELDS,
            pack_str(live.gid),
            _MOVE,
            _text(move),
            _VIEW,
        ]
        live.view_encoder().encode_into(out)
        legal = live.game.legal_moves()
        out.append(_LEGAL)
        out.append(array_header(len(legal)))
        for mv in legal:
            out.append(_text(mv.text))
        out.append(_STATUS)
        out.append(pack_str(live.status()))
        if ended is not None:
            out.append(_FINISHED_AT)
            out.append(pack_uint(ended))
            if lost is not None:
                out.append(_LOST)
                out.append(encode(lost))
        out.append(_ID)
        out.append(pack_uint(request_id))
        frame = b"".join(out)
        self.tell(live, room)
        return frame

    def tell(self, live: g.LiveGame, room: HeldRoom | None) -> None:
        """A move or undo on ``live`` is answered: the room hears the racer's progress,
        and of the game's end; then :meth:`after`."""
        events = self.events
        if room is not None:
            events.tell(RacerProgress(room, live))
        if live.result is not None:
            events.tell(GameEnded(live, room))
        self.after(live)
