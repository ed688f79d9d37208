"""Positions that were not dealt: read back from what a player sees, or laid out by hand.

:func:`from_view` reads the piles and counters of a :meth:`Game.view
<server.engine.core.Game.view>` back into a position, its face-down cards in an order
given or stand-ins. Hints search such positions, never the game itself, so that they use
nothing a player cannot see (:mod:`server.solver.hints`); the stuck check reads a view
with stand-ins (:mod:`server.solver.stuck`). :func:`from_layout` builds a position from
pile labels and card codes, for tests and analysis.

A game class answers through its class methods ``from_view``, ``unseen_cards`` and
``from_layout``, which call these; a game whose view tells its counters otherwise than
under their own names says how to read them (``_counters_from_view``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from .cards import parse_card
from .deal import sorted_deck

if TYPE_CHECKING:
    from .core import Game

#: the card every face-down card stands in as in :func:`from_view`: a seven, which no game
#: moves by itself (aces and kings go out by themselves in some)
STAND_IN: Final = parse_card("7S")


def from_layout(
    cls: type[Game], piles: dict[str, str], counters: dict[str, int] | None = None
) -> Game:
    """A position built by hand, for tests and analysis: pile label -> card codes from
    the bottom of the pile to its top (hidden piles too: the last code is dealt first).
    Piles not named are empty; nothing checks that every card is present.

    >>> from server.engine.games.doubles import DoublesAndQuits
    >>> g = DoublesAndQuits.from_layout({"1": "9S", "2": "9D"})
    >>> [m.text for m in g.legal_moves()]
    ['1+2']
    """
    game = cls(None, None)
    for label, text in piles.items():
        if label not in cls.LABELS:
            raise ValueError(f"{cls.id} has no pile {label!r}")
        game.p[cls.LABELS[label]] = [parse_card(c) for c in text.split()]
    for name, value in (counters or {}).items():
        game.sc[cls.COUNTERS.index(name)] = value
    return game


def unseen_cards(cls: type[Game], view: Mapping[str, Any]) -> list[int]:
    """The cards a player's view does not show, in card order: those of the game's packs
    on no shown pile, which are the face-down ones (a hidden pile shows only how many it
    holds). ValueError for a view of another game, or one whose face-down count does not
    match the cards missing from it.

    >>> from server.engine.games.nestor import Nestor
    >>> len(unseen_cards(Nestor, Nestor.from_seed(1).view()))
    4
    """
    if view.get("game") != cls.id:
        raise ValueError(f"not a view of {cls.id}: {view.get('game')!r}")
    shown: list[int] = []
    down = 0
    for pile in view["piles"]:
        shown.extend(parse_card(code) for code in pile["cards"])
        down += int(pile["down"])
    unseen = Counter(sorted_deck(cls.packs))
    unseen.subtract(shown)
    if any(n < 0 for n in unseen.values()):
        raise ValueError(f"the view shows cards that are not in {cls.packs} pack(s)")
    cards = sorted(unseen.elements())
    if len(cards) != down:
        raise ValueError(f"the view holds {down} face-down cards, but {len(cards)} are unseen")
    return cards


def from_view(
    cls: type[Game], view: Mapping[str, Any], hidden: Sequence[int] | None = None
) -> Game:
    """The position a player's view shows, for analysis that may use nothing but what the
    player sees: the piles as shown, and the counters the view tells (the game's
    ``_counters_from_view``). Its face-down cards are ``hidden``, an order of
    :func:`unseen_cards` (in pile order, each pile's from its bottom to its top, the top
    dealt first): every order makes a position with the same view, what a player cannot
    tell apart. Without ``hidden`` they are stand-ins (:data:`STAND_IN`), which mean
    nothing: a move that takes one out shows the player a card they have not seen (the
    stuck check stops there). No undo journal: it cannot go back. Raises
    :class:`ValueError` for a view of another game or one it cannot read.

    >>> from server.engine.games.gate import Gate
    >>> game = Gate.from_seed(1)
    >>> seen = from_view(Gate, game.view())
    >>> seen.text() == game.text(), [m.text for m in seen.legal_moves()] == [
    ...     m.text for m in game.legal_moves()]
    (True, True)
    """
    if view.get("game") != cls.id:
        raise ValueError(f"a view of {view.get('game')!r}, not of {cls.id}")
    cards: list[int] = []
    if hidden is not None:
        cards = [int(c) for c in hidden]
        if sorted(cards) != unseen_cards(cls, view):
            raise ValueError("the hidden cards are not the ones the view does not show")
    game = cls(None, None)
    taken = 0
    try:
        for pile in view["piles"]:
            label = pile["label"]
            if label not in cls.LABELS:
                raise ValueError(f"not a view of {cls.id}: {cls.id} has no pile {label!r}")
            down = int(pile["down"])
            if down and cls.LABELS[label] not in cls.HIDDEN:
                raise ValueError(f"pile {label!r} of {cls.id} is never face down")
            if hidden is None:
                under = [STAND_IN] * down
            else:
                under = cards[taken : taken + down]
                taken += down
            under.extend(parse_card(code) for code in pile["cards"])
            game.p[cls.LABELS[label]] = under
        game.sc = cls._counters_from_view(view)
        game.moves = int(view.get("moves", 0))
    except (KeyError, TypeError) as exc:
        raise ValueError(f"not a view of {cls.id}: {exc!r}") from None
    return game
