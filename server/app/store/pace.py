"""What the pace check reads and what it holds: a game's ``home`` chains, and the results
held for review with the operator's decisions (``server.app.domain.pace`` is the check;
``docs/leaderboards.md``, "Fair play: the pace policy")."""

from __future__ import annotations

from typing import Any, cast

from .codec import pack, text, unpack
from .commit import RedisClient
from .keys import (
    REVIEW_DECISIONS,
    REVIEW_DONE,
    REVIEW_OPEN,
    REVIEW_RECORDS,
    REVIEW_STATES,
    homes_key,
)
from .scripts import DECIDE_RESULT, HOLD_RESULT

#: a held result's states
HELD, CLEARED, REMOVED = "held", "cleared", "removed"


class Reviews:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def chained(self, gid: str, first: int, moves: int, ttl: int) -> None:
        """One ``home`` request played ``moves`` moves from log index ``first``: one
        action to the pace check."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.rpush(homes_key(gid), f"{first} {moves}")
            pipe.expire(homes_key(gid), ttl)
            await pipe.execute()

    async def chains(self, gid: str) -> list[tuple[int, int]]:
        """The game's ``home`` chains: (first log index, moves)."""
        out = []
        for raw in await self.redis.lrange(homes_key(gid), 0, -1):
            first, _, moves = text(raw).partition(" ")
            out.append((int(first), int(moves)))
        return out

    async def hold(self, record: dict[str, Any], at_ms: int) -> str:
        """Hold a result (``record["id"]``, the game's id) for review, once: the state
        it has after (``held``; or ``cleared`` or ``removed`` when it was decided before
        a finish written again came here)."""
        state = await HOLD_RESULT(
            self.redis,
            keys=[REVIEW_RECORDS, REVIEW_STATES, REVIEW_OPEN],
            args=[record["id"], pack(record), at_ms],
        )
        return text(state)

    async def state(self, rid: str) -> tuple[str | None, dict[str, Any] | None]:
        """A result's state (None: never held) and the decision on it (None: none yet)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hget(REVIEW_STATES, rid)
            pipe.hget(REVIEW_DECISIONS, rid)
            state, decision = await pipe.execute()
        return (
            None if state is None else text(state),
            None if decision is None else unpack(decision),
        )

    async def decide(self, rid: str, state: str, reason: str, at_ms: int) -> str:
        """Clear or remove a held result, the reason kept: its state before (``held``:
        this decided it; '' for an id never held)."""
        before = await DECIDE_RESULT(
            self.redis,
            keys=[REVIEW_STATES, REVIEW_DECISIONS, REVIEW_OPEN, REVIEW_DONE],
            args=[rid, state, pack({"state": state, "reason": reason, "at": at_ms}), at_ms],
        )
        return text(before)

    async def record(self, rid: str) -> dict[str, Any] | None:
        raw = await self.redis.hget(REVIEW_RECORDS, rid)
        return None if raw is None else unpack(raw)

    async def listing(self, decided: bool = False) -> list[dict[str, Any]]:
        """The results held and not decided, oldest first; with ``decided``, the decided
        ones after them. Each its record with its ``state`` and ``decision``."""
        ids = [text(cast(bytes, i)) for i in await self.redis.zrange(REVIEW_OPEN, 0, -1)]
        if decided:
            done = await self.redis.zrange(REVIEW_DONE, 0, -1)
            ids += [text(cast(bytes, i)) for i in done]
        if not ids:
            return []
        async with self.redis.pipeline(transaction=False) as pipe:
            pipe.hmget(REVIEW_RECORDS, ids)
            pipe.hmget(REVIEW_STATES, ids)
            pipe.hmget(REVIEW_DECISIONS, ids)
            records, states, decisions = await pipe.execute()
        out = []
        for rid, raw, state, decision in zip(ids, records, states, decisions, strict=True):
            entry: dict[str, Any] = unpack(raw) if raw else {"id": rid}
            entry["state"] = text(state) if state else HELD
            entry["decision"] = unpack(decision) if decision else None
            out.append(entry)
        return out
