"""Which process each player is connected to (``online:``), as Redis keeps it: a mark
each process sets for its players and renews, and that lapses by itself (its TTL) when a
process dies. The mark holds the process's id and, after a space, the id of the device
whose connection it is (so a connection signed in beside, in any process, can tell which
of the player's devices plays: ``devices``'s ``connected``)."""

from __future__ import annotations

from collections.abc import Mapping

from .codec import text
from .commit import RedisClient
from .keys import AWAY_TTL, away_key, online_key
from .scripts import DELETE_IF_PROCS


class Presence:
    def __init__(self, redis: RedisClient, proc: str) -> None:
        self.redis = redis
        #: this process's id
        self.proc = proc

    def _value(self, device: str | None) -> str:
        return self.proc if device is None else f"{self.proc} {device}"

    async def mark(self, pid: str, ttl: int, device: str | None = None) -> str | None:
        """Mark ``pid`` connected here, on ``device``, for ``ttl`` seconds (and no longer
        away: :meth:`away_since`); the other process that had them (they connected here
        since), or None."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(online_key(pid), self._value(device), ex=ttl, get=True)
            pipe.delete(away_key(pid))
            before, _ = await pipe.execute()
        if before is None:
            return None
        elsewhere = proc_of(text(before))
        return None if elsewhere == self.proc else elsewhere

    async def unmark(self, pid: str, now_ms: int) -> None:
        """Take the mark away, if it is still this process's (they may have connected to
        another since); connected to none, they are away from ``now_ms``."""
        await DELETE_IF_PROCS(self.redis, keys=[online_key(pid)], args=[self.proc])
        if not await self.redis.exists(online_key(pid)):
            await self.redis.set(away_key(pid), now_ms, ex=AWAY_TTL)

    async def away_since(self, pid: str, now_ms: int) -> int:
        """Since when (ms) a player connected to no process has been away: as the process
        that saw them go marked it, or from ``now_ms`` (this look) where none did (its
        process died). Kept in Redis, so that every process counts from the same time:
        each had kept its own, and one the player had left long before, and that never
        heard they came back elsewhere, counted them away from then."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.set(away_key(pid), now_ms, ex=AWAY_TTL, nx=True)
            pipe.get(away_key(pid))
            _, since = await pipe.execute()
        return int(since) if since is not None else now_ms

    async def renew(self, devices: Mapping[str, str | None], ttl: int) -> None:
        """Renew the marks of players connected here (set again where one lapsed), each
        on the device of ``devices``."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid, device in devices.items():
                pipe.set(online_key(pid), self._value(device), ex=ttl, nx=True)
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
        return None if raw is None else proc_of(text(raw))

    async def device(self, pid: str) -> str | None:
        """The id of the device whose connection the player is connected on, if any (and
        the mark names one)."""
        raw = await self.redis.get(online_key(pid))
        if raw is None:
            return None
        _, _, device = text(raw).partition(" ")
        return device or None


def proc_of(mark: str) -> str:
    """The process an online mark names.

    >>> proc_of("5f0c2a9e11d4 51be0c7a"), proc_of("5f0c2a9e11d4")
    ('5f0c2a9e11d4', '5f0c2a9e11d4')
    """
    return mark.partition(" ")[0]
