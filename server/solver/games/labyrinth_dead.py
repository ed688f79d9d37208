"""Whether a Labyrinth position can still be won at all: a test that proves positions
lost, so that the search need not walk everything below them.

**The relaxation.** Play a looser game from the position, in which

- every card still in the stock, and the grace card if one is held, is available (the
  real game deals a stock card into a cell, where it may be blocked);
- a card in a cell is available when it is in the top row or the lowest row dealt, or a
  cell directly above or below it is empty or has been cleared in the looser game (the
  real game may refill a lowest-row gap by a deal, and lays new rows under the lowest);
- a card may be *cleared* when it is available and fits a foundation as the looser game
  counts them (below); nothing waits (no deal, no "nothing can go home" before a deal or
  the grace);
- with the grace unused, one card ``G`` of the garden, chosen freely, is taken out at
  the start: its cell is empty, and ``G`` waits, available, until it fits (the real
  grace takes any card out of its cell once, only when nothing can be played, and it
  goes home when it fits).

The foundations: in the real game each copy of a rank goes on one pile of its suit, the
ascending one (from the ace) or the descending one (from the king). The looser game
counts, for each suit and rank, the copies home now or cleared, and lets the ascending
pile pass a rank ``k`` when at least one copy is counted, or two when the descending pile
held ``k`` already at the start (that copy is taken); the descending pile likewise. A
card of rank ``r`` fits when the ascending pile can pass every rank from the ace to
``r - 1`` and held no ``r`` at the start (so never an ace: the first ace starts that
pile), or the descending one every rank from the king to ``r + 1`` and held no ``r`` at
the start (never a king).

Every real line from the position is a line of the looser game: each real move clears a
card the looser game may clear then (what is available, and the copies counted, only
grow in the looser game, and never fall behind the real one; a real pile at ``r - 1``
has one copy of each rank below on it and, of the ranks the other pile held at the
start, that one too), and the real grace card is some ``G``. So if for no choice of
``G`` the looser game clears every card, no real line does: the position is **lost**.

The looser game needs no search: what it may clear only grows as it clears (clearing
blocks nothing and takes back no copy), so clearing whatever may be cleared, in any
order, until nothing more may, reaches the one largest set (the least fixed point). A
``G`` that the looser game clears without the grace changes nothing (that set is a fixed
point with ``G`` taken out at the start too), so only the cards it leaves are tried as ``G``, each
from where the run without it stopped.
"""

from __future__ import annotations

from server.engine.cards import RANK, SUIT
from server.engine.games.labyrinth import Labyrinth


class _Piles:
    """The looser game's foundations: per suit, the copies of each rank counted, and how
    far each pile can come with them."""

    __slots__ = ("copies", "down0", "reach_down", "reach_up", "up0")

    def __init__(self, ups: list[int], downs: list[int]) -> None:
        #: the highest rank on the ascending pile, the lowest on the descending, at the start
        self.up0 = ups
        self.down0 = [14 - d for d in downs]
        self.copies = [
            [int(r <= ups[s]) + int(r >= 14 - downs[s]) for r in range(14)] for s in range(4)
        ]
        self.reach_up = [0] * 4
        self.reach_down = [0] * 4
        for s in range(4):
            self._reach(s)

    def copy(self) -> _Piles:
        other = _Piles.__new__(_Piles)
        other.up0 = self.up0
        other.down0 = self.down0
        other.copies = [list(c) for c in self.copies]
        other.reach_up = list(self.reach_up)
        other.reach_down = list(self.reach_down)
        return other

    def _reach(self, s: int) -> None:
        c = self.copies[s]
        up0, down0 = self.up0[s], self.down0[s]
        h = 1
        while h < 12 and c[h + 1] >= 1 + (h + 1 >= down0):
            h += 1
        self.reach_up[s] = h
        h = 13
        while h > 2 and c[h - 1] >= 1 + (h - 1 <= up0):
            h -= 1
        self.reach_down[s] = h

    def fits(self, card: int) -> bool:
        s, r = SUIT[card], RANK[card]
        return (r > self.up0[s] and self.reach_up[s] >= r - 1) or (
            r < self.down0[s] and self.reach_down[s] <= r + 1
        )

    def count(self, card: int) -> None:
        s = SUIT[card]
        self.copies[s][RANK[card]] += 1
        self._reach(s)


def _clear(
    cells: list[int],
    w: int,
    lowest: int,
    cleared: list[bool],
    loose: list[int],
    piles: _Piles,
) -> None:
    """Clear in place all the looser game may: ``cells`` the dealt garden (a card or -1),
    ``cleared`` per cell, ``loose`` the always available cards (left with those not
    cleared)."""
    end = len(cells)
    changed = True
    while changed:
        changed = False
        if loose:
            rest = []
            for card in loose:
                if piles.fits(card):
                    piles.count(card)
                    changed = True
                else:
                    rest.append(card)
            loose[:] = rest
        for i in range(end):
            card = cells[i]
            if card < 0 or cleared[i]:
                continue
            if not (
                i < w
                or i >= lowest
                or cells[i - w] < 0
                or cleared[i - w]
                or cells[i + w] < 0
                or cleared[i + w]
            ):
                continue
            if piles.fits(card):
                cleared[i] = True
                piles.count(card)
                changed = True


def lost(game: Labyrinth) -> bool:
    """True when the position is proved lost (the module docstring): for no grace card
    does the looser game clear every card. False says nothing."""
    p = game.p
    w = game.WIDTH
    end = game.sc[0] * w
    cells = [pile[-1] if pile else -1 for pile in p[:end]]
    loose = list(p[game.STOCK]) + list(p[game.GRACE])
    f0 = game.F0
    piles = _Piles([len(p[f0 + s]) for s in range(4)], [len(p[f0 + 4 + s]) for s in range(4)])
    cleared = [False] * end
    _clear(cells, w, end - w, cleared, loose, piles)
    left = [i for i in range(end) if cells[i] >= 0 and not cleared[i]]
    if not left and not loose:
        return False
    if game.sc[1]:
        return True
    for g in left:
        more = list(cleared)
        more[g] = True  # taken out: its cell is empty, the card waits until it fits
        still = [*loose, cells[g]]
        _clear(cells, w, end - w, more, still, piles.copy())
        if not still and all(cells[i] < 0 or more[i] for i in left):
            return False
    return True
