"""Every key the server keeps in Redis, and its TTL: the one place that names them.

What each key holds, its type and how long it is kept are in ``docs/server.md``, "What
is kept in Redis" (one row a key, kept with the code that makes it: a test checks that no
other module spells a key). Braces in a name are Redis Cluster hash tags, so that a
game's meta and log, a room's state and results, or one week's event keys share a slot.

TTLs: a finished game and its log, and a finished room, expire ``Settings.ended_ttl``
(default 24 h) after they end; an unfinished game and a room in its lobby or race after
``Settings.idle_ttl`` (default 7 days), renewed every 64 moves and at every change of the
room. A process's claim to end a race at its time limit lasts :data:`ENDING_CLAIM_MS`.
Players, room codes and results do not expire.

The bus's channels (pub/sub, not keys) are named here too: :func:`room_channel`,
:func:`proc_channel`.

One module an area (a player's, the quick race's, the limits', a game's, the daily's, the
boards', the challenges', a room's, the pace check's, the groups', the leagues'); every
name is taken from here (``from .keys import game_key``), as if they were one module.
"""

from __future__ import annotations

from typing import Any

from .boards import *  # noqa: F403
from .challenges import *  # noqa: F403
from .daily import *  # noqa: F403
from .games import *  # noqa: F403
from .groups import *  # noqa: F403
from .leagues import *  # noqa: F403
from .limits import *  # noqa: F403
from .pace import *  # noqa: F403
from .players import *  # noqa: F403
from .quick import *  # noqa: F403
from .rooms import *  # noqa: F403


def first_key(args: tuple[Any, ...]) -> Any:
    """The key a Redis Cluster routes a command by: its first (for ``EVAL`` and
    ``EVALSHA``, the first after the count of keys); None for a command with none.

    >>> first_key(("EVALSHA", "ab12", 2, "g:{x}:fence", "g:{x}:log", 7, "1 t1>b2"))
    'g:{x}:fence'
    >>> first_key(("EXPIRE", "g:{x}:log", 60)), first_key(("EVAL", "return 1", 0))
    ('g:{x}:log', None)
    """
    name = str(args[0]).upper()
    if name in ("EVALSHA", "EVAL"):
        return args[3] if int(args[2]) > 0 else None
    return args[1] if len(args) > 1 else None
