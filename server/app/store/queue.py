"""The quick race's queue as Redis keeps it (``qq:{quick}:...``): who waits for a race of
each game, since when, at what rating; and the races a lone player may race as ghosts
(``qgr:``). Every process shares it: a player is taken out of it by one script run, so
one process, one match (``scripts.QUICK_MATCH``, ``QUICK_TAKE``).

The ratings are the ratings part's (``rtg:{GAME}``): the matcher asks only for
:class:`Ordinals`, made (:class:`OrdinalsOf`) from their store's ``get_many``
(``store/ratings.py``, the context's ``ratings``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from .codec import pack, text, unpack
from .commit import RedisClient
from .keys import (
    QUICK_GONE_TTL,
    QUICK_MATCHED,
    QUICK_RACES_KEPT,
    QUICK_SEEN_TTL,
    QUICK_WAITING,
    quick_alive_key,
    quick_current_key,
    quick_ghosts_key,
    quick_gone_key,
    quick_joined_key,
    quick_races_key,
    quick_ratings_key,
    quick_room_key,
    quick_seen_key,
    results_key,
)
from .scripts import QUICK_JOIN, QUICK_MATCH, QUICK_TAKE


class Ordinals(Protocol):
    """Players' ratings in a game, as the number shown (the ordinal, mu - 3 sigma)."""

    async def ordinals(self, game: str, pids: Iterable[str]) -> dict[str, float]: ...


class MuSigma(Protocol):
    """A store of ratings: each player's ``(mu, sigma)`` in a game, the defaults for one
    who has none (as the ratings' own store, store/ratings.py, answers get_many)."""

    async def get_many(self, game: str, pids: list[str]) -> dict[str, tuple[float, float]]: ...


class OrdinalsOf:
    """:class:`Ordinals` from a store of ratings (:class:`MuSigma`)."""

    def __init__(self, source: MuSigma) -> None:
        self.source = source

    async def ordinals(self, game: str, pids: Iterable[str]) -> dict[str, float]:
        found = await self.source.get_many(game, list(pids))
        return {pid: mu - 3 * sigma for pid, (mu, sigma) in found.items()}


@dataclass(frozen=True)
class Waiter:
    """A player taken out of the queue by a match: since when they waited, their rating."""

    pid: str
    joined_ms: int
    rating: float


@dataclass(frozen=True)
class Window:
    """The matcher's rule (``domain/quick.py`` works it out from the settings)."""

    base: float
    widen: float
    every_ms: int
    most: int
    gather_ms: int
    stale_ms: int
    #: waiters looked at in one pass, oldest first
    budget: int = 200


class QuickQueue:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def waiting_in(self, pid: str) -> str | None:
        """The game whose queue the player waits in, or None."""
        return text(raw) if (raw := await self.redis.hget(QUICK_WAITING, pid)) else None

    async def join(
        self, pid: str, game: str, rating: float, now_ms: int, fresh_ms: int
    ) -> tuple[int, str] | None:
        """Wait in ``game``'s queue (out of any other's): since when (a join again keeps
        the first time), and the game whose queue was left ('' none); None, nothing
        changed, when a match took the player at or after ``fresh_ms`` and they wait in
        no queue: their room is on its way."""
        old = await self.waiting_in(pid) or game
        for _ in range(5):
            keys = [
                QUICK_WAITING,
                quick_ratings_key(game),
                quick_joined_key(game),
                quick_ratings_key(old),
                quick_joined_key(old),
                QUICK_MATCHED,
            ]
            args = [pid, game, rating, now_ms, old, fresh_ms]
            at, left = await QUICK_JOIN(self.redis, keys, args)
            left = text(left) if left else ""
            if int(at) == -2:
                return None
            if int(at) >= 0:
                return int(at), left
            old = left  # another game's queue since (another connection): again
        raise RuntimeError("the quick queue kept changing")

    async def matched_at(self, pid: str) -> int | None:
        """When a match last took the player out of a queue (server ms), if lately."""
        took = await self.redis.zscore(QUICK_MATCHED, pid)
        return None if took is None else int(took)

    async def unmark(self, pid: str) -> None:
        """Forget that a match took the player (its room has been left)."""
        await self.redis.zrem(QUICK_MATCHED, pid)

    async def gone(self, pid: str, game: str, joined_ms: int, now_ms: int) -> None:
        """The player's link went at ``now_ms`` while they waited in ``game``'s queue
        since ``joined_ms``: back in that queue within ``QUICK_GONE_TTL`` seconds (by the
        server's clock) they wait from then."""
        value = f"{game} {joined_ms} {now_ms}"
        await self.redis.set(quick_gone_key(pid), value, ex=QUICK_GONE_TTL)

    async def gone_since(self, pid: str, game: str, now_ms: int) -> int | None:
        """When the player first joined ``game``'s queue, where their link went there
        less than ``QUICK_GONE_TTL`` seconds before ``now_ms`` (:meth:`gone`); else None."""
        raw = await self.redis.get(quick_gone_key(pid))
        parts = text(raw).split(" ") if raw is not None else []
        if len(parts) != 3 or parts[0] != game or not all(p.isdigit() for p in parts[1:]):
            return None
        joined, went = int(parts[1]), int(parts[2])
        return joined if 0 <= now_ms - went <= QUICK_GONE_TTL * 1000 else None

    async def came_back(self, pid: str) -> None:
        """Forget :meth:`gone` (they left the queue by choice, or joined it again)."""
        await self.redis.delete(quick_gone_key(pid))

    async def take(self, pid: str, game: str) -> bool:
        """Take the player out of ``game``'s queue: whether they were in it (False: a
        match took them first, or they had left)."""
        keys = [QUICK_WAITING, quick_ratings_key(game), quick_joined_key(game)]
        return bool(await QUICK_TAKE(self.redis, keys, [pid, game]))

    async def match(
        self, game: str, now_ms: int, window: Window
    ) -> tuple[list[list[Waiter]], list[str]]:
        """One pass of the matcher over ``game``'s queue: the groups taken out of it to
        race (each 2 to ``window.most``), and the stale waiters taken out as gone."""
        keys = [QUICK_WAITING, quick_ratings_key(game), quick_joined_key(game), QUICK_MATCHED]
        figures = (
            window.base,
            window.widen,
            window.every_ms,
            window.most,
            window.gather_ms,
            window.budget,
            window.stale_ms,
        )
        args = [now_ms, " ".join(str(f) for f in figures)]
        groups, gone = await QUICK_MATCH(self.redis, keys, args)
        out = []
        for flat in groups:
            out.append(
                [
                    Waiter(text(flat[i]), int(flat[i + 1]), float(flat[i + 2]))
                    for i in range(0, len(flat), 3)
                ]
            )
        return out, [text(pid) for pid in gone]

    async def put_back(self, game: str, waiters: list[Waiter]) -> None:
        """Waiters of a match that could not be raced (the others had gone), back in the
        queue as they were (their first join's time)."""
        for waiter in waiters:
            keys = [
                QUICK_WAITING,
                quick_ratings_key(game),
                quick_joined_key(game),
                quick_ratings_key(game),
                quick_joined_key(game),
                QUICK_MATCHED,
            ]
            args = [waiter.pid, game, waiter.rating, waiter.joined_ms, game, 0]
            await QUICK_JOIN(self.redis, keys, args)

    async def note_room(self, pids: list[str], code: str, ms: int) -> None:
        """The room these matched players' match is made in (code), for ``ms``."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid in pids:
                pipe.set(quick_room_key(pid), code, px=ms)
            await pipe.execute()

    async def noted_room(self, pid: str) -> str | None:
        """The room the player's last match was made in, lately (:meth:`note_room`)."""
        raw = await self.redis.get(quick_room_key(pid))
        return text(raw) if raw is not None else None

    async def alive(self, proc: str, seconds: int) -> None:
        """Say that process ``proc`` runs the matcher, for ``seconds`` (Redis's clock)."""
        await self.redis.set(quick_alive_key(proc), b"1", ex=seconds)

    async def running(self, procs: Iterable[str]) -> set[str]:
        """Which of these processes ran the matcher lately (:meth:`alive`)."""
        names = list(procs)
        if not names:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for proc in names:
                pipe.exists(quick_alive_key(proc))
            found = await pipe.execute()
        return {proc for proc, n in zip(names, found, strict=True) if n}

    async def present(self, waiting: dict[str, str], fresh_ms: int) -> set[str]:
        """Which of these players (-> the game they wait for) are in its queue, or were
        matched at or after ``fresh_ms`` (their room on its way)."""
        names = list(waiting)
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid in names:
                pipe.zscore(quick_joined_key(waiting[pid]), pid)
            pipe.zmscore(QUICK_MATCHED, names)
            *found, matched = await pipe.execute()
        return {
            pid
            for pid, at, took in zip(names, found, matched, strict=True)
            if at is not None or (took is not None and took >= fresh_ms)
        }

    async def sizes(self, games: Iterable[str]) -> dict[str, int]:
        """How many wait in each game's queue (one round trip)."""
        names = list(games)
        async with self.redis.pipeline(transaction=False) as pipe:
            for game in names:
                pipe.zcard(quick_joined_key(game))
            counts = await pipe.execute()
        return {game: int(n) for game, n in zip(names, counts, strict=True)}

    # -- the races a lone player may race as ghosts ----------------------------------------

    async def record_race(self, game: str, race: str, rating: float) -> None:
        """A race of ``game`` (``{code}:{race}``) whose replays may be raced as ghosts,
        near ``rating``; only the last :data:`QUICK_RACES_KEPT` by rating are kept."""
        key = quick_races_key(game)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(key, {race: rating})
            pipe.zremrangebyrank(key, 0, -QUICK_RACES_KEPT - 1)
            await pipe.execute()

    async def races_near(self, game: str, rating: float, count: int) -> list[tuple[str, float]]:
        """Up to ``count`` recorded races of ``game`` on each side of ``rating``, nearest
        first: ``({code}:{race}, rating)``."""
        key = quick_races_key(game)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrangebyscore(key, rating, "+inf", start=0, num=count, withscores=True)
            pipe.zrevrangebyscore(key, rating, "-inf", start=0, num=count, withscores=True)
            above, below = await pipe.execute()
        found = {text(m): float(s) for m, s in [*above, *below]}
        return sorted(found.items(), key=lambda item: (abs(item[1] - rating), item[0]))

    async def race_results(self, race: str) -> dict[str, Any] | None:
        """A recorded race's results as kept at its end (its seed, each racer's replay id),
        or None (not over yet, or no such race)."""
        code, _, n = race.rpartition(":")
        if not code or not n.isdigit():
            return None
        raw = await self.redis.get(results_key(code, int(n)))
        return unpack(raw) if raw is not None else None

    async def seen(self, pid: str) -> set[str]:
        return {text(m) for m in await self.redis.smembers(quick_seen_key(pid))}

    async def mark_seen(self, pid: str, race: str) -> None:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.sadd(quick_seen_key(pid), race)
            pipe.expire(quick_seen_key(pid), QUICK_SEEN_TTL)
            await pipe.execute()

    async def keep_ghosts(self, gid: str, record: dict[str, Any], ttl: int) -> None:
        """A ghost race's ghosts and what they were made of, for its result."""
        await self.redis.set(quick_ghosts_key(gid), pack(record), ex=ttl)

    async def ghosts_of(self, gid: str) -> dict[str, Any] | None:
        raw = await self.redis.get(quick_ghosts_key(gid))
        return unpack(raw) if raw is not None else None

    async def set_current(self, pid: str, gid: str | None, ttl: int = 0) -> None:
        """The player's ghost race in play (None: it ended)."""
        if gid is None:
            await self.redis.delete(quick_current_key(pid))
        else:
            await self.redis.set(quick_current_key(pid), gid, ex=ttl)

    async def current(self, pid: str) -> str | None:
        raw = await self.redis.get(quick_current_key(pid))
        return text(raw) if raw is not None else None
