"""Babette (seed 001, Lady Cadogan): two packs, a garden eight wide.

Rows of eight are dealt one below the other; each row blocks the one above it, and a gap
left by a card played home is never refilled. Per suit, the first ace starts an
ascending foundation and the first king a descending one. When the stock is out and no
available card can go home, the garden may be taken up and dealt again, twice.

Notation: cells ``a1``..``h13`` (column, row from the top). ``c3>u`` plays c3's card on
its suit's ascending foundation, ``c3>d`` on the descending one; ``deal`` lays the next
row; ``redeal`` takes up the garden and lays its first row again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Final

from ..core import Move
from .grid import BELOW, NEVER, OWN, GridGame

REDEAL: Final = OWN
REDEALS: Final = 2


class Babette(GridGame):
    id = "babette"
    rules_version = 2  # corrected 2026-11-24
    name = "Babette"
    summary = "Two packs in a garden eight wide; aces up and kings down by suit; two redeals."
    WIDTH = 8
    MAX_ROWS = 13
    FREE = BELOW
    REFILL = NEVER
    COUNTERS = ("rows", "redeals")
    NOTATION_HINT = "Moves look like c3>u, c3>d, deal or redeal (cells: column a-h, row 1-13)."
    REDEAL_MOVE: ClassVar[Move]

    @classmethod
    def _own_moves(cls) -> Iterable[Move]:
        yield Move("redeal", REDEAL)

    @classmethod
    def _interned_more(cls) -> None:
        cls.REDEAL_MOVE = cls.MOVES["redeal"]

    def _setup(self, deck: list[int]) -> None:
        """Deck order: the first row a1..h1, then each later row left to right."""
        self.p[self.STOCK].extend(reversed(deck))
        self.sc[1] = REDEALS
        self._lay_row()

    def _garden_empty(self) -> bool:
        p = self.p
        return not any(p[i] for i in range(self.sc[0] * self.WIDTH))

    def _generate_own(self, out: list[Move]) -> None:
        # ``out`` holds the plays home so far (they are listed first): the garden is taken
        # up only "when ... all available cards have been played"
        if not out and not self.p[self.STOCK] and self.sc[1] and not self._garden_empty():
            out.append(self.REDEAL_MOVE)

    def _apply_own(self, move: Move) -> None:
        """Take up the garden column by column from the left, each column under the last,
        so that the turned pack deals the right-hand column first, each column from its
        top row down; then lay the first row again."""
        p = self.p
        w = self.WIDTH
        rows = self.sc[0]
        for c in range(w):
            for r in range(rows - 1, -1, -1):
                if p[r * w + c]:
                    self._mv(r * w + c, self.STOCK)
        self.sc[0] = 0
        self.sc[1] -= 1
        self._lay_row()

    def _why_own(self, move: Move) -> str:
        if self.p[self.STOCK]:
            return "the garden is taken up only when the stock is out"
        if not self.sc[1]:
            return "the garden has been taken up twice already"
        return "the garden is taken up only when no available card can go home"

    def _view_extra(self) -> dict[str, Any]:
        return {**super()._view_extra(), "redeals": self.sc[1]}
