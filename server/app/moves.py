"""The move path: a ``move`` on a game held here is checked, played on the engine, sent
to the group commit as its log entry, and answered once Redis has it, with no coroutine.

:class:`MovePath` is the service's half of it (``Service.moves``): the service's other
requests (``undo``, ``resign``, a move on a game to load first) use the same checks and
the same reply. Compiled with the rules engine (``server/native.py``), so it keeps to
strict types; the service, its rooms and its group commit stay Python objects, reached
through the attributes named here.

A log entry goes to Redis as ``EVALSHA`` of the fenced append
(:data:`~server.app.store.FENCED_APPEND`). Its command is packed here, from a head kept
per game (the script, the game's keys and this process's fencing token do not change
between moves), rather than by the group commit's general packer:

>>> command = packed_append(append_head("ab12", 7), "1700000000000 deal")
>>> command[:17]
b'*7\\r\\n$7\\r\\nEVALSHA\\r\\n'
>>> command[-51:]
b'$12\\r\\ng:{ab12}:log\\r\\n$1\\r\\n7\\r\\n$18\\r\\n1700000000000 deal\\r\\n'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from server.engine import IllegalMove
from server.protocol import ErrorCode, ProtocolError
from server.protocol.codec import array_header, map_header, pack_str, pack_uint

from . import store
from .domain import games as g
from .domain.room import COUNTDOWN, RACING

#: what a move's caller hears: the reply's frame (``moved``, its ``id`` set, encoded)
#: or the error
Answer = Callable[["bytes | BaseException"], None]
#: what :meth:`MovePath.start` tells once Redis has the entry: the move's text and the
#: room it was raced in, or the error (the move taken back)
Started = Callable[["tuple[str, Any] | BaseException"], None]

_SHA = store.FENCED_APPEND_SHA.encode()


def _bulk(data: bytes) -> bytes:
    return b"".join((b"$", str(len(data)).encode(), b"\r\n", data, b"\r\n"))


def append_head(gid: str, token: int) -> bytes:
    """The fenced append's command for one game and token, packed (RESP) up to its last
    argument, the entry: as ``hiredis.pack_command`` packs ``store.Commands.append_fenced``."""
    args = (
        b"EVALSHA",
        _SHA,
        b"2",
        store.fence_key(gid).encode(),
        store.log_key(gid).encode(),
        str(token).encode(),
    )
    return b"".join([b"*7\r\n", *[_bulk(arg) for arg in args]])


def packed_append(head: bytes, entry: str) -> bytes:
    """The whole command: ``head`` and the entry."""
    return head + _bulk(entry.encode())


#: the ``moved`` reply's fields up to the game id, and the names of the others, encoded
_MOVED = map_header(7) + pack_str("type") + pack_str("moved") + pack_str("game")
_MOVE, _VIEW, _LEGAL = pack_str("move"), pack_str("view"), pack_str("legal")
_STATUS, _ID = pack_str("status"), pack_str("id")
#: moves' texts, encoded (a game's moves are a few hundred texts at most)
_TEXTS: dict[str, bytes] = {}


def _text(text: str) -> bytes:
    packed = _TEXTS.get(text)
    if packed is None:
        packed = pack_str(text)
        if len(_TEXTS) < 8192:
            _TEXTS[text] = packed
    return packed


def _refused(code: ErrorCode, message: str) -> ProtocolError:
    return ProtocolError(code, message)


class MovePath:
    """The service's move path (``Service.moves``)."""

    def __init__(self, service: Any) -> None:
        #: the :class:`~server.app.service.Service` (its race progress and log writes)
        self.service = service
        self.games: dict[str, g.LiveGame] = service.games
        self.rooms: dict[str, Any] = service.rooms
        self.settings: Any = service.settings
        self.clock: Any = service.clock
        #: the group commit (``store.GroupCommit``)
        self.commit: Any = service.commit

    def move_now(
        self, session: Any, request_id: int, gid: str | None, text: str, done: Answer
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
            or live.owner != session.player
            or live.kind == g.DAILY
        ):
            return False

        def moved(outcome: tuple[str, Any] | BaseException) -> None:
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

    def check_playable(self, live: g.LiveGame) -> Any:
        """The room a move on ``live`` is raced in (None: not a race), or
        :class:`ProtocolError` when the game cannot take a move now."""
        if live.result is not None:
            if live.kind == g.DAILY and live.result == g.TIMEOUT:
                raise _refused(ErrorCode.GAME_OVER, "the day is over: a daily ends at 00:00 UTC")
            raise _refused(ErrorCode.GAME_OVER, f"the game is over ({live.result})")
        if live.kind != g.RACE:
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
        service = self.service

        def logged(error: BaseException | None) -> None:
            if error is not None:
                game.pop()
                live.result = live.finished_ms = None
                done(service.play.log_failed(live, error))
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
            commit.submit_callback(self.service.play.log_write(live, entry), done)
            return
        head = live.append_head
        if head is None or head[0] != fence:
            head = live.append_head = (fence, append_head(live.gid, fence))
        commit.submit_packed(packed_append(head[1], entry), done)

    def played(self, kind: str, live: g.LiveGame, move: str, room: Any) -> dict[str, Any]:
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
        if room is not None:
            self.service.races.progress(room, live)
        self.after(live)
        return reply

    def after(self, live: g.LiveGame) -> None:
        """A move, undo or ``home`` on ``live`` is answered (its reply queued or about
        to be): when no legal move now plainly gets the game on
        (:meth:`~server.engine.Game.plain_progress`), the service's stuck check looks
        further, off the event loop (``StuckWatch``). Cheap for every other position."""
        if live.result is None and not live.game.plain_progress():
            self.service.stuck.check_later(live)

    def moved_frame(self, live: g.LiveGame, move: str, room: Any, request_id: int) -> bytes:
        """The ``moved`` reply as :meth:`played` makes it, with its ``id``, encoded (what
        ``codec.encode`` makes of it), and the room's progress event."""
        view = live.view_encoder().encode_bytes()
        legal = live.game.legal_moves()
        frame = b"".join(
            [
                _MOVED,
                pack_str(live.gid),
                _MOVE,
                _text(move),
                _VIEW,
                view,
                _LEGAL,
                array_header(len(legal)),
                *[_text(mv.text) for mv in legal],
                _STATUS,
                pack_str(live.status()),
                _ID,
                pack_uint(request_id),
            ]
        )
        if room is not None:
            self.service.races.progress(room, live)
        self.after(live)
        return frame
