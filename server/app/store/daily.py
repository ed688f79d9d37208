"""The daily challenge as Redis keeps it: each player's ranked and practice game of a day
(``dly:``, ``dlyp:``, kept :data:`~.keys.DAILY_TTL`), their streaks (``stk:``), and the
ranked games whose finish is owed (``dailies:owed``)."""

from __future__ import annotations

from .codec import text
from .commit import Commands, RedisClient
from .keys import DAILIES_OWED, DAILY_TTL, daily_key, practice_key, streak_key
from .scripts import STREAK


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
        await self.redis.eval(STREAK, 1, streak_key(pid), game, day, day_before)

    async def owed(self) -> list[str]:
        """The ids of the ranked daily games whose finish is owed."""
        return sorted(text(gid) for gid in await self.redis.smembers(DAILIES_OWED))

    async def settle(self, gid: str) -> bool:
        """The game's finish is written (or there is none to write): it is owed no more.
        True if this took it off (false: another finisher did, or it was not owed)."""
        return bool(await self.redis.srem(DAILIES_OWED, gid))
