"""The stuck check as a worker process runs it: on the view a player was sent.

The view goes to the worker as the reply encoded it (msgpack), which is cheaper to hand
over than the tree of dicts, and is exactly what the player saw; the search itself is
``server.solver.stuck`` (pure: the engine and the standard library).

>>> from server.engine import new_game
>>> from server.app.domain.views import ViewEncoder
>>> verdict(ViewEncoder(new_game("gate", seed=1)).encode_bytes()).stuck
False
"""

from __future__ import annotations

import msgpack

from server.solver.stuck import Verdict, check


def verdict(encoded_view: bytes) -> Verdict:
    """Whether the position of a view, msgpack-encoded, is stuck (``server.solver.stuck``)."""
    return check(msgpack.unpackb(encoded_view, raw=False))
