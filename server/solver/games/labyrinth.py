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
empty list: the position is a leaf with no win below it, which is what it is). It is
asked only where the search would branch (more than one move to try): a position the
looser game cannot win has no successor it can win (a real move is one of the looser
game's, and taking it only narrows what is left), so along a line of single moves the
first branching position is proved lost as surely as the first position, and the tests
in between would cost without pruning anything.
"""

from __future__ import annotations

from typing import cast

from server.engine import Game, Move
from server.engine.games.grid import GridGame
from server.engine.games.labyrinth import Labyrinth

from .garden import GardenHooks, stock_free_key
from .labyrinth_dead import lost


class LabyrinthHooks(GardenHooks):
    NAME = "labyrinth"

    def commutes(self, game: GridGame, cell: int) -> bool:
        """Always (the module docstring: under version 2 nothing is dealt, and the grace
        is not taken, while an available card fits a foundation)."""
        return True

    def _grace_card(self, game: GridGame) -> int | None:
        grace = game.p[-1]
        return grace[-1] if grace else None

    def expand(self, game: Game) -> list[Move]:
        """The garden's moves, none from a position proved lost."""
        moves = super().expand(game)
        if len(moves) > 1 and lost(cast(Labyrinth, game)):
            return []
        return moves

    def key(self, game: Game) -> bytes:
        return stock_free_key(game)


HOOKS = LabyrinthHooks()
