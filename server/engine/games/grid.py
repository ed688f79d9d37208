"""The garden: cards dealt in rows of a fixed width, where a card is blocked by the card
directly below it. Babette, The Labyrinth and The Blockade in both its forms are this one
idea, as the seed books describe it, declared with a few settings:

- ``WIDTH``: cells per row; rows are dealt one at a time, each into its own line, so a
  gap left in a row stays a gap (grid-literal blocking).
- ``FREE``: which cards are available. ``BELOW``: a card whose cell directly below is
  empty or not dealt yet (so the lowest row, and any card over a gap). ``ENDS``: also the
  top row and any card with an empty cell directly above it (The Labyrinth; the ten-wide
  Blockade once the whole pack is out, via :meth:`_free_mode`).
- ``REFILL``: ``NEVER`` (Babette: ``deal`` always lays a new row); ``LOWEST`` (``deal``
  fills the lowest row's vacancies, left to right, before it lays a new row); ``UPPER``
  (as ``LOWEST``, and a vacancy in any higher row is filled from the stock at once).
- ``PILED``: a cell holds a pile (The Blockade), not a single card, and a pile moves
  onto another cell (``c3>e2``) by the game's own rules (:meth:`_generate_builds`,
  :meth:`_build`, :meth:`_why_build`).
- ``FOUNDATIONS``: ``UP_AND_DOWN`` (Babette, The Labyrinth): per suit, the first ace
  starts an ascending pile and the first king a descending one, the second copies
  finishing the opposite piles (``>u``, ``>d``). ``TWO_UP`` (The Blockade): eight
  ascending piles, two per suit, each started by an ace (``>f``). ``TWO_EACH_WAY`` (The
  Blockade in rows of ten): every ace starts an ascending pile and every king a
  descending one, two of each per suit (``>u``, ``>d``); a card goes on any pile of its
  suit that it fits.

Cells are labelled by column letter and row number from the top: ``a1`` is the top-left.
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from typing import Any, ClassVar, Final

from ..cards import CODE, RANK, RANK_NAMES, SUIT, SUIT_NAMES, SUITS
from ..core import Game, Move, PileSpec

BELOW: Final = 0
ENDS: Final = 1
NEVER: Final = 0
LOWEST: Final = 1
UPPER: Final = 2

HOME: Final = 0
BUILD: Final = 1
DEAL: Final = 2
#: move kinds above this are a game's own (redeal, grace)
OWN: Final = 10

UP: Final = 0
DOWN: Final = 1

#: ``FOUNDATIONS``: one ascending and one descending pile per suit
UP_AND_DOWN: Final = 0
#: two ascending piles per suit
TWO_UP: Final = 1
#: two ascending and two descending piles per suit
TWO_EACH_WAY: Final = 2


class GridGame(Game):
    """Shared base of the garden games; not a game itself."""

    packs = 2
    WIDTH: ClassVar[int]
    MAX_ROWS: ClassVar[int]
    FREE: ClassVar[int] = BELOW
    REFILL: ClassVar[int] = NEVER
    PILED: ClassVar[bool] = False
    #: ``deal`` only when no available card can go home (The Labyrinth: suitable cards are
    #: played before the next deal)
    PLAY_BEFORE_DEAL: ClassVar[bool] = False
    FOUNDATIONS: ClassVar[int] = UP_AND_DOWN
    COUNTERS: ClassVar[tuple[str, ...]] = ("rows",)
    ALIASES: ClassVar[dict[str, str]] = {"d": "deal"}
    NOTATION_HINT = "Moves look like c3>u, c3>d or deal (cells: column letter, row number)."
    HOME_KINDS: ClassVar[frozenset[int]] = frozenset({HOME})
    DEAL_KINDS: ClassVar[frozenset[int]] = frozenset({DEAL})

    CELLS: ClassVar[int]
    STOCK: ClassVar[int]
    F0: ClassVar[int]
    #: foundation piles per way (up, down): ``(pile - F0) // SPAN`` is a pile's way
    SPAN: ClassVar[int]
    #: the table row of the garden's first row, below the foundations
    TOP: ClassVar[int]
    HOME_MOVES: ClassVar[dict[tuple[int, int], Move]]
    BUILDS: ClassVar[dict[tuple[int, int], Move]]
    DEAL_MOVE: ClassVar[Move]

    # -- declaration ---------------------------------------------------------------------

    @classmethod
    def _declare(cls) -> None:
        cls.CELLS = cls.WIDTH * cls.MAX_ROWS
        cls.STOCK = cls.CELLS
        cls.F0 = cls.CELLS + 1
        cls.SPAN = 4 if cls.FOUNDATIONS == UP_AND_DOWN else 8
        cls.TOP = 3 if cls.FOUNDATIONS == TWO_EACH_WAY else 2
        cls.PILES = (*cls._cell_piles(), *cls._fixed_piles(), *cls._extra_piles())
        cls._declare_more()

    @classmethod
    def _declare_more(cls) -> None:
        """A game's own layout constants, once ``PILES`` is set. (Hooks rather than
        ``super()`` in class methods, which the compiled build binds wrongly.)"""

    @classmethod
    def _cell_piles(cls) -> Iterable[PileSpec]:
        fan = "down" if cls.PILED else "none"
        for i in range(cls.CELLS):
            r, c = divmod(i, cls.WIDTH)
            yield PileSpec(cls.cell_label(i), "cell", c, r + cls.TOP, fan)

    @classmethod
    def _fixed_piles(cls) -> Iterable[PileSpec]:
        yield PileSpec("s", "stock", cls.WIDTH + 1, 0, "none", hidden=True)
        ways = (("u", "foundation-up"), ("d", "foundation-down"))
        if cls.FOUNDATIONS == UP_AND_DOWN:
            for n, (way, kind) in enumerate(ways):
                for s, suit in enumerate(SUITS):
                    yield PileSpec(f"{way}{suit.lower()}", kind, s + 4 * n, 0, home=True)
        elif cls.FOUNDATIONS == TWO_UP:
            for s, suit in enumerate(SUITS):
                for k in range(2):
                    label = f"f{suit.lower()}{k + 1}"
                    yield PileSpec(label, "foundation", 2 * s + k, 0, home=True)
        else:
            # sixteen piles: the ascending ones in a row, the descending ones under them
            for n, (way, kind) in enumerate(ways):
                for s, suit in enumerate(SUITS):
                    for k in range(2):
                        label = f"{way}{suit.lower()}{k + 1}"
                        yield PileSpec(label, kind, 2 * s + k, n, home=True)

    @classmethod
    def _extra_piles(cls) -> Iterable[PileSpec]:
        return ()

    @classmethod
    def cell_label(cls, i: int) -> str:
        r, c = divmod(i, cls.WIDTH)
        return f"{string.ascii_lowercase[c]}{r + 1}"

    @classmethod
    def _home_names(cls) -> tuple[str, ...]:
        return ("f",) if cls.FOUNDATIONS == TWO_UP else ("u", "d")

    @classmethod
    def _all_moves(cls) -> Iterable[Move]:
        for i in range(cls.CELLS):
            label = cls.cell_label(i)
            for way, name in enumerate(cls._home_names()):
                yield Move(f"{label}>{name}", HOME, i, way)
        if cls.PILED:
            for i in range(cls.CELLS):
                for j in range(cls.CELLS):
                    if i != j:
                        yield Move(f"{cls.cell_label(i)}>{cls.cell_label(j)}", BUILD, i, j)
        yield Move("deal", DEAL)
        yield from cls._own_moves()

    @classmethod
    def _own_moves(cls) -> Iterable[Move]:
        return ()

    @classmethod
    def _interned(cls) -> None:
        moves = cls.MOVES.values()
        cls.HOME_MOVES = {(m.a, m.b): m for m in moves if m.kind == HOME}
        cls.BUILDS = {(m.a, m.b): m for m in moves if m.kind == BUILD}
        cls.DEAL_MOVE = cls.MOVES["deal"]
        cls._interned_more()

    @classmethod
    def _interned_more(cls) -> None:
        """A game's own references to interned moves."""

    # -- the garden ----------------------------------------------------------------------

    @property
    def rows(self) -> int:
        return self.sc[0]

    def _shown(self) -> Iterable[int]:
        yield from range(self.sc[0] * self.WIDTH)
        yield from range(self.CELLS, len(self.PILES))

    def _free_mode(self) -> int:
        return self.FREE

    def _available(self) -> list[int]:
        """The cells whose top card may be moved now, in reading order."""
        p = self.p
        w = self.WIDTH
        end = self.sc[0] * w
        last = end - w
        if self._free_mode() == BELOW:
            return [i for i in range(end) if p[i] and (i >= last or not p[i + w])]
        return [
            i for i in range(end) if p[i] and (i < w or i >= last or not p[i - w] or not p[i + w])
        ]

    def _free(self, i: int) -> bool:
        """Whether the card in dealt cell ``i`` is available (as :meth:`_available`)."""
        p = self.p
        w = self.WIDTH
        if i >= (self.sc[0] - 1) * w or not p[i + w]:
            return True
        return self._free_mode() == ENDS and (i < w or not p[i - w])

    def _homes(self, card: int) -> list[int]:
        """The foundation piles ``card`` may go on now: up, then down. Of two piles of the
        same way that take it (the same height, so interchangeable), only the first."""
        p = self.p
        r, s = RANK[card], SUIT[card]
        f0 = self.F0
        out = []
        mode = self.FOUNDATIONS
        if mode == UP_AND_DOWN:
            up, down = p[f0 + s], p[f0 + 4 + s]
            # the first ace of a suit starts its ascending pile and the first king its
            # descending one: neither may finish the other pile while its own is unstarted
            if len(up) == r - 1 and (down or r != 13):
                out.append(f0 + s)
            if len(down) == 13 - r and (up or r != 1):
                out.append(f0 + 4 + s)
            return out
        # with two piles each way, every ace starts an ascending pile and every king a
        # descending one, so a king never ends an ascending pile nor an ace a descending one
        each_way = mode == TWO_EACH_WAY
        k = f0 + 2 * s
        if r != 13 or not each_way:
            if len(p[k]) == r - 1:
                out.append(k)
            elif len(p[k + 1]) == r - 1:
                out.append(k + 1)
        if r != 1 and each_way:
            k += 8
            if len(p[k]) == 13 - r:
                out.append(k)
            elif len(p[k + 1]) == 13 - r:
                out.append(k + 1)
        return out

    def _home_target(self, card: int, way: int) -> int | None:
        """The pile a ``>u``/``>d``/``>f`` move sends ``card`` to, if it fits."""
        for pile in self._homes(card):
            if (pile - self.F0) // self.SPAN == way:
                return pile
        return None

    def _put_out(self) -> bool:
        """Put every available card that starts a foundation on it: the aces (``TWO_UP``),
        and the kings too (``TWO_EACH_WAY``). Whether any went."""
        p = self.p
        kings = self.FOUNDATIONS == TWO_EACH_WAY
        moved = False
        for i in self._available():
            card = p[i][-1]
            r = RANK[card]
            if r == 1 or (r == 13 and kings):
                target = self._home_target(card, UP if r == 1 else DOWN)
                assert target is not None
                self._mv(i, target)
                moved = True
        return moved

    def _lowest_vacancies(self) -> list[int]:
        end = self.sc[0] * self.WIDTH
        return [i for i in range(end - self.WIDTH, end) if not self.p[i]]

    def _deal_legal(self) -> bool:
        return bool(self.p[self.STOCK])

    # -- moves ---------------------------------------------------------------------------

    def _generate(self) -> list[Move]:
        out: list[Move] = []
        p = self.p
        f0 = self.F0
        span = self.SPAN
        home_moves = self.HOME_MOVES
        available = self._available()
        for i in available:
            for pile in self._homes(p[i][-1]):
                out.append(home_moves[i, (pile - f0) // span])
        if self.PILED:
            self._generate_builds(available, out)
        self._generate_own(out)
        if self._deal_legal() and not (out and self.PLAY_BEFORE_DEAL):
            out.append(self.DEAL_MOVE)
        return out

    def _generate_builds(self, available: list[int], out: list[Move]) -> None:
        """``PILED`` games: the legal moves from cell to cell (``available``: the cells
        whose top card may move)."""

    def _generate_own(self, out: list[Move]) -> None:
        """A game's own moves (redeal, grace), appended before ``deal``."""

    def _apply(self, move: Move) -> None:
        kind = move.kind
        if kind == HOME:
            target = self._home_target(self.p[move.a][-1], move.b)
            assert target is not None
            self._mv(move.a, target)
        elif kind == BUILD:
            self._build(move)
        elif kind == DEAL:
            self._deal()
        else:
            self._apply_own(move)

    def _build(self, move: Move) -> None:
        """``PILED`` games: carry out a legal move from cell to cell."""
        raise AssertionError(f"unknown move {move.text}")

    def _apply_own(self, move: Move) -> None:
        raise AssertionError(f"unknown move {move.text}")

    def _deal(self) -> None:
        """Fill the lowest row's vacancies left to right, or else lay a new row."""
        p = self.p
        stock = self.STOCK
        if self.REFILL != NEVER and self.sc[0]:
            vacancies = self._lowest_vacancies()
            if vacancies:
                for i in vacancies:
                    if not p[stock]:
                        break
                    self._mv(stock, i)
                return
        self._lay_row()

    def _lay_row(self) -> None:
        p = self.p
        stock = self.STOCK
        start = self.sc[0] * self.WIDTH
        if start >= self.CELLS:
            raise AssertionError("the garden has no room for another row")
        for i in range(start, start + self.WIDTH):
            if not p[stock]:
                break
            self._mv(stock, i)
        self.sc[0] += 1

    # -- explanations --------------------------------------------------------------------

    def _why(self, move: Move) -> str:
        kind = move.kind
        if kind == DEAL:
            return self._why_deal()
        if kind not in (HOME, BUILD):
            return self._why_own(move)
        why = self._why_source(move.a)
        if why:
            return why
        if kind == HOME:
            return self._why_home(self.p[move.a][-1], move.b)
        return self._why_build(move)

    def _why_deal(self) -> str:
        if not self.p[self.STOCK]:
            return "the stock is empty"
        return "not legal now"

    def _why_source(self, src: int) -> str:
        """Why nothing may move from cell ``src`` now, or "" when its top card may."""
        p = self.p
        label = self.cell_label(src)
        if not p[src]:
            return f"{label} is empty" if src < self.sc[0] * self.WIDTH else f"{label} is not dealt"
        if src not in self._available():
            return f"{CODE[p[src][-1]]} at {label} is blocked"
        return ""

    def _why_build(self, move: Move) -> str:
        """``PILED`` games: why a move from an available cell to another is not legal."""
        return "not legal now"

    def _why_home(self, card: int, way: int) -> str:
        p = self.p
        s = SUIT[card]
        suit = SUIT_NAMES[s]
        if self.FOUNDATIONS == TWO_UP:
            heights = [len(p[self.F0 + 2 * s + k]) for k in range(2)]
            wants = " or the ".join(
                RANK_NAMES[h + 1] if h else "ace" for h in sorted(set(heights)) if h < 13
            )
            return f"{CODE[card]} cannot go home: the {suit} foundations want the {wants}"
        if self.FOUNDATIONS == TWO_EACH_WAY:
            return self._why_two_each_way(card, way)
        up, down = len(p[self.F0 + s]), len(p[self.F0 + 4 + s])
        if way == UP:
            if up == 13:
                return f"the ascending {suit} foundation is complete"
            if up == 12 and not down and RANK[card] == 13:
                return (
                    f"{CODE[card]} cannot go up: the first king of {suit} "
                    "starts the descending foundation"
                )
            return (
                f"{CODE[card]} cannot go up: the ascending {suit} want the "
                f"{RANK_NAMES[up + 1]} next"
            )
        if down == 13:
            return f"the descending {suit} foundation is complete"
        if down == 12 and not up and RANK[card] == 1:
            return (
                f"{CODE[card]} cannot go down: the first ace of {suit} "
                "starts the ascending foundation"
            )
        return (
            f"{CODE[card]} cannot go down: the descending {suit} want the "
            f"{RANK_NAMES[13 - down]} next"
        )

    def _why_two_each_way(self, card: int, way: int) -> str:
        """Why ``card`` fits no pile of its suit going ``way``, two piles each way: what
        the piles want next (a pile at twelve cards takes no more: its last card would
        have to be an ace or king, and those start piles)."""
        p = self.p
        s = SUIT[card]
        suit = SUIT_NAMES[s]
        first = self.F0 + 2 * s + (8 if way == DOWN else 0)
        heights = sorted({len(p[first]), len(p[first + 1])}, reverse=way == DOWN)
        if way == UP:
            if RANK[card] == 13:
                return f"{CODE[card]} cannot go up: every king starts a descending pile"
            wants = [RANK_NAMES[h + 1] for h in heights if h < 12]
            name = f"{CODE[card]} cannot go up: the ascending {suit}"
        else:
            if RANK[card] == 1:
                return f"{CODE[card]} cannot go down: every ace starts an ascending pile"
            wants = [RANK_NAMES[13 - h] for h in heights if h < 12]
            name = f"{CODE[card]} cannot go down: the descending {suit}"
        if not wants:
            return f"{name} take no more cards"
        return f"{name} want the {' or the '.join(wants)}"

    def _why_own(self, move: Move) -> str:
        return "not legal now"

    def _view_extra(self) -> dict[str, Any]:
        return {"rows": self.sc[0], "width": self.WIDTH}
