"""The Wedge's knowledge for the search.

Whole piles move between vacancies here, so a deal's positions are many and come round
again; what keeps the space small:

- the **key** treats the *pairs* of cells as interchangeable: a column's two cells above
  an empty middle-row cell (rows 1 and 2), and a column's two cells of rows 4 and 5 (the
  first column's, cells 16 and 21, once the Wedge has stopped), each an upper cell that
  is exposed only while the lower one is empty; and it keys the stock by its height;
- a **dominance**: a card that no card can ever be built on goes home at once;
- an **order**: home first, then builds onto piles, the waste's builds, the other home
  moves, moves into vacancies that uncover a card, ``deal``, and only then the waste's
  fills and the other moves into vacancies. Dealing before filling from the waste or
  shuffling piles between vacancies matters most: with ``deal`` last, the search spends
  its time moving piles about between vacancies (lines of thousands of moves); before
  them, the first 40 deals are all decided in 0.2 s together.
"""

from __future__ import annotations

from typing import ClassVar, Final

from server.engine import Game, Move
from server.engine.games.wedge import (
    BELOW,
    CONVEYOR,
    DEAL,
    EXIT,
    HOME,
    NO_CELL,
    STOCK,
    WASTE,
    Wedge,
)

from ..bounds import wedge_extra
from ..hooks import Hooks
from ._colours import never_a_target

_SEP = b"\xff"
_PAIR_SEP = b"\xfe"

#: per column 0..3: the upper pair (rows 1 and 2), the middle-row cell under it, and the
#: lower pair (rows 4 and 5); cell indexes (cell number - 1)
_UPPER: Final = tuple((c, 4 + c) for c in range(4))
_MIDDLE: Final = tuple(9 + c for c in range(4))
_LOWER: Final = tuple((15 + c, 20 + c) for c in range(4))
_CELLS: Final = 24
#: the cell directly above each cell, or NO_CELL
_ABOVE: Final = tuple(
    next((a for a in range(_CELLS) if BELOW[a] == i), NO_CELL) for i in range(_CELLS)
)


class WedgeHooks(Hooks):
    """Search knowledge for The Wedge."""

    NAME: ClassVar[str] = "wedge: pairs unordered, safe cards home"
    #: one card home a move; the aces go out by themselves
    HOME_PER_MOVE: ClassVar[int] = 1
    AUTO_HOME: ClassVar[frozenset[int]] = frozenset((1,))

    def key(self, game: Game) -> bytes:
        """Every cell card by card, except the pairs in play, which are sorted; the
        waste; the stock's height; the foundations' heights; the conveyor.

        Equal keys mean equivalent positions. A pair in play is an upper and a lower cell
        of one column with nothing in play around them: the lower cell's top is always
        exposed, the upper's only while the lower is empty, the whole of the lower may be
        built onto the upper's top (cards lifted), and in stage two only a king comes from
        the board into the upper. The upper pairs count once their middle-row cell is
        empty (it is never refilled), the lower ones of columns 2 to 4 always (the middle
        row above them is locked or empty), the first column's (16 and 21) once the
        conveyor has stopped. Every rule reads the same for each such pair, and which
        pairs are in play follows from the middle row and the conveyor, which the key
        holds card by card; so positions that differ only in which pair holds which two
        piles are won or lost together. The stock only ever loses its next card, so within
        one deal's search its height says which cards it holds.
        """
        p = game.p
        running = game.sc[CONVEYOR]
        pairs: list[bytes] = []
        fixed: list[bytes] = []
        for c in range(4):
            upper, lower = _UPPER[c]
            if p[_MIDDLE[c]]:
                fixed.append(bytes(p[upper]))
                fixed.append(bytes(p[lower]))
            else:
                pairs.append(bytes(p[upper]) + _PAIR_SEP + bytes(p[lower]))
            upper, lower = _LOWER[c]
            if c == 0 and running:
                fixed.append(bytes(p[upper]))
                fixed.append(bytes(p[lower]))
            else:
                pairs.append(bytes(p[upper]) + _PAIR_SEP + bytes(p[lower]))
        # the cells in no pair: the middle row, cells 9 and 20
        for i in (*range(9, 15), 8, 19):
            fixed.append(bytes(p[i]))
        pairs.sort()
        fixed.extend(pairs)
        fixed.append(bytes(p[WASTE]))
        fixed.append(bytes((len(p[STOCK]), running)))
        fixed.append(bytes(len(p[i]) for i in game.HOME))
        return _SEP.join(fixed)

    def lower_bound(self, game: Game) -> int:
        """A move for each card not home but the aces (they go out by themselves), and
        the moves of :func:`server.solver.bounds.wedge_extra`: a deal for each card of
        the stock, a move off the waste for each of its cards over a lower one of its
        suit."""
        assert isinstance(game, Wedge)
        return super().lower_bound(game) + wedge_extra(game)

    def expand(self, game: Game) -> list[Move]:
        """The moves in the order of the module's docstring; or one safe home move alone.

        **Safe home** (a dominance): a card X, the top of an exposed pile or of the waste,
        that no card can ever be built on (:func:`never_a_target`), goes home and nothing
        else is tried; but not a lone card in cell 21 while the conveyor runs (its going
        would step the conveyor, which may bring on stage two, whose king rule forbids
        moves). Why that never loses a win: let A be the position with X in place and B
        with X home, and follow a winning line from A. Keep, between the line's position
        A' and a position B' of ours, the relation: B' is A' with some cards home that are
        elsewhere in A', each an ace or X, each a lone card in its cell, the top of its
        pile, or in the waste. Cards under X never leave without it, and nothing is built
        on X or on an ace; so X's cell, if X lay alone there, stays empty in B' while A'
        holds X in it, and aces above such emptied cells may have gone home in B'. Then
        B' has every vacancy A' has and more exposed cards, the same middle row and
        conveyor (X never lies alone in cell 21 while the conveyor runs: it would go by
        our own exception, and once running 21 is never empty), so the same stage; and
        each move of the line is either a move of X (dropped: the relation still holds),
        or a move of B' too with the same effect: a pile with X on top moves less X, its
        bottom card the same; the waste's top is the same card unless it is X; the
        same foundations want the same cards. When A' is won, B' is A'.
        """
        assert isinstance(game, Wedge)
        moves = game.legal_moves()
        p = game.p
        running = game.sc[CONVEYOR]
        home: list[Move] = []
        risky: list[Move] = []
        builds: list[Move] = []
        waste_builds: list[Move] = []
        uncover: list[Move] = []
        waste_fills: list[Move] = []
        shuffles: list[Move] = []
        deal: list[Move] = []
        for move in moves:
            kind = move.kind
            src = move.a
            if kind == HOME:
                card = p[src][-1]
                if never_a_target(game, card):
                    if not (src == EXIT and running and len(p[src]) == 1):
                        return [move]
                    home.append(move)
                else:
                    risky.append(move)
            elif kind == DEAL:
                deal.append(move)
            elif p[move.b]:
                (waste_builds if src == WASTE else builds).append(move)
            elif src == WASTE:
                waste_fills.append(move)
            else:
                above = _ABOVE[src]
                if above != NO_CELL and p[above]:
                    uncover.append(move)
                else:
                    shuffles.append(move)
        return home + builds + waste_builds + risky + uncover + deal + waste_fills + shuffles


HOOKS = WedgeHooks()
