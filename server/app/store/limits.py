"""Limits every server process on one Redis shares: sliding windows counted in Redis,
and short claims.

A :class:`Limit` allows at most ``most`` uses in any ``window_ms`` of server time
(``Service.now``, so a test's clock moves it) per one who is counted: an address, a
player. Each use is a member of a sorted set (``lim:<kind>:<who>``, :func:`.keys.limit_key`)
scored by its time; one script (:data:`.scripts.SLIDING_WINDOW`) drops the uses older
than the window, counts the rest and adds this one if it fits, so the count is right
whichever process asks, and two asking at once cannot both take the last place. A use
refused says how long until one more fits (the oldest use leaving the window). The
window's key expires a window after its last use; a Redis that restarts without its data
forgets the uses (a limit then counts afresh, as after one quiet window).

A :class:`Bucket` allows ``burst`` uses at once and one more every ``interval_ms`` after
that, for each one counted (a token bucket, as a generic cell rate: one key a bucket,
``bkt:<kind>:<who>``, holding a time, moved on by :data:`.scripts.TOKEN_BUCKET`):
registrations from one address, where a group behind one address registers at once.

A claim (:meth:`Limiter.claim`) is a key set only if absent (``SET NX PX``) holding a
random token, let go only by its holder (:data:`.scripts.DELETE_IF_OURS`) or by its
time to live: one thing at a time per player, across processes (a player's hint).
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from .commit import RedisClient
from .keys import WINDOW_MARGIN_MS, bucket_key, claim_key, limit_key
from .scripts import BUCKET_GIVE_BACK, DELETE_IF_OURS, SLIDING_WINDOW, TOKEN_BUCKET


@dataclass(frozen=True)
class Limit:
    """At most ``most`` uses of ``kind`` in any ``window_ms`` of server time, for each
    one counted."""

    kind: str
    most: int
    window_ms: int


@dataclass(frozen=True)
class Bucket:
    """At most ``burst`` uses of ``kind`` at once, and one more every ``interval_ms`` of
    server time after that, for each one counted."""

    kind: str
    burst: int
    interval_ms: int


@dataclass(frozen=True)
class Use:
    """What :meth:`Limiter.take` answered: whether the use fits (``allowed``), the uses in
    the window (this one included when it fits), and when refused, the ms until one more
    fits (``wait_ms``). ``key`` and ``member`` name the use, to give it back."""

    allowed: bool
    used: int
    wait_ms: int
    key: str
    member: str

    def wait_text(self) -> str:
        """``wait_ms`` for a person: whole seconds under two minutes, else minutes
        (rounded up: after that long, one more fits).

        >>> [Use(False, 3, ms, "k", "m").wait_text() for ms in (1_200, 3_479_000)]
        ['2 s', '58 min']
        """
        seconds = -(-self.wait_ms // 1000)
        if seconds < 120:
            return f"{max(1, seconds)} s"
        return f"{-(-seconds // 60)} min"


class Limiter:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def take(self, limit: Limit, who: str, now: int) -> Use:
        """One use of ``limit`` by ``who`` at server ms ``now``, if it fits."""
        key = limit_key(limit.kind, who)
        member = f"{now}:{secrets.token_hex(4)}"
        allowed, used, wait = await SLIDING_WINDOW(
            self.redis,
            keys=[key],
            args=[now, limit.window_ms, limit.most, member, WINDOW_MARGIN_MS],
        )
        return Use(bool(allowed), int(used), int(wait), key, member)

    async def give_back(self, use: Use) -> None:
        """Take back a use that fitted but did not happen (a name already taken)."""
        if use.allowed:
            await self.redis.zrem(use.key, use.member)

    async def take_bucket(self, bucket: Bucket, who: str, now: int) -> Use:
        """One use of ``bucket`` by ``who`` at server ms ``now``, if it fits (``used``
        is not counted: 0)."""
        key = bucket_key(bucket.kind, who)
        allowed, wait = await TOKEN_BUCKET(
            self.redis,
            keys=[key],
            args=[now, bucket.interval_ms, bucket.burst, WINDOW_MARGIN_MS],
        )
        return Use(bool(allowed), 0, int(wait), key, str(bucket.interval_ms))

    async def give_back_bucket(self, use: Use) -> None:
        """Take back a use of a bucket that fitted but did not happen."""
        if use.allowed:
            await BUCKET_GIVE_BACK(self.redis, keys=[use.key], args=[use.member])

    async def claim(self, kind: str, who: str, ttl_ms: int) -> str | None:
        """Claim ``kind`` for ``who`` for at most ``ttl_ms``: the token to let it go
        with, or None while another holds it."""
        token = secrets.token_hex(8)
        if await self.redis.set(claim_key(kind, who), token, nx=True, px=ttl_ms):
            return token
        return None

    async def let_go(self, kind: str, who: str, token: str) -> None:
        """Let go of a claim, if it is still this token's."""
        await DELETE_IF_OURS(self.redis, keys=[claim_key(kind, who)], args=[token])
