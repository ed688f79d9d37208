"""Weekly events and their leagues (``leagues.py``; ``server.app.domain.leagues``)."""

from __future__ import annotations

# one hash tag a week, so that a week's keys share a Redis Cluster slot and its scripts
# touch that one


def event_members_key(week: str) -> str:
    """Hash: player id -> their league that week."""
    return f"ev:{{{week}}}:m"


def event_fill_key(week: str) -> str:
    """Hash: ``{tier}:n`` and ``{tier}:c``, the tier's leagues and its open one's size."""
    return f"ev:{{{week}}}:fill"


def league_members_key(week: str, league: str) -> str:
    """List: a league's members, in the order they joined."""
    return f"ev:{{{week}}}:L:{league}"


def league_results_key(week: str, league: str) -> str:
    """Hash: ``{day}|{game}|{pid}`` -> a daily's result in the league (msgpack)."""
    return f"ev:{{{week}}}:r:{league}"


def event_shut_key(week: str) -> str:
    """String: set when the week's close begins; no result is written after it."""
    return f"ev:{{{week}}}:shut"


def event_closing_key(week: str) -> str:
    """String: the process closing the week (``SET NX PX``)."""
    return f"ev:{{{week}}}:closing"


def event_closed_key(week: str) -> str:
    """String: the week is closed (the process that closed it)."""
    return f"ev:{{{week}}}:closed"


#: player id -> tier, carried from week to week; no TTL (one field a player, as ``p:``)
PLAYER_TIERS = "ev:tier"
#: weeks with members not closed yet, scored by their end (server ms)
EVENTS_OPEN = "events:open"
#: how long a closed week's keys are kept (past weeks readable with ``event``'s ``week``)
EVENT_TTL = 12 * 7 * 86400
#: how long a process may take to close a week before another takes it over (a close
#: that takes longer is taken over and done again: every write of it may be)
LEAGUE_CLOSE_CLAIM_MS = 120_000
