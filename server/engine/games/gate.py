"""The Gate (seed 000), and its harder form with bars of three.

Two posts of five cards stand either side of two bars. Only a post's lowest card is
exposed; posts are never built on. Each bar cell is a pile built down in alternate
colours. Sequences are "shifted bodily": a bar cell's whole pile moves onto another bar
pile where its bottom card fits, and a card with cards under it in its cell never moves to
another bar alone (the ruling as corrected 2026-11-24, rules version 2; the first version
let any tail of a run move). A bar vacancy is filled from a post at will; a ``deal`` fills
every vacancy from the stock (then from the waste heap, top card first) or, with the Gate
complete, turns one card onto the waste heap. Aces go out by themselves, after a deal's
whole fill pass.

Notation: ``l`` and ``r`` the posts, ``t1``.. the top bar, ``b1``.. the bottom bar,
``w`` the waste heap, ``f`` the foundations. ``t1>b2`` moves the whole of t1 onto b2,
``l>t3`` a post's lowest card to t3, ``w>f`` the waste top home, ``deal``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Final

from ..cards import CODE, RANK, RANK_NAMES, RED, SUIT, SUIT_NAMES, SUITS, takes
from ..core import Game, Move, PileSpec

POST_SIZE: Final = 5
TO_PILE: Final = 0
TO_FOUNDATION: Final = 1
DEAL: Final = 2
#: by card: where its rank and colour's two places start in ``Gate._generate``'s
#: ``where``, and where those of the rank and colour that fits onto it do (a rank lower,
#: the other colour)
_KEY: Final = tuple((RANK[c] * 2 + RED[c]) * 2 for c in range(52))
_FITS: Final = tuple((RANK[c] * 2 - 2 + (not RED[c])) * 2 for c in range(52))


def _piles(width: int) -> tuple[PileSpec, ...]:
    right = width + 1
    return (
        PileSpec("l", "post", 0, 1, "down"),
        PileSpec("r", "post", right, 1, "down"),
        *(PileSpec(f"t{i + 1}", "bar", i + 1, 1, "down") for i in range(width)),
        *(PileSpec(f"b{i + 1}", "bar", i + 1, 4, "down") for i in range(width)),
        PileSpec("w", "waste", right + 2, 1, "none"),
        PileSpec("s", "stock", right + 1, 1, "none", hidden=True),
        *(
            PileSpec(f"f{suit.lower()}", "foundation", right + 1 + s, 0, "none", home=True)
            for s, suit in enumerate(SUITS)
        ),
    )


class Gate(Game):
    id = "gate"
    rules_version = 2  # corrected 2026-11-24
    name = "The Gate"
    summary = "Two posts and two bars of four; build down in alternate colours, aces up by suit."
    WIDTH: ClassVar[int] = 4
    ALIASES: ClassVar[dict[str, str]] = {"d": "deal"}
    NOTATION_HINT = "Moves look like t1>b2, l>t3, w>f or deal."
    HOME_KINDS = frozenset({TO_FOUNDATION})
    DEAL_KINDS = frozenset({DEAL})

    # pile indexes, set per class by __init_subclass__
    LP: ClassVar[int] = 0
    RP: ClassVar[int] = 1
    BARS: ClassVar[tuple[int, ...]]
    WASTE: ClassVar[int]
    STOCK: ClassVar[int]
    F0: ClassVar[int]
    FILL_ORDER: ClassVar[tuple[int, ...]]
    SOURCES: ClassVar[tuple[int, ...]]
    TO_F: ClassVar[dict[int, Move]]
    TO: ClassVar[dict[tuple[int, int], Move]]
    DEAL_MOVE: ClassVar[Move]
    #: the moves by source and destination, ``TABLE[i * len(PILES) + j]``, and source
    #: ``i`` home at ``TABLE[i * len(PILES) + i]`` (the game's positions are laid out
    #: from the number of piles: the posts 0 and 1, the bars, the waste, the stock, the
    #: foundations)
    TABLE: ClassVar[tuple[Move, ...]]

    @classmethod
    def _declare(cls) -> None:
        w = cls.WIDTH
        cls.PILES = _piles(w)
        cls.BARS = tuple(range(2, 2 + 2 * w))
        cls.WASTE = 2 + 2 * w
        cls.STOCK = cls.WASTE + 1
        cls.F0 = cls.STOCK + 1
        cls.FILL_ORDER = (cls.LP, *cls.BARS, cls.RP)
        # the order in which sources are tried when moves are listed
        cls.SOURCES = (cls.LP, cls.RP, *cls.BARS, cls.WASTE)

    @classmethod
    def _interned(cls) -> None:
        cls.TO_F = {i: cls.MOVES[f"{cls.PILES[i].label}>f"] for i in cls.SOURCES}
        cls.TO = {
            (i, j): cls.MOVES[f"{cls.PILES[i].label}>{cls.PILES[j].label}"]
            for i in cls.SOURCES
            for j in (cls.LP, cls.RP, *cls.BARS, cls.WASTE)
            if i != j
        }
        cls.DEAL_MOVE = cls.MOVES["deal"]
        n = len(cls.PILES)
        assert cls.packs == 1 and cls.WASTE + 6 == cls.STOCK + 5 == cls.F0 + 4 == n
        table = [cls.DEAL_MOVE] * (n * n)  # (what no source reaches: never read)
        for (i, j), move in cls.TO.items():
            table[i * n + j] = move
        for i, move in cls.TO_F.items():
            table[i * n + i] = move
        cls.TABLE = tuple(table)

    @classmethod
    def _all_moves(cls) -> Iterable[Move]:
        label = [s.label for s in cls.PILES]
        for i in cls.SOURCES:
            yield Move(f"{label[i]}>f", TO_FOUNDATION, i, -1)
            for j in (cls.LP, cls.RP, *cls.BARS, cls.WASTE):
                if i != j:
                    yield Move(f"{label[i]}>{label[j]}", TO_PILE, i, j)
        yield Move("deal", DEAL)

    # -- deal ----------------------------------------------------------------------------

    def _setup(self, deck: list[int]) -> None:
        """Deck order: left post top to bottom, top bar, bottom bar, right post top to
        bottom; the rest is the stock, dealt from the front."""
        p = self.p
        it = iter(deck)
        for i in self.FILL_ORDER:
            size = POST_SIZE if i in (self.LP, self.RP) else 1
            p[i].extend(next(it) for _ in range(size))
        p[self.STOCK].extend(reversed(list(it)))
        self._auto()

    # -- rules ---------------------------------------------------------------------------

    def _vacancies(self) -> bool:
        p = self.p
        if len(p[0]) < POST_SIZE or len(p[1]) < POST_SIZE:
            return True
        return any(not p[i] for i in range(2, len(p) - 6))  # the bars

    def _generate(self) -> list[Move]:
        # (every index from the number of piles, and the moves from one flat table: a
        # class attribute is a dictionary lookup a read in compiled code, a local is not)
        p = self.p
        table = self.TABLE
        n = len(p)
        waste = n - 6
        f0 = n - 4
        out: list[Move] = []
        # what can move onto a bar, by rank and colour (``_KEY``): the posts' and the
        # waste's top cards (-1: none), and each bar's bottom card (a bar pile moves only
        # whole, so its bottom card is the one that must fit), by where the bar's key
        # starts in ``where`` (two places a key: one pack holds two cards of each rank
        # and colour)
        left = right = top = -1
        where = [-1] * 56
        empty = False
        for i in range(waste + 1):  # the sources in order: the posts, the bars, the waste
            pile = p[i]
            if pile:
                c = pile[-1]
                if RANK[c] == len(p[f0 + SUIT[c]]) + 1:
                    out.append(table[i * n + i])
                if i == 0:
                    left = _KEY[c]
                elif i == 1:
                    right = _KEY[c]
                elif i == waste:
                    top = _KEY[c]
                else:
                    key = _KEY[pile[0]]
                    where[key + 1 if where[key] >= 0 else key] = i
            elif 2 <= i < waste:
                empty = True
        # onto each bar: the posts' and the waste's cards first, then the bars', in order
        for j in range(2, waste):
            dest = p[j]
            if dest:
                key = _FITS[dest[-1]]  # a rank lower, the other colour
                if left == key:
                    out.append(table[j])  # (0 * n + j)
                if right == key:
                    out.append(table[n + j])
                if top == key:
                    out.append(table[waste * n + j])
                i = where[key]
                if i >= 0:
                    if i != j:
                        out.append(table[i * n + j])
                    i = where[key + 1]
                    if i >= 0 and i != j:
                        out.append(table[i * n + j])
        if empty:
            for j in range(2, waste):
                if not p[j]:
                    if left >= 0:
                        out.append(table[j])
                    if right >= 0:
                        out.append(table[n + j])
        if p[n - 5] or (top >= 0 and self._vacancies()):
            out.append(self.DEAL_MOVE)
        return out

    def _apply(self, move: Move) -> None:
        kind = move.kind
        p = self.p
        if kind == TO_FOUNDATION:
            c = p[move.a][-1]
            self._mv(move.a, self.F0 + SUIT[c])
        elif kind == TO_PILE:
            src = move.a
            # a bar's pile shifts bodily, all of it; a post or the waste gives one card
            self._mv(src, move.b, len(p[src]) if 2 <= src < len(p) - 6 else 1)
        else:
            self._deal()

    def _deal(self) -> None:
        p = self.p
        waste = len(p) - 6
        stock = waste + 1
        if not self._vacancies():
            self._mv(stock, waste)
            return
        # the fill order: the left post, the bars, the right post
        for i in (0, *range(2, waste), 1):
            want = (POST_SIZE if i < 2 else 1) - len(p[i])
            for _ in range(want):
                if p[stock]:
                    self._mv(stock, i)
                elif p[waste]:
                    self._mv(waste, i)
                else:
                    return

    def _auto(self) -> None:
        """Aces go out whenever exposed (after the whole fill pass, as ``_deal`` ends first)."""
        p = self.p
        f0 = len(p) - 4
        moved = True
        while moved:
            moved = False
            for i in range(f0 - 1):  # the sources: the posts, the bars, the waste
                pile = p[i]
                if pile and RANK[pile[-1]] == 1:
                    self._mv(i, f0 + SUIT[pile[-1]])
                    moved = True

    def _why(self, move: Move) -> str:
        p = self.p
        label = self.PILES
        if move.kind == DEAL:
            if not self._vacancies():
                return "the Gate is complete and the stock is empty"
            return "the stock and the waste heap are both empty"
        src = move.a
        if not p[src]:
            return f"{label[src].label} is empty"
        c = p[src][-1]
        if move.kind == TO_FOUNDATION:
            need = len(p[self.F0 + SUIT[c]]) + 1
            return (
                f"{CODE[c]} cannot go home: the {SUIT_NAMES[SUIT[c]]} foundation "
                f"wants the {RANK_NAMES[need]} next"
            )
        dst = move.b
        if dst in (self.LP, self.RP):
            return "posts are never built on"
        if dst == self.WASTE:
            return "only a deal lays a card on the waste heap"
        dest = p[dst]
        if not dest:
            if src == self.WASTE:
                return "the waste heap never fills a bar vacancy; a deal does"
            return "nothing moves into an empty bar cell except from a post"
        d = dest[-1]
        pile = p[src]
        if src in self.BARS and len(pile) > 1:
            return (
                f"only the whole of {label[src].label} shifts: its bottom card "
                f"{CODE[pile[0]]} does not fit on {CODE[d]}, which takes a "
                f"{'black' if RED[d] else 'red'} {RANK_NAMES[RANK[d] - 1]}"
            )
        return f"{CODE[c]} cannot go on {CODE[d]}: bars build down in alternate colours {takes(d)}"


class GateNarrow(Gate):
    id = "gate-narrow"
    name = "The Gate (bars of three)"
    summary = "The harder Gate: the same rules with bars of three cards."
    WIDTH = 3
