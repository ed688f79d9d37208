"""Every Lua script the server runs in Redis, in one place (this package: :mod:`.base`
the machinery, a module a capability), and the one way they are run.

A :class:`Script` holds its source, its SHA-1 (worked out once) and the names of its
``KEYS`` and ``ARGV``, which its source declares as locals in its first lines (checked
when the script is made). ``await script(redis, keys=[...], args=[...])`` runs it by its
hash (``EVALSHA``); a Redis that does not have it (``NOSCRIPT``: restarted, failed over,
``SCRIPT FLUSH``) is sent the source once (``EVAL``, which also caches it there), as
redis-py's own ``Script`` does. The group commit sends :data:`FENCED_APPEND` by its
:attr:`Script.sha` as well, packed by hand (the move path), loads :data:`SCRIPTS` on each
connection it makes, and sends again a write that met ``NOSCRIPT`` (``commit.py``).

Each script touches keys of one hash tag (a Redis Cluster runs it on one node).
"""

from __future__ import annotations

from .base import Script as Script
from .base import script_error as script_error
from .games import BOARD_AROUND as BOARD_AROUND
from .games import DELETE_IF_OURS as DELETE_IF_OURS
from .games import DELETE_IF_PROCS as DELETE_IF_PROCS
from .games import FENCED as FENCED
from .games import FENCED_APPEND as FENCED_APPEND
from .games import FENCED_APPEND_SHA as FENCED_APPEND_SHA
from .games import KEEP_SHORTER as KEEP_SHORTER
from .games import LENGTHEN as LENGTHEN
from .games import ROOM_CAS as ROOM_CAS
from .games import ROOM_DELETE as ROOM_DELETE
from .games import SCRIPTS as SCRIPTS
from .games import STREAK as STREAK
from .games import SUBMIT_COUNT as SUBMIT_COUNT
from .games import SUBMIT_TIME as SUBMIT_TIME
from .games import load_scripts as load_scripts
from .players import BUCKET_GIVE_BACK as BUCKET_GIVE_BACK
from .players import CLAIM_NAME as CLAIM_NAME
from .players import KEEP_NAME as KEEP_NAME
from .players import SET_NAME as SET_NAME
from .players import SLIDING_WINDOW as SLIDING_WINDOW
from .players import TOKEN_BUCKET as TOKEN_BUCKET
from .players import UNCLAIM_NAME as UNCLAIM_NAME
from .social import DECIDE_RESULT as DECIDE_RESULT
from .social import GROUP_CREATE as GROUP_CREATE
from .social import GROUP_JOIN as GROUP_JOIN
from .social import GROUP_LEAVE as GROUP_LEAVE
from .social import GROUP_OWNER as GROUP_OWNER
from .social import HOLD_RESULT as HOLD_RESULT
from .social import JOIN_LEAGUE as JOIN_LEAGUE
from .social import QUICK_JOIN as QUICK_JOIN
from .social import QUICK_MATCH as QUICK_MATCH
from .social import QUICK_TAKE as QUICK_TAKE
from .social import RATE as RATE
from .social import SCORE_LEAGUE as SCORE_LEAGUE
from .social import SET_ENTRY as SET_ENTRY
