"""Game reviews as Redis keeps them (``rv:{gid}``, msgpack): a finished game's review,
worked out once in a worker process (``handlers/review.py``) and then answered from
here by any process, for :data:`~.keys.REVIEW_TTL`. Not the pace policy's held results
(``store/pace.py``), which are reviewed by an operator."""

from __future__ import annotations

from typing import Any

from .codec import pack, unpack
from .commit import RedisClient
from .keys import DEAL_LINE_TTL, REVIEW_TTL, deal_line_key, review_key
from .scripts import KEEP_SHORTER


class GameReviews:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def get(self, gid: str) -> dict[str, Any] | None:
        """A game's review, or None: not worked out yet (or expired)."""
        raw = await self.redis.get(review_key(gid))
        return None if raw is None else dict(unpack(raw))

    async def keep(self, gid: str, review: dict[str, Any]) -> None:
        await self.redis.set(review_key(gid), pack(review), ex=REVIEW_TTL)


class DealLines:
    """The shortest winning line of each deal that its games' reviews found
    (``dln:...``), shared by every review of the deal: a won game's par where the deal
    has no book line, and a known win for a lost game's search. Whoever reads one checks
    it before trusting it (it is only a hint that could be stale, from other rules)."""

    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def shortest(self, game: str, rules_version: int, seed: int) -> list[str] | None:
        raw = await self.redis.hget(deal_line_key(game, rules_version, seed), "line")
        if raw is None:
            return None
        line = unpack(raw)
        return [str(move) for move in line] if isinstance(line, list) else None

    async def offer(self, game: str, rules_version: int, seed: int, line: list[str]) -> bool:
        """Keep ``line`` (checked to win) if it is the deal's shortest yet."""
        kept = await KEEP_SHORTER(
            self.redis,
            keys=[deal_line_key(game, rules_version, seed)],
            args=[len(line), pack(list(line)), DEAL_LINE_TTL],
        )
        return bool(kept)
