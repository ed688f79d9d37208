"""Light and Shade: a proof that a position is lost which reads the stock's order.

:mod:`.light_and_shade_dead` and :mod:`.light_and_shade_crowd` treat a card still in the
stock as free: it may leave the talon whenever a place is open for it, as if nothing lay on
it. But the stock's order is known, and the talon is a stack: a card dealt after ``Y``
lies on ``Y`` until it leaves, and so does every card dealt after that. This proof keeps
the order, and *when* each event can happen, counted in deals.

**Times.** Number the cards left to deal ``s1, s2, ..., sN`` in the order dealt. The
*time* of an event is the number of cards dealt from here when it happens (0 to N). Line
up the talon (bottom first) and then the stock (``s1`` first) into one sequence ``Q``; a
card's *deal time* is 0 on the talon, ``j`` for ``sj``. At time ``m`` the talon holds some
of the cards of ``Q`` up to ``sm``, in ``Q``'s order, and no card of ``Q`` after ``sm``.

For each event (a card becomes an Auxiliary's top, leaves the talon, enters an
Auxiliary, goes home; some Auxiliary is empty ``E``; some Rival is empty ``F``) the
fixpoint below computes an *earliest time*: a number no larger than the time at which
the event happens in any game from here (``INF`` when it never does). Each rule states a
condition every such event meets; each earliest time starts at ``INF`` and is lowered to
what its rule allows from the others' current values, until nothing changes. Every rule
is monotone, so by induction along any real game (the first event that happened before
its computed earliest time would have had all its conditions met by earlier events, each
no earlier than its own computed time, so its rule would allow its real time) every
event of every game happens no earlier than its computed time, and a card whose going
home is ``INF`` never goes home: the position is lost. The rules (``P(X)``: the cards one
rank higher than ``X`` in the other colour, those ``X`` builds on):

- an Auxiliary's card becomes its top when every card above it has gone home (the
  latest of their times); its top card is a top at 0;
- a Rival's card enters an Auxiliary when some card of ``P(X)`` is a top, or when ``E``;
- a card ``X`` of ``Q`` with deal time ``d`` leaves the talon at a time ``m >= d`` at
  which some card ``Y`` of ``P(X)`` is a top or ``F``; ``Y`` is not a card under ``X`` in
  ``Q`` that was still on the talon when ``X`` was dealt (so such a ``Y`` counts only
  with a leave time at most ``d - 1``); and every card of ``Q`` above ``X`` dealt by time
  ``m`` (the talon above it, ``s(d+1)`` to ``sm``) has left the talon by then (it lay on
  ``X``). The least such ``m`` is found by raising ``m`` to the latest leave time among
  those cards until it stands;
- a card of ``Q`` enters an Auxiliary no earlier than it leaves the talon and no earlier
  than some card of ``P(X)`` is a top or ``E`` (straight onto such a top, or by a Rival
  onto one or into an empty Auxiliary); a card not in an Auxiliary becomes a top when it
  enters one;
- a card goes home when it is a top and (but a two) more cards of the class below it
  are home than of its own: at least ``need`` more of that class than now, so no earlier
  than the ``need``-th earliest of their home times;
- ``E``: 0 when an Auxiliary is empty, else when all of one's cards are home (the
  earliest pile's latest card); ``F``: 0 when a Rival is empty, else when one of the
  Rivals' cards enters an Auxiliary (nothing else empties a Rival).

**Pins, and the count of the Rivals.** To pin a card ``X`` of ``Q`` is to suppose it never
leaves the talon; then every card under it in ``Q`` still on the talon when ``X`` is dealt
never leaves either, so such a card's leave time must be below ``X``'s deal time. The
fixpoint under a pin bounds the events that happen *before* ``X`` leaves (the same
induction, over the events before that moment, none of which is ``X`` or a card under it
leaving after ``X`` was dealt). Now suppose ``X`` leaves at time ``m``. Then, by the pinned
times:

- ``m`` is at least ``X``'s deal time and the earliest time a place is open for it;
- every card of ``Q`` above ``X`` dealt by ``m`` has left the talon by ``m``;
- a card above ``X`` dealt by ``m`` none of whose ``P`` cards is a top by ``m`` and with
  ``E`` after ``m`` left the talon into a Rival (there was no top for it) and is still
  there (it can leave a Rival only onto such a top or into an empty Auxiliary), and so
  is a Rival's card now that cannot enter an Auxiliary by ``m``; with ``X`` itself, if no
  top is open for it by ``m``, they all need a Rival at once: more than four, and ``X``
  cannot leave at ``m``.

If every ``m`` from 0 to N fails, ``X`` never leaves: it is pinned for good, and the
search goes on for another card above it, in the world with it pinned (two pins: a card
between them must leave before the upper one is dealt). When none is found, a card whose
going home is ``INF`` proves the position lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from server.engine import Game
from server.engine.cards import RANK
from server.engine.games.light_and_shade import ABOVE, AUX, BELOW, KEY, RIVALS, STOCK, TALON

from .light_and_shade_dead import home_counts

#: the most cards in the stock for which the hooks ask :func:`dead` (it costs a fixpoint
#: for each card on the talon, about 1 to 10 ms each, and fires seldom further up)
ORDER_STOCK: Final = 24
#: never (larger than any time)
INF: Final = 1 << 20
_CLASSES: Final = 28
#: the Rivals
SIDE: Final = 4


class Timed:
    """The events of the module's docstring for one position, their earliest times
    (:meth:`close`), and the search for pins (:meth:`pin_all`). Cards are numbered in the
    order: the Auxiliaries' (bottom first), the Rivals', then ``Q`` (the talon bottom
    first, then the stock in the order dealt)."""

    def __init__(self, p: Sequence[Sequence[int]], home_now: Sequence[int]) -> None:
        cards: list[int] = []
        auxes: list[list[int]] = []
        for j in AUX:
            auxes.append(list(range(len(cards), len(cards) + len(p[j]))))
            cards.extend(p[j])
        rivals: list[int] = []
        for i in RIVALS:
            if p[i]:
                rivals.append(len(cards))
                cards.append(p[i][-1])
        first_q = len(cards)
        cards.extend(p[TALON])
        talon_len = len(p[TALON])
        cards.extend(reversed(p[STOCK]))  # the engine keeps the stock's top last
        n = len(cards)
        by_class: list[list[int]] = [[] for _ in range(_CLASSES)]
        for k, card in enumerate(cards):
            by_class[KEY[card]].append(k)
        self.cards, self.auxes, self.rivals = cards, auxes, rivals
        self.first_q, self.talon_len = first_q, talon_len
        self.deals = len(p[STOCK])
        #: the cards of Q, and each one's deal time
        self.q = list(range(first_q, n))
        self.dt = [0] * talon_len + list(range(1, self.deals + 1))
        self.parents = [by_class[BELOW[c]] if RANK[c] < 13 else [] for c in cards]
        #: each card's class, and the class of its P cards (-1: a king, none)
        self.cls = [KEY[c] for c in cards]
        self.pcls = [BELOW[c] if RANK[c] < 13 else -1 for c in cards]
        self.lower = [by_class[ABOVE[c]] for c in cards]
        self.need = [home_now[KEY[c]] + 1 - home_now[ABOVE[c]] for c in cards]
        self.two = [RANK[c] == 2 for c in cards]
        #: per card of Q: the last time it may leave (pins); -1 never
        self.deadline = [INF] * len(self.q)
        #: per card of Q: the first time it may leave (raised by the count)
        self.floor = list(self.dt)
        self.top = [INF] * n
        self.enter = [INF] * n
        self.leave = [INF] * n
        self.home = [INF] * n
        self.e = INF
        self.f = INF
        #: the earliest top of any card of each class
        self.ctop = [INF] * _CLASSES

    # -- the fixpoint --------------------------------------------------------------------

    def _cond(self, k: int, qi: int, direct_only: bool) -> int:
        """The earliest time a place is open for card ``k`` (``Q`` index ``qi``) leaving
        the talon: a top of ``P(k)`` not under it when it was dealt, or (unless
        ``direct_only``) ``F``."""
        best = INF if direct_only else self.f
        pc = self.pcls[k]
        if pc < 0 or self.ctop[pc] >= best:
            return best
        top, leave, first_q, d = self.top, self.leave, self.first_q, self.dt[qi]
        for y in self.parents[k]:
            t = top[y]
            if t >= best:
                continue
            if y >= first_q and y - first_q < qi and leave[y] > d - 1:
                continue  # on the talon under k when k was dealt
            best = t
        return best

    def _leave_time(self, qi: int) -> int:
        """The least time ``m`` at which the ``Q`` card ``qi`` may leave the talon."""
        k = self.q[qi]
        last = min(self.deals, self.deadline[qi])
        m = max(self.floor[qi], self._cond(k, qi, False))
        if m > last:
            return INF
        leave, q, base = self.leave, self.q, self.talon_len - 1
        # the cards above it dealt by time m: Q indexes qi+1 .. base+m
        hi = qi
        while True:
            upto = base + m
            worst = 0
            for j in range(hi + 1, upto + 1):
                t = leave[q[j]]
                if t > worst:
                    worst = t
            hi = max(hi, upto)
            if worst <= m:
                return m
            m = max(m, worst)
            if m > last:
                return INF

    def close(self) -> None:
        """The earliest times, from ``INF`` down to the fixpoint (the deadlines kept)."""
        n = len(self.cards)
        top = self.top = [INF] * n
        enter = self.enter = [INF] * n
        leave = self.leave = [INF] * n
        home = self.home = [INF] * n
        ctop = self.ctop = [INF] * _CLASSES
        self.e = self.f = INF
        auxes, rivals, lower = self.auxes, self.rivals, self.lower
        need, two, q, cls, pcls = self.need, self.two, self.q, self.cls, self.pcls
        aux_empty = any(not ids for ids in auxes)
        rival_empty = len(rivals) < SIDE
        leave_time = self._leave_time
        changed = True
        while changed:
            changed = False
            for ids in auxes:
                t = 0
                for k in reversed(ids):
                    if t < top[k]:
                        top[k] = t
                        if t < ctop[cls[k]]:
                            ctop[cls[k]] = t
                        changed = True
                    if home[k] > t:
                        t = home[k]
            e = 0 if aux_empty else min(max(home[k] for k in ids) for ids in auxes)
            f = 0 if rival_empty else min((enter[k] for k in rivals), default=INF)
            if e < self.e or f < self.f:
                self.e, self.f = min(e, self.e), min(f, self.f)
                changed = True
            e = self.e
            for k in rivals:
                t = min(e, ctop[pcls[k]]) if pcls[k] >= 0 else e
                if t < enter[k]:
                    enter[k] = top[k] = t
                    if t < ctop[cls[k]]:
                        ctop[cls[k]] = t
                    changed = True
            for qi in range(len(q) - 1, -1, -1):
                k = q[qi]
                t = leave_time(qi)
                if t < leave[k]:
                    leave[k] = t
                    changed = True
                if t >= INF:
                    continue
                t = max(leave[k], min(e, ctop[pcls[k]]) if pcls[k] >= 0 else e)
                if t < enter[k]:
                    enter[k] = top[k] = t
                    if t < ctop[cls[k]]:
                        ctop[cls[k]] = t
                    changed = True
            for k in range(n):
                t = top[k]
                if t >= home[k]:
                    continue
                if not two[k] and need[k] > 0:
                    low = lower[k]
                    if need[k] > len(low):
                        continue
                    t = max(t, sorted(home[y] for y in low)[need[k] - 1])
                if t < home[k]:
                    home[k] = t
                    changed = True

    # -- pins ----------------------------------------------------------------------------

    def _pin(self, qi: int, base: Sequence[int]) -> None:
        """Deadlines for the ``Q`` card ``qi`` pinned, over the deadlines ``base``: it
        never leaves, and a card under it must leave before it is dealt."""
        limit = self.dt[qi] - 1
        self.deadline = [min(b, limit) if j < qi else b for j, b in enumerate(base)]
        self.deadline[qi] = -1

    def _least(self, qi: int) -> int:
        """With ``qi`` pinned and the times closed: the least time at which it can leave
        by the count, ``INF`` if none."""
        k = self.q[qi]
        top, leave, enter, parents, q = self.top, self.leave, self.enter, self.parents, self.q
        e = self.e
        rivals = [enter[r] for r in self.rivals]
        base = self.talon_len - 1
        start = max(self.floor[qi], self._cond(k, qi, False))
        direct = self._cond(k, qi, True)
        for m in range(start, self.deals + 1):
            worst = 0
            stuck = sum(1 for t in rivals if t > m)
            for j in range(qi + 1, base + m + 1):
                y = q[j]
                worst = max(worst, leave[y])
                if e > m and min((top[z] for z in parents[y]), default=INF) > m:
                    stuck += 1
            if worst > m:
                continue
            if direct > m:
                stuck += 1  # X itself goes into a Rival
            if stuck <= SIDE:
                return m
        return INF

    def pin_all(self, rounds: int = 8, stock_pins: bool = True) -> None:
        """Raise each card's first leave time to what the count allows, pinning for good
        the cards that can never leave, until nothing changes (or ``rounds`` sweeps), and
        leave the times closed under what was found."""
        for _ in range(rounds):
            fixed, floors = list(self.deadline), list(self.floor)
            self.deadline = fixed
            self.close()
            leave = self.leave
            raised = False
            first = len(self.q) if stock_pins else self.talon_len
            for qi in range(first - 1, -1, -1):
                if fixed[qi] < 0 or leave[self.q[qi]] >= INF:
                    continue  # never leaves already: pinning it changes nothing
                self._pin(qi, fixed)
                self.close()
                m = self._least(qi)
                self.deadline = fixed
                if m >= INF:
                    self._pin(qi, fixed)
                    fixed = self.deadline
                    raised = True
                    # the world with it pinned: which cards never leave now
                    self.close()
                    leave = self.leave
                elif m > floors[qi]:
                    floors[qi] = m
                    self.floor = floors
                    raised = True
            self.deadline, self.floor = fixed, floors
            self.close()
            if not raised:
                return

    def never_home(self) -> list[int]:
        """The cards (card numbers) whose going home is ``INF``."""
        return [c for c, t in zip(self.cards, self.home, strict=True) if t >= INF]


def never_home(
    p: Sequence[Sequence[int]], home_now: Sequence[int], *, count: bool = True
) -> list[int]:
    """The cards that can never go home by the times (and, with ``count``, the pins of
    the count of the Rivals); the piles as :func:`.light_and_shade_dead.never_home_of`
    reads them."""
    timed = Timed(p, home_now)
    if count:
        timed.pin_all(rounds=1, stock_pins=False)
    else:
        timed.close()
    return timed.never_home()


def dead(game: Game, *, count: bool = True) -> bool:
    """Whether some card can never go home from here, by the module's proof (so the
    position is lost). Never true of a position that can be won."""
    return bool(never_home(game.p, home_counts(game), count=count))
