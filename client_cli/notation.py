"""What the client reads off a move's notation, and no more: which piles it starts from
and where it goes. Whether a move is legal is always the server's to say; these only let
a typed label, a click or the board's highlighting name the moves the server listed.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

_MOVE_SPLIT = re.compile(r"[>+:]")


def move_piles(move: str) -> tuple[str, ...]:
    """The piles a move starts from, read off its notation: the part before ``>`` or
    ``:`` (``t1>b2`` and The Blockade's counted ``c3:2>e2`` start at ``t1`` and ``c3``),
    or both sides of a pair (``4+8``). A word (``deal``) comes back whole: it names no
    pile.

    >>> move_piles("t1>b2"), move_piles("c3:2>e2"), move_piles("4+8"), move_piles("deal")
    (('t1',), ('c3',), ('4', '8'), ('deal',))
    """
    parts = _MOVE_SPLIT.split(move)
    if "+" in move:
        return tuple(p for p in move.split("+") if p)
    return (parts[0],)


def playable_piles(legal: Iterable[str]) -> frozenset[str]:
    """Labels of the piles some legal move starts from."""
    return frozenset(p for move in legal for p in move_piles(move))


def target(move: str) -> str:
    """The pile a ``src>dst`` move goes to ("" for a pair or a word).

    >>> target("t1>b2"), target("c3:2>e2"), target("4+8"), target("deal")
    ('b2', 'e2', '', '')
    """
    return move.rpartition(">")[2] if ">" in move else ""
