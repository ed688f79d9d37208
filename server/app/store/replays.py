"""Replays as Redis keeps them (``rp:``): a finished game's replay, with its owner's id
beside it for the access check (never sent). A ranked daily's or a race's is kept for
good; a solo, practice or challenge game's for a while (``keys.REPLAY_TTL``), longer
while a challenge races it (``Challenges.make``)."""

from __future__ import annotations

from typing import Any

from .codec import pack, unpack
from .commit import RedisClient
from .keys import replay_key


class Replays:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def keep(
        self, replays: list[tuple[str, dict[str, Any], str]], ttl: int | None = None
    ) -> None:
        """Keep each ``(game id, replay, owner id)``, in one round trip: for good, or
        ``ttl`` seconds."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for gid, replay, owner in replays:
                pipe.set(replay_key(gid), pack({**replay, "owner": owner}), ex=ttl)
            await pipe.execute()

    async def get(self, replay_id: str) -> tuple[dict[str, Any], str | None] | None:
        """A replay and its owner's id, or None (an id that is not one: None too)."""
        if not replay_id.isalnum():
            return None
        raw = await self.redis.get(replay_key(replay_id))
        if raw is None:
            return None
        replay: dict[str, Any] = unpack(raw)
        owner = replay.pop("owner", None)
        return replay, owner

    async def kept(self, gid: str) -> bool:
        """Whether a game's replay is kept (a solo or practice game's once a challenge is
        made of it: its end then stands)."""
        return bool(await self.redis.exists(replay_key(gid)))
