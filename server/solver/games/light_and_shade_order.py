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
- a card above ``X`` dealt by ``m`` none of whose ``P`` cards is a top by ``m``, with ``E``
  after ``m``, left the talon into a Rival (there was no top for it) and is still there
  (it leaves a Rival only onto such a top or into an empty Auxiliary), and so is a
  Rival's card now that cannot enter an Auxiliary by ``m``: call these *stuck*;
- every other card above ``X`` dealt by ``m``, and every Auxiliary's or Rival's card now,
  that is not home by ``m`` is in an Auxiliary or a Rival at ``m``. Of these, of one
  class, at least as many are not home as have a home time after ``m``, and at least as
  many as exceed the most of that class that can be home by ``m`` (:meth:`Timed.home_by`:
  no more than have a home time by ``m``, and, a foundation taking one card of each rank
  and only on the class below in its group, no more than of the class below, counting
  those home now). An Auxiliary is one run down in alternate colours, so it holds at
  most one card of each rank, all of its bottom card's group, none above its bottom
  card's rank; with ``E`` after ``m`` every pile still has the bottom card it has now.
  So of the cards of one rank and group, at most as many as there are piles of that
  group whose bottom card is of that rank or higher are in the Auxiliaries (with ``E``
  by ``m``, of one rank and group at most as many as piles of that group, the four
  piles split between the two groups in whichever way leaves the fewest over), and the
  rest are in Rivals;
- with ``X`` itself, if no top is open for it by ``m``, the stuck cards and that rest
  need a Rival each at once: more than four, and ``X`` cannot leave at ``m``.

So ``X`` leaves, if ever, at the least ``m`` that passes (its *floor*, a rule of the
fixpoint from then on: every game's leave time of ``X`` is at least it). If none from 0 to
N passes, ``X`` never leaves: it is pinned for good (two pins: a card between them must
leave before the upper one is dealt). The floors and pins found are kept, the times
closed again, and the sweep over ``Q`` repeated (``rounds``); a card whose going home is
then ``INF`` proves the position lost, and so does a class of which fewer can be home by
the end than are not home now (the same bound). Near the end the hooks pin only the talon's
cards, in one sweep (pins on stock cards and more sweeps cost more and there rarely
find more).

How far it reaches: the hooks ask it near the end (13 to 24 cards in the stock, as well
as where the lock proof and the count do), and once at the position a search starts
from, with pins on the stock's cards (:func:`dead_from_here`). From the deal it proves 12
of the first 1,000 deals lost: 37, 44, 50, 60, 242, 427, 931 and 998, none decided
before, and 130, 218, 310 and 746, which the beam proved lost near their end. In 50 and
60 no card can ever go home (all four Auxiliaries start with cards of one group, and the
stock never brings a run down to a two in an order the talon and the Rivals can let
out); in 37, 44 and 242 a card dealt among the first 40 can never leave the talon.
Most lost deals it does not reach: from the deal the earliest times are each reached by
a line of their own; once one Rival can be emptied, every card may use it, the
foundations rise in the best order for each card, and after the last card is dealt time
stands still, so a card left on the talon can always leave "at the end". (The floors
still bound *when*: from deal 6's start no Auxiliary can empty before the 57th card is
dealt, which a beam of width 4,096 meets at about the 58th.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from server.engine import Game
from server.engine.cards import RANK, RED
from server.engine.games.light_and_shade import ABOVE, AUX, BELOW, KEY, RIVALS, STOCK, TALON

from .light_and_shade_dead import home_counts

#: the most cards in the stock for which the hooks ask :func:`dead` (it costs a fixpoint
#: for each card on the talon, about 30 ms a position in all, and seldom fires further up)
ORDER_STOCK: Final = 24
#: never (larger than any time)
INF: Final = 1 << 20
_CLASSES: Final = 28
#: the Rivals
SIDE: Final = 4
#: by class: the class below it in its group (one rank lower, the other colour), and the
#: index ``rank * 2 + group`` of its rank and group
_LOWER: Final = tuple((k // 2 - 1) * 2 + (1 - k % 2) if k >= 4 else 0 for k in range(_CLASSES))
_GROUPED: Final = tuple(
    (k // 2) * 2 + int((k % 2 == 1) != (k // 2 % 2 == 1)) for k in range(_CLASSES)
)


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
        self.by_class, self.home_now = by_class, list(home_now)
        self.first_q, self.talon_len = first_q, talon_len
        self.deals = len(p[STOCK])
        #: the cards of Q, and each one's deal time
        self.q = list(range(first_q, n))
        self.dt = [0] * talon_len + list(range(1, self.deals + 1))
        self.parents = [by_class[BELOW[c]] if RANK[c] < 13 else [] for c in cards]
        #: each card's class, and the class of its P cards (-1: a king, none)
        self.cls = [KEY[c] for c in cards]
        self.rank = [RANK[c] for c in cards]
        #: a card's group (which four foundations take it): 0 the red aces' piles (black
        #: twos, red threes, ...), 1 the black aces'; a pile's cards are all of one group
        self.group = [int(RED[c] != (RANK[c] % 2 == 1)) for c in cards]
        #: while no Auxiliary has emptied, how many piles can hold a card of each rank and
        #: group: those of its group whose bottom card is of that rank or higher
        self.room = [[0] * 14 for _ in range(2)]
        for ids in auxes:
            if ids:
                for r in range(2, RANK[cards[ids[0]]] + 1):
                    self.room[self.group[ids[0]]][r] += 1
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
        leave, enter, home, q, cls = self.leave, self.enter, self.home, self.q, self.cls
        ctop, pcls, room = self.ctop, self.pcls, self.room
        e = self.e
        fixed = [k for ids in self.auxes for k in ids] + self.rivals
        base = self.talon_len - 1
        start = max(self.floor[qi], self._cond(k, qi, False))
        direct = self._cond(k, qi, True)
        for m in range(start, self.deals + 1):
            worst = 0
            stuck = sum(1 for r in self.rivals if enter[r] > m)
            # the cards out of the talon at m that may be in an Auxiliary, by class
            out = [0] * _CLASSES
            late = [0] * _CLASSES  # of them, those with no home time by m
            for y in fixed:
                if y not in self.rivals or enter[y] <= m:
                    out[cls[y]] += 1
                    late[cls[y]] += home[y] > m
            for j in range(qi + 1, base + m + 1):
                y = q[j]
                if leave[y] > worst:
                    worst = leave[y]
                if e > m and (pcls[y] < 0 or ctop[pcls[y]] > m):
                    stuck += 1
                else:
                    out[cls[y]] += 1
                    late[cls[y]] += home[y] > m
            if worst > m:
                continue
            if direct > m:
                stuck += 1  # X itself goes into a Rival
            # of them, all but those home by m are in an Auxiliary or a Rival: by rank and
            # group (a pile holds at most one card of each rank, all of one group)
            cap = self.home_by(m)
            by_rank = [0] * 28
            for c in range(4, _CLASSES):
                by_rank[_GROUPED[c]] += max(late[c], out[c] - cap[c])
            if e > m:
                # no pile has emptied: each keeps its bottom card's group and rank
                stuck += sum(
                    max(0, by_rank[i] - room[i % 2][i // 2]) for i in range(4, 28) if by_rank[i]
                )
            else:
                # each pile is empty or of one group: n of them of group 0, at most 4 - n
                # of group 1, whatever n is
                stuck += min(
                    sum(
                        max(0, by_rank[2 * r] - n) + max(0, by_rank[2 * r + 1] - SIDE + n)
                        for r in range(2, 14)
                    )
                    for n in range(SIDE + 1)
                )
            if stuck <= SIDE:
                return m
        return INF

    def home_by(self, m: int) -> list[int]:
        """For each class, the most of its cards (those not home now) that can be home by
        time ``m``: no more than have a home time by then, and (a foundation of the group
        takes a card only on one of the class below, one card of each rank a pile) no
        more than of the class below, counting those home now."""
        home, home_now = self.home, self.home_now
        cap = [0] * _CLASSES
        for r in range(2, 14):
            for red in (0, 1):
                c = 2 * r + red
                n = sum(1 for y in self.by_class[c] if home[y] <= m)
                if r > 2:
                    b = _LOWER[c]
                    n = min(n, cap[b] + home_now[b] - home_now[c])
                cap[c] = max(0, n)
        return cap

    def short(self) -> list[int]:
        """The cards of the first class of which fewer can ever go home than are out
        (:meth:`home_by` the end): some of them never go home. Empty if none."""
        cap = self.home_by(INF - 1)
        for c in range(4, _CLASSES):
            if cap[c] < len(self.by_class[c]):
                return [self.cards[y] for y in self.by_class[c]]
        return []

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
        """The cards (card numbers) whose going home is ``INF``; if none, those of a class
        of which too few can go home (:meth:`short`): either way the position is lost."""
        return [c for c, t in zip(self.cards, self.home, strict=True) if t >= INF] or self.short()


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


def dead_from_here(game: Game) -> bool:
    """The proof at its strongest, for a position asked once (the deal): pins on the
    stock's cards as well as the talon's, one sweep (at most 0.2 s from a deal, about
    0.09 s on average). From the deal it proves 12 of the first 1,000 deals lost (37, 44,
    50, 60, 130, 218, 242, 310, 427, 746, 931, 998; in 60 a search of all 7.7 million
    positions agrees that no card can ever go home)."""
    timed = Timed(game.p, home_counts(game))
    timed.pin_all(rounds=1, stock_pins=True)
    return bool(timed.never_home())


def dead(game: Game, *, count: bool = True) -> bool:
    """Whether some card can never go home from here, by the module's proof (so the
    position is lost). Never true of a position that can be won."""
    return bool(never_home(game.p, home_counts(game), count=count))
