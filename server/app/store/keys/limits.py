"""Limits shared by the processes (``limits.py``) and what one player keeps."""

from __future__ import annotations


def limit_key(kind: str, who: str) -> str:
    """Sorted set: the uses of limit ``kind`` (``deal``, ``hint``, ``stuck``,
    ``challenge``) by ``who`` (an address, a player id) in its window, each scored by its
    server ms. Expires a window after its last use."""
    return f"lim:{kind}:{who}"


def claim_key(kind: str, who: str) -> str:
    """A claim (``SET NX PX``) holding its holder's token: ``who`` is doing ``kind``
    (``hint``: a hint being worked out), in whichever process."""
    return f"claim:{kind}:{who}"


#: how long a claim that is never let go (its process died) holds, ms: longer than a
#: hint's wait for a worker and its three searches at most (``handlers/hints.py``,
#: ``TIMEOUT_S`` each)
CLAIM_MS = 60_000


def solo_games_key(pid: str) -> str:
    """List: the ids of the player's solo games dealt by ``new_game``, newest first: the
    newest (played or not) and at most :data:`SOLO_KEPT` finished ones before it. A game
    replaced unfinished, or pushed past those, is deleted (``Games.keep_solo``). Kept
    ``idle_ttl`` from the last deal."""
    return f"psolo:{pid}"


def bucket_key(kind: str, who: str) -> str:
    """String: a token bucket's "theoretical arrival time" (server ms) for limit ``kind``
    (``register``) and ``who`` (an address): ``scripts.TOKEN_BUCKET``. Expires once the
    bucket is full again (plus :data:`WINDOW_MARGIN_MS`)."""
    return f"bkt:{kind}:{who}"


#: how long past its time a former name's key is kept before it goes, ms (a day: a clock
#: a little behind Redis's still finds it kept)
NAME_KEPT_MARGIN_MS = 86_400_000


#: the finished solo games a player keeps beside the newest
SOLO_KEPT = 10

#: how long a limit's window is kept past the window's length after its last use, ms
#: (``scripts.SLIDING_WINDOW``)
WINDOW_MARGIN_MS = 1000
