"""The Blockade in rows of ten: the garden's knowledge (:mod:`.garden`).

``deal`` fills the lowest row's gaps before it lays a new row, so a card of the lowest
row gone home earlier would change what a deal does; a gap above the lowest row is never
filled. There is no redeal and no grace, and nothing waits for "nothing playable".
"""

from __future__ import annotations

from server.engine import Game
from server.engine.games.grid import GridGame

from .garden import GardenHooks, stock_free_key


class BlockadeTenHooks(GardenHooks):
    NAME = "blockade-ten"
    AUTO_HOME = frozenset((1, 13))

    def commutes(self, game: GridGame, cell: int) -> bool:
        """True with the stock out (no deal is left), or for a card above the lowest
        row: no deal ever fills its cell. (The aces and kings that go out by themselves
        may go out earlier for it, from cells above the lowest row too: taking a card
        away frees the cell above it while the stock lasts.)"""
        return not game.p[game.STOCK] or cell < (game.sc[0] - 1) * game.WIDTH

    def key(self, game: Game) -> bytes:
        return stock_free_key(game, sort_piles=True)


HOOKS = BlockadeTenHooks()
