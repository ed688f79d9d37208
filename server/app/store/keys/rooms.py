"""Rooms and their races' results, who is connected (online and away), the bus's
channels (pub/sub, not keys) and the processes' shared secret's fingerprint."""

from __future__ import annotations


def room_key(code: str) -> str:
    return f"r:{{{code}}}"


def code_key(code: str) -> str:
    return f"rcode:{code}"


def results_key(code: str, race: int) -> str:
    return f"r:{{{code}}}:results:{race}"


LIVE_ROOMS = "rooms:live"


# the room's keys beside its state (``r:{code}``, room_key): one hash tag, one slot


def version_key(code: str) -> str:
    """The version of the room's state: every change is a compare-and-set on it."""
    return f"r:{{{code}}}:v"


def standings_key(code: str) -> str:
    """Hash: racer id -> their standing in the current race (msgpack ``[home, total,
    moves, status]``), written with each progress tick by the racer's process."""
    return f"r:{{{code}}}:st"


def watchers_key(code: str) -> str:
    """Hash: process id -> ``"<count> <until ms>"``, the room's watchers connected there
    (renewed by each process's housekeeping; a count past its time is a dead process's)."""
    return f"r:{{{code}}}:w"


def ending_key(code: str) -> str:
    """Held (``SET NX PX``) by the process ending a race at its time limit."""
    return f"r:{{{code}}}:ending"


#: how long a process may take to end a race at its time limit before another may try
ENDING_CLAIM_MS = 10_000


def online_key(pid: str) -> str:
    """The id of the process a player is connected to (expires unless renewed)."""
    return f"online:{pid}"


def away_key(pid: str) -> str:
    """Since when (ms) a player has had no connection to any process; gone at sign-in."""
    return f"away:{pid}"


#: an away mark's time to live: past any wait it measures (forfeit_after, host_grace)
AWAY_TTL = 24 * 3600


def room_channel(code: str) -> str:
    """The bus channel of a room's changes (pub/sub: not a key)."""
    return f"room:{code}"


def proc_channel(proc: str) -> str:
    """The bus channel of messages to one server process (pub/sub: not a key)."""
    return f"proc:{proc}"


#: the stream of board updates published on the bus, and about how many it keeps
BOARD_FEED = "bus:boards"
BOARD_FEED_LEN = 1000


#: the daily deals' secret's fingerprint, agreed by every process (``secret.py``); no TTL
SECRET_FINGERPRINT = "secret:fp"
