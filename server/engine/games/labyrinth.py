"""The Labyrinth (Lady Cadogan; the seed's chapter is cut off, the rest is
``seeds/labyrinth-cadogan.txt``): two packs, rows ten wide.

One ace and one king of each suit are taken out first as foundations, aces ascending,
kings descending. Rows of ten are dealt one at a time. A card is free when it is in the
top row or the lowest row dealt, or has an empty cell directly above or below it. Only
the lowest row's gaps are refilled, by ``deal``, and only once no available card can go
home (rules version 2: the seed has the player deal a row, then "play any suitable
cards"; under version 1 a player could hold plays back and deal over them, which made
nearly every deal winnable). When all is stuck with the stock out, one grace: any one
card of the tableau may be taken out.

Notation: cells ``a1``..``j10``. ``c3>u``, ``c3>d`` play home; ``deal``; ``c3>g`` takes
c3's card as the grace, ``g>u`` / ``g>d`` plays it home.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Final

from ..cards import CODE, RANK, card_of
from ..core import Move, PileSpec
from ..deal import sorted_deck
from .grid import ENDS, HOME, LOWEST, OWN, GridGame

TAKE_GRACE: Final = OWN
GRACE_HOME: Final = OWN + 1


class Labyrinth(GridGame):
    id = "labyrinth"
    rules_version = 2  # corrected 2026-11-25: deal only when nothing can go home
    name = "The Labyrinth"
    summary = "Two packs in rows of ten, free from above or below; one grace when stuck."
    WIDTH = 10
    MAX_ROWS = 10
    FREE = ENDS
    REFILL = LOWEST
    PLAY_BEFORE_DEAL = True
    COUNTERS = ("rows", "grace")
    NOTATION_HINT = "Moves look like c3>u, c3>d, deal, c3>g or g>u (cells: column a-j, row 1-10)."
    HOME_KINDS = frozenset({HOME, GRACE_HOME})
    GRACE: ClassVar[int]
    TAKES: ClassVar[tuple[Move, ...]]
    GRACE_HOMES: ClassVar[tuple[Move, Move]]

    @classmethod
    def _declare_more(cls) -> None:
        cls.GRACE = len(cls.PILES) - 1

    @classmethod
    def _extra_piles(cls) -> Iterable[PileSpec]:
        yield PileSpec("g", "grace", cls.WIDTH + 1, 1)

    @classmethod
    def _own_moves(cls) -> Iterable[Move]:
        for i in range(cls.CELLS):
            yield Move(f"{cls.cell_label(i)}>g", TAKE_GRACE, i)
        yield Move("g>u", GRACE_HOME, cls.GRACE, 0)
        yield Move("g>d", GRACE_HOME, cls.GRACE, 1)

    @classmethod
    def _interned_more(cls) -> None:
        cls.TAKES = tuple(cls.MOVES[f"{cls.cell_label(i)}>g"] for i in range(cls.CELLS))
        cls.GRACE_HOMES = (cls.MOVES["g>u"], cls.MOVES["g>d"])

    @classmethod
    def _foundation_cards(cls) -> list[int]:
        """The cards taken out before the deal: an ace and a king of each suit."""
        return [card_of(rank, s) for rank in (1, 13) for s in range(4)]

    @classmethod
    def deck_cards(cls) -> list[int]:
        deck = sorted_deck(cls.packs)
        for card in cls._foundation_cards():
            deck.remove(card)
        return deck

    @classmethod
    def _deck_from_shuffle(cls, shuffled: list[int]) -> list[int]:
        """The shuffled two packs less the first ace and first king of each suit met."""
        deck = list(shuffled)
        for card in cls._foundation_cards():
            deck.remove(card)
        return deck

    def _setup(self, deck: list[int]) -> None:
        """Deck order (96 cards): the first row a1..j1, then every later card as ``deal``
        takes it: the lowest row's gaps left to right, or a new row left to right."""
        p = self.p
        for card in self._foundation_cards():
            way = 0 if RANK[card] == 1 else 4
            p[self.F0 + way + card // 13].append(card)
        p[self.STOCK].extend(reversed(deck))
        self._lay_row()

    def _generate_own(self, out: list[Move]) -> None:
        p = self.p
        grace = p[self.GRACE]
        if grace:
            for pile in self._homes(grace[-1]):
                out.append(self.GRACE_HOMES[(pile - self.F0) // 4])
        if not out and not p[self.STOCK] and not self.sc[1]:
            takes = self.TAKES
            out.extend(takes[i] for i in range(self.sc[0] * self.WIDTH) if p[i])

    def _apply_own(self, move: Move) -> None:
        if move.kind == TAKE_GRACE:
            self._mv(move.a, self.GRACE)
            self.sc[1] = 1
        else:
            target = self._home_target(self.p[self.GRACE][-1], move.b)
            assert target is not None
            self._mv(self.GRACE, target)

    def _why_deal(self) -> str:
        if self.p[self.STOCK]:
            for i in self._available():
                card = self.p[i][-1]
                if self._homes(card):
                    return (
                        f"suitable cards are played before the next deal: {CODE[card]} at "
                        f"{self.cell_label(i)} can go home"
                    )
        return super()._why_deal()

    def _why_own(self, move: Move) -> str:
        p = self.p
        if move.kind == GRACE_HOME:
            if not p[self.GRACE]:
                if self.sc[1]:
                    return "the grace card has gone home already"
                return "no card has been taken as the grace"
            return self._why_home(p[self.GRACE][-1], move.b)
        if self.sc[1]:
            return "the grace has been used"
        if p[self.STOCK]:
            return "the grace is for when the stock is out and nothing can be played"
        if not p[move.a]:
            label = self.cell_label(move.a)
            dealt = move.a < self.sc[0] * self.WIDTH
            return f"{label} is empty" if dealt else f"{label} is not dealt"
        return "the grace is for when nothing can be played"

    @classmethod
    def _counters_from_view(cls, view: Mapping[str, Any]) -> list[int]:
        return [int(view["rows"]), 1 if view["grace_used"] else 0]

    def _view_extra(self) -> dict[str, Any]:
        return {**super()._view_extra(), "grace_used": bool(self.sc[1])}
