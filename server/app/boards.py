"""Leaderboards in Redis sorted sets. ``docs/leaderboards.md`` defines every board's order;
this module is its code.

A board has three (or four) keys sharing one hash tag, so each Lua write touches a
single Redis Cluster slot: ``lb:{B}`` (sorted set: member -> score, lower is better),
``lbd:{B}`` (hash: player id -> the entry's details, msgpack), ``lbm:{B}`` (hash: player
id -> their member), and for counting boards ``lbc:{B}`` (hash: player id -> count).

The order is total. Time boards pack (won, time, moves) or (not won, cards home, moves)
into the score, and ties go to whoever finished first, because their member is
``"{finish ms, 13 digits}:{player id}"`` and equal scores are ordered by member.
Counting boards pack (count, when it was reached, in seconds) into the score.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, cast

from server.engine import GAMES

from . import store
from .daily import valid_day, valid_week

MOVES_CAP = 4095
NOT_WON = 1 << 45
COUNT_BASE = 1 << 20
SECONDS = 1 << 32
#: how long a day's board is kept
DAILY_TTL = 31 * 86400

# matched with fullmatch, never match and "$" ("$" also matches before a last "\n");
# digits are [0-9], not \d, which takes any script's digits ("٢")
_BOARD = re.compile(
    r"daily/(?P<dgame>[a-z-]+)/(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})"
    r"|(?P<kind>wins|best)/(?P<game>[a-z-]+)"
    r"|races/week/(?P<week>[0-9]{4}-W[0-9]{2})"
    r"|races/all"
)


@dataclass(frozen=True)
class Board:
    """A board id, parsed: ``daily/GAME/DATE``, ``wins/GAME``, ``best/GAME``,
    ``races/week/YYYY-Www`` or ``races/all``."""

    id: str
    kind: str  # daily, wins, best, races
    game: str | None = None
    day: str | None = None

    @property
    def counting(self) -> bool:
        return self.kind in ("wins", "races")

    def key(self, prefix: str) -> str:
        return f"{prefix}:{{{self.id}}}"

    @property
    def keys(self) -> list[str]:
        return [self.key("lb"), self.key("lbd"), self.key("lbm"), self.key("lbc")]

    def title(self) -> str:
        name = GAMES[self.game].name if self.game else ""
        if self.kind == "daily":
            return f"{name}: daily challenge, {self.day}"
        if self.kind == "wins":
            return f"{name}: daily wins, all time"
        if self.kind == "best":
            return f"{name}: best daily times, all time"
        if self.id == "races/all":
            return "Races won, all time"
        return f"Races won, week {self.id.rsplit('/', 1)[1]}"


def parse_board(text: str, today: str, week: str) -> Board:
    """A board id to a :class:`Board` (``daily/GAME`` means today's, ``races/week`` this
    week's); ValueError if it names none: not a board id, an unknown game, an impossible
    day or week, or a week after ``week``. (A day after ``today`` is refused by
    ``Service._board``.)"""
    if re.fullmatch(r"daily/[a-z-]+", text):
        text = f"{text}/{today}"
    elif text == "races/week":
        text = f"races/week/{week}"
    found = _BOARD.fullmatch(text)
    if found is None:
        raise ValueError(f"no board {text!r}")
    game = found["dgame"] or found["game"]
    if game is not None and game not in GAMES:
        raise ValueError(f"no game {game!r}")
    if found["day"] is not None:
        if not valid_day(found["day"]):
            raise ValueError(f"no day {found['day']!r}")
        return Board(text, "daily", game, found["day"])
    if found["kind"]:
        return Board(text, found["kind"], game)
    if found["week"] is not None:
        if not valid_week(found["week"]):
            raise ValueError(f"no week {found['week']!r}")
        if found["week"] > week:  # YYYY-Www: later weeks sort later
            raise ValueError(f"{found['week']} has not come yet")
    return Board(text, "races")


def time_score(won: bool, time_ms: int, moves: int, home: int) -> int:
    """Lower is better: every win before every loss; wins by time, then moves; the rest
    by cards home (more first), then moves."""
    moves = min(moves, MOVES_CAP)
    if won:
        return min(time_ms, (1 << 32) - 1) * (MOVES_CAP + 1) + moves
    return NOT_WON + (1000 - home) * (MOVES_CAP + 1) + moves


def time_member(finished_ms: int, pid: str) -> str:
    return f"{finished_ms:013d}:{pid}"


def pid_of(member: str) -> str:
    return member.rsplit(":", 1)[-1]


class Boards:
    def __init__(self, redis: store.RedisClient) -> None:
        self.redis = redis
        self._time = redis.register_script(store.SUBMIT_TIME)
        self._count = redis.register_script(store.SUBMIT_COUNT)

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
        ttl = DAILY_TTL if board.kind == "daily" else 0
        written = await self._time(
            keys=board.keys[:3],
            args=[pid, time_member(finished_ms, pid), score, store.pack(details), keep, ttl],
        )
        return bool(written)

    async def submit_count(
        self, board: Board, pid: str, details: dict[str, Any], now_ms: int
    ) -> int:
        """Count one more (a daily win, a race won) for a player; their new count."""
        count = await self._count(keys=board.keys, args=[pid, store.pack(details), now_ms // 1000])
        return int(count)

    async def _entries(
        self, board: Board, members: list[tuple[bytes, float]], first_rank: int
    ) -> list[dict[str, Any]]:
        if not members:
            return []
        pids = [pid_of(m.decode()) for m, _ in members]
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(board.key("lbd"), pids)
            if board.counting:
                pipe.hmget(board.key("lbc"), pids)
            results = await pipe.execute()
        details = results[0]
        counts = results[1] if board.counting else [None] * len(pids)
        out = []
        for n, (pid, raw, count) in enumerate(zip(pids, details, counts, strict=True)):
            entry: dict[str, Any] = store.unpack(raw) if raw else {"player": "?"}
            entry["rank"] = first_rank + n
            entry["pid"] = pid
            if count is not None:
                entry["count"] = int(count)
            out.append(entry)
        return out

    async def top(self, board: Board, offset: int = 0, limit: int = 20) -> dict[str, Any]:
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.zrange(board.key("lb"), offset, offset + limit - 1, withscores=True)
            pipe.zcard(board.key("lb"))
            members, size = await pipe.execute()
        return {
            "entries": await self._entries(board, members, offset + 1),
            "size": int(size),
            "offset": offset,
        }

    async def rank_of(self, board: Board, pid: str) -> int | None:
        """A player's rank (1 is first), or None when they are not on the board."""
        member = await self.redis.hget(board.key("lbm"), pid)
        if member is None:
            return None
        rank = cast("int | None", await self.redis.zrank(board.key("lb"), member))
        return None if rank is None else rank + 1

    async def around(self, board: Board, pid: str, radius: int = 5) -> dict[str, Any]:
        """The entries around a player: ``radius`` above and below (fewer at the ends)."""
        rank = await self.rank_of(board, pid)
        size = int(await self.redis.zcard(board.key("lb")))
        if rank is None:
            return {"entries": [], "size": size, "rank": None, "offset": 0}
        start = max(0, rank - 1 - radius)
        members = cast(
            "list[tuple[bytes, float]]",
            await self.redis.zrange(board.key("lb"), start, rank - 1 + radius, withscores=True),
        )
        entries = await self._entries(board, members, start + 1)
        return {"entries": entries, "size": size, "rank": rank, "offset": start}

    async def among(self, board: Board, pids: list[str]) -> dict[str, Any]:
        """The board filtered to some players (someone and those they follow), with their
        ranks on the whole board."""
        if not pids:
            return {"entries": [], "size": 0, "offset": 0}
        members = await self.redis.hmget(board.key("lbm"), pids)
        present = [cast(bytes, m) for m in members if m is not None]
        async with self.redis.pipeline(transaction=False) as pipe:
            for member in present:
                pipe.zscore(board.key("lb"), member)
                pipe.zrank(board.key("lb"), member)
            pipe.zcard(board.key("lb"))
            found = await pipe.execute()
        size = found.pop()
        ranked = []
        for n, member in enumerate(present):
            score, rank = found[2 * n], found[2 * n + 1]
            if score is not None and rank is not None:
                ranked.append((int(rank), member, score))
        ranked.sort()
        entries = []
        for rank, member, score in ranked:
            entries.extend(await self._entries(board, [(member, score)], rank + 1))
        return {"entries": entries, "size": int(size), "offset": 0}
