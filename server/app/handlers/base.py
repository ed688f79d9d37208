"""What every handler shares: the app it is a part of, the connection as the handlers see
it (:class:`Session`), and the error a request is refused with."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Any, Protocol

from server.protocol import ErrorCode, ProtocolError
from server.protocol import messages as m

if TYPE_CHECKING:
    from ..service import Service
    from .boards import Leaderboards
    from .certify import Certifier
    from .daily import DailyChallenge
    from .hints import Hints
    from .home import Homing
    from .host import RoomHost
    from .housekeeping import Housekeeping
    from .play import Play
    from .players import Accounts
    from .races import Races
    from .replays import Replaying
    from .rooms import Lobby
    from .stuck import StuckWatch


class Session(Protocol):
    """A client connection as the handlers see it."""

    player: str | None
    name: str | None
    hello: bool
    watching: set[str]
    #: the client's address (the peer's, or as the proxy in front says), for limits
    address: str | None

    def send(self, message: dict[str, Any]) -> None: ...

    def send_encoded(self, data: bytes) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


#: a request's handler: the session it came on and the request, to the reply
Handler = Callable[[Session, Any], Awaitable[dict[str, Any]]]


def refuse(code: ErrorCode, message: str) -> ProtocolError:
    """The error a request is refused with (its id is set where it is answered)."""
    return ProtocolError(code, message)


class Part:
    """A capability of the app (``server.app.service.Service``): it reaches the state
    the app shares (the connections, the games and rooms held here, the repositories)
    and the other parts through it."""

    def __init__(self, app: Service) -> None:
        self.app = app
        # what the app shares, under the same names (containers: never replaced)
        self.settings = app.settings
        self.clock = app.clock
        self.commit = app.commit
        self.sessions = app.sessions
        self.games = app.games
        self.rooms = app.rooms
        self.room_of = app.room_of
        self.solo_of = app.solo_of
        self.absent_since = app.absent_since
        self.bus = app.bus
        self.failures = app.failures
        self.proc = app.proc
        self.players = app.players
        self.dailies = app.dailies
        self.presence = app.presence
        self.replays = app.replays
        self.stored = app.stored
        self.boards = app.boards
        self.stored_rooms = app.stored_rooms
        self.workers = app.workers

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
        self.app.spawn(coro)

    # the other parts
    @property
    def accounts(self) -> Accounts:
        return self.app.accounts

    @property
    def play(self) -> Play:
        return self.app.play

    @property
    def hints(self) -> Hints:
        return self.app.hints

    @property
    def host(self) -> RoomHost:
        return self.app.host

    @property
    def lobby(self) -> Lobby:
        return self.app.lobby

    @property
    def races(self) -> Races:
        return self.app.races

    @property
    def daily(self) -> DailyChallenge:
        return self.app.daily

    @property
    def certifier(self) -> Certifier:
        return self.app.certifier

    @property
    def replaying(self) -> Replaying:
        return self.app.replaying

    @property
    def leaderboards(self) -> Leaderboards:
        return self.app.leaderboards

    @property
    def housekeeping(self) -> Housekeeping:
        return self.app.housekeeping

    @property
    def homing(self) -> Homing:
        return self.app.homing

    @property
    def stuck(self) -> StuckWatch:
        return self.app.stuck
