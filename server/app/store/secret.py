"""The daily deals' secret, agreed among the processes that share one Redis.

Every process must deal the same daily deals, so every process must hold the same
secret (``PATIENCE_SECRET``, else the one its data directory keeps). One that holds
another would deal other deals to its players, and a container re-created without the
variable would make a new one in the middle of a day. So each process, as it starts,
records in Redis the secret's fingerprint (:func:`fingerprint`: an HMAC of a fixed
label under the secret, which tells two secrets apart and gives neither away) if none
is recorded (``SET NX``), and refuses to start when the one recorded is another's
(:class:`SecretMismatch`, whose message says what to do).
"""

from __future__ import annotations

import hashlib
import hmac

from .codec import text
from .commit import RedisClient
from .keys import SECRET_FINGERPRINT

#: what the fingerprint is an HMAC of: fixed, and no day or game id, so it never equals
#: a daily seed's HMAC (``server/app/domain/daily.py``: ``"{day}/{game}"``)
LABEL = b"patience-race: the secret's fingerprint"


def fingerprint(secret: bytes) -> str:
    """HMAC-SHA256 of :data:`LABEL` under ``secret``, in hex.

    >>> fingerprint(b"s3cret") == fingerprint(b"s3cret") != fingerprint(b"other")
    True
    """
    return hmac.new(secret, LABEL, hashlib.sha256).hexdigest()


class SecretMismatch(Exception):
    """This process's secret is not the one the processes before it recorded in Redis."""


#: what a process that holds another secret is told
MISMATCH = (
    "this process's secret for the daily deals is not the one the other processes on "
    "this Redis use (its fingerprint differs from the one in the Redis key {key}): give "
    "every process the same PATIENCE_SECRET (with docker compose, one value for every "
    "replica; on Kubernetes, the one Secret object); a process without PATIENCE_SECRET "
    "makes its own in its data directory. To change the secret on purpose, stop every "
    "process and delete the key {key} first (the daily deals change with it)"
)


async def agree_secret(redis: RedisClient, secret: bytes) -> bool:
    """Record ``secret``'s fingerprint unless one is recorded; True when this process
    recorded it, False when it found its own. Raises :class:`SecretMismatch` when it
    finds another's."""
    mine = fingerprint(secret)
    for _ in range(3):  # the key deleted between the two commands: record it again
        if await redis.set(SECRET_FINGERPRINT, mine, nx=True):
            return True
        recorded = await redis.get(SECRET_FINGERPRINT)
        if recorded is None:
            continue
        if text(recorded) != mine:
            raise SecretMismatch(MISMATCH.format(key=SECRET_FINGERPRINT))
        return False
    raise SecretMismatch(f"the Redis key {SECRET_FINGERPRINT} would not stay set")
