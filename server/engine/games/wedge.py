"""The Wedge (seed 003), as rebuilt by the project's ruling (the seed's diagram is lost).

Twenty-four cards lie face up in five left-aligned rows of 4, 5, 6, 5 and 4 cells, numbered
in reading order::

    row 1   1  2  3  4
    row 2   5  6  7  8  9
    row 3  10 11 12 13 14 15     15 holds the Wedge
    row 4  16 17 18 19 20
    row 5  21 22 23 24

A card is *exposed* when the cell directly below it is empty or does not exist. Exposed pile
tops build down in alternate colours. "Sequences can be moved bodily": a cell's whole pile
moves as a unit, onto a pile where its bottom card fits or into a vacancy; a card with cards
under it in its cell never moves alone, except to a foundation (the ruling as corrected
2026-11-24, rules version 2; the first version let any tail of a run move). The cells 15,
14, .., 10, 16, 21 are the Wedge's path: while the Wedge is on it, the path's cards in cells
10 to 16 are neither moved nor built on, and whenever cell 21 empties every path card steps
once toward it. When the Wedge reaches 21 it is an ordinary card and the conveyor stops;
once the middle row is empty (stage two) only a king, with its run, may come from the board
into rows 1 and 4. Aces go out by themselves.

Notation: cells ``1``..``24``, ``w`` the waste heap, ``f`` the foundations. ``20>7`` moves
the whole of cell 20 onto cell 7's top or into the empty cell 7; ``w>7`` the waste top;
``20>f``, ``w>f`` play home; ``deal`` turns a stock card onto the waste heap.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Final

from ..cards import CODE, RANK, RANK_NAMES, RED, SUIT, SUIT_NAMES, SUITS, takes
from ..core import Game, Move, PileSpec

ROW_LENGTHS: Final = (4, 5, 6, 5, 4)
CELLS: Final = sum(ROW_LENGTHS)

#: (row 1..5, column 0..5) of each cell, by index (cell number - 1)
_PLACES: Final[tuple[tuple[int, int], ...]] = tuple(
    (row + 1, col) for row, length in enumerate(ROW_LENGTHS) for col in range(length)
)
_INDEX: Final[dict[tuple[int, int], int]] = {place: i for i, place in enumerate(_PLACES)}

#: marks a cell with nothing below it
NO_CELL: Final = -1
#: the cell directly below each cell, or NO_CELL
BELOW: Final[tuple[int, ...]] = tuple(_INDEX.get((r + 1, c), NO_CELL) for r, c in _PLACES)

ROW3: Final[tuple[int, ...]] = tuple(i for i, (r, _) in enumerate(_PLACES) if r == 3)
CELL16: Final = 15
EXIT: Final = 20  # cell 21
#: the Wedge's path from its exit back to the Wedge's first cell: 21, 16, 10, 11, .., 15
PATH: Final[tuple[int, ...]] = (EXIT, CELL16, *ROW3)
#: the cells whose cards are neither moved nor built on while the conveyor runs
LOCKED: Final[frozenset[int]] = frozenset((CELL16, *ROW3))
#: cells a card may be in, moved from or moved to, with the conveyor running / stopped
OPEN_RUNNING: Final[tuple[int, ...]] = tuple(i for i in range(CELLS) if i not in LOCKED)
OPEN_STOPPED: Final[tuple[int, ...]] = tuple(i for i in range(CELLS) if i not in ROW3)
#: the upper row of each part in stage two: only a king comes into them from the board
KING_ROWS: Final[frozenset[int]] = frozenset(i for i, (r, _) in enumerate(_PLACES) if r in (1, 4))
_NO_ROWS: Final[frozenset[int]] = frozenset()

WASTE: Final = CELLS
STOCK: Final = CELLS + 1
F0: Final = CELLS + 2

CONVEYOR: Final = 0  # counter: 1 while the Wedge drives the conveyor, 0 once it reached 21

HOME: Final = 0
TO_CELL: Final = 1
DEAL: Final = 2
TO_WASTE: Final = 3

PATH_RULE: Final = "it is neither moved nor built on until the Wedge reaches 21"

#: stands in, in the lookup tables, for a move the notation does not name (a cell to itself)
_NOWHERE: Final = Move("", TO_CELL)


def _label(i: int) -> str:
    return "w" if i == WASTE else str(i + 1)


def _cell(i: int) -> str:
    return "the waste heap" if i == WASTE else f"cell {i + 1}"


class Wedge(Game):
    id = "wedge"
    rules_version = 2  # corrected 2026-11-24
    name = "The Wedge"
    summary = (
        "Drive the Wedge down its path to the bottom row; build down in alternate colours, "
        "aces up by suit."
    )
    PILES = (
        *(PileSpec(str(i + 1), "cell", c, r, "down") for i, (r, c) in enumerate(_PLACES)),
        PileSpec("w", "waste", 6, 0, "none"),
        PileSpec("s", "stock", 5, 0, "none", hidden=True),
        *(
            PileSpec(f"f{suit.lower()}", "foundation", s, 0, "none", home=True)
            for s, suit in enumerate(SUITS)
        ),
    )
    COUNTERS = ("conveyor",)
    ALIASES: ClassVar[dict[str, str]] = {"d": "deal"}
    NOTATION_HINT = "Moves look like 20>7, w>7, 20>f, w>f or deal."
    HOME_KINDS = frozenset({HOME})
    DEAL_KINDS = frozenset({DEAL})

    TO_F: ClassVar[tuple[Move, ...]]
    #: TO[i][j]: the move ``i>j`` (i a cell or the waste heap, j a cell)
    TO: ClassVar[tuple[tuple[Move, ...], ...]]
    DEAL_MOVE: ClassVar[Move]

    @classmethod
    def _all_moves(cls) -> Iterable[Move]:
        for i in range(CELLS):
            a = _label(i)
            yield Move(f"{a}>f", HOME, i)
            yield Move(f"{a}>w", TO_WASTE, i, WASTE)
            for j in range(CELLS):
                if j != i:
                    yield Move(f"{a}>{j + 1}", TO_CELL, i, j)
        yield Move("w>f", HOME, WASTE)
        for j in range(CELLS):
            yield Move(f"w>{j + 1}", TO_CELL, WASTE, j)
        yield Move("deal", DEAL)

    @classmethod
    def _interned(cls) -> None:
        moves = cls.MOVES
        cls.TO_F = tuple(moves[f"{_label(i)}>f"] for i in range(CELLS + 1))
        cls.TO = tuple(
            tuple(moves.get(f"{_label(i)}>{j + 1}", _NOWHERE) for j in range(CELLS))
            for i in range(CELLS + 1)
        )
        cls.DEAL_MOVE = moves["deal"]

    # -- deal ----------------------------------------------------------------------------

    def _setup(self, deck: list[int]) -> None:
        """Deck order: cells 1 to 24 in reading order (the card for cell 15 is the Wedge),
        then the 28-card stock, dealt from the front."""
        p = self.p
        for i in range(CELLS):
            p[i].append(deck[i])
        p[STOCK].extend(reversed(deck[CELLS:]))
        self.sc[CONVEYOR] = 1
        self._auto()

    # -- rules ---------------------------------------------------------------------------

    def stage(self) -> int:
        """1 while the middle row holds a card, 2 once it is empty."""
        p = self.p
        return 1 if any(p[i] for i in ROW3) else 2

    def wedge_cell(self) -> int | None:
        """The cell (index) the Wedge is in while it drives the conveyor; None after."""
        if not self.sc[CONVEYOR]:
            return None
        p = self.p
        for i in reversed(PATH):
            if p[i]:
                return i
        return None

    def _exposed(self, i: int) -> bool:
        b = BELOW[i]
        return b == NO_CELL or not self.p[b]

    def _generate(self) -> list[Move]:
        p = self.p
        cells = OPEN_RUNNING if self.sc[CONVEYOR] else OPEN_STOPPED
        exposed: list[int] = []
        empty: list[int] = []
        for i in cells:
            if p[i]:
                b = BELOW[i]
                if b == NO_CELL or not p[b]:
                    exposed.append(i)
            else:
                empty.append(i)
        waste = p[WASTE]
        w = waste[-1] if waste else -1
        out: list[Move] = []
        to_f = self.TO_F
        for i in exposed:
            c = p[i][-1]
            if RANK[c] == len(p[F0 + SUIT[c]]) + 1:
                out.append(to_f[i])
        if waste and RANK[w] == len(p[F0 + SUIT[w]]) + 1:
            out.append(to_f[WASTE])
        to = self.TO
        # building, a whole pile at a time, its bottom card on the top it fits: onto exposed
        # tops, and (cards lifted) from a cell onto the one directly above it
        for j in cells:
            dest = p[j]
            if not dest:
                continue
            d = dest[-1]
            need = RANK[d] - 1
            red = RED[d]
            b = BELOW[j]
            if b == NO_CELL or not p[b]:
                for i in exposed:
                    if i != j:
                        bottom = p[i][0]
                        if RANK[bottom] == need and RED[bottom] != red:
                            out.append(to[i][j])
                if waste and RANK[w] == need and RED[w] != red:
                    out.append(to[WASTE][j])
            elif b in exposed:
                base = p[b][0]
                if RANK[base] == need and RED[base] != red:
                    out.append(to[b][j])
        if empty:
            king_rows = KING_ROWS if self.stage() == 2 else _NO_ROWS
            for j in empty:
                if waste:
                    out.append(to[WASTE][j])
                kings_only = j in king_rows
                for i in exposed:
                    if not kings_only or RANK[p[i][0]] == 13:
                        out.append(to[i][j])
        if p[STOCK]:
            out.append(self.DEAL_MOVE)
        return out

    def _apply(self, move: Move) -> None:
        kind = move.kind
        p = self.p
        src = move.a
        if kind == TO_CELL:
            # the waste gives its top card; a cell's pile moves bodily, all of it
            self._mv(src, move.b, 1 if src == WASTE else len(p[src]))
        elif kind == HOME:
            self._mv(src, F0 + SUIT[p[src][-1]])
        else:
            self._mv(STOCK, WASTE)

    def _auto(self) -> None:
        """Aces out from exposed tops and the waste top; the conveyor's step whenever cell 21
        is empty with cards behind it on the path; again until nothing changes."""
        p = self.p
        sc = self.sc
        changed = True
        while changed:
            changed = False
            for i in OPEN_RUNNING if sc[CONVEYOR] else OPEN_STOPPED:
                pile = p[i]
                if pile and RANK[pile[-1]] == 1:
                    b = BELOW[i]
                    if b == NO_CELL or not p[b]:
                        self._mv(i, F0 + SUIT[pile[-1]])
                        changed = True
            waste = p[WASTE]
            if waste and RANK[waste[-1]] == 1:
                self._mv(WASTE, F0 + SUIT[waste[-1]])
                changed = True
            if sc[CONVEYOR] and not p[EXIT]:
                for k in range(1, len(PATH)):
                    src, dst = PATH[k], PATH[k - 1]
                    if p[src] and not p[dst]:
                        self._mv(src, dst, len(p[src]))
                        changed = True
                if not any(p[i] for i in LOCKED):
                    sc[CONVEYOR] = 0  # the Wedge is in cell 21: an ordinary card now

    # -- explanations --------------------------------------------------------------------

    def _why(self, move: Move) -> str:
        kind = move.kind
        if kind == DEAL:
            return "the stock is empty, and the waste heap is never turned over"
        if kind == TO_WASTE:
            return "only a deal lays a card on the waste heap"
        p = self.p
        src = move.a
        problem = self._source_problem(src)
        if problem:
            return problem
        c = p[src][-1]
        if kind == HOME:
            need = len(p[F0 + SUIT[c]]) + 1
            return (
                f"{CODE[c]} cannot go home: the {SUIT_NAMES[SUIT[c]]} foundation "
                f"wants the {RANK_NAMES[need]} next"
            )
        dst = move.b
        running = self.sc[CONVEYOR]
        if running and dst in LOCKED and (p[dst] or dst == CELL16):
            return f"{_cell(dst)} is on the Wedge's path: {PATH_RULE}"
        if dst in ROW3:
            return f"{_cell(dst)} is out of play: the middle row is never refilled"
        dest = p[dst]
        if dest:
            return self._why_build(src, dst)
        if self.stage() == 2 and dst in KING_ROWS and src != WASTE:
            row = 1 if dst < ROW_LENGTHS[0] else 4
            return f"in stage two only a king may come from the board into row {row}"
        return "not legal now"

    def _source_problem(self, src: int) -> str | None:
        p = self.p
        if src == WASTE:
            return None if p[WASTE] else "the waste heap is empty"
        if self.sc[CONVEYOR] and src in LOCKED and p[src]:
            return f"{_cell(src)} is on the Wedge's path: {PATH_RULE}"
        if not p[src]:
            return f"{_cell(src)} is empty"
        if not self._exposed(src):
            return f"{_cell(src)} is not exposed: {_cell(BELOW[src])} below it is not empty"
        return None

    def _why_build(self, src: int, dst: int) -> str:
        p = self.p
        d = p[dst][-1]
        need = RANK[d] - 1
        pile = p[src]
        # the card that must fit: the waste's top, or the bottom of the pile that moves
        c = pile[-1] if src == WASTE else pile[0]
        if not (RANK[c] == need and RED[c] != RED[d]):
            if src == WASTE or len(pile) == 1:
                return (
                    f"{CODE[c]} cannot go on {CODE[d]}: build down in alternate colours {takes(d)}"
                )
            return (
                f"only the whole of {_cell(src)} moves: its bottom card {CODE[c]} does not "
                f"fit on {CODE[d]}, which takes a {'black' if RED[d] else 'red'} "
                f"{RANK_NAMES[need]}"
            )
        if not self._exposed(dst) and BELOW[dst] != src:
            # (the whole of the cell directly below may be built on it: cards lifted)
            return f"{_cell(dst)} is not exposed: {_cell(BELOW[dst])} below it is not empty"
        return "not legal now"

    @classmethod
    def _counters_from_view(cls, view: Mapping[str, Any]) -> list[int]:
        # the view names the Wedge's cell while it drives the conveyor, and None after
        return [0 if view["wedge"] is None else 1]

    def _view_extra(self) -> dict[str, Any]:
        """``stage``; ``wedge``, the Wedge's cell while it drives the conveyor; ``path``,
        the cells it and the cards ahead of it step through, from its cell to 21, in
        order (None once it has reached 21): a client draws the path from it."""
        wedge = self.wedge_cell()
        if wedge is None:
            return {"stage": self.stage(), "wedge": None, "path": None}
        ahead = PATH[: PATH.index(wedge) + 1]
        return {
            "stage": self.stage(),
            "wedge": str(wedge + 1),
            "path": [str(i + 1) for i in reversed(ahead)],
        }
