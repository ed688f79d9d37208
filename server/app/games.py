"""A game in play on the server: the engine's game, who owns it, its server times, and its
move log in Redis (the truth: a game is rebuilt from its log after a restart).

A game's meta holds the version of the rules it is played under (``rules``); a game whose
version is not the engine's is never rebuilt under other rules (:func:`load`)."""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass, field
from typing import Any

from server.engine import GAMES, Game, new_game
from server.protocol.codec import Encoded

from . import store
from .views import ViewEncoder

SOLO = "solo"
RACE = "race"
DAILY = "daily"
PRACTICE = "practice"
UNDO = "!undo"
RESIGN = "!resign"
TIMEOUT_ENTRY = "!timeout"

#: how a finished game ended
WON, LOST, RESIGNED, TIMEOUT = "won", "lost", "resigned", "timeout"

logger = logging.getLogger("patience.games")


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
    #: how it ended (won, lost, resigned, timeout) and when, in server ms
    result: str | None = None
    finished_ms: int | None = None
    #: when the number of cards home last changed, in server ms (ranks unfinished racers)
    home_at_ms: int = 0
    log_length: int = 0
    #: this process's fencing token for the game (None: loaded to look at, not to play)
    fence: int | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    # (caches, never passed: compiled, a dataclass field with init=False is left unset)
    _views: ViewEncoder | None = field(default=None, repr=False, compare=False)
    #: the fence its log appends were packed for, and their packed head
    #: (:func:`server.app.moves.append_head`)
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
        before = self.game.cards_home()
        if entry == UNDO:
            self.game.undo()  # counts as a change, as when it was played (note_home_change)
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
        """The game as a client needs it on (re)joining: view, legal moves, status."""
        return {
            "game": self.gid,
            "kind": self.kind,
            "rules": self.game.id,
            "rules_version": self.game.rules_version,
            "view": self.view(),
            "legal": self.legal() if not self.finished else [],
            "status": self.status(),
            "started_at": self.created_ms,
        }


async def create(redis: store.RedisClient, live: LiveGame, ttl: int) -> LiveGame:
    """A game just :func:`dealt`, its meta written to Redis before it is returned."""
    async with redis.pipeline(transaction=False) as pipe:
        queue_create(pipe, live, ttl)
        created(live, await pipe.execute())
    return live


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
    """A new game, in memory only: :func:`create` writes it, or :func:`queue_create` on a
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


#: the replies :func:`queue_create` adds to a pipeline's
CREATE_REPLIES = 4


def queue_create(pipe: Any, live: LiveGame, ttl: int) -> None:
    """Queue a new game's meta and its first fencing token on a pipeline; hand
    :func:`created` the ``CREATE_REPLIES`` replies they get."""
    pipe.hset(store.game_key(live.gid), mapping=live.meta())
    pipe.expire(store.game_key(live.gid), ttl)
    pipe.incr(store.fence_key(live.gid))
    pipe.expire(store.fence_key(live.gid), ttl)


def created(live: LiveGame, replies: list[Any]) -> LiveGame:
    """The game written by :func:`queue_create`, holding its fencing token."""
    live.fence = replies[2]
    return live


async def read_log(redis: store.RedisClient, gid: str) -> list[tuple[int, str]]:
    """A game's move log: (server ms, entry) pairs."""
    return parse_log(await redis.lrange(store.log_key(gid), 0, -1))


def parse_log(raw: list[Any]) -> list[tuple[int, str]]:
    """A move log as Redis holds it (``LRANGE``) as (server ms, entry) pairs."""
    out = []
    for line in raw:
        at, _, entry = line.decode().partition(" ")
        out.append((int(at), entry))
    return out


async def load(
    redis: store.RedisClient, gid: str, fence: bool = True, ttl: int = 7 * 24 * 3600
) -> LiveGame | None:
    """Rebuild a game from its meta and move log; None if it has expired, or was played
    under another version of its game's rules than this engine's (its moves are not
    replayed under rules they were not played under: nothing converts a game in play from
    one version to the next, see ``docs/games/README.md``).

    With ``fence`` the game is taken to be played here: its fencing token moves on first
    (before the log is read), so any process that held it before can no longer append,
    and every append that landed before is in the log read."""
    async with redis.pipeline(transaction=False) as pipe:
        if fence:
            pipe.incr(store.fence_key(gid))
            pipe.expire(store.fence_key(gid), ttl)
        pipe.hgetall(store.game_key(gid))
        pipe.lrange(store.log_key(gid), 0, -1)
        replies = await pipe.execute()
    token = replies[0] if fence else None
    meta_raw, log = replies[-2:]
    if not meta_raw:
        if fence:
            await redis.delete(store.fence_key(gid))
        return None
    meta = {k.decode(): v.decode() for k, v in meta_raw.items()}
    info = GAMES.get(meta.get("game", ""))
    # a game written before its meta carried a version was played under version 1
    version = int(meta.get("rules") or 1)
    if info is None or version != info.rules_version:
        logger.warning(
            "game %s (%s) was played under rules version %d, not this engine's: not resumed",
            gid,
            meta.get("game"),
            version,
        )
        return None
    seed = int(meta["seed"]) if meta.get("seed") else None
    created = int(meta.get("created", 0))
    live = LiveGame(
        gid=gid,
        game=new_game(meta["game"], seed=seed),
        owner=meta["owner"],
        kind=meta["kind"],
        created_ms=created,
        room=meta.get("room") or None,
        race=int(meta.get("race") or 0),
        day=meta.get("day") or None,
        home_at_ms=created,
    )
    for raw in log:
        at, _, entry = raw.decode().partition(" ")
        live.apply_entry(entry, int(at))
    live.log_length = len(log)
    live.fence = token
    return live
