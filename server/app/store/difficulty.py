"""The difficulty of each day's deal of each game as Redis keeps it
(``deal:{day}:{game}:grade``, :data:`~.keys.DAILY_TTL`): fixed once, by whichever process
graded it first, with the seed it graded (``handlers/difficulty.py``)."""

from __future__ import annotations

from typing import Any

from .codec import pack, unpack
from .commit import RedisClient
from .keys import DAILY_TTL, deal_grade_claim_key, deal_grade_key, deal_key
from .scripts import DELETE_IF_OURS


class Grades:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def get(self, day: str, game: str) -> dict[str, Any] | None:
        """The difficulty fixed for the day's deal of a game (:meth:`fix`), or None."""
        raw = await self.redis.get(deal_grade_key(day, game))
        return None if raw is None else dict(unpack(raw))

    async def of_day(self, day: str, games: list[str]) -> dict[str, dict[str, Any]]:
        """The grades kept for a day's deals of ``games`` whose seed is the deal's fixed
        now (a grade for another seed is never shown), by game: one round trip (a
        pipeline, not MGET: the keys lie in many cluster slots)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for g in games:
                pipe.get(deal_grade_key(day, g))
            for g in games:
                pipe.get(deal_key(day, g))
            raw = await pipe.execute()
        found: dict[str, dict[str, Any]] = {}
        for n, game in enumerate(games):
            graded, deal = raw[n], raw[len(games) + n]
            if graded is None or deal is None:
                continue
            kept = dict(unpack(graded))
            if kept.get("seed") == dict(unpack(deal)).get("seed"):
                found[game] = kept
        return found

    async def fix(self, day: str, game: str, graded: dict[str, Any]) -> dict[str, Any]:
        """Fix the difficulty of the day's deal of a game, unless it is fixed already: as
        fixed, whoever fixed it. Once a player may have been told it, it never changes."""
        key = deal_grade_key(day, game)
        if await self.redis.set(key, pack(graded), nx=True, ex=DAILY_TTL):
            return graded
        raw = await self.redis.get(key)
        return graded if raw is None else dict(unpack(raw))

    async def claim(self, day: str, game: str, proc: str, ms: int) -> bool:
        """Claim the grading of a day's deal for ``ms`` milliseconds: one process of those
        sharing the Redis grades it (another takes over once the claim lapses)."""
        return bool(await self.redis.set(deal_grade_claim_key(day, game), proc, nx=True, px=ms))

    async def release(self, day: str, game: str, proc: str) -> None:
        """Let go of a claim :meth:`claim` took, if it is still this process's."""
        await DELETE_IF_OURS(self.redis, keys=[deal_grade_claim_key(day, game)], args=[proc])
