"""A game's keys (its meta, log and fence), its replay and its review; the deals'
shortest lines."""

from __future__ import annotations

#: ``Settings.idle_ttl``'s default, seconds (7 days): how long an unfinished game or a
#: room in its lobby or race is kept after its last renewal, when no setting says
IDLE_TTL = 7 * 24 * 3600


def game_key(gid: str) -> str:
    return f"g:{{{gid}}}"


def log_key(gid: str) -> str:
    return f"g:{{{gid}}}:log"


def fence_key(gid: str) -> str:
    return f"g:{{{gid}}}:fence"


def replay_key(gid: str) -> str:
    return f"rp:{gid}"


#: ``Settings.replay_ttl``'s default, seconds (7 days): how long a finished solo,
#: practice or challenge game (its meta and log: its replay) is kept
REPLAY_TTL = 7 * 24 * 3600


def review_key(gid: str) -> str:
    """A finished game's review, worked out once (``handlers/review.py``)."""
    return f"grv:{{{gid}}}"


def deal_line_key(game: str, rules_version: int, seed: int) -> str:
    """The shortest winning line of a deal its games' reviews found (par for a deal
    with no book line: ``handlers/review.py``)."""
    return f"dln:{game}:{rules_version}:{seed}"


#: how long a deal's shortest line found is kept, seconds, from when it was last bettered
DEAL_LINE_TTL = 30 * 24 * 3600

#: how long a game's review is kept, seconds (as long as a solo game's replay at least;
#: a race's or a ranked daily's replay outlives it, and its review is worked out again)
REVIEW_TTL = 7 * 24 * 3600
#: how long the claim to work out a game's review holds when never let go (its process
#: died), ms: longer than a review's wait for a worker and its search
#: (``handlers/review.py``: ``WAIT_S`` and ``BUDGET_S`` with its margin)
REVIEW_CLAIM_MS = 120_000

#: ``Settings.challenge_ttl``'s default, seconds (30 days): how long a challenge, its
