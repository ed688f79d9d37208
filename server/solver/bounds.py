"""Lower bounds on the moves a win still needs, for A* (:mod:`server.solver.shortest`):
the parts of :meth:`server.solver.hooks.Hooks.lower_bound` that know a game's rules.

Each bound counts moves of kinds no other part of the same bound counts (a play home, a
``deal``, a move that takes a card off a pile it cannot go home from), so that the sum
never exceeds the moves of any winning line from the position: its docstring says why.
A bound is only ever too low; a position from which no line wins may get any bound.
``tests/solver/test_shortest.py`` checks each along real winning lines, and every line
A* proves shortest with them against a breadth-first search written in the test.
"""

from __future__ import annotations

from server.engine.cards import RANK, SUIT
from server.engine.games.gate import Gate
from server.engine.games.grid import UPPER, GridGame
from server.engine.games.wedge import STOCK as WEDGE_STOCK
from server.engine.games.wedge import WASTE as WEDGE_WASTE
from server.engine.games.wedge import Wedge


def garden_deals(game: GridGame) -> int:
    """The ``deal`` moves still needed in a garden game whose stock is emptied only by
    ``deal`` (Babette, The Labyrinth, The Blockade in rows of ten; not The Blockade in
    rows of twelve, whose upper gaps refill from the stock at once): every card of the
    stock must be dealt before it can go home, and a deal takes at most a row's width
    of cards (a new row, or the lowest row's gaps). A redeal only adds to the stock.

    >>> from server.engine import new_game
    >>> garden_deals(new_game("babette", seed=1))  # 96 cards, rows of 8
    12
    """
    assert game.REFILL != UPPER, "a stock that refills gaps without a deal"
    stock = len(game.p[game.STOCK])
    return -(-stock // game.WIDTH)


def over_lower(pile: list[int]) -> int:
    """How many cards of ``pile`` lie above (later in the list than) a lower card of
    their own suit. Where a pile gives up only its top card, and a foundation takes a
    suit only upwards, each such card must leave the pile *not* for home (its suit's
    lower card, under it, goes home first and cannot until it has gone) before it can go
    home: a move of its own that no play home is.

    >>> from server.engine.cards import parse_card
    >>> over_lower([parse_card(c) for c in ("3H", "9S", "5H", "2H", "TS")])
    2
    """
    lowest = [14, 14, 14, 14]
    n = 0
    for card in pile:
        c = card % 52
        s = SUIT[c]
        r = RANK[c]
        if lowest[s] < r:
            n += 1
        else:
            lowest[s] = r
    return n


def gate_extra(game: Gate) -> int:
    """The Gate's moves beyond its plays home (both widths), each of a kind no play home
    is and counted once:

    - a card of a post over a lower card of its suit (:func:`over_lower`: a post gives
      up only its lowest card) must first go to a bar, a move from that post of that
      card alone;
    - with the stock not out, a ``deal`` (its cards reach play only so);
    - with the stock out and a card of the waste over a lower card of its suit, a move
      that takes cards off the waste other than home: a build from it, or a ``deal``
      (vacancies are filled from the waste then).

    Moves from a post, from the waste and deals are three disjoint kinds, and none of
    them plays a card home."""
    p = game.p
    extra = over_lower(p[game.LP]) + over_lower(p[game.RP])
    if p[game.STOCK] or over_lower(p[game.WASTE]):
        extra += 1
    return extra


def wedge_extra(game: Wedge) -> int:
    """The Wedge's moves beyond its plays home: a ``deal`` for every card of the stock
    (each deal turns exactly one card onto the waste, and no other move takes one), and
    for every card of the waste over a lower card of its suit (:func:`over_lower`), a
    move that takes it alone off the waste other than home (a build or a fill from the
    waste: no other move takes a card off it). Deals, moves from the waste and plays
    home are disjoint kinds of move; an ace in the stock, which goes home by itself,
    still needs its deal."""
    p = game.p
    return len(p[WEDGE_STOCK]) + over_lower(p[WEDGE_WASTE])
