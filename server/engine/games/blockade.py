"""The Blockade (seed 002), in rows of twelve, and the footnote's fashion in rows of ten.

``blockade``: two packs, rows of twelve, each cell a pile. A pile's top card is free when
the cell directly below is empty or not dealt yet. The eight aces go out by themselves;
foundations build up by suit, and a free card may be laid on another free pile top of its
suit one rank higher. A gap in a row above the lowest is filled from the stock at once;
gaps in the lowest row wait for ``deal``, which fills them before it lays a new row.

``blockade-ten``: rows of ten, single cards, no building; the first ace of each suit
starts an ascending foundation and the first king a descending one. While the pack lasts
only the lowest row and cards over a gap are free; once it is all out, the top and bottom
rows are free too, and any card with a gap above or below it.

Notation: cells ``a1``.. (column, row from the top). ``blockade``: ``c3>f`` plays home,
``c3>e2`` lays c3's card on e2; ``blockade-ten``: ``c3>u``, ``c3>d``; both: ``deal``.
"""

from __future__ import annotations

from ..cards import RANK
from .grid import BELOW, ENDS, LOWEST, UPPER, GridGame


class Blockade(GridGame):
    id = "blockade"
    rules_version = 2  # corrected 2026-11-24
    name = "The Blockade"
    summary = "Two packs in rows of twelve; build down by suit; aces out; upper gaps refill."
    WIDTH = 12
    MAX_ROWS = 9
    FREE = BELOW
    REFILL = UPPER
    PILED = True
    UP_AND_DOWN = False
    NOTATION_HINT = "Moves look like c3>f, c3>e2 or deal (cells: column a-l, row 1-9)."

    def _setup(self, deck: list[int]) -> None:
        """Deck order: the first row a1..l1, then every card in the order the stock gives
        it: upper gaps refilled at once (higher rows first, left to right), the lowest
        row's gaps and new rows by ``deal``."""
        self.p[self.STOCK].extend(reversed(deck))
        self._lay_row()
        self._auto()

    def _auto(self) -> None:
        """Until nothing changes: fill the gaps above the lowest row from the stock,
        then put out every free ace."""
        p = self.p
        w = self.WIDTH
        stock = self.STOCK
        changed = True
        while changed:
            changed = False
            for i in range((self.sc[0] - 1) * w):
                if not p[i] and p[stock]:
                    self._mv(stock, i)
                    changed = True
            for i in self._available():
                card = p[i][-1]
                if RANK[card] == 1:
                    target = self._home_target(card, 0)
                    assert target is not None
                    self._mv(i, target)
                    changed = True


class BlockadeTen(GridGame):
    id = "blockade-ten"
    rules_version = 2  # corrected 2026-11-24
    name = "The Blockade (rows of ten)"
    summary = "Two packs in rows of ten; aces up and kings down by suit; no building."
    WIDTH = 10
    MAX_ROWS = 11
    REFILL = LOWEST
    NOTATION_HINT = "Moves look like c3>u, c3>d or deal (cells: column a-j, row 1-11)."

    def _free_mode(self) -> int:
        return BELOW if self.p[self.STOCK] else ENDS

    def _setup(self, deck: list[int]) -> None:
        """Deck order: the first row a1..j1, then every card as ``deal`` takes it: the
        lowest row's gaps left to right, or a new row left to right."""
        self.p[self.STOCK].extend(reversed(deck))
        self._lay_row()
