"""The Blockade: a smaller key, one safe play home, and an order of moves.

Facts of the rules the hooks lean on (``docs/games/blockade.md``):

- every pile is a run: one suit, each card one rank below the card it lies on (a pile
  starts as one dealt card, or a run moved into an empty cell, and grows only by runs
  built on its top), so the card under a pile's top is the next rank up, never an ace;
- the stock is the deal's own order and only ever loses its top card (there is no
  redeal), so its length says which cards it holds;
- the two foundations of a suit are alike (a card goes on whichever stands one rank
  below it), and how high they stand, up to order, follows from the cards home: as many
  stand at ``r`` or more as there are cards of rank ``r`` of the suit home. So a card of
  rank ``r`` can go home exactly when fewer cards of its rank and suit are home than of
  the rank below;
- once the stock is out nothing refills a gap and nothing names a column: a card is
  available when the cell below it is empty or it is in the lowest row, and a run may go
  into any empty cell. Up to then, gaps are filled from the left.
"""

from __future__ import annotations

from typing import ClassVar, Final

from server.engine import Game, Move
from server.engine.cards import RANK, SUIT
from server.engine.games.blockade import Blockade
from server.engine.games.grid import BUILD, DEAL, HOME

from ..hooks import Hooks

WIDTH: Final = Blockade.WIDTH
STOCK: Final = Blockade.STOCK
F0: Final = Blockade.F0
_CELL: Final = b"\xff"
_COLUMN: Final = b"\xfe"


class BlockadeHooks(Hooks):
    """Key positions by their cells (and, once the stock is out, up to the order of the
    columns); play home at once a card nothing can ever be built on; try the rest in a
    useful order."""

    NAME: ClassVar[str] = "blockade: columns, safe home"
    #: one card home a move; the aces go out by themselves
    HOME_PER_MOVE: ClassVar[int] = 1
    AUTO_HOME: ClassVar[frozenset[int]] = frozenset((1,))

    def key(self, game: Game) -> bytes:
        """The rows dealt, the stock's length and every cell of the rows dealt. Two
        positions with the same key are the same game, up to renaming:

        - the foundations are left out: the cards home are all those not in a cell or the
          stock, and they fix the foundations up to the order of a suit's two, which are
          alike;
        - the stock by its length (see the module's notes);
        - once the stock is out, the columns are sorted: no rule then names a column (no
          refill runs from the left, and availability looks only at the cell below, in
          the same column), so a permutation of the columns maps the moves of one
          position one to one onto the other's. While the stock lasts, gaps are filled
          from the left and the columns stay where they are.
        """
        p = game.p
        rows = game.sc[0]
        end = rows * WIDTH
        stock = len(p[STOCK])
        head = bytes((rows, stock))
        if stock:
            return head + _CELL.join([bytes(pile) for pile in p[:end]])
        columns = sorted(
            _CELL.join([bytes(p[i]) for i in range(c, end, WIDTH)]) for c in range(WIDTH)
        )
        return head + _COLUMN.join(columns)

    def expand(self, game: Game) -> list[Move]:
        """A safe play home alone (see :meth:`safe_home`), else every legal move, best
        first: home; builds that empty a cell (the card above is freed, or a gap opens
        for the stock); other builds; the deal (it cannot be taken back); and, once the
        stock is out, runs into empty cells: whole piles that free the card above them
        first, then the rest, counted parts last."""
        legal = game.legal_moves()
        p = game.p
        home: list[Move] = []
        emptying: list[Move] = []
        builds: list[Move] = []
        deal: list[Move] = []
        freeing: list[Move] = []
        whole: list[Move] = []
        parts: list[Move] = []
        for move in legal:
            kind = move.kind
            if kind == HOME:
                if self.safe_home(game, move.a):
                    return [move]
                home.append(move)
            elif kind == BUILD:
                src, dst = move.a, move.b
                source = p[src]
                if p[dst]:
                    # a pile is one run: the part that fits is the whole pile when its
                    # bottom card is one rank below the target's top
                    if source[0] + 1 == p[dst][-1]:
                        emptying.append(move)
                    else:
                        builds.append(move)
                elif src >= WIDTH and p[src - WIDTH]:
                    freeing.append(move)
                else:
                    whole.append(move)
            elif kind == DEAL:
                deal.append(move)
            else:
                parts.append(move)
        return home + emptying + builds + deal + freeing + whole + parts

    @staticmethod
    def safe_home(game: Game, cell: int) -> bool:
        """Whether the top card of ``cell``, free to go home, may be played home without
        trying anything else: it may when both cards one rank below it in its suit are
        home already, and either its pile holds another card or the stock is out.

        Why that is safe. Call the card X. The only cards that could be built on X are
        those two, both home, so X stays on top of its pile until it moves, and it moves
        only home, onto a pile top one rank above it, or (with the stock out) into an
        empty cell, each time alone or on top of a run. Take any line from here; play X
        home first, then the line's moves, each without X: a run that carried X moves one
        card shorter (a counted move one fewer), a move of X alone is left out, X's own
        play home too. Every move stays legal:

        - while the stock lasts the same cells are empty at every step (X's pile keeps a
          card under X, and X cannot go into an empty cell), so the same cards are free,
          the same gaps are refilled with the same cards, and the same aces go out (the
          card under X is the next rank up, never an ace); once the stock is out, a cell
          may be empty where the line had X alone in it, which only frees more cards
          (and sends out free aces a little sooner);
        - nothing in the line builds on X, so every pile it builds on has the same top;
        - the other card of X's rank and suit still finds a foundation one rank below it
          (both stand at X's rank less one or more, and only X is up to its rank), and
          one card more at home only lets the next rank follow sooner.

        So the shortened line ends with every card home, when the line did: won.
        While the stock lasts, a pile of X alone is left alone: taking X home would open
        a gap, and a gap changes where the next card of the stock goes.
        """
        p = game.p
        pile = p[cell]
        card = pile[-1]
        if len(pile) < 2 and p[STOCK]:
            return False
        need = RANK[card] - 1
        first = F0 + 2 * SUIT[card]
        return len(p[first]) >= need and len(p[first + 1]) >= need


HOOKS = BlockadeHooks()
