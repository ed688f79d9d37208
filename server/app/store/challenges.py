"""Challenges as Redis keeps them: the challenge (``ch:{cid}``), who took it and with
which game (``ch:{cid}:takers``), their entries in its table (``ch:{cid}:t``), and for
the player whose game it races, their challenges and the results on them not yet seen
(``pch:``, ``pchn:``); a taker's current challenge game (``pchg:``). What a challenge is
and how its table ranks: ``server.app.domain.challenges``."""

from __future__ import annotations

import asyncio
from typing import Any

from .codec import pack, text, unpack
from .commit import RedisClient
from .keys import (
    challenge_game_key,
    challenge_key,
    challenge_news_key,
    challenge_table_key,
    challenge_takers_key,
    player_challenges_key,
    replay_key,
)
from .scripts import LENGTHEN


class Challenges:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def get(self, cid: str) -> dict[str, Any] | None:
        raw = await self.redis.get(challenge_key(cid))
        return None if raw is None else dict(unpack(raw))

    async def make(self, record: dict[str, Any], owner: str, ttl: int) -> dict[str, Any]:
        """Keep a challenge unless one with its id is kept already (then that one is
        returned as it is): the replay it races is kept as long (unless it is kept for
        good), and it joins its owner's challenges."""
        cid = record["id"]
        made = await self.redis.set(challenge_key(cid), pack(record), ex=ttl, nx=True)
        if not made:
            kept = await self.get(cid)
            if kept is not None:
                return kept
            await self.redis.set(challenge_key(cid), pack(record), ex=ttl)
        await LENGTHEN(self.redis, keys=[replay_key(record["replay"])], args=[ttl * 1000])
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zadd(player_challenges_key(owner), {cid: record["created_ms"]})
            pipe.expire(player_challenges_key(owner), ttl)
            await pipe.execute()
        return record

    async def take(self, cid: str, pid: str, gid: str, ttl_ms: int) -> str | None:
        """Mark ``pid`` as taking the challenge with game ``gid``: None if they had not
        taken it before, else the game they took it with (nothing changed)."""
        key = challenge_takers_key(cid)
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hsetnx(key, pid, gid)
            pipe.hget(key, pid)
            pipe.pexpire(key, ttl_ms)
            fresh, kept, _ = await pipe.execute()
        return None if fresh else text(kept)

    async def lengthen(self, cid: str, now_ms: int, until_ms: int) -> int | None:
        """Keep the challenge, its takers, its table, its replay and its owner's list of
        challenges until ``until_ms`` at least (none is shortened; the record's
        ``expires_ms`` moved on): when it expires now, None if it has gone."""
        record = await self.get(cid)
        if record is None or record["expires_ms"] >= until_ms:
            return None if record is None else int(record["expires_ms"])
        ms = until_ms - now_ms
        longer = {**record, "expires_ms": until_ms}
        if not await self.redis.set(challenge_key(cid), pack(longer), px=ms, xx=True):
            return None
        others = (
            challenge_takers_key(cid),
            challenge_table_key(cid),
            replay_key(record["replay"]),
            player_challenges_key(record["owner"]),
        )
        await asyncio.gather(*(LENGTHEN(self.redis, keys=[key], args=[ms]) for key in others))
        return until_ms

    async def untake(self, cid: str, pid: str, gid: str) -> None:
        """Take back a mark whose game was never dealt (the deal failed)."""
        key = challenge_takers_key(cid)
        if text(await self.redis.hget(key, pid) or b"") == gid:
            await self.redis.hdel(key, pid)

    async def taken(self, cid: str, pid: str) -> str | None:
        raw = await self.redis.hget(challenge_takers_key(cid), pid)
        return None if raw is None else text(raw)

    async def enter(
        self, cid: str, pid: str, entry: dict[str, Any], owner: str, ttl_ms: int
    ) -> bool:
        """Write a taker's entry in the table, once: whether it is new (then it counts
        as one result the owner has not seen)."""
        key = challenge_table_key(cid)
        fresh = await self.redis.hsetnx(key, pid, pack(entry))
        if fresh:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.pexpire(key, ttl_ms)
                pipe.hincrby(challenge_news_key(owner), cid, 1)
                pipe.pexpire(challenge_news_key(owner), ttl_ms)
                await pipe.execute()
        return bool(fresh)

    async def table(self, cid: str) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
        """The entries written (taker id -> entry) and every taker's game (taker id ->
        game id), in one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hgetall(challenge_table_key(cid))
            pipe.hgetall(challenge_takers_key(cid))
            entries, takers = await pipe.execute()
        return (
            {text(k): dict(unpack(v)) for k, v in entries.items()},
            {text(k): text(v) for k, v in takers.items()},
        )

    async def of_player(self, pid: str, limit: int) -> list[tuple[dict[str, Any], int, int]]:
        """The player's newest challenges (up to ``limit``) that are still kept: each
        with its takers and its results not yet seen."""
        found = await self.redis.zrange(player_challenges_key(pid), 0, limit - 1, desc=True)
        ids = [text(c) for c in found if isinstance(c, bytes | str)]
        if not ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for cid in ids:
                pipe.get(challenge_key(cid))
                pipe.hlen(challenge_takers_key(cid))
            pipe.hmget(challenge_news_key(pid), ids)
            replies = await pipe.execute()
        news = replies[-1]
        out = []
        for n in range(len(ids)):
            raw, takers = replies[2 * n], replies[2 * n + 1]
            if raw is not None:
                out.append((dict(unpack(raw)), int(takers), int(news[n] or 0)))
        return out

    async def seen(self, pid: str, cids: list[str]) -> int:
        """The results on these challenges have been shown to their owner: how many of
        the challenges had results not seen before."""
        if not cids:
            return 0
        return int(await self.redis.hdel(challenge_news_key(pid), *cids))

    async def unseen(self, pid: str) -> int:
        """Results on the player's challenges they have not seen."""
        counts = await self.redis.hvals(challenge_news_key(pid))
        return sum(int(c) for c in counts)

    async def set_current(self, pid: str, gid: str | None, ttl: int) -> None:
        if gid is None:
            await self.redis.delete(challenge_game_key(pid))
        else:
            await self.redis.set(challenge_game_key(pid), gid, ex=ttl)

    async def current(self, pid: str) -> str | None:
        raw = await self.redis.get(challenge_game_key(pid))
        return None if raw is None else text(raw)
