"""Game reviews as Redis keeps them (``rv:{gid}``, msgpack): a finished game's review,
worked out once in a worker process (``handlers/review.py``) and then answered from
here by any process, for :data:`~.keys.REVIEW_TTL`. Not the pace policy's held results
(``store/pace.py``), which are reviewed by an operator."""

from __future__ import annotations

from typing import Any

from .codec import pack, unpack
from .commit import RedisClient
from .keys import REVIEW_TTL, review_key


class GameReviews:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def get(self, gid: str) -> dict[str, Any] | None:
        """A game's review, or None: not worked out yet (or expired)."""
        raw = await self.redis.get(review_key(gid))
        return None if raw is None else dict(unpack(raw))

    async def keep(self, gid: str, review: dict[str, Any]) -> None:
        await self.redis.set(review_key(gid), pack(review), ex=REVIEW_TTL)
