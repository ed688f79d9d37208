"""What every handler shares: the app it is a part of, the connection as the handlers see
it (:class:`Session`), and the error a request is refused with."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from server.engine import GAMES
from server.protocol import ErrorCode, ProtocolError
from server.protocol import messages as m
from server.protocol import refuse as refuse

from ..context import Context, Session

__all__ = ["Context", "Handler", "Part", "Session", "refuse"]

#: a request's handler: the session it came on and the request, to the reply
Handler = Callable[[Session, Any], Awaitable[dict[str, Any]]]


def no_such_game(game: str) -> ProtocolError:
    """An unknown rules id refused, with the ids there are ("see the games list" left
    the player to find them).

    >>> no_such_game("chess").message[:53]
    "no game 'chess': the games are gate, gate-narrow, nes"
    """
    return refuse(ErrorCode.NO_SUCH_GAME, f"no game {game!r}: the games are {', '.join(GAMES)}")


class Part:
    """A capability of the app, built with the state the app shares (:class:`Context`:
    the connections, what is held here, the repositories) and, as arguments of its own,
    the few other parts it calls (``server.app.service`` puts them together). What it
    would have to tell a part above it is an event (``server.app.events``)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        # what the app shares, under the same names (containers: never replaced)
        self.settings = ctx.settings
        self.clock = ctx.clock
        self.commit = ctx.commit
        self.sessions = ctx.sessions
        self.games = ctx.games
        self.rooms = ctx.rooms
        self.room_of = ctx.room_of
        self.solo_of = ctx.solo_of
        self.bus = ctx.bus
        self.failures = ctx.failures
        self.proc = ctx.proc
        self.players = ctx.players
        self.dailies = ctx.dailies
        self.presence = ctx.presence
        self.replays = ctx.replays
        self.stored = ctx.stored
        self.boards = ctx.boards
        self.stored_rooms = ctx.stored_rooms
        self.workers = ctx.workers
        self.events = ctx.events

    def requests(self) -> dict[type[m.Request], Handler]:
        """The requests this part answers, and with what (none by default)."""
        return {}

    def now(self) -> int:
        return self.clock.now_ms()

    def need_player(self, session: Session) -> str:
        if session.player is None:
            raise refuse(ErrorCode.NOT_AUTHENTICATED, "register or sign in with hello first")
        return session.player

    def spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        self.ctx.spawn(coro)
