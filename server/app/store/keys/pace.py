"""The pace check and its review (``pace.py``; the check: ``server.app.domain.pace``)."""

from __future__ import annotations


def homes_key(gid: str) -> str:
    """List: the game's ``home`` chains, ``"{first log index} {moves}"`` each: the moves
    one ``home`` request played, one action to the pace check. Kept as the game's log
    is (the same TTL, set at each chain)."""
    return f"g:{{{gid}}}:homes"


#: a held result's record (msgpack: what was held, its board entries, the check's
#: figures), by id (the game's); one hash tag for the review's keys, one slot
REVIEW_RECORDS = "rv:{review}:rec"
#: id -> ``held``, ``cleared`` or ``removed``
REVIEW_STATES = "rv:{review}:state"
#: id -> the decision (msgpack: state, reason, when)
REVIEW_DECISIONS = "rv:{review}:why"
#: ids held and not decided, scored by when held (server ms)
REVIEW_OPEN = "rv:{review}:open"
#: ids decided, scored by when decided (server ms); records and decisions are kept for good
REVIEW_DONE = "rv:{review}:done"
