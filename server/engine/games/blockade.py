"""The Blockade (seed 002), in rows of twelve, and the footnote's fashion in rows of ten.

``blockade``: two packs, rows of twelve, each cell a pile. A pile's top card is free when
the cell directly below is empty or not dealt yet. The eight aces go out by themselves;
foundations build up by suit. A free card, or a descending run of one suit on top of a
free pile, moves as a unit onto another free pile top of its suit one rank higher than
the run's bottom card. A gap in a row above the lowest is filled from the stock at once;
gaps in the lowest row wait for ``deal``, which fills them before it lays a new row. Once
the stock is out, a free card or run may move into any empty cell of the rows dealt.

``blockade-ten``: rows of ten, single cards, no building; every ace starts an ascending
foundation and every king a descending one, sixteen piles, and they go out by themselves.
While the pack lasts only the lowest row and cards over a gap are free; once it is all
out, the top and bottom rows are free too, and any card with a gap above or below it.

Notation: cells ``a1``.. (column, row from the top). ``blockade``: ``c3>f`` plays home,
``c3>e2`` moves onto e2 the part of c3's top run that fits it, or into an empty e2 the
whole run; ``c3:2>e2`` moves just c3's top two cards into an empty e2. ``blockade-ten``:
``c3>u``, ``c3>d``. Both: ``deal``.
"""

from __future__ import annotations

from typing import ClassVar, Final

from ..cards import CODE, RANK, card_name
from ..core import Move
from .grid import BELOW, DOWN, ENDS, LOWEST, OWN, TWO_EACH_WAY, TWO_UP, UP, UPPER, GridGame

#: the kind of a counted move, ``c3:n>e2``, is ``PART + n``
PART: Final = OWN
#: the counts ``c3:n>e2`` may name: fewer than a whole suit
COUNTS: Final = {str(n): n for n in range(1, 13)}


def top_run(pile: list[int]) -> int:
    """How many cards on top of ``pile`` (not empty) descend by one in one suit.

    >>> from server.engine.cards import parse_card
    >>> top_run([parse_card(c) for c in ("KC", "9S", "8S", "7S")])
    3
    """
    n = 1
    size = len(pile)
    while n < size:
        card = pile[-n]
        # card + 1 is the next rank of the same suit, except after a king
        if RANK[card] == 13 or pile[-n - 1] != card + 1:
            break
        n += 1
    return n


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
    FOUNDATIONS = TWO_UP
    NOTATION_HINT = "Moves look like c3>f, c3>e2, c3:2>e2 or deal (cells: column a-l, row 1-9)."
    #: the counted moves listed as legal so far, by (from cell, to cell, count): see
    #: _lazy_move. Kept for good, so each stays one object. Only ``_generate`` adds to it,
    #: so what clients type cannot grow it; were every one listed once, about 33 MB.
    PARTS: ClassVar[dict[tuple[int, int, int], Move]] = {}

    @classmethod
    def _lazy_move(cls, key: str) -> Move | None:
        """``c3:2>e2``, built on first use: 108 cells, 107 others and 12 counts make
        138,672 moves, too many to build up front; a game lists them only once the stock
        is out, and then only from its few free piles into its empty cells. One never
        listed as legal is built afresh and not kept: it cannot be legal now (``play``
        lists the legal moves, keeping theirs, before it parses), and keeping every count
        a client typed would let clients grow the table."""
        src, _, rest = key.partition(":")
        count, _, dst = rest.partition(">")
        cells = cls.CELLS
        i = cls.LABELS.get(src, cells)
        j = cls.LABELS.get(dst, cells)
        n = COUNTS.get(count, 0)
        if i >= cells or j >= cells or i == j or not n:
            return None
        move = cls.PARTS.get((i, j, n))
        if move is None:
            move = Move(f"{cls.cell_label(i)}:{n}>{cls.cell_label(j)}", PART + n, i, j)
        return move

    @classmethod
    def _part(cls, i: int, j: int, n: int) -> Move:
        """The one move object for ``n`` cards from cell ``i`` into cell ``j``."""
        move = cls.PARTS.get((i, j, n))
        if move is None:
            move = Move(f"{cls.cell_label(i)}:{n}>{cls.cell_label(j)}", PART + n, i, j)
            cls.PARTS[i, j, n] = move
        return move

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
            if self._put_out():
                changed = True

    # -- builds: runs onto piles, and into empty cells once the stock is out --------------

    def _generate_builds(self, available: list[int], out: list[Move]) -> None:
        """The top ``k`` cards of a free pile, when they descend in one suit, onto a free
        pile top of that suit one rank above the ``k``-th card."""
        p = self.p
        tops: dict[int, list[int]] = {}
        for j in available:
            tops.setdefault(p[j][-1], []).append(j)
        builds = self.BUILDS
        for i in available:
            pile = p[i]
            card = pile[-1]
            run = top_run(pile) if len(pile) > 1 else 1
            # the top k cards go on card + k, the same suit while its rank is at most 13
            for k in range(1, min(run, 13 - RANK[card]) + 1):
                for j in tops.get(card + k, ()):
                    out.append(builds[i, j])
        if not p[self.STOCK]:
            self._generate_into_empty(available, out)

    def _generate_into_empty(self, available: list[int], out: list[Move]) -> None:
        """With the stock out: each free pile's top run into each empty cell of the rows
        dealt, whole (``c3>e2``) or its top ``n`` cards (``c3:n>e2``)."""
        p = self.p
        empty = [j for j in range(self.sc[0] * self.WIDTH) if not p[j]]
        if not empty:
            return
        builds = self.BUILDS
        parts = self.PARTS
        for i in available:
            run = top_run(p[i])
            for j in empty:
                out.append(builds[i, j])
                for n in range(1, run):
                    move = parts.get((i, j, n))
                    out.append(move if move is not None else self._part(i, j, n))

    def _build(self, move: Move) -> None:
        p = self.p
        src, dst = move.a, move.b
        if p[dst]:
            self._mv(src, dst, p[dst][-1] - p[src][-1])
        else:
            self._mv(src, dst, top_run(p[src]))

    def _apply_own(self, move: Move) -> None:
        self._mv(move.a, move.b, move.kind - PART)

    def _why_build(self, move: Move) -> str:
        p = self.p
        src, dst = move.a, move.b
        label, dlabel = self.cell_label(src), self.cell_label(dst)
        if not p[dst]:
            if dst >= self.sc[0] * self.WIDTH:
                return f"{dlabel} is not dealt"
            # with the stock out the move would be legal
            return f"{dlabel} is empty, and nothing moves into an empty cell while the stock lasts"
        top = p[dst][-1]
        if dst not in self._available():
            return f"{CODE[top]} at {dlabel} is blocked"
        if RANK[top] == 1:
            return f"nothing is built on {CODE[top]}"
        return f"no part of {label} fits on {CODE[top]}: it needs the {card_name(top - 1)}"

    def _why_own(self, move: Move) -> str:
        """Why a counted move, ``c3:n>e2``, is not legal."""
        p = self.p
        src, dst, n = move.a, move.b, move.kind - PART
        why = self._why_source(src)
        if why:
            return why
        label, dlabel = self.cell_label(src), self.cell_label(dst)
        whole = f"{label}>{dlabel}"
        if dst >= self.sc[0] * self.WIDTH:
            return f"{dlabel} is not dealt"
        if p[dst]:
            return (
                f"a count ({label}:{n}) is only for moving into an empty cell: "
                f"to build on {CODE[p[dst][-1]]} at {dlabel}, write {whole}"
            )
        if p[self.STOCK]:
            return f"{dlabel} is empty, and nothing moves into an empty cell while the stock lasts"
        run = top_run(p[src])
        if run == 1:
            return f"the run on top of {label} is one card: write {whole} to move it"
        counts = "1" if run == 2 else "1 or 2" if run == 3 else f"1 to {run - 1}"
        return (
            f"the run on top of {label} is {run} cards: count {counts} of them, "
            f"or write {whole} to move it whole"
        )


class BlockadeTen(GridGame):
    id = "blockade-ten"
    rules_version = 2  # corrected 2026-11-24
    name = "The Blockade (rows of ten)"
    summary = "Two packs in rows of ten; every ace up and every king down by suit; no building."
    WIDTH = 10
    MAX_ROWS = 11
    REFILL = LOWEST
    FOUNDATIONS = TWO_EACH_WAY
    NOTATION_HINT = "Moves look like c3>u, c3>d or deal (cells: column a-j, row 1-11)."

    def _free_mode(self) -> int:
        return BELOW if self.p[self.STOCK] else ENDS

    def _setup(self, deck: list[int]) -> None:
        """Deck order: the first row a1..j1, then every card as ``deal`` takes it: the
        lowest row's gaps left to right, or a new row left to right."""
        self.p[self.STOCK].extend(reversed(deck))
        self._lay_row()
        self._auto()

    def _auto(self) -> None:
        """Put out every free ace and king, and those that frees in turn.

        Only a card the move dealt, or one beside a cell it emptied, can have become free
        (taking cards away never blocks one), so only those cells are looked at. Every
        cell is looked at on a game's first move (and the deal's first row), and after
        the move that deals the last card (it frees the top row and every card beside a
        gap). Whatever the order, the same cards go out, and two piles an ace (or a king)
        could start end up alike. In play every card is dealt into the lowest row, where
        it is free, so an ace or king goes out as it is dealt; the rest is for positions
        built by hand."""
        p = self.p
        stock = self.STOCK
        ops = self._ops
        if not self.moves or (not p[stock] and any(op[0] == stock for op in ops)):
            while self._put_out():
                pass
            return
        w = self.WIDTH
        todo: list[int] = []
        for src, dst, _ in ops:
            if src == stock:
                todo.append(dst)
            else:
                todo.append(src - w)
                todo.append(src + w)
        end = self.sc[0] * w
        while todo:
            i = todo.pop()
            if 0 <= i < end and p[i] and self._free(i):
                card = p[i][-1]
                r = RANK[card]
                if r == 1 or r == 13:
                    target = self._home_target(card, UP if r == 1 else DOWN)
                    assert target is not None
                    self._mv(i, target)
                    todo.append(i - w)
                    todo.append(i + w)
