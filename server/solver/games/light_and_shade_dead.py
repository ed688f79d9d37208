"""Light and Shade: a proof that a position is lost, from what can still happen at all.

To win, every card must go home, and a card goes home only from the top of an Auxiliary.
:func:`dead` works out, for the position now, which of a few kinds of *event* could still
ever happen, and the position is lost when some card can never go home. The events, per
card not home:

- ``top``: the card is, or comes to be, the top card of an Auxiliary;
- ``enter``: a card not in an Auxiliary now comes into one (it is then its top);
- ``leave``: a card on the talon (or still in the stock) leaves the talon;
- ``home``: the card goes home;

and two about the piles: ``E``, some Auxiliary is empty (now or later), and ``F``, some
Rival is empty (now or later).

Each event has a *precondition*: events that must all have happened before it, in every
game from here, whatever is played (the rules say why, below). The events marked possible
are the least set closed under "every precondition is marked": starting from what is true
now, an event is marked once its precondition is, until nothing changes. Then **every
event that happens in any game from here is marked**: were one not, take the first such
in that game; its precondition happened before it, so is marked, so it would be marked
too. So a card whose ``home`` is not marked never goes home, and the position is lost.

The preconditions, from the rules (``P(X)``: the cards of the class ``X`` builds on, one
rank higher in the other colour; a king has none):

- ``top`` of a card in an Auxiliary: every card above it there goes ``home`` (nothing
  leaves an Auxiliary but for home). Of any other card: it ``enter``\\ s one.
- ``leave`` of a talon card ``X``: every card above it on the talon ``leave``\\ s first,
  and then either a card ``Y`` of ``P(X)`` is a ``top`` (``X`` builds on it) or ``F`` (a
  Rival takes it). ``Y`` is not home (nothing comes back), and not on the talon below
  ``X`` (it cannot leave the talon while ``X`` lies on it).
- ``enter`` of a talon card: it ``leave``\\ s it straight onto a ``top`` of ``P(X)`` as
  above, or by a Rival (``F``) and then onto any ``top`` of ``P(X)`` or into an empty
  Auxiliary (``E``). Of a Rival's card: a ``top`` of ``P(X)``, or ``E``.
- A card in the stock is dealt onto the talon later, above today's talon; cards may leave
  before or after it, so nothing about the talon's order is assumed for it: its
  ``leave`` needs a ``top`` of ``P(X)`` or ``F``, its ``enter`` a ``top`` of ``P(X)``, or
  ``F`` and ``E``.
- ``home`` of ``X`` of rank 3 or more: ``X`` is a ``top``, and a foundation of its group
  stands one rank below it, so more cards of the class below it are home than of its own:
  at least (its class's cards home now) + 1 of the class below are home now or go
  ``home``. A two needs only to be a ``top`` (the aces are home from the deal).
- ``E``: an Auxiliary is empty now, or every card in one goes ``home``. ``F``: a Rival is
  empty now, or the card of one ``enter``\\ s an Auxiliary (nothing else leaves a Rival).

It counts no places: a Rival free once is free for every card that wants one, an
Auxiliary emptied once is empty for all. So it finds the positions where a cycle of
waits locks up (kings on the talon wanting a Rival, whose cards want an empty Auxiliary,
whose cards want a card buried under the kings), not those that run out of room.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from server.engine import Game
from server.engine.cards import RANK
from server.engine.games.light_and_shade import (
    ABOVE,
    AUX,
    BELOW,
    FOUNDATIONS,
    KEY,
    RIVALS,
    STOCK,
    TALON,
)

#: the most cards in the stock for which the hooks ask :func:`dead` (earlier it almost never
#: fires, and it costs half a millisecond)
DEAD_STOCK: Final = 12
#: the classes (``KEY``) run from 2 (the black aces) to 27 (the red kings)
_CLASSES: Final = 28


def dead(game: Game) -> bool:
    """Whether some card not home can never go home from here (so the position is lost).
    Never true of a position that can be won; see the module's docstring for the proof."""
    return bool(never_home(game))


def never_home(game: Game) -> list[int]:
    """The cards (as card numbers) that can never go home from here, by the module's
    reasoning; empty when it finds none (which proves nothing)."""
    return never_home_of(game.p, home_counts(game))


def home_counts(game: Game) -> list[int]:
    """The cards home of each class (``KEY``), the aces left out."""
    home_now = [0] * _CLASSES
    for f in FOUNDATIONS:
        for card in game.p[f][1:]:
            home_now[KEY[card]] += 1
    return home_now


def never_home_of(p: Sequence[Sequence[int]], home_now: Sequence[int]) -> list[int]:
    """:func:`never_home` of the piles ``p`` (the Auxiliaries, Rivals, talon and stock at
    the engine's indexes; the foundations are not read) with ``home_now[k]`` cards of
    class ``k`` home (the aces counted or not: a two needs only to be a top, so the
    count of its class below, the aces', is never used)."""
    events = Events(p, home_now)
    events.close()
    return events.never_home()


class Events:
    """The events of the module's docstring for one position, and :meth:`close`, their
    least fixpoint. Cards are numbered in the order of ``cards``: the Auxiliaries' (each
    bottom first), the Rivals', the talon's (bottom first), the stock's."""

    def __init__(self, p: Sequence[Sequence[int]], home_now: Sequence[int]) -> None:
        cards: list[int] = []
        #: talon depth (0 the bottom) for a talon card, else -1
        depth: list[int] = []
        auxes: list[list[int]] = []
        for j in AUX:
            ids = []
            for card in p[j]:
                ids.append(len(cards))
                cards.append(card)
                depth.append(-1)
            auxes.append(ids)
        rivals: list[int] = []
        for i in RIVALS:
            if p[i]:
                rivals.append(len(cards))
                cards.append(p[i][-1])
                depth.append(-1)
        talon: list[int] = []
        for d, card in enumerate(p[TALON]):
            talon.append(len(cards))
            cards.append(card)
            depth.append(d)
        stock: list[int] = []
        for card in p[STOCK]:
            stock.append(len(cards))
            cards.append(card)
            depth.append(-1)
        by_class: list[list[int]] = [[] for _ in range(_CLASSES)]
        for k, card in enumerate(cards):
            by_class[KEY[card]].append(k)
        self.cards, self.depth, self.auxes = cards, depth, auxes
        self.rivals, self.talon, self.stock = rivals, talon, stock
        self.parents = [by_class[BELOW[card]] if RANK[card] < 13 else [] for card in cards]
        self.below = [by_class[ABOVE[card]] for card in cards]
        self.need = [home_now[KEY[card]] + 1 - home_now[ABOVE[card]] for card in cards]
        self.two = [RANK[card] == 2 for card in cards]
        n = len(cards)
        self.top = [False] * n
        self.enter = [False] * n
        self.leave = [False] * n
        self.home = [False] * n
        #: some Auxiliary empty (now or later), some Rival empty (now or later)
        self.e = False
        self.f = False

    def built(self, k: int, floor: int) -> bool:
        """A card of P(card k) can be a top, none counted that lies on the talon at depth
        ``floor`` or below (-1: none left out)."""
        top, depth = self.top, self.depth
        return any(top[y] and (depth[y] < 0 or depth[y] > floor) for y in self.parents[k])

    def never_home(self) -> list[int]:
        """The cards whose going home :meth:`close` did not mark."""
        return [card for card, home in zip(self.cards, self.home, strict=True) if not home]

    def close(self, pinned: int = -1) -> None:
        """Mark every event whose precondition is marked, until nothing changes, from
        nothing marked. With ``pinned`` (a talon depth), no talon card at that depth or
        below ever leaves: the events marked then are those that can happen before the
        card at ``pinned`` leaves the talon (the same argument: the first event before it
        leaves that is not marked had its precondition met by earlier ones, none of them
        a card at ``pinned`` or below leaving, since none leaves before it)."""
        n = len(self.cards)
        top = self.top = [False] * n
        enter = self.enter = [False] * n
        leave = self.leave = [False] * n
        home = self.home = [False] * n
        auxes, rivals, talon, stock = self.auxes, self.rivals, self.talon, self.stock
        depth, below, need, two = self.depth, self.below, self.need, self.two
        built = self.built
        aux_empty_now = any(not ids for ids in auxes)
        rival_empty_now = len(rivals) < len(RIVALS)
        changed = True
        while changed:
            changed = False
            # tops in the Auxiliaries: the top card, and each card all above which go home
            for ids in auxes:
                ok = True
                for k in reversed(ids):
                    if ok and not top[k]:
                        top[k] = changed = True
                    ok = ok and home[k]
            e = aux_empty_now or any(ids and all(home[k] for k in ids) for ids in auxes)
            f = rival_empty_now or any(enter[k] for k in rivals)

            for k in rivals:
                if not enter[k] and (e or built(k, -1)):
                    enter[k] = top[k] = changed = True
            above_left = True
            for k in reversed(talon):
                if depth[k] <= pinned:
                    break
                if above_left:
                    direct = built(k, depth[k]) if self.parents[k] else False
                    if not leave[k] and (direct or f):
                        leave[k] = changed = True
                    if not enter[k] and (direct or (f and (e or built(k, -1)))):
                        enter[k] = top[k] = changed = True
                above_left = above_left and leave[k]
            for k in stock:
                any_top = built(k, -1)
                if not leave[k] and (any_top or f):
                    leave[k] = changed = True
                if not enter[k] and (any_top or (f and e)):
                    enter[k] = top[k] = changed = True
            for k in range(n):
                if home[k] or not top[k]:
                    continue
                if not two[k]:
                    got = sum(1 for y in below[k] if home[y])
                    if got < need[k]:
                        continue
                home[k] = changed = True
        self.e, self.f = e, f
