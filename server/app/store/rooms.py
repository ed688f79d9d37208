"""The race rooms' repository: a room's state (``r:{code}``, msgpack, changed only by
compare-and-set on its version, ``ROOM_CAS``), the codes of the live rooms, the racers'
standings, who watches the room through each process, the claim on ending a race, and a
race's results kept for good. What a room is, and its rules, is
``server.app.domain.room``; a process's copies of the rooms are the room host's
(``server.app.handlers.host``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..domain.room import new_code
from .codec import pack, text, unpack
from .commit import RedisClient
from .keys import (
    ENDING_CLAIM_MS,
    LIVE_ROOMS,
    code_key,
    ending_key,
    fence_key,
    game_key,
    log_key,
    online_key,
    results_key,
    room_key,
    standings_key,
    version_key,
    watchers_key,
)
from .scripts import DELETE_IF_OURS, ROOM_CAS, ROOM_DELETE

#: a racer's standing as kept for room events: cards home, total, moves, status
Standing = tuple[int, int, int, str]


@dataclass
class Around:
    """What a room's state as told to its audience needs from Redis, read in one round
    trip (:meth:`Rooms.around`)."""

    #: which of the players asked about are connected, to any process
    online: set[str] = field(default_factory=set)
    #: how many watch the room through the other processes
    watchers: int = 0
    #: player id -> standing, kept by the processes the racers play through
    standings: dict[str, Standing] = field(default_factory=dict)


class Rooms:
    def __init__(self, redis: RedisClient, proc: str) -> None:
        self.redis = redis
        #: this process's id (its watchers count, its claim on ending a race)
        self.proc = proc
        #: the rooms whose watchers this process has counted in Redis (and not taken back)
        self.counted: set[str] = set()

    async def claim_code(self, code: str) -> bool:
        """Take a room code for a new room; False if it is taken."""
        return bool(await self.redis.set(code_key(code), 1, nx=True))

    async def claim_new_code(self, tries: int = 20) -> str:
        """A room code drawn afresh and taken for a new room (another drawn while the one
        drawn is taken); RuntimeError after ``tries`` taken ones."""
        for _ in range(tries):
            code = new_code()
            if await self.claim_code(code):
                return code
        raise RuntimeError("no free room code")

    async def write(self, code: str, version: int, state: dict[str, Any], ttl: int) -> int:
        """Write the room's ``state`` if its version in Redis is still ``version``: the
        new version, or 0 when someone changed the room first (or it has closed). The
        code is kept among the live rooms either way (housekeeping drops the codes of
        rooms gone)."""
        keys = [room_key(code), version_key(code)]
        args = [version, pack(state), ttl]
        async with self.redis.pipeline(transaction=False) as pipe:
            ROOM_CAS.queue(pipe, keys, args)
            pipe.sadd(LIVE_ROOMS, code)
            written, added = await pipe.execute(raise_on_error=False)
        if isinstance(added, Exception):
            raise added
        written = await ROOM_CAS.settle(self.redis, written, keys, args)
        return int(written or 0)

    async def read(self, code: str) -> dict[str, Any] | None:
        data = await self.redis.get(room_key(code))
        return None if data is None else dict(unpack(data))

    async def read_many(self, codes: list[str]) -> list[dict[str, Any] | None]:
        """Several rooms in one round trip (None for a room gone)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.get(room_key(code))
            blobs = await pipe.execute()
        return [None if blob is None else dict(unpack(blob)) for blob in blobs]

    async def exists(self, code: str) -> bool:
        return bool(await self.redis.exists(room_key(code)))

    async def versions(self, codes: list[str]) -> list[int | None]:
        """The rooms' versions in Redis, in one round trip (None for a room gone)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.get(version_key(code))
            found = await pipe.execute()
        return [None if v is None else int(v) for v in found]

    async def live_codes(self) -> list[str]:
        return [text(code) for code in await self.redis.smembers(LIVE_ROOMS)]

    async def forget(self, code: str) -> None:
        """The room is gone: its code is no longer among the live rooms."""
        await self.redis.srem(LIVE_ROOMS, code)

    async def delete(self, code: str, version: int) -> bool:
        """Close a room if its version in Redis is still ``version``: its state, version,
        standings and watchers go. False when someone changed the room first (a join
        through another process): it stands, as that change left it."""
        keys = [room_key(code), version_key(code), standings_key(code), watchers_key(code)]
        if not await ROOM_DELETE(self.redis, keys, [version]):
            return False
        await self.redis.srem(LIVE_ROOMS, code)
        self.counted.discard(code)
        return True

    async def count_watchers(self, code: str, count: int, until_ms: int, ttl: int) -> None:
        """How many watch the room through this process (0: none), a count that stands
        until ``until_ms`` unless renewed (a process that dies stops counting)."""
        key = watchers_key(code)
        if count:
            self.counted.add(code)
            await self.redis.hset(key, self.proc, f"{count} {until_ms}")
            await self.redis.expire(key, ttl)
        else:
            await self.redis.hdel(key, self.proc)
            self.counted.discard(code)

    async def uncount_watchers(self) -> None:
        """Take this process's watcher counts out of every room it counted them in (the
        process is stopping: its watchers are gone, and whoever they watch through next,
        a restarted server among them, must not count them until the marks lapse)."""
        codes = sorted(self.counted)
        if not codes:
            return
        async with self.redis.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.hdel(watchers_key(code), self.proc)
            await pipe.execute()
        self.counted.difference_update(codes)

    async def around(self, code: str, players: list[str], racing: bool, now_ms: int) -> Around:
        """Which of ``players`` are connected, the watchers of the other processes, and
        (``racing``) the standings: one round trip."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for pid in players:
                pipe.exists(online_key(pid))
            pipe.hgetall(watchers_key(code))
            if racing:
                pipe.hgetall(standings_key(code))
            replies = await pipe.execute()
        found = Around(online={pid for pid, n in zip(players, replies, strict=False) if n})
        for proc, raw in replies[len(players)].items():
            count, _, until = raw.decode().partition(" ")
            if proc.decode() != self.proc and int(until or 0) > now_ms:
                found.watchers += int(count)
        if racing:
            for pid, raw in replies[len(players) + 1].items():
                home, total, moves, status = unpack(raw)
                found.standings[pid.decode()] = (home, total, moves, status)
        return found

    def standings_commands(
        self, code: str, standings: dict[str, Standing], ttl: int
    ) -> list[tuple[Any, ...]]:
        """The commands that keep racers' standings (sent on the bus's connection, with
        the progress events they go with)."""
        flat: list[Any] = []
        for pid, standing in standings.items():
            flat += [pid, pack(list(standing))]
        key = standings_key(code)
        return [("HSET", key, *flat), ("EXPIRE", key, ttl)]

    async def claim_ending(self, code: str) -> str:
        """Claim the writing of a race's time-outs (one process at a time: each takes the
        games' fencing tokens, and two taking turns would fence each other out):
        ``"ours"`` (claimed now, or a claim of ours a failed try left), ``"held"`` by
        another process, or ``"lapsed"`` (its holder's claim ended as it was read)."""
        claim = ending_key(code)
        if await self.redis.set(claim, self.proc, nx=True, px=ENDING_CLAIM_MS):
            return "ours"
        holder = await self.redis.get(claim)
        if holder is None:
            return "lapsed"
        return "ours" if text(holder) == self.proc else "held"

    async def release_ending(self, code: str) -> None:
        await DELETE_IF_OURS(self.redis, keys=[ending_key(code)], args=[self.proc])

    @staticmethod
    def results_commands(
        code: str, race: int, results: dict[str, Any], gids: Iterable[str], ttl: int
    ) -> list[tuple[Any, ...]]:
        """The commands that keep a race's results for good, and its games for ``ttl``
        more seconds (sent with the reads of their logs, for the replays)."""
        return [
            ("SET", results_key(code, race), pack(results)),
            *(("EXPIRE", key(gid), ttl) for gid in gids for key in (game_key, log_key, fence_key)),
        ]
