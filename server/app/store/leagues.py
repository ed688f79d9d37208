"""Weekly events and their leagues as Redis keeps them (``keys/leagues.py``: ``ev:{W}:...``,
``ev:tier``, ``events:open``): who joined which league, each member's daily results,
the tiers players carry from week to week, and the week's close (its claim, its shut
door, its mark). The standings are worked out from these (``domain/leagues.py``)."""

from __future__ import annotations

from typing import Any, cast

from ..domain import leagues as lg
from .codec import pack, text, unpack
from .commit import RedisClient
from .keys import (
    EVENT_TTL,
    EVENTS_OPEN,
    LEAGUE_CLOSE_CLAIM_MS,
    PLAYER_TIERS,
    event_closed_key,
    event_closing_key,
    event_fill_key,
    event_members_key,
    event_shut_key,
    league_members_key,
    league_results_key,
)
from .scripts import DELETE_IF_OURS, JOIN_LEAGUE, SCORE_LEAGUE

#: how long after its end a week's event is readable (its keys' TTL, from its close)
KEPT_MS = EVENT_TTL * 1000
#: leagues read or written at once by the close (one pipeline each)
BATCH = 200


class Leagues:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def tier(self, pid: str) -> str:
        """The player's tier now (bronze for one who never joined an event)."""
        raw = await self.redis.hget(PLAYER_TIERS, pid)
        return lg.TIERS[0] if raw is None else text(raw)

    async def join(self, week: str, pid: str, tier: str) -> tuple[str, bool]:
        """Place the player in a league of ``tier`` that week (:data:`~.scripts.JOIN_LEAGUE`):
        their league, and whether they joined now (False: they had before)."""
        league, fresh = await JOIN_LEAGUE(
            self.redis,
            keys=[event_members_key(week), event_fill_key(week)],
            args=[pid, tier, lg.LEAGUE_SIZE, league_members_key(week, "")],
        )
        # the close looks for the weeks with members here (at every join, so that a
        # process that died between the two leaves none out)
        await self.redis.zadd(EVENTS_OPEN, {week: lg.week_end_ms(week)}, nx=True)
        return text(league), bool(fresh)

    async def league_of(self, week: str, pid: str) -> str | None:
        raw = await self.redis.hget(event_members_key(week), pid)
        return None if raw is None else text(raw)

    async def score(self, week: str, pid: str, details: dict[str, Any]) -> str:
        """A member's ranked daily result that week (``day``, ``game``, ``won``,
        ``time_ms``, ``moves``, ``at``), kept first: the league written to, ``''`` if the
        player has not joined that week's event, ``'shut'`` once its close began."""
        field = f"{details['day']}|{details['game']}|{pid}"
        entry = {k: details[k] for k in ("won", "time_ms", "moves", "at")}
        done = await SCORE_LEAGUE(
            self.redis,
            keys=[event_shut_key(week), event_members_key(week)],
            args=[pid, field, pack(entry), league_results_key(week, "")],
        )
        return text(done)

    async def members(self, week: str, league: str) -> list[str]:
        raw = await self.redis.lrange(league_members_key(week, league), 0, -1)
        return [text(pid) for pid in raw]

    async def results(self, week: str, league: str) -> list[lg.Result]:
        raw = await self.redis.hgetall(league_results_key(week, league))
        return [_result(k, v) for k, v in raw.items()]

    async def leagues(self, week: str) -> list[str]:
        """Every league of the week, tier by tier."""
        raw = await self.redis.hgetall(event_fill_key(week))
        fill = {text(k): int(v) for k, v in raw.items()}
        return [
            lg.league_id(tier, n)
            for tier in lg.TIERS
            for n in range(1, fill.get(f"{tier}:n", 0) + 1)
        ]

    async def size(self, week: str) -> int:
        return int(await self.redis.hlen(event_members_key(week)))

    # -- the week's close --------------------------------------------------------------

    async def due(self, now_ms: int) -> list[str]:
        """The weeks with members, not closed, whose close is due at ``now_ms``."""
        found = await self.redis.zrangebyscore(EVENTS_OPEN, "-inf", now_ms - lg.CLOSE_GRACE_MS)
        return [text(week) for week in cast("list[bytes]", found)]

    async def claim_close(self, week: str, proc: str) -> bool:
        """Claim the week's close for :data:`~.keys.LEAGUE_CLOSE_CLAIM_MS` (one process
        of those sharing the Redis does it; another once the claim lapses)."""
        return bool(
            await self.redis.set(event_closing_key(week), proc, nx=True, px=LEAGUE_CLOSE_CLAIM_MS)
        )

    async def release_close(self, week: str, proc: str) -> None:
        await DELETE_IF_OURS(self.redis, keys=[event_closing_key(week)], args=[proc])

    async def shut(self, week: str) -> None:
        """The close begins: no result is written to the week after this."""
        await self.redis.set(event_shut_key(week), 1)

    async def forget_open(self, week: str) -> None:
        """The week is closed: the close has nothing more to look at there."""
        await self.redis.zrem(EVENTS_OPEN, week)

    async def closed(self, week: str) -> bool:
        return bool(await self.redis.exists(event_closed_key(week)))

    async def tables(
        self, week: str, leagues: list[str]
    ) -> list[tuple[list[str], list[lg.Result]]]:
        """Each league's members and results, read in one pipeline."""
        pipe = self.redis.pipeline(transaction=False)
        for league in leagues:
            pipe.lrange(league_members_key(week, league), 0, -1)
            pipe.hgetall(league_results_key(week, league))
        raw = await pipe.execute()
        return [
            ([text(p) for p in raw[i]], [_result(k, v) for k, v in raw[i + 1].items()])
            for i in range(0, len(raw), 2)
        ]

    async def set_tiers(self, tiers: dict[str, str]) -> None:
        """Each player's tier from now on (written again by a close done again: the
        same tiers)."""
        if tiers:
            await self.redis.hset(PLAYER_TIERS, mapping=cast("dict[Any, Any]", tiers))

    async def mark_closed(self, week: str, leagues: list[str], proc: str) -> bool:
        """The week is closed: its keys kept :data:`~.keys.EVENT_TTL` from now. True if
        this marked it (False: a close before did). It stays on ``events:open`` until
        its close is told (:meth:`forget_open`): a process that dies between the two
        leaves it there for the next look to tell."""
        keys = [event_members_key(week), event_fill_key(week), event_shut_key(week)]
        for league in leagues:
            keys += [league_members_key(week, league), league_results_key(week, league)]
        marked = bool(await self.redis.set(event_closed_key(week), proc, nx=True, ex=EVENT_TTL))
        for start in range(0, len(keys), BATCH * 2):
            pipe = self.redis.pipeline(transaction=False)
            for key in keys[start : start + BATCH * 2]:
                pipe.expire(key, EVENT_TTL)
            await pipe.execute()
        return marked


def _result(field: bytes | str, raw: bytes | str) -> lg.Result:
    day, game, pid = text(field).split("|")
    entry = unpack(raw)
    return lg.Result(
        pid,
        day,
        game,
        bool(entry["won"]),
        int(entry["time_ms"]),
        int(entry["moves"]),
        int(entry["at"]),
    )
