"""The leaderboards (``boards.py``; what a board is: ``server.app.domain.boards``),
the ratings and who follows whom."""

from __future__ import annotations

from .daily import DAILY_TTL


def board_key(board_id: str) -> str:
    """Sorted set: a board's members (``"{finish ms}:{pid}"`` on a time board, the
    player id on a counting board), lower score first."""
    return f"lb:{{{board_id}}}"


def board_details_key(board_id: str) -> str:
    """Hash: player id -> their entry's details (msgpack)."""
    return f"lbd:{{{board_id}}}"


def board_members_key(board_id: str) -> str:
    """Hash: player id -> their member in :func:`board_key`."""
    return f"lbm:{{{board_id}}}"


def board_counts_key(board_id: str) -> str:
    """Hash: player id -> their count (counting boards only)."""
    return f"lbc:{{{board_id}}}"


def board_keys(board_id: str) -> list[str]:
    """A board's four keys, as its scripts take them: the board, the details, the
    members, the counts. One hash tag, one slot.

    >>> board_keys("wins/gate")
    ['lb:{wins/gate}', 'lbd:{wins/gate}', 'lbm:{wins/gate}', 'lbc:{wins/gate}']
    """
    return [
        board_key(board_id),
        board_details_key(board_id),
        board_members_key(board_id),
        board_counts_key(board_id),
    ]


#: how long a daily board (``daily/GAME/DAY``) is kept after its last write, seconds;
#: the other boards are kept for good
DAILY_BOARD_TTL = DAILY_TTL


def counted_key(board_id: str, gid: str) -> str:
    """Set (``NX``) when a game's win is counted on a counting board: a count tried
    again (a finish written again after a failure) finds it and counts nothing. Shares
    the board's hash tag, so the count's script touches one slot. Kept
    :data:`COUNTED_TTL`."""
    return f"lbg:{{{board_id}}}:{gid}"


#: how long a counted game's mark is kept, seconds (31 days: far longer than a finish
#: can stay owed, since its game expires ``ended_ttl`` after it ends)
COUNTED_TTL = DAILY_TTL


def ratings_key(game: str) -> str:
    """Hash: player id -> their rating at ``game`` (msgpack; ``store/ratings.py``)."""
    return f"rtg:{{{game}}}"


def rated_key(game: str, race: str) -> str:
    """String: the figures a race's rating wrote (``race`` is ``{code}:{n}:{start ms}``),
    set with them, in :func:`ratings_key`'s slot, so that a race is rated once however
    often its end is tried. Kept :data:`RATED_TTL`."""
    return f"rtg:{{{game}}}:race:{race}"


#: how long a race's rating mark is kept, seconds: a race's end is tried again for
#: minutes at most, so a week is ample
RATED_TTL = 7 * 86400


def follow_key(pid: str) -> str:
    return f"fol:{pid}"
