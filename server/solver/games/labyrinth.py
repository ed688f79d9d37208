"""The Labyrinth's knowledge for the search: the garden's (:mod:`.garden`), with the
grace.

``deal`` fills the lowest row's gaps before it lays a new row, so a card of the lowest
row gone home earlier would change what a deal does; a gap above the lowest row is never
filled. The grace is legal only with the stock out and nothing playable.
"""

from __future__ import annotations

from server.engine import Game
from server.engine.games.grid import GridGame

from .garden import GardenHooks, stock_free_key


class LabyrinthHooks(GardenHooks):
    NAME = "labyrinth"

    def commutes(self, game: GridGame, cell: int) -> bool:
        """True with the stock out (no deal is left, and the card stays available and
        playable, so the grace cannot come first). Otherwise the card must be above the
        lowest row (no deal fills its cell) and, while the grace is unused, stay available
        until it goes home, so that the grace cannot come first: it is in the top row, or
        the cell above it is empty (above the lowest row, so never filled), or the cell
        below it is empty and above the lowest row too."""
        p = game.p
        if not p[game.STOCK]:
            return True
        w = game.WIDTH
        lowest = (game.sc[0] - 1) * w
        if cell >= lowest:
            return False
        if game.sc[1] or cell < w or not p[cell - w]:
            return True
        return cell + w < lowest and not p[cell + w]

    def _grace_card(self, game: GridGame) -> int | None:
        grace = game.p[-1]
        return grace[-1] if grace else None

    def key(self, game: Game) -> bytes:
        return stock_free_key(game)


HOOKS = LabyrinthHooks()
