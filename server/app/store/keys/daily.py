"""The daily challenge's games, deals, streaks, and the reset's ranked attempts."""

from __future__ import annotations

#: how long a player's daily games of a day are remembered, seconds (31 days)
DAILY_TTL = 31 * 86400


def daily_key(day: str, game: str, pid: str) -> str:
    return f"dly:{day}:{game}:{pid}"


def practice_key(day: str, game: str, pid: str) -> str:
    return f"dlyp:{day}:{game}:{pid}"


def deal_key(day: str, game: str) -> str:
    return f"deal:{day}:{game}"


def deal_par_key(day: str, game: str) -> str:
    """The book line and par of a day's certified deal, found by the search for par once
    the quick verdict has fixed the deal (``Dailies.fix_par``)."""
    return f"deal:{day}:{game}:par"


def deal_claim_key(day: str, game: str) -> str:
    return f"deal:{day}:{game}:claim"


def deal_grade_key(day: str, game: str) -> str:
    """The difficulty of a day's deal (``Grades.fix``), kept :data:`DAILY_TTL`."""
    return f"deal:{day}:{game}:grade"


def deal_grade_claim_key(day: str, game: str) -> str:
    """The process grading a day's deal (``Grades.claim``): its own claim, so that the
    grading and the certifier's search for par of one deal never wait on each other."""
    return f"deal:{day}:{game}:gclaim"


def commitment_key(day: str, game: str) -> str:
    """The commitment to a day's deal of a game (``DailyCommitments``): no TTL, so that a
    daily replay kept for good can always be checked against it (ten small keys a day)."""
    return f"dcommit:{day}:{game}"


def streak_key(pid: str) -> str:
    return f"stk:{pid}"


#: ranked daily games whose finish is owed (``DailyChallenge.finish``); no TTL, each id
#: is removed once its finish is written, or its game is gone
DAILIES_OWED = "dailies:owed"


#: sorted set of the ranked daily attempts not known to have ended, ``{pid}/{gid}``,
#: scored by their day's reset (server ms); no TTL: a member is added before its attempt
#: is claimed as the player's ranked one, and removed once the attempt's final entry is
#: logged (or its game is gone, or it never became the ranked one)
DAILIES_OPEN = "dailies:open"


def closing_key(gid: str) -> str:
    """Held (``SET NX PX``) by the process ending a ranked daily at its day's reset; it
    shares the game's hash tag."""
    return f"g:{{{gid}}}:closing"


#: how long a process may take to end one attempt at the reset before another may try
CLOSING_CLAIM_MS = 10_000
