"""The games' repository: a game's meta (hash ``g:{id}``), its move log (list
``g:{id}:log``) and its fencing token (``g:{id}:fence``); what a game is, and how a log entry
replays, is ``server.app.domain.games``.

A game's meta holds the version of the rules it is played under (``rules``); a game whose
version is not the engine's is never rebuilt under other rules (:meth:`Games.load`)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from server.engine import GAMES, new_game

from ..domain.games import LiveGame, parse_log
from .codec import pack, text
from .commit import RedisClient
from .daily import owe_finish
from .keys import (
    IDLE_TTL,
    SOLO_KEPT,
    fence_key,
    game_key,
    homes_key,
    log_key,
    solo_games_key,
    standings_key,
)
from .packing import Commands
from .writes import Write

logger = logging.getLogger("patience.games")

#: the replies :func:`queue_create` adds to a pipeline's
CREATE_REPLIES = 4


def queue_create(pipe: Any, live: LiveGame, ttl: int) -> None:
    """Queue a new game's meta and its first fencing token on a pipeline; hand
    :func:`created` the ``CREATE_REPLIES`` replies they get."""
    pipe.hset(game_key(live.gid), mapping=live.meta())
    pipe.expire(game_key(live.gid), ttl)
    pipe.incr(fence_key(live.gid))
    pipe.expire(fence_key(live.gid), ttl)


def log_write(gid: str, fence: int, entry: str, ttl: int, renew: bool, owed: bool) -> Write:
    """The group commit's write of a log entry: the append, fenced by the token this
    process took the game with; with ``renew``, the game's keys' time to live; with
    ``owed`` (a ranked daily's final entry), that its finish is owed, ahead of the entry
    (:func:`~.daily.owe_finish`)."""

    def write(pipe: Commands) -> None:
        if owed:
            owe_finish(pipe, gid)
        pipe.append_fenced(gid, fence, entry)
        if renew:
            pipe.expire(log_key(gid), ttl)
            pipe.expire(game_key(gid), ttl)
            pipe.expire(fence_key(gid), ttl)

    return write


def created(live: LiveGame, replies: list[Any]) -> LiveGame:
    """The game written by :func:`queue_create`, holding its fencing token."""
    live.fence = replies[2]
    return live


class Games:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def create(self, live: LiveGame, ttl: int) -> LiveGame:
        """A game just dealt (``domain.games.dealt``), its meta written to Redis before
        it is returned."""
        async with self.redis.pipeline(transaction=False) as pipe:
            queue_create(pipe, live, ttl)
            created(live, await pipe.execute())
        return live

    async def create_race(self, code: str, dealt: list[LiveGame], ttl: int) -> None:
        """A race's games, just dealt, and the room's standings (each racer at the deal),
        written in one round trip; each game holding its fencing token after."""
        key = standings_key(code)
        async with self.redis.pipeline(transaction=False) as pipe:
            for live in dealt:
                queue_create(pipe, live, ttl)
            pipe.delete(key)
            standings: dict[str, bytes] = {}
            for live in dealt:
                home, total = live.game.progress
                standings[live.owner] = pack([home, total, 0, live.status()])
            if standings:
                pipe.hset(key, mapping=standings)  # type: ignore[arg-type]
                pipe.expire(key, ttl)
            replies = await pipe.execute()
        for n, live in enumerate(dealt):
            created(live, replies[n * CREATE_REPLIES : (n + 1) * CREATE_REPLIES])

    async def race_ghosts(self, gid: str) -> None:
        """Mark a game as raced against ghosts (``LiveGame.ghosts``) in its meta."""
        await self.redis.hset(game_key(gid), "ghosts", 1)

    async def delete(self, gid: str) -> None:
        """A game written but never played (a daily start that lost its race to another)."""
        await self.redis.delete(game_key(gid))

    async def fence_of(self, gid: str) -> int | None:
        """A game's fencing token as Redis has it (None: it has none)."""
        raw = await self.redis.get(fence_key(gid))
        return None if raw is None else int(raw)

    async def newest_solo(self, pid: str) -> str | None:
        """The id of the last solo game the player dealt with ``new_game`` (None: none
        kept)."""
        raw = await self.redis.lindex(solo_games_key(pid), 0)
        return None if raw is None else text(raw)

    async def keep_solo(self, pid: str, gid: str, replaced: str | None, ttl: int) -> list[str]:
        """``gid`` is the player's newest solo game. ``replaced``, the one before it that
        had not ended, is deleted (meta, log, fencing token and home chains: a copy
        another process still holds can no longer append), and so are the finished ones
        pushed past the :data:`~.keys.SOLO_KEPT` kept. Returns the ids deleted."""
        key = solo_games_key(pid)
        async with self.redis.pipeline(transaction=False) as pipe:
            if replaced is not None:
                pipe.lrem(key, 0, replaced)
            pipe.lpush(key, gid)
            pipe.lrange(key, SOLO_KEPT + 1, -1)
            pipe.ltrim(key, 0, SOLO_KEPT)
            pipe.expire(key, ttl)
            replies = await pipe.execute()
        gone = [text(raw) for raw in replies[-3]]
        if replaced is not None:
            gone.append(replaced)
        if gone:
            async with self.redis.pipeline(transaction=False) as pipe:
                for old in gone:  # one game's keys share a slot: one DEL each
                    pipe.delete(game_key(old), log_key(old), fence_key(old), homes_key(old))
                await pipe.execute()
        return gone

    async def read_logs(
        self, gids: list[str], also: Iterable[tuple[Any, ...]] = ()
    ) -> list[list[tuple[int, str]]]:
        """Several games' logs in one round trip, which carries the commands ``also``
        first (a race's results, kept as its replays are built)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for command in also:
                pipe.execute_command(*command)
            for gid in gids:
                pipe.lrange(log_key(gid), 0, -1)
            replies = await pipe.execute()
        return [parse_log(raw) for raw in replies[len(replies) - len(gids) :]]

    async def read_log(self, gid: str) -> list[tuple[int, str]]:
        """A game's move log: (server ms, entry) pairs."""
        return parse_log(await self.redis.lrange(log_key(gid), 0, -1))

    async def load(
        self, gid: str, fence: bool = True, ttl: int = IDLE_TTL, owner: str | None = None
    ) -> LiveGame | None:
        """Rebuild a game from its meta and move log; None if it has expired, or was played
        under another version of its game's rules than this engine's (its moves are not
        replayed under rules they were not played under: nothing converts a game in play from
        one version to the next, see ``docs/games/README.md``).

        With ``fence`` the game is taken to be played here: its fencing token moves on first
        (before the log is read), so any process that held it before can no longer append,
        and every append that landed before is in the log read. With ``owner`` too (a game
        a request names), None unless it is that player's, asked before the token moves:
        a request naming another's game takes nothing from the process playing it (an
        owner never changes, so the answer holds when the token moves a round trip later)."""
        if fence and owner is not None:
            found = await self.redis.hget(game_key(gid), "owner")
            if found is None or text(found) != owner:
                return None
        async with self.redis.pipeline(transaction=False) as pipe:
            if fence:
                pipe.incr(fence_key(gid))
                pipe.expire(fence_key(gid), ttl)
            pipe.hgetall(game_key(gid))
            pipe.lrange(log_key(gid), 0, -1)
            replies = await pipe.execute()
        token = replies[0] if fence else None
        meta_raw, log = replies[-2:]
        if not meta_raw:
            if fence:
                await self.redis.delete(fence_key(gid))
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
            challenge=meta.get("challenge") or None,
            hints_off=meta.get("nohints") == "1",
            ghosts=meta.get("ghosts") == "1",
            home_at_ms=created,
        )
        for raw in log:
            at, _, entry = raw.decode().partition(" ")
            live.apply_entry(entry, int(at))
        live.log_length = len(log)
        live.fence = token
        return live
