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
order, until nothing more may, reaches the one largest set (the least fixed point). It
is run as a worklist: a card is looked at when it becomes available (a neighbour
cleared) and again when its suit's piles can come further, never in passes over the
whole garden. A
``G`` that the looser game clears without the grace changes nothing (that set is a fixed
point with ``G`` taken out at the start too), so only the cards it leaves are tried as
``G``, each from where the run without it stopped; and of those only one that fits the
piles as they are then, or has a neighbour above or below that does: the first card the
trial clears is ``G`` or a card its emptied cell frees (anything else it could have
cleared, the run without it had), and it must fit, so otherwise the trial clears nothing.
"""

from __future__ import annotations

from server.engine.cards import RANK, SUIT
from server.engine.games.labyrinth import Labyrinth


class _Run:
    """One run of the looser game: the garden's cells (a card or -1) and which are
    cleared, the always available cards, and per suit the copies of each rank counted,
    how far each pile can come with them, and the available cards that do not fit yet."""

    __slots__ = (
        "cells",
        "cleared",
        "copies",
        "down0",
        "gone",
        "loose",
        "lowest",
        "reach_down",
        "reach_up",
        "up0",
        "waiting",
        "width",
    )

    def __init__(self, game: Labyrinth) -> None:
        p = game.p
        w = self.width = game.WIDTH
        end = game.sc[0] * w
        self.lowest = end - w
        self.cells = [pile[-1] if pile else -1 for pile in p[:end]]
        self.cleared = [False] * end
        #: the stock and the grace card: always available, cleared once they fit
        self.loose = [*p[game.STOCK], *p[game.GRACE]]
        self.gone = [False] * len(self.loose)
        f0 = game.F0
        ups = [len(p[f0 + s]) for s in range(4)]
        downs = [len(p[f0 + 4 + s]) for s in range(4)]
        #: the highest rank on the ascending pile, the lowest on the descending, at the start
        self.up0 = ups
        self.down0 = [14 - d for d in downs]
        self.copies = [
            [int(r <= ups[s]) + int(r >= 14 - downs[s]) for r in range(14)] for s in range(4)
        ]
        self.reach_up = [1] * 4
        self.reach_down = [13] * 4
        #: per suit and rank, the available cards (as :meth:`clear` names them) that did
        #: not fit when looked at: looked at again when that rank comes to fit
        self.waiting: list[list[list[int]]] = [[[] for _ in range(14)] for _ in range(4)]
        for s in range(4):
            self._reach(s)

    def copy(self) -> _Run:
        other = _Run.__new__(_Run)
        other.width, other.lowest, other.cells = self.width, self.lowest, self.cells
        other.up0, other.down0 = self.up0, self.down0
        other.cleared = list(self.cleared)
        other.loose = list(self.loose)
        other.gone = list(self.gone)
        other.copies = [list(c) for c in self.copies]
        other.reach_up = list(self.reach_up)
        other.reach_down = list(self.reach_down)
        other.waiting = [[list(x) for x in ws] for ws in self.waiting]
        return other

    def _reach(self, s: int) -> bool:
        """Bring suit ``s``'s reaches up to date (they only grow); whether they grew. The
        ascending pile passes rank ``k`` with one copy counted, two when the descending
        pile held ``k`` at the start; the descending one likewise."""
        c = self.copies[s]
        up0, down0 = self.up0[s], self.down0[s]
        grew = False
        h = self.reach_up[s]
        while h < 12 and c[h + 1] >= 1 + (h + 1 >= down0):
            h += 1
            grew = True
        self.reach_up[s] = h
        h = self.reach_down[s]
        while h > 2 and c[h - 1] >= 1 + (h - 1 <= up0):
            h -= 1
            grew = True
        self.reach_down[s] = h
        return grew

    def fits(self, card: int) -> bool:
        return self._fits(SUIT[card], RANK[card])

    def _fits(self, s: int, r: int) -> bool:
        return (r > self.up0[s] and self.reach_up[s] >= r - 1) or (
            r < self.down0[s] and self.reach_down[s] <= r + 1
        )

    def available(self, i: int) -> bool:
        """Whether the card in cell ``i`` is available in the looser game."""
        w = self.width
        cells, cleared = self.cells, self.cleared
        return (
            i < w
            or i >= self.lowest
            or cells[i - w] < 0
            or cleared[i - w]
            or cells[i + w] < 0
            or cleared[i + w]
        )

    def clear(self, todo: list[int]) -> None:
        """Clear all the looser game may, looking first at ``todo``: cells (0 up) or
        loose cards (``~k`` for ``loose[k]``) that may have become clearable."""
        cells, cleared, loose, gone = self.cells, self.cleared, self.loose, self.gone
        w = self.width
        end = len(cells)
        while todo:
            x = todo.pop()
            if x >= 0:
                if cleared[x]:
                    continue
                card = cells[x]
            else:
                if gone[~x]:
                    continue
                card = loose[~x]
            s, r = SUIT[card], RANK[card]
            if not self._fits(s, r):
                self.waiting[s][r].append(x)
                continue
            if x >= 0:
                cleared[x] = True
                # its neighbours above and below are available now
                if x >= w and cells[x - w] >= 0 and not cleared[x - w]:
                    todo.append(x - w)
                if x + w < end and cells[x + w] >= 0 and not cleared[x + w]:
                    todo.append(x + w)
            else:
                gone[~x] = True
            self.copies[s][r] += 1
            if self._reach(s):
                waiting = self.waiting[s]
                for k in range(1, 14):
                    if waiting[k] and self._fits(s, k):
                        todo += waiting[k]
                        waiting[k] = []

    def done(self) -> bool:
        """Whether every card is cleared."""
        return all(self.gone) and all(
            c < 0 or k for c, k in zip(self.cells, self.cleared, strict=True)
        )


def lost(game: Labyrinth) -> bool:
    """True when the position is proved lost (the module docstring): for no grace card
    does the looser game clear every card. False says nothing."""
    run = _Run(game)
    end = len(run.cells)
    todo = [i for i in range(end) if run.cells[i] >= 0 and run.available(i)]
    todo += [~k for k in range(len(run.loose))]
    run.clear(todo)
    if run.done():
        return False
    if game.sc[1]:
        return True
    cells, w, cleared = run.cells, run.width, run.cleared
    for g in range(end):
        if cells[g] < 0 or cleared[g]:
            continue
        if not run.fits(cells[g]) and not any(
            0 <= i < end and cells[i] >= 0 and not cleared[i] and run.fits(cells[i])
            for i in (g - w, g + w)
        ):
            continue  # the trial could clear nothing first: neither it nor a neighbour fits

        trial = run.copy()
        trial.cleared[g] = True  # taken out: its cell is empty, the card waits until it fits
        trial.loose.append(cells[g])
        trial.gone.append(False)
        todo = [~(len(trial.loose) - 1)]
        todo += [i for i in (g - w, g + w) if 0 <= i < end and cells[i] >= 0]
        trial.clear(todo)
        if trial.done():
            return False
    return True
