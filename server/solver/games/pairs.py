"""The pairing games, Nestor and Doubles and Quits: searched plainly (their spaces are
small enough to finish), with the one thing A* needs to know of them."""

from __future__ import annotations

from typing import ClassVar

from ..hooks import Hooks


class PairHooks(Hooks):
    """Every legal move in the engine's order, the default key; two cards home a move."""

    NAME: ClassVar[str] = "plain"
    #: every play discards a pair (Nestor's turn of the reserve discards none)
    HOME_PER_MOVE: ClassVar[int] = 2
