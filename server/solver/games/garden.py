"""What the search knows of the garden games without building: Babette, The Labyrinth and
The Blockade in rows of ten (:mod:`server.engine.games.grid`).

In these games a card leaves the garden only for a foundation, so a move is a play home,
a ``deal``, or a game's own (Babette's ``redeal``, The Labyrinth's grace). Taking a card
away never blocks another (a card is freed by an empty cell beside it), so a play home
can only help the plays home after it. What it can change is where a card of its rank
ends up, what a ``deal`` does (with ``REFILL = LOWEST`` a deal fills the lowest row's
gaps), and whether a move that waits for "nothing playable" (the redeal, the grace) is
legal. The one dominance, :meth:`GardenHooks.forced`, plays home a card only when none of
those can matter.

**The dominance.** Let ``X`` of rank ``r`` go on foundation ``P`` now. Call a *taker* a
foundation of ``X``'s suit that can still come to want rank ``r`` (an ascending pile
below ``r``, a descending one above it), and ``P``'s *class* the takers of ``P``'s way at
``P``'s height: the engine puts a card on the first pile of its way that fits, and two
piles of one way and suit at one height are interchangeable (swapping them maps a
position to one with the same moves). ``X`` is played without trying anything else when
its removal *commutes* (:meth:`GardenHooks.commutes`: no deal, redeal or grace that a
line could make before ``X`` goes home would be different for ``X`` having gone) and

- (A) every taker is in ``P``'s class: every winning line puts ``X`` on a pile of the
  class, so it may as well go now; or
- (B) every taker wants ``r`` now, there are as many takers as copies of ``r`` still out
  (a pile takes a rank at most once, so each taker gets one), and every copy still out is
  available and commutes: all of them can go now, ``X`` first; or
- (C) ``X`` is the last copy of ``r`` out, and every taker, once it had ``r``, would want
  a rank none of whose copies is out (or none at all): whichever pile takes ``X`` can
  take nothing after it, and a taker left without ``r`` can take nothing more either
  (two piles each way: The Blockade in rows of ten; with one pile each way the last copy
  is always case A).

Proof: take a winning line ``L`` from here, and in it the move that puts ``X`` (case A),
or each copy of ``r`` (case B), home. Play those first and then ``L`` without them (in
case C, ``L`` may have put ``X`` on another taker; that pile then took nothing more in
``L``, and ``P``, left waiting for ``r``, took nothing either, so no move of ``L`` needs
them, and no other card of ``L`` is of rank ``r`` or of the rank after it). Until
``L`` would have played them, no other card goes on those piles (each wants ``r`` until it
gets it), every play home of ``L`` stays legal (a card gone earlier frees, never blocks),
and ``commutes`` makes every deal, redeal and grace of ``L`` legal with the same effect.
Aces and kings that go out by themselves (The Blockade) may go earlier, which is again
only cards gone earlier from cells above the lowest row. From there the positions agree
(up to interchangeable piles), so the line still wins. Two copies of a card are one card
to the game (they share a number), which is why it does not matter which copy ``L`` used.

**The Labyrinth's rules version 2** (``GridGame.PLAY_BEFORE_DEAL``: a deal is legal only
when no available card can go home) leaves the proof standing, and makes its hardest step
easier. The step that could fail is a deal of ``L`` that is no longer legal once ``X``
has gone early (a card ``X`` freed, or a pile it fed, could then go home). But ``L`` makes
no deal before ``X``, or another copy of its rank, has gone on ``P``: until then ``X`` is
available (only a deal fills a cell) and fits ``P``, so a card can go home and ``deal`` is
not legal; nor is the grace, which waits for nothing playable. So every move of ``L``
before ``X`` goes home is a play home, each still legal after ``X`` has gone, and from
there the positions agree as before. This is why The Labyrinth's ``commutes`` is now
always true (:mod:`.labyrinth`).
"""

from __future__ import annotations

from typing import cast

from server.engine import Game, Move
from server.engine.cards import RANK, SUIT
from server.engine.games.grid import DEAL, HOME, TWO_EACH_WAY, GridGame

from ..bounds import garden_deals
from ..hooks import Hooks

#: separates the parts of a key (no card byte reaches it)
_SEP = b"\xff"


class GardenHooks(Hooks):
    """The garden games' knowledge: forced plays home first, then plays home that free a
    card, then the game's own moves, ``deal`` last."""

    NAME = "garden"
    #: one card home a move (the Blockade in rows of ten sends aces and kings itself)
    HOME_PER_MOVE = 1

    # -- what each game says -------------------------------------------------------------

    def commutes(self, game: GridGame, cell: int) -> bool:
        """Whether taking the card of available ``cell`` home now changes no deal, redeal
        or grace a line could make before playing it. The safe answer is False."""
        return False

    # -- the foundations -----------------------------------------------------------------

    def _piles(self, game: GridGame, suit: int) -> list[tuple[int, int, int]]:
        """The foundations of ``suit``: (pile, way, height), ascending ones first."""
        p = game.p
        f0 = game.F0
        if game.FOUNDATIONS == TWO_EACH_WAY:
            ups: tuple[int, ...] = (f0 + 2 * suit, f0 + 2 * suit + 1)
            downs: tuple[int, ...] = (f0 + 8 + 2 * suit, f0 + 9 + 2 * suit)
        else:
            ups, downs = (f0 + suit,), (f0 + 4 + suit,)
        return [(k, 0, len(p[k])) for k in ups] + [(k, 1, len(p[k])) for k in downs]

    def forced(self, game: GridGame, card: int, way: int, cell: int | None) -> bool:
        """Whether ``card`` (in available ``cell``, or the grace card for None) going home
        ``way`` now is at least as good as any other move: the module docstring's
        dominance, cases (A), (B) and (C)."""
        if cell is not None and not self.commutes(game, cell):
            return False
        r = RANK[card]
        each_way = game.FOUNDATIONS == TWO_EACH_WAY
        # the highest rank an ascending pile takes, and the lowest a descending one takes
        top, bottom = (12, 2) if each_way else (13, 1)
        piles = self._piles(game, SUIT[card])

        def out(rank: int) -> int:
            """The copies of ``rank`` not home yet."""
            return 2 - sum(1 for _, w, h in piles if (h >= rank if w == 0 else h >= 14 - rank))

        takers = [
            (w, h)
            for _, w, h in piles
            if (h <= r - 1 and r <= top if w == 0 else h <= 13 - r and r >= bottom)
        ]
        target = game._home_target(card, way)
        assert target is not None, "a legal play home has a target"
        height = len(game.p[target])
        # (A) every pile that can ever take the rank is this one or one just like it
        if all(w == way and h == height for w, h in takers):
            return True
        copies = out(r)
        if copies == 1:
            # (C) the last copy, and whichever pile takes it can take nothing after it
            after = [r + 1 if w == 0 else r - 1 for w, _ in takers]
            if all(not bottom <= x <= top or not out(x) for x in after):
                return True
        # (B) every taker wants the rank now, one copy each, all of them free to go now
        if len(takers) != copies or any(h != (r - 1 if w == 0 else 13 - r) for w, h in takers):
            return False
        p = game.p
        free = [i for i in game._available() if p[i][-1] == card]
        grace = self._grace_card(game) == card
        return len(free) + grace == copies and all(self.commutes(game, i) for i in free)

    def _grace_card(self, game: GridGame) -> int | None:
        """The card set aside as the grace (The Labyrinth), if any."""
        return None

    # -- par ------------------------------------------------------------------------------

    def lower_bound(self, game: Game) -> int:
        """The plain bound (a move for each card not home that the rules do not send home
        themselves) and a ``deal`` for every row's worth of cards in the stock
        (:func:`server.solver.bounds.garden_deals`): a card leaves the garden's stock only
        by a deal, and no move but a deal takes one out."""
        return super().lower_bound(game) + garden_deals(cast(GridGame, game))

    # -- the search's two questions ------------------------------------------------------

    def expand(self, game: Game) -> list[Move]:
        """A forced play home alone when there is one; else the plays home, those that
        free a blocked card first, then the game's own moves, and ``deal`` last."""
        legal = game.legal_moves()
        grid = cast(GridGame, game)
        p = game.p
        homes: list[tuple[int, Move]] = []
        rest: list[Move] = []
        deal: list[Move] = []
        w = grid.WIDTH
        cells = grid.CELLS
        end = game.sc[0] * w
        for move in legal:
            kind = move.kind
            if kind == HOME:
                i = move.a
                if self.forced(grid, p[i][-1], move.b, i):
                    return [move]
                # the cards it may free: the one above it (and below, The Labyrinth)
                frees = (i >= w and bool(p[i - w])) + (i + w < end and bool(p[i + w]))
                homes.append((-frees, move))
            elif kind == DEAL:
                deal.append(move)
            elif move.a > cells:  # the grace card home (a pile beyond the garden)
                grace = p[move.a][-1]
                if self.forced(grid, grace, move.b, None):
                    return [move]
                homes.append((0, move))
            else:
                rest.append(move)
        homes.sort(key=lambda pair: pair[0])
        return [m for _, m in homes] + rest + deal


def stock_free_key(game: Game, sort_piles: bool = False) -> bytes:
    """A smaller key for a game without a redeal (The Labyrinth, The Blockade in rows of
    ten): the stock by its size alone, since it only ever gives up its top card, so within
    one deal its size says which cards it holds. The cells (a card or none each), the
    foundations by height, any other pile card by card, and the counters.

    ``sort_piles``: with two piles a way per suit (The Blockade in rows of ten), each pair
    of heights is sorted, as the two piles are interchangeable (a move names a way, not a
    pile, and goes on the first pile of that way that fits), so positions that differ only
    by swapping them are one."""
    grid = cast(GridGame, game)
    p = game.p
    cells = grid.CELLS
    f0 = grid.F0
    parts = bytearray(c[0] + 1 if c else 0 for c in p[:cells])
    parts.append(len(p[cells]))
    heights = [len(p[k]) for k in game.HOME]
    if sort_piles:
        heights = [
            h for pair in zip(heights[::2], heights[1::2], strict=True) for h in sorted(pair)
        ]
    parts.extend(heights)
    for k in range(f0 + len(game.HOME), len(p)):
        parts.extend(c + 1 for c in p[k])
        parts.append(0xFF)
    parts.extend(v & 0xFF for v in game.sc)
    return bytes(parts)
