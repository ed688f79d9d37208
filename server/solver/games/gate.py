"""The Gate's knowledge for the search (``gate``, and ``gate-narrow`` through the same class).

Three things, each argued where it is made:

- the **key** treats the bar cells as one unordered set of piles (the game is the same
  under any shuffle of them), and the stock by its height;
- a **dominance**: a bar's top card that sits on another card and that no card could
  ever be built on goes home at once, nothing else tried;
- an **order**: cards no one needs home first, then builds from the posts and the waste
  (they dig out buried cards), shifts between bars (they merge piles and make vacancies),
  the other home moves, ``deal``, and last the fills from the posts; of a post's fills
  of the empty cells only the first is tried (the rest are the same position under the
  key's symmetry). Dealing before filling from a post matters most: on the first 150
  deals of ``gate-narrow`` the search enters 0.9 million positions in all against over
  2 million with ``deal`` last (two deals unfinished after 3 s).
"""

from __future__ import annotations

from typing import ClassVar

from server.engine import Game, Move
from server.engine.games.gate import DEAL, TO_FOUNDATION, Gate

from ..bounds import gate_extra
from ..hooks import Hooks
from ._colours import never_a_target

_SEP = b"\xff"


class GateHooks(Hooks):
    """Search knowledge shared by The Gate's two widths (pile indexes come from the game)."""

    NAME: ClassVar[str] = "gate: bars unordered, safe bar tops home"
    #: one card home a move; the aces go out by themselves
    HOME_PER_MOVE: ClassVar[int] = 1
    AUTO_HOME: ClassVar[frozenset[int]] = frozenset((1,))
    ORDERS: ClassVar[int] = 2

    def key(self, game: Game) -> bytes:
        """The posts, the bar piles sorted, the waste, the stock's height, the foundations'
        heights.

        Equal keys mean equivalent positions. The bar cells are interchangeable: every
        move between bars, from a post into an empty cell, or from the waste or a post onto
        a bar top, is open to any cell alike, and a ``deal`` fills the posts and then the
        empty bar cells with the next cards in turn, so after it the bars hold the same
        piles whichever cells were empty; so two positions whose bars differ only in which
        cell holds which pile are won or lost together. The stock only ever loses its
        next card (nothing goes back to it but through undo), so within one deal's search
        its height says which cards it holds.
        """
        assert isinstance(game, Gate)
        p = game.p
        parts = [bytes(p[game.LP]), bytes(p[game.RP])]
        parts.extend(sorted(bytes(p[i]) for i in game.BARS))
        parts.append(bytes(p[game.WASTE]))
        parts.append(bytes((len(p[game.STOCK]),)))
        parts.append(bytes(len(p[i]) for i in game.HOME))
        return _SEP.join(parts)

    def lower_bound(self, game: Game) -> int:
        """A move for each card not home but the aces (they go out by themselves), and
        the moves of :func:`server.solver.bounds.gate_extra`: cards a post must give up
        to a bar first, the deal the stock still needs, the waste's blocked cards."""
        assert isinstance(game, Gate)
        return super().lower_bound(game) + gate_extra(game)

    def expand(self, game: Game) -> list[Move]:
        """The moves in the order of the module's docstring; or the one safe home move
        alone.

        **Safe home** (a dominance): a card X at the top of a bar pile of two or more
        cards, when no card can ever be built on X (:func:`never_a_target`), goes home
        and nothing else is tried. Why that never loses a win: compare the position A
        with X in place and B with X home. The cards under X cannot leave while X is on
        them except bodily with it, so X's pile keeps two cards or more and the same
        cells are empty in A and B all along: a ``deal`` does the same in both. Every
        move from A is then a move from B with the same effect, X aside: a shift of
        X's pile shifts the same pile less X (its bottom card, the one that must fit, is
        the same); nothing is ever built on X; every other move touches neither X nor
        its pile's top; and X going home in A reaches B exactly. So any winning line
        from A, its X move dropped, wins from B.
        """
        assert isinstance(game, Gate)
        moves = game.legal_moves()
        p = game.p
        bars = game.BARS
        home: list[Move] = []
        shifts: list[Move] = []
        builds: list[Move] = []
        fills: list[Move] = []
        deal: list[Move] = []
        risky: list[Move] = []
        filled_from: set[int] = set()
        for move in moves:
            kind = move.kind
            src = move.a
            if kind == TO_FOUNDATION:
                pile = p[src]
                if src in bars and len(pile) >= 2 and never_a_target(game, pile[-1]):
                    return [move]
                # a card some card may yet need as a target waits behind the builds
                (home if never_a_target(game, pile[-1]) else risky).append(move)
            elif kind == DEAL:
                deal.append(move)
            elif src in bars:
                shifts.append(move)
            elif p[move.b]:
                builds.append(move)
            elif src not in filled_from:
                # a post's card into one empty cell is, by the key's symmetry, the same
                # position as into any other
                filled_from.add(src)
                fills.append(move)
        if self.order == 1:
            # the second order deals last: slower on most deals, but it wins quickly
            # some that the first, committed to dealing early, takes millions of
            # positions over
            return home + builds + shifts + risky + fills + deal
        return home + builds + shifts + risky + deal + fills


HOOKS = GateHooks()
