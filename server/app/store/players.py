"""The players as Redis keeps them (``p:``, ``pname:``, ``ptoken:``, ``fol:``: see
:mod:`.keys`), read and written as ``str`` and ``int``, never bytes. How many players
an address registers is a limit (:mod:`.limits`)."""

from __future__ import annotations

from .codec import text
from .commit import RedisClient
from .keys import follow_key, name_key, player_key, token_key
from .names import Names


class Players:
    """A player's name, token, current solo game and room, and the players they follow."""

    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def by_token(self, token: str) -> str | None:
        """The id of the player whose token this is, or None."""
        pid = await self.redis.get(token_key(token))
        return None if pid is None else text(pid)

    async def by_name(self, name: str) -> str | None:
        """The id of the player of this name now (any case), or None (a name kept for a
        player who had it is none: ``names.py``)."""
        pid = await self.redis.get(name_key(name))
        found = None if pid is None else text(pid)
        return None if found is None or " " in found else found

    async def name_of(self, pid: str) -> str | None:
        raw = await self.redis.hget(player_key(pid), "name")
        return None if raw is None else text(raw)

    async def names_of(self, pids: list[str]) -> list[str | None]:
        """Each player's name now (None: no such player), in one round trip."""
        if not pids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid in pids:
                pipe.hget(player_key(pid), "name")
            found = await pipe.execute()
        return [None if raw is None else text(raw) for raw in found]

    async def create(self, pid: str, name: str, token: str, created_ms: int) -> str | None:
        """A new player, if ``name`` is free: None; else, and nothing written, ``""`` if
        it is another's, or the server ms until which it is kept for the player who had
        it (``names.Names.claim``). The name is claimed first; if the player's own keys
        then fail, it is given back."""
        status, detail = await Names(self.redis).claim(name, pid, created_ms)
        if status != "ok":
            return detail
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hset(player_key(pid), mapping={"name": name, "created": created_ms})
                pipe.set(token_key(token), pid)
                await pipe.execute()
        except Exception:
            await Names(self.redis).unclaim(name, pid, detail)
            raise
        return None

    async def places(self, pid: str) -> tuple[str | None, str | None]:
        """The player's solo game and room, as last written (None: none)."""
        solo, room = await self.redis.hmget(player_key(pid), ["solo", "room"])
        return (text(solo) if solo else None, text(room) if room else None)

    async def solo(self, pid: str) -> str | None:
        raw = await self.redis.hget(player_key(pid), "solo")
        return text(raw) if raw else None

    async def set_solo(self, pid: str, gid: str, daily: str | None = None) -> None:
        """The player's current solo game; with ``daily``, it is a daily's (ranked or
        practice), whose board (``daily/GAME/DAY``) is kept with it, in the same write."""
        if daily is None:
            await self.redis.hset(player_key(pid), "solo", gid)
        else:
            await self.redis.hset(player_key(pid), mapping={"solo": gid, "daily": daily})

    async def last_daily(self, pid: str) -> str | None:
        """The board of the last daily the player played (None: none since this was kept)."""
        raw = await self.redis.hget(player_key(pid), "daily")
        return text(raw) if raw else None

    async def set_room(self, pid: str, code: str) -> None:
        await self.redis.hset(player_key(pid), "room", code)

    async def clear_room(self, pid: str) -> None:
        await self.redis.hdel(player_key(pid), "room")

    async def followed(self, pid: str) -> list[str]:
        """The ids of the players ``pid`` follows, in no order."""
        return [text(p) for p in await self.redis.smembers(follow_key(pid))]

    async def follow(self, pid: str, other: str) -> None:
        await self.redis.sadd(follow_key(pid), other)

    async def unfollow(self, pid: str, other: str) -> None:
        await self.redis.srem(follow_key(pid), other)
