"""The leaderboards' repository: board entries in Redis sorted sets, written by the Lua
scripts ``SUBMIT_TIME`` and ``SUBMIT_COUNT`` (``scripts/games.py``); what a board is, and its
scores, is ``server.app.domain.boards`` (and ``docs/leaderboards.md``)."""

from __future__ import annotations

from typing import Any, cast

from ..domain.boards import Board, pid_of, time_member, time_score
from .codec import pack, text, unpack
from .commit import RedisClient
from .keys import (
    COUNTED_TTL,
    DAILY_BOARD_TTL,
    board_counts_key,
    board_details_key,
    board_key,
    board_keys,
    board_members_key,
    counted_key,
    player_key,
)
from .scripts import BOARD_AROUND, SUBMIT_COUNT, SUBMIT_TIME


class Boards:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def submit_time(
        self,
        board: Board,
        pid: str,
        details: dict[str, Any],
        finished_ms: int,
        keep: str,
    ) -> bool:
        """Write a timed result: ``keep='first'`` keeps only the first result a player
        sends (the ranked daily), ``'best'`` only their best. True if it was written."""
        score = time_score(details["won"], details["time_ms"], details["moves"], details["home"])
        ttl = DAILY_BOARD_TTL if board.kind == "daily" else 0
        written = await SUBMIT_TIME(
            self.redis,
            keys=board_keys(board.id)[:3],
            args=[pid, time_member(finished_ms, pid), score, pack(details), keep, ttl],
        )
        return bool(written)

    async def submit_count(
        self,
        board: Board,
        pid: str,
        details: dict[str, Any],
        now_ms: int,
        game: str | None = None,
    ) -> int:
        """Count one more (a daily win, a race won) for a player; their new count. With
        ``game`` (the id of the game won), that game counts once however often this is
        tried (:func:`~server.app.store.keys.counted_key`)."""
        keys = board_keys(board.id)
        args: list[str | bytes | int] = [pid, pack(details), now_ms // 1000]
        if game is not None:
            keys = [*keys, counted_key(board.id, game)]
            args.append(COUNTED_TTL)
        count = await SUBMIT_COUNT(self.redis, keys=keys, args=args)
        return int(count)

    async def counted(self, board: Board, game: str) -> bool:
        """Whether ``game`` counts on ``board`` already (:meth:`submit_count` with it
        would change nothing)."""
        return bool(await self.redis.exists(counted_key(board.id, game)))

    async def _entries(
        self, board: Board, members: list[tuple[bytes, float]], first_rank: int
    ) -> list[dict[str, Any]]:
        return await self._ranked(board, [(first_rank + n, m) for n, (m, _) in enumerate(members)])

    async def _ranked(self, board: Board, members: list[tuple[int, bytes]]) -> list[dict[str, Any]]:
        """The entries of ``(rank, member)``, in one round trip: their details as written
        and each player's name now (a player who changed their name shows the new one on
        every board; ``names.py``)."""
        if not members:
            return []
        pids = [pid_of(m.decode()) for _, m in members]
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(board_details_key(board.id), pids)
            if board.counting:
                pipe.hmget(board_counts_key(board.id), pids)
            for pid in pids:
                pipe.hget(player_key(pid), "name")
            results = await pipe.execute()
        details = results[0]
        counts = results[1] if board.counting else [None] * len(pids)
        names = results[2:] if board.counting else results[1:]
        out = []
        for (rank, _), pid, raw, count, name in zip(
            members, pids, details, counts, names, strict=True
        ):
            entry: dict[str, Any] = unpack(raw) if raw else {"player": "?"}
            if name is not None:
                entry["player"] = text(name)
            entry["rank"] = rank
            entry["pid"] = pid
            if count is not None:
                entry["count"] = int(count)
            out.append(entry)
        return out

    async def top(self, board: Board, offset: int = 0, limit: int = 20) -> dict[str, Any]:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrange(board_key(board.id), offset, offset + limit - 1, withscores=True)
            pipe.zcard(board_key(board.id))
            members, size = await pipe.execute()
        return {
            "entries": await self._entries(board, members, offset + 1),
            "size": int(size),
            "offset": offset,
        }

    async def rank_of(self, board: Board, pid: str) -> int | None:
        """A player's rank (1 is first), or None when they are not on the board."""
        member = await self.redis.hget(board_members_key(board.id), pid)
        if member is None:
            return None
        rank = cast("int | None", await self.redis.zrank(board_key(board.id), member))
        return None if rank is None else rank + 1

    async def around(self, board: Board, pid: str, radius: int = 5) -> dict[str, Any]:
        """The entries around a player: ``radius`` above and below (fewer at the ends),
        the player's place and the members read at once (``BOARD_AROUND``)."""
        keys = board_keys(board.id)
        found = await BOARD_AROUND(self.redis, keys=[keys[0], keys[2]], args=[pid, radius])
        size = int(found[0])
        if len(found) < 3:
            return {"entries": [], "size": size, "rank": None, "offset": 0}
        rank, start = int(found[1]) + 1, int(found[2])
        members = cast("list[bytes]", found[3:])
        entries = await self._ranked(board, [(start + 1 + n, m) for n, m in enumerate(members)])
        return {"entries": entries, "size": size, "rank": rank, "offset": start}

    async def among(self, board: Board, pids: list[str]) -> dict[str, Any]:
        """The board filtered to some players (someone and those they follow), with their
        ranks on the whole board."""
        if not pids:
            return {"entries": [], "size": 0, "offset": 0}
        members = await self.redis.hmget(board_members_key(board.id), pids)
        present = [cast(bytes, m) for m in members if m is not None]
        async with self.redis.pipeline(transaction=False) as pipe:
            for member in present:
                pipe.zscore(board_key(board.id), member)
                pipe.zrank(board_key(board.id), member)
            pipe.zcard(board_key(board.id))
            found = await pipe.execute()
        size = found.pop()
        ranked = []
        for n, member in enumerate(present):
            score, rank = found[2 * n], found[2 * n + 1]
            if score is not None and rank is not None:
                ranked.append((int(rank), member, score))
        ranked.sort()
        entries = await self._ranked(board, [(rank + 1, member) for rank, member, _ in ranked])
        return {"entries": entries, "size": int(size), "offset": 0}
