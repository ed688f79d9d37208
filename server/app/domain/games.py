"""A game in play on the server: the engine's game, who owns it, its server times, and
the entries of its move log (the truth: a game is rebuilt from its log after a restart;
the log and the game's meta live in Redis through ``server.app.store.games``).

A game's meta holds the version of the rules it is played under (``rules``); a game whose
version is not the engine's is never rebuilt under other rules
(``server.app.store.games.Games.load``)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

from server.engine import Game, new_game
from server.protocol.codec import Encoded

from .lost import report as lost_report
from .views import ViewEncoder

SOLO = "solo"
RACE = "race"
DAILY = "daily"
PRACTICE = "practice"
#: a challenge taken (``domain/challenges.py``): the deal of a recorded game, raced
#: against its ghost; its ``created_ms`` is its start, after the countdown
CHALLENGE = "challenge"
UNDO = "!undo"
RESIGN = "!resign"
TIMEOUT_ENTRY = "!timeout"
#: a hint given (``server.app.handlers.hints``): counted, the position unchanged
HINT = "!hint"

#: how a finished game ended
WON, LOST, RESIGNED, TIMEOUT = "won", "lost", "resigned", "timeout"
#: the kinds of game whose loss an ``undo`` takes back (where the engine can take the
#: move back): a solo game and a daily's practice. Races, ranked dailies and challenges
#: stay final: their results rank players against each other
UNDO_AFTER_LOSS = frozenset((SOLO, PRACTICE))


def new_game_id() -> str:
    return secrets.token_hex(8)


@dataclass
class LiveGame:
    gid: str
    game: Game
    owner: str
    kind: str
    created_ms: int
    room: str | None = None
    race: int = 0
    #: the daily challenge's day, for daily and practice games
    day: str | None = None
    #: the challenge a challenge game takes, and whether it refuses hints (as the game
    #: it races did)
    challenge: str | None = None
    hints_off: bool = False
    #: a daily practice game raced against the day's board (``handlers/ghosts.py``)
    ghosts: bool = False
    #: how it ended (won, lost, resigned, timeout) and when, in server ms
    result: str | None = None
    finished_ms: int | None = None
    #: when the number of cards home last changed, in server ms (ranks unfinished racers)
    home_at_ms: int = 0
    log_length: int = 0
    #: the hints given in this game (its log's ``!hint`` entries)
    hints: int = 0
    #: this process's fencing token for the game (None: loaded to look at, not to play)
    fence: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # (caches, never passed: compiled, a dataclass field with init=False is left unset)
    _views: ViewEncoder | None = field(default=None, repr=False, compare=False)
    #: the fence its log appends were packed for, and their packed head
    #: (:func:`server.app.store.append_head`)
    append_head: tuple[int, bytes] | None = field(default=None, repr=False, compare=False)

    @property
    def finished(self) -> bool:
        return self.result is not None

    def status(self) -> str:
        """``playing`` or how the game ended."""
        return self.result or "playing"

    def meta(self) -> dict[str, Any]:
        return {
            "game": self.game.id,
            "seed": self.game.seed if self.game.seed is not None else "",
            "owner": self.owner,
            "kind": self.kind,
            "room": self.room or "",
            "race": self.race,
            "day": self.day or "",
            "challenge": self.challenge or "",
            "nohints": int(self.hints_off),
            "ghosts": int(self.ghosts),
            "created": self.created_ms,
            "rules": self.game.rules_version,
        }

    def apply_entry(self, entry: str, at_ms: int) -> None:
        """Apply one log entry (already validated when it was first played)."""
        if entry == RESIGN:
            self.finish(RESIGNED, at_ms)
            return
        if entry == TIMEOUT_ENTRY:
            self.finish(TIMEOUT, at_ms)
            return
        if entry == HINT:
            self.hints += 1
            return
        before = self.game.cards_home()
        if entry == UNDO:
            self.game.undo()  # counts as a change, as when it was played (note_home_change)
            if self.result == LOST:  # an undo after a loss (only ever logged where allowed)
                self.result = self.finished_ms = None
        else:
            self.game.play(entry)
        self.note_home_change(before, at_ms)
        status = self.game.status
        if status != "playing":
            self.finish(status, at_ms)

    def note_home_change(self, before: int, at_ms: int) -> None:
        if self.game.cards_home() != before:
            self.home_at_ms = at_ms

    def finish(self, result: str, at_ms: int) -> None:
        if self.result is None:
            self.result = result
            self.finished_ms = at_ms

    def undo_after_loss(self) -> bool:
        """Whether an ``undo`` would take back this game's loss now: it is lost, of a kind
        whose loss may be undone (:data:`UNDO_AFTER_LOSS`), and the engine can take the
        last move back."""
        return self.result == LOST and self.kind in UNDO_AFTER_LOSS and self.game.can_undo()

    def lost(self) -> dict[str, Any] | None:
        """The ``lost`` field of a reply carrying this game's status: why no move is left,
        how far it got, whether ``undo`` takes the loss back (None: the game is not lost)."""
        if self.result != LOST:
            return None
        return lost_report(self.game, self.undo_after_loss())

    def view(self) -> dict[str, Any]:
        return self.game.view()

    def encoded_view(self) -> Encoded:
        """:meth:`view` msgpack-encoded, re-encoding only the piles changed since the last
        call (for the reply to every move)."""
        return self.view_encoder().encode()

    def view_encoder(self) -> ViewEncoder:
        """The game's :class:`ViewEncoder` (a new one for a new game object)."""
        views = self._views
        if views is None or views.game is not self.game:
            views = self._views = ViewEncoder(self.game)
        return views

    def legal(self) -> list[str]:
        return [m.text for m in self.game.legal_moves()]

    def snapshot_message(self) -> dict[str, Any]:
        """The game as a client needs it on (re)joining: view, legal moves, status (and
        why it is lost, when it is)."""
        message: dict[str, Any] = {
            "game": self.gid,
            "kind": self.kind,
            "rules": self.game.id,
            "rules_version": self.game.rules_version,
            "view": self.view(),
            "legal": self.legal() if not self.finished else [],
            "status": self.status(),
            "started_at": self.created_ms,
        }
        if self.finished_ms is not None:  # (the server's time of its end)
            message["finished_at"] = self.finished_ms
        lost = self.lost()
        if lost is not None:
            message["lost"] = lost
        return message


def dealt(
    game_id: str,
    seed: int | None,
    owner: str,
    kind: str,
    now_ms: int,
    room: str | None = None,
    race: int = 0,
    day: str | None = None,
) -> LiveGame:
    """A new game, in memory only: ``Games.create`` writes it, or ``queue_create`` on a
    pipeline (games dealt together, a race's, are written in one round trip)."""
    return LiveGame(
        gid=new_game_id(),
        game=new_game(game_id, seed=seed),
        owner=owner,
        kind=kind,
        created_ms=now_ms,
        room=room,
        race=race,
        day=day,
        home_at_ms=now_ms,
    )


def parse_log(raw: list[Any]) -> list[tuple[int, str]]:
    """A move log as Redis holds it (``LRANGE``) as (server ms, entry) pairs."""
    out = []
    for line in raw:
        at, _, entry = line.decode().partition(" ")
        out.append((int(at), entry))
    return out
