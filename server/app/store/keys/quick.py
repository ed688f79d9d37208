"""The quick race's queue and its ghosts (``queue.py``, ``handlers/quick.py``)."""

from __future__ import annotations

# Every queue key carries the hash tag ``{quick}``: the scripts that match players (and
# take them out of every game's queue at once) touch them together, on one node.


def quick_ratings_key(game: str) -> str:
    """Sorted set: the players waiting in ``game``'s quick race queue, scored by their
    rating (the ordinal, mu - 3 sigma)."""
    return f"qq:{{quick}}:{game}"


def quick_joined_key(game: str) -> str:
    """Sorted set: the same players, scored by when they joined (server ms)."""
    return f"qq:{{quick}}:{game}:j"


def quick_gone_key(pid: str) -> str:
    """A waiter whose link went: ``GAME JOINED_MS GONE_MS``, for ``QUICK_GONE_TTL`` s."""
    return f"qq:gone:{pid}"


#: how long a waiter whose link went keeps their time in the queue, back in that game's
QUICK_GONE_TTL = 60


#: hash: player id -> the game whose queue they wait in (one queue at a time)
QUICK_WAITING = "qq:{quick}:at"
#: sorted set: players a match took out of a queue lately, scored by when (server ms)
QUICK_MATCHED = "qq:{quick}:m"


def quick_room_key(pid: str) -> str:
    """String: the room the player's last match is made in, written before it is."""
    return f"qq:{{quick}}:r:{pid}"


def quick_alive_key(proc: str) -> str:
    """String, a few seconds: ``proc`` runs the quick matcher (docs/server.md, keys)."""
    return f"qq:{{quick}}:alive:{proc}"


def quick_races_key(game: str) -> str:
    """Sorted set: ``{code}:{race}`` of races a lone quick racer may race as ghosts."""
    return f"qgr:{game}"


#: races of a game kept in its :func:`quick_races_key` (the newest by rating are kept)
QUICK_RACES_KEPT = 5000


def quick_seen_key(pid: str) -> str:
    """Set: ``{code}:{race}`` of the races the player has raced as ghosts (never again)."""
    return f"qseen:{pid}"


#: how long the races a player raced as ghosts are remembered, seconds (30 days)
QUICK_SEEN_TTL = 30 * 86400


def quick_ghosts_key(gid: str) -> str:
    """String: a ghost race's ghosts (msgpack), for its result wherever it ends."""
    return f"qgh:{{{gid}}}"


def quick_current_key(pid: str) -> str:
    """String: the game id of the player's ghost race in play (taken up again on their
    next sign-in, wherever: ``GhostRace.resume``); deleted at its end."""
    return f"qcur:{pid}"
