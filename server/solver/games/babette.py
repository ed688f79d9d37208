"""Babette's knowledge for the search: the garden's (:mod:`.garden`), with the redeal.

Babette never refills a gap: ``deal`` always lays a new row below the last, whatever the
garden holds, so a card gone home earlier changes no deal. What it can change is the
``redeal``: the garden is gathered in an order that depends on which cards are left, and
the redeal is legal only when no available card can go home.
"""

from __future__ import annotations

from server.engine.games.grid import GridGame

from .garden import GardenHooks


class BabetteHooks(GardenHooks):
    NAME = "babette"

    def commutes(self, game: GridGame, cell: int) -> bool:
        """True with no redeal left (deals never depend on the gaps). Otherwise only if
        the card stays available until it goes home: the cell below it is dealt (and so
        empty, since the card is available; a gap is never filled), or it is in the lowest
        row and the stock is too short to lay a card under it. Then, while the card waits
        to go home, it can go home, and the redeal (legal only when nothing can) cannot
        come first and gather it."""
        if not game.sc[1]:
            return True
        w = game.WIDTH
        below = cell + w
        return below < game.sc[0] * w or len(game.p[game.STOCK]) <= cell % w


HOOKS = BabetteHooks()
