"""The commitments to the daily deals as Redis keeps them (``dcommit:{day}:{game}``):
each written once, with ``SET NX``, so every process serves the one written first."""

from __future__ import annotations

from typing import Any

from .codec import pack, unpack
from .commit import RedisClient
from .keys import commitment_key


class DailyCommitments:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def get(self, day: str, game: str) -> dict[str, Any] | None:
        raw = await self.redis.get(commitment_key(day, game))
        return None if raw is None else dict(unpack(raw))

    async def get_many(self, pairs: list[tuple[str, str]]) -> list[dict[str, Any] | None]:
        """The records of ``(day, game)`` pairs, in their order (None: not written), in
        one round trip (a pipeline, not MGET: the keys lie in many cluster slots)."""
        if not pairs:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for day, game in pairs:
                pipe.get(commitment_key(day, game))
            found = await pipe.execute()
        return [None if raw is None else dict(unpack(raw)) for raw in found]

    async def commit(
        self, day: str, game: str, record: dict[str, Any]
    ) -> tuple[dict[str, Any], bool]:
        """Write a day's commitment unless one is written: the record as written, whoever
        wrote it, and whether this call wrote it. Once published it never changes."""
        key = commitment_key(day, game)
        if await self.redis.set(key, pack(record), nx=True):
            return record, True
        raw = await self.redis.get(key)
        return (record, False) if raw is None else (dict(unpack(raw)), False)
