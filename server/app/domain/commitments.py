"""Committed daily deals: each day's deal of each game is published ahead as a hash
(``docs/commitments.md``), and the seed and salt that make the hash are revealed at the
day's reset, so anyone can check that the deal played is the deal committed to before
anyone played it.

The commitment is the SHA-256, in lower-case hex, of the ASCII text
``daily-commitment/v1/{game}/{day}/{seed}/{salt}``: the game's id, the day
(``YYYY-MM-DD``), the seed in decimal and the salt (64 lower-case hex digits), with no
newline. The salt (32 random bytes, one per day and game) keeps a 64-bit seed from being
found by trying them all against the hash before the reveal.

>>> commitment("gate", "2026-11-22", 5803003432585633996, "00" * 32)
'6b7e3f0399090dd5fbf61f092b18346b32e9c2e8dcde1c9ce22dbb51d70bfb4c'
>>> window("2026-12-30")[-1]
'2027-01-06'
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any

from .daily import next_day, previous_day

#: the text a commitment hashes (its version in the prefix: a new layout is a new prefix)
LAYOUT = "daily-commitment/v1/{game}/{day}/{seed}/{salt}"
#: days after today whose commitments are always published (so the window is 8 days)
AHEAD = 7
#: past days the commitments page lists, revealed
PAST = 31
#: a salt or a commitment as it is written: 64 lower-case hex digits
HEX64 = re.compile(r"[0-9a-f]{64}")


def committed_text(game: str, day: str, seed: int, salt: str) -> str:
    """The text a commitment is the hash of (:data:`LAYOUT`)."""
    return LAYOUT.format(game=game, day=day, seed=int(seed), salt=salt)


def commitment(game: str, day: str, seed: int, salt: str) -> str:
    """SHA-256 of :func:`committed_text`, lower-case hex."""
    return hashlib.sha256(committed_text(game, day, seed, salt).encode("ascii")).hexdigest()


def new_salt() -> str:
    return secrets.token_hex(32)


def sealed(game: str, day: str, deal: dict[str, Any], salt: str, at_ms: int) -> dict[str, Any]:
    """The record kept of a day's deal of a game once it is fixed: its commitment, with
    what makes it (secret until the day's reset) and whether the deal is certified."""
    seed = int(deal["seed"])
    return {
        "commitment": commitment(game, day, seed, salt),
        "seed": seed,
        "salt": salt,
        "certified": bool(deal.get("certified")),
        "at": at_ms,
    }


def matches(game: str, day: str, seed: int, record: dict[str, Any]) -> bool:
    """Whether ``seed`` is the seed a day's commitment was made of."""
    return commitment(game, day, seed, str(record["salt"])) == str(record["commitment"])


def window(today: str) -> list[str]:
    """Today and the :data:`AHEAD` days after it: the days whose commitments are always
    published."""
    days = [today]
    for _ in range(AHEAD):
        days.append(next_day(days[-1]))
    return days


def days_after(day: str, count: int) -> str:
    """The day ``count`` days after ``day``.

    >>> days_after("2026-12-30", 9)
    '2027-01-08'
    """
    for _ in range(count):
        day = next_day(day)
    return day


def past(today: str, count: int = PAST) -> list[str]:
    """The ``count`` days before today, the latest first."""
    days = [previous_day(today)]
    while len(days) < count:
        days.append(previous_day(days[-1]))
    return days


def shown(game: str, day: str, record: dict[str, Any], today: str) -> dict[str, Any]:
    """A commitment as anyone may see it: the seed and salt only once the day is over."""
    out: dict[str, Any] = {
        "game": game,
        "commitment": record["commitment"],
        "certified": bool(record.get("certified")),
    }
    if day < today:
        out["seed"] = int(record["seed"])
        out["salt"] = record["salt"]
    return out


def check_replay(replay: dict[str, Any], expected: str | None = None) -> str:
    """Check a daily replay's seed against its commitment (``commitment`` and ``salt``,
    which a daily replay carries once its day is over) and, where given, against
    ``expected`` (the commitment someone saved before the day). The commitment checked;
    :class:`NotCommitted` says why not.

    >>> salt = "ab" * 32
    >>> made = commitment("gate", "2026-11-22", 7, salt)
    >>> replay = {"game": "gate", "day": "2026-11-22", "seed": 7, "salt": salt}
    >>> check_replay({**replay, "commitment": made}) == made
    True
    >>> check_replay({**replay, "seed": 8, "commitment": made})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    server.app.domain.commitments.NotCommitted: the seed 8 with its salt hashes to ...
    """
    day, game, seed = replay.get("day"), replay.get("game"), replay.get("seed")
    made, salt = replay.get("commitment"), replay.get("salt")
    if not isinstance(day, str) or not isinstance(game, str):
        raise NoCommitment("this replay is not of a daily deal: there is no commitment to check")
    if not isinstance(made, str) or not isinstance(salt, str) or not isinstance(seed, int):
        raise NoCommitment(
            "this replay carries no commitment and salt (they come with a daily replay "
            "once its day is over; fetch it again)"
        )
    if expected is not None and expected.strip().lower() != made.lower():
        raise NotCommitted(
            f"the replay's commitment {made} is not the one given, {expected.strip().lower()}"
        )
    found = commitment(game, day, seed, salt)
    if found != made.lower():
        raise NotCommitted(
            f"the seed {seed} with its salt hashes to {found}, not to the commitment {made}"
        )
    return found


class NotCommitted(ValueError):
    """A daily replay whose seed is not the one its day's commitment was made of."""


class NoCommitment(ValueError):
    """A replay with no commitment to check (not a daily's, or fetched before the reset)."""
