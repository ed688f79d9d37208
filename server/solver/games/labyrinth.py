"""The Labyrinth's knowledge for the search: the garden's (:mod:`.garden`), with the
grace, under rules version 2 (``deal`` only when no available card can go home).

**Plays home commute.** Under version 2 a card ``X`` that is available and fits a
foundation ``P`` now cannot be dealt over: while it stays there and ``P`` still wants its
rank, something can go home, so neither ``deal`` nor the grace (legal only when nothing
can be played) is legal. Only a deal fills a cell, so ``X`` stays available until a deal.
Hence every line from here plays home only, until ``X`` or another copy of its rank has
gone on ``P`` (or ``X`` gone elsewhere): no deal or grace a line makes before ``X`` goes
home can differ for ``X`` having gone first, which is what :meth:`GardenHooks.commutes`
asks, and the garden's dominance (cases A, B and C) holds with ``commutes`` always true.
(Under version 1 a deal could come first and refill ``X``'s cell or cover it, so
``commutes`` had to ask where ``X`` lay.)

**Dead positions.** :func:`.labyrinth_dead.lost` proves a position lost by a looser game
that clears every card a real line could; the search then tries no move from it (an
empty list: the position is a leaf with no win below it, which is what it is). Any
position may be asked (a ``lost`` anywhere is a proof); where it is asked is a matter of
cost. A position the looser game cannot win has no successor it can win (a real move is
one of the looser game's, and taking it only narrows what is left), so it is asked where
a stage ends (``deal`` the only move: nothing can go home), which cuts off the whole
future below, and wherever the search would branch (more than one move: the grace's many
choices, the copies'), never on a line of single moves; and only late in a deal
(``DEAD_BELOW``).
"""

from __future__ import annotations

from typing import cast

from server.engine import Game, Move
from server.engine.games.grid import GridGame
from server.engine.games.labyrinth import Labyrinth

from ..hooks import Hooks
from .garden import GardenHooks, stock_free_key
from .labyrinth_dead import lost

#: the dead test is asked only with fewer cards than this left to deal: with more, the
#: looser game's free stock cards clear nearly everything (over 17 of the slowest deals of
#: 1,000 it never fired with 30 or more left), and a hint's search, mostly early in a
#: game, should not pay for it
DEAD_BELOW = 30


class LabyrinthHooks(GardenHooks):
    NAME = "labyrinth"
    #: depth first alone: with the dead test it backs out of a lost branch at once, and
    #: the beam's passes only took time from the proofs of lost deals (seeds 0 to 199:
    #: the same verdicts, 24 s against 44 s in all)
    SEARCH = "depth"

    def commutes(self, game: GridGame, cell: int) -> bool:
        """Always (the module docstring: under version 2 nothing is dealt, and the grace
        is not taken, while an available card fits a foundation)."""
        return True

    def _grace_card(self, game: GridGame) -> int | None:
        grace = game.p[-1]
        return grace[-1] if grace else None

    #: whether :meth:`expand` offers nothing from a position proved lost (the search for
    #: a win); not so for :meth:`most_home`'s (the most cards home in a lost game)
    PRUNE_LOST = True

    def expand(self, game: Game) -> list[Move]:
        """The garden's moves, none from a position proved lost."""
        moves = super().expand(game)
        if not self.PRUNE_LOST:
            return moves
        lab = cast(Labyrinth, game)
        ask = len(moves) > 1 or (len(moves) == 1 and moves[0] is lab.DEAL_MOVE)
        if ask and len(lab.p[lab.STOCK]) < DEAD_BELOW and lost(lab):
            return []
        return moves

    def most_home(self) -> Hooks:
        """The same hooks, with every move offered from a position proved lost too: at
        the grace of a lost game, the card that takes the most home is still worth
        finding (the first legal one had been hinted, freeing nothing)."""
        return MOST_HOME

    def key(self, game: Game) -> bytes:
        return stock_free_key(game)


class _MostHome(LabyrinthHooks):
    PRUNE_LOST = False


HOOKS = LabyrinthHooks()
MOST_HOME = _MostHome()
