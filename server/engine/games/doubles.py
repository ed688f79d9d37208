"""Doubles and Quits, also Monte Carlo or Weddings (seed 004).

Twenty cards in four rows of five, positions 1 to 20 in reading order. Two cards of equal
rank that touch across, up and down, or corner to corner are removed as a pair. Once no
touching pair is left the ranks close up by themselves: the remaining cards move up in
order of position and fresh cards from the stock fill the positions at the end.

Notation: ``4+8`` removes the cards at positions 4 and 8. Everything else is automatic.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Final

from ..cards import CODE, RANK
from ..core import DealFailed, Game, Move, PileSpec

ROWS: Final = 4
COLS: Final = 5
CELLS: Final = ROWS * COLS
STOCK: Final = CELLS
DISCARD: Final = CELLS + 1
PAIR: Final = 0


def _touching(i: int, j: int) -> bool:
    (ri, ci), (rj, cj) = divmod(i, COLS), divmod(j, COLS)
    return i != j and abs(ri - rj) <= 1 and abs(ci - cj) <= 1


#: every touching pair of positions (0-based), lower first, in reading order
ADJACENT: tuple[tuple[int, int], ...] = tuple(
    (i, j) for i in range(CELLS) for j in range(i + 1, CELLS) if _touching(i, j)
)


class DoublesAndQuits(Game):
    id = "doubles-and-quits"
    name = "Doubles and Quits"
    summary = "Pair off touching cards of equal rank in four rows of five; the ranks close up."
    PILES = (
        *(PileSpec(str(i + 1), "cell", i % COLS, i // COLS) for i in range(CELLS)),
        PileSpec("s", "stock", COLS + 1, 0, "none", hidden=True),
        PileSpec("x", "discard", COLS + 1, 2, "none", home=True),
    )
    NOTATION_HINT = "Moves look like 4+8 (two positions from 1 to 20)."
    #: (the stock is dealt by the close-up that follows a pair, never by a move)
    HOME_KINDS = frozenset({PAIR})
    PAIRS: ClassVar[dict[tuple[int, int], Move]]
    CHECKS: ClassVar[tuple[tuple[int, int, Move], ...]]

    @classmethod
    def _all_moves(cls) -> Iterable[Move]:
        for i in range(CELLS):
            for j in range(i + 1, CELLS):
                yield Move(f"{i + 1}+{j + 1}", PAIR, i, j)

    @classmethod
    def _interned(cls) -> None:
        cls.PAIRS = {(m.a, m.b): m for m in cls.MOVES.values()}
        cls.CHECKS = tuple((i, j, cls.PAIRS[i, j]) for i, j in ADJACENT)

    def _normalize(self, text: str) -> str:
        key = super()._normalize(text)
        a, plus, b = key.partition("+")
        # isdecimal, not isdigit: int() cannot read digits such as "²"
        if plus and a.isdecimal() and b.isdecimal() and int(a) > int(b):
            key = f"{b}+{a}"
        return key

    def _setup(self, deck: list[int]) -> None:
        """Deck order: positions 1 to 20, then the stock from its top."""
        p = self.p
        for i in range(CELLS):
            p[i].append(deck[i])
        p[STOCK].extend(reversed(deck[CELLS:]))
        if not self._generate():
            raise DealFailed("the first twenty cards hold no touching pair")

    def _generate(self) -> list[Move]:
        p = self.p
        out = []
        for i, j, move in self.CHECKS:
            a, b = p[i], p[j]
            if a and b and RANK[a[0]] == RANK[b[0]]:
                out.append(move)
        return out

    def _apply(self, move: Move) -> None:
        self._mv(move.a, DISCARD)
        self._mv(move.b, DISCARD)

    def _auto(self) -> None:
        """Pairing is compulsory before the close-up: once no pair is left, close up in
        order of position and deal the stock into the positions at the end."""
        if self._generate():
            return
        p = self.p
        to = 0
        for i in range(CELLS):
            if p[i]:
                if i != to:
                    self._mv(i, to)
                to += 1
        while to < CELLS and p[STOCK]:
            self._mv(STOCK, to)
            to += 1

    def _why(self, move: Move) -> str:
        p = self.p
        for i in (move.a, move.b):
            if not p[i]:
                return f"position {i + 1} is empty"
        a, b = p[move.a][0], p[move.b][0]
        if RANK[a] != RANK[b]:
            return f"{CODE[a]} and {CODE[b]} are not of equal rank"
        return f"positions {move.a + 1} and {move.b + 1} do not touch"
