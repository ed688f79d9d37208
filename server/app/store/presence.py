"""Which process each player is connected to (``online:``), as Redis keeps it: a mark
each process sets for its players and renews, and that lapses by itself (its TTL) when a
process dies."""

from __future__ import annotations

from collections.abc import Iterable

from .codec import text
from .commit import RedisClient
from .keys import online_key
from .scripts import DELETE_IF_OURS


class Presence:
    def __init__(self, redis: RedisClient, proc: str) -> None:
        self.redis = redis
        #: this process's id
        self.proc = proc

    async def mark(self, pid: str, ttl: int) -> str | None:
        """Mark ``pid`` connected here for ``ttl`` seconds; the other process that had
        them (they connected here since), or None."""
        before = await self.redis.set(online_key(pid), self.proc, ex=ttl, get=True)
        if before is None:
            return None
        elsewhere = text(before)
        return None if elsewhere == self.proc else elsewhere

    async def unmark(self, pid: str) -> None:
        """Take the mark away, if it is still this process's (they may have connected to
        another since)."""
        await DELETE_IF_OURS(self.redis, keys=[online_key(pid)], args=[self.proc])

    async def renew(self, pids: Iterable[str], ttl: int) -> None:
        """Renew the marks of players connected here (set again where one lapsed)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid in pids:
                pipe.set(online_key(pid), self.proc, ex=ttl, nx=True)
                pipe.expire(online_key(pid), ttl)
            await pipe.execute()

    async def online(self, pids: list[str]) -> set[str]:
        """Which of ``pids`` are connected to some process."""
        if not pids:
            return set()
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid in pids:
                pipe.exists(online_key(pid))
            found = await pipe.execute()
        return {pid for pid, n in zip(pids, found, strict=True) if n}

    async def where(self, pid: str) -> str | None:
        """The process the player is connected to, if any."""
        raw = await self.redis.get(online_key(pid))
        return None if raw is None else text(raw)
