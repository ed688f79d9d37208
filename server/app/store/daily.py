"""The daily challenge as Redis keeps it: each player's ranked and practice game of a day
(``dly:``, ``dlyp:``, kept :data:`~.keys.DAILY_TTL`), their streaks (``stk:``), the
ranked games whose finish is owed (``dailies:owed``), the ranked attempts the day's reset
is to end (``dailies:open``), and each day's deal of each game (``deal:``), fixed once,
with its certificate (and ``deal:...:par``, its book line and par, fixed once too)."""

from __future__ import annotations

from typing import Any, cast

from .codec import pack, text, unpack
from .commit import RedisClient
from .keys import (
    CLOSING_CLAIM_MS,
    DAILIES_OPEN,
    DAILIES_OWED,
    DAILY_TTL,
    closing_key,
    daily_key,
    deal_claim_key,
    deal_key,
    deal_par_key,
    practice_key,
    streak_key,
)
from .packing import Commands
from .scripts import DELETE_IF_OURS, STREAK


def owe_finish(pipe: Commands, gid: str) -> None:
    """Queue, on the group commit's write that logs a ranked daily's final entry, that
    its finish (replay, boards, streak) is owed: in the same batch, ahead of the entry,
    so that no final entry lands without it (:meth:`Dailies.settle` takes it off)."""
    pipe.execute_command("SADD", DAILIES_OWED, gid)


class Dailies:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def ranked(self, day: str, game: str, pid: str) -> str | None:
        """The id of the player's ranked game of that day and game, or None."""
        gid = await self.redis.get(daily_key(day, game, pid))
        return None if gid is None else text(gid)

    async def claim_ranked(self, day: str, game: str, pid: str, gid: str) -> bool:
        """Make ``gid`` the player's ranked game of the day, unless one already is: two
        connections may race to start it, and exactly one wins."""
        return bool(await self.redis.set(daily_key(day, game, pid), gid, nx=True, ex=DAILY_TTL))

    async def practice(self, day: str, game: str, pid: str) -> str | None:
        """The id of the player's current practice game of the day, or None."""
        gid = await self.redis.get(practice_key(day, game, pid))
        return None if gid is None else text(gid)

    async def set_practice(self, day: str, game: str, pid: str, gid: str) -> None:
        await self.redis.set(practice_key(day, game, pid), gid, ex=DAILY_TTL)

    async def streak_fields(self, pid: str) -> dict[str, str]:
        """The player's streak fields: ``{game}:cur``, ``{game}:best``, ``{game}:last``,
        and the same for ``all``."""
        raw = await self.redis.hgetall(streak_key(pid))
        return {text(k): text(v) for k, v in raw.items()}

    async def count_win(self, pid: str, game: str, day: str, day_before: str) -> None:
        """A won ranked daily: the game's streak and the all-games streak go on (or start
        again at one after a missed day); a second win the same day counts once, and a
        win of a day before the last one counted (written late) changes nothing."""
        await STREAK(self.redis, keys=[streak_key(pid)], args=[game, day, day_before])

    async def owed(self) -> list[str]:
        """The ids of the ranked daily games whose finish is owed."""
        return sorted(text(gid) for gid in await self.redis.smembers(DAILIES_OWED))

    async def settle(self, gid: str) -> bool:
        """The game's finish is written (or there is none to write): it is owed no more.
        True if this took it off (false: another finisher did, or it was not owed)."""
        return bool(await self.redis.srem(DAILIES_OWED, gid))

    async def opened(self, pid: str, gid: str, reset_ms: int) -> None:
        """A ranked attempt is starting: the reset at ``reset_ms`` ends it if it is still
        open then (:meth:`open_until`). Added before the attempt is claimed as the
        player's ranked one, so that none is left out; one that loses that claim is
        taken off again (or, after a crash between the two, by the closer, which checks)."""
        await self.redis.zadd(DAILIES_OPEN, {f"{pid}/{gid}": reset_ms})

    async def open_until(self, ms: int) -> list[tuple[str, str]]:
        """``(pid, gid)`` of the ranked attempts not known to have ended whose day's
        reset is at or before ``ms``, the oldest first."""
        found = cast("list[bytes]", await self.redis.zrangebyscore(DAILIES_OPEN, "-inf", ms))
        pairs = (text(member).partition("/") for member in found)
        return [(pid, gid) for pid, _, gid in pairs]

    async def ended(self, pid: str, gid: str) -> None:
        """The attempt's final entry is logged (its finish is owed, or written), or it is
        no ranked attempt: the reset has nothing to end there."""
        await self.redis.zrem(DAILIES_OPEN, f"{pid}/{gid}")

    async def claim_closing(self, gid: str, proc: str) -> bool:
        """Claim the ending of a ranked attempt at its day's reset for
        :data:`~.keys.CLOSING_CLAIM_MS`: one process of those sharing the Redis does it
        (another tries once the claim lapses, if it is still open)."""
        return bool(await self.redis.set(closing_key(gid), proc, nx=True, px=CLOSING_CLAIM_MS))

    async def deal(self, day: str, game: str) -> dict[str, Any] | None:
        """The day's deal of a game as fixed (:meth:`fix_deal`), or None: not yet. A
        certified deal comes with its book line and par once they are found
        (:meth:`fix_par`); until then it has the line that certified it, and no par."""
        raw = await self.redis.get(deal_key(day, game))
        if raw is None:
            return None
        deal = dict(unpack(raw))
        if deal.get("certified") and "par" not in deal:
            found = await self.redis.get(deal_par_key(day, game))
            if found is not None:
                deal.update(unpack(found))
        return deal

    async def fix_deal(self, day: str, game: str, deal: dict[str, Any]) -> dict[str, Any]:
        """Fix the day's deal of a game, unless it is fixed already: the deal as fixed,
        whoever fixed it (a certificate found ahead, or the first candidate, uncertified,
        when the day came first). Once anyone may have been dealt it, it never changes."""
        key = deal_key(day, game)
        if await self.redis.set(key, pack(deal), nx=True, ex=DAILY_TTL):
            return deal
        raw = await self.redis.get(key)
        return deal if raw is None else dict(unpack(raw))

    async def fix_par(self, day: str, game: str, found: dict[str, Any]) -> dict[str, Any]:
        """Fix the book line and par of a certified deal (``line``, ``par``,
        ``shortest``), unless they are fixed already: as fixed, whoever fixed them. Once
        a player may have been told par, it never changes."""
        key = deal_par_key(day, game)
        if await self.redis.set(key, pack(found), nx=True, ex=DAILY_TTL):
            return found
        raw = await self.redis.get(key)
        return found if raw is None else dict(unpack(raw))

    async def claim_certifying(self, day: str, game: str, proc: str, ms: int) -> bool:
        """Claim the certifying of a day's deal, or the search for its par, for ``ms``
        milliseconds: one process of those sharing the Redis does it (another takes over
        once the claim lapses)."""
        claim = deal_claim_key(day, game)
        return bool(await self.redis.set(claim, proc, nx=True, px=ms))

    async def release_certifying(self, day: str, game: str, proc: str) -> None:
        """Let go of a claim :meth:`claim_certifying` took, if it is still this process's."""
        await DELETE_IF_OURS(self.redis, keys=[deal_claim_key(day, game)], args=[proc])
