"""Light and Shade: a smaller key, one safe play home, an order of moves, and a proof of a
locked position (:mod:`.light_and_shade_dead`).

The game never looks at a card's suit, only at its rank and colour (its ``KEY``): the
Auxiliaries build down in alternate colours, the foundations up in alternate colours
whatever the suit. So the four cards of one rank and colour (two packs, two suits) are
interchangeable everywhere, and each such *class* is wanted by exactly four foundations:
the four started by aces of one colour (a red ace's pile takes the black twos, the red
threes, ...). Call the two sets of four foundations the two *groups*: a class belongs to
one group, and the class a card goes on at home (``ABOVE``) is the class that is built on
it in an Auxiliary (``BELOW`` of the other way round): the same group, one rank down.

What a pile of a group holds is fixed by its height, so a card of rank ``r`` can go home
exactly when fewer cards of its class are home than of the class one rank below it in the
same group (a pile of that group stands at ``r - 1``).
"""

from __future__ import annotations

import time
from typing import ClassVar, Final

from server.engine import Game, Move
from server.engine.cards import RANK
from server.engine.games.light_and_shade import (
    ABOVE,
    AUX,
    FOUNDATIONS,
    KEY,
    RIVALS,
    STOCK,
    TALON,
    TO_FOUNDATION,
    TO_PILE,
)

from ..hooks import Hooks
from ..search import LOST, Outcome
from . import (
    light_and_shade_crowd,
    light_and_shade_dead,
    light_and_shade_fast,
    light_and_shade_order,
)
from .light_and_shade_dead import DEAD_STOCK as DEAD_STOCK
from .light_and_shade_order import ORDER_STOCK as ORDER_STOCK

#: card number -> its class (rank and colour), for ``bytes.translate``; the class of a
#: card is at least 4 (a black two), so 0 can stand for an empty Rival
_CLASS: Final = bytes(KEY[c % 52] if c < 104 else 0 for c in range(256))
_SEP: Final = b"\xff"


class LightAndShadeHooks(Hooks):
    """Key positions by class, up to the order of the Auxiliaries and of the Rivals; play
    home at once a card nothing can ever be built on; try the rest in a useful order."""

    NAME: ClassVar[str] = "light-and-shade: classes, safe home, locks"
    #: depth first never finishes a deal of 88 stages: the beam alone, one score, wide
    #: from the start and four times wider each pass (see :meth:`score`)
    SEARCH: ClassVar[str] = "beam"
    BEAM_WIDTH: ClassVar[int] = 64
    BEAM_GROWTH: ClassVar[int] = 4
    BEAM_FIT: ClassVar[bool] = True

    def __init__(self) -> None:
        super().__init__()
        #: :meth:`lost_from_here` by key
        self._from_here: dict[bytes, bool] = {}

    def key(self, game: Game) -> bytes:
        """Two positions with the same key are the same game, up to renaming:

        - cards by class: the rules read only a card's rank and colour, so swapping two
          cards of one class changes no move's legality or effect;
        - the Auxiliaries sorted, and the Rivals: the four of each are alike (every move
          into or out of one exists for the others), so a permutation of them maps the
          moves of one position one to one onto the other's;
        - the stock by its length: it is the deal's own order and loses only its top card,
          so its length says which cards it holds;
        - the foundations left out: the cards home are all those not elsewhere, and with
          them the height of every pile of a group up to order (as many piles stand at
          ``r`` or more as there are cards of rank ``r`` of that group home), and the
          piles of a group are alike as the Auxiliaries are.
        """
        p = game.p
        aux = sorted(bytes(p[j]).translate(_CLASS) for j in AUX)
        rivals = bytes(sorted(KEY[p[i][0]] if p[i] else 0 for i in RIVALS))
        talon = bytes(p[TALON]).translate(_CLASS)
        return _SEP.join((*aux, rivals, talon, bytes((len(p[STOCK]),))))

    def expand(self, game: Game) -> list[Move]:
        """A safe play home alone (see :meth:`safe_home`), else every legal move but the
        duplicates of a symmetry, best first: home, Rivals onto Auxiliaries (a Rival
        freed), the talon onto Auxiliaries, a Rival into an empty Auxiliary, the talon's
        top into an empty Rival, and the deal last (it cannot be taken back)."""
        legal = game.legal_moves()
        p = game.p
        home: list[Move] = []
        builds: list[Move] = []
        talon: list[Move] = []
        fills: list[Move] = []
        rivals: list[Move] = []
        last: list[Move] = []
        # (class of the card, target) already offered: a second Rival of the same class
        # onto the same Auxiliary, or into a second empty one, is the same position
        offered: set[tuple[int, int]] = set()
        empty_aux = -1
        rival_filled = False
        for move in legal:
            kind = move.kind
            if kind == TO_FOUNDATION:
                if self.safe_home(game, p[move.a][-1]):
                    return [move]
                home.append(move)
            elif kind == TO_PILE:
                src, dst = move.a, move.b
                if dst in RIVALS:
                    # every empty Rival is alike: fill the first only
                    if not rival_filled:
                        rival_filled = True
                        rivals.append(move)
                    continue
                if src == TALON:
                    talon.append(move)
                    continue
                if not p[dst]:
                    if empty_aux < 0:
                        empty_aux = dst
                    if dst != empty_aux:
                        continue
                seen = (KEY[p[src][-1]], dst)
                if seen in offered:
                    continue
                offered.add(seen)
                (fills if not p[dst] else builds).append(move)
            else:
                last.append(move)
        return home + builds + talon + fills + rivals + last

    def score(self, game: Game) -> float:
        """Cards home, less a third for every card on the talon (a talon card is buried
        under the cards dealt after it, and each of them must find an Auxiliary or a
        Rival before it can be played).

        One score and wide beams: the deals a 10 s solve left unknown were mostly wins
        that need a wide beam (widths 1,024: deals 1, 3, 5 and 7 won, 21 to 56 s each,
        the machine loaded), not losses. Widths 64, 256, 1,024 with this score alone won
        3 of ten such deals in 10 s and all of twenty the old passes won (16, 32, 64, ...
        doubling, taking this score and cards home alone in turn), where the old passes
        won none of the ten again, and starting them at 64 two. Growing the talon's
        weight towards the end, counting rivals taken or empty, and weights of two, four
        and eight to one, did no better."""
        return 3.0 * game.cards_home() - len(game.p[TALON])

    def stage_score(self, game: Game, move: Move) -> float | None:
        """The score after ``deal`` (the only stage move): one card more on the talon, none
        more home. A deal turns the stock's top onto the talon, so the key after it is
        the key before with the talon one card longer and the stock one shorter: two
        positions keyed apart before it stay apart after it."""
        return 3.0 * game.cards_home() - len(game.p[TALON]) - 1

    def dead(self, game: Game) -> bool:
        """Proved lost by :mod:`.light_and_shade_dead` (the waits lock up: some card can
        never go home) or, when that finds nothing, by :mod:`.light_and_shade_crowd` (more
        cards must wait in the Rivals at once than there are Rivals), both asked only with
        at most ``DEAD_STOCK`` cards in the stock, where they find lost positions (earlier
        they seldom do, and the count costs a fixpoint for each card on the talon); then
        by :mod:`.light_and_shade_order` (the same count, with the stock's order and the
        time of each event), with at most ``ORDER_STOCK`` cards in the stock."""
        n = len(game.p[STOCK])
        if n > ORDER_STOCK:
            return False
        if n <= DEAD_STOCK and (
            light_and_shade_dead.dead(game) or light_and_shade_crowd.dead(game)
        ):
            return True
        return light_and_shade_order.dead(game)

    def lower_bound(self, game: Game) -> int:
        """The moves every card still needs, each its own: a card in the stock a deal, a
        move off the talon and one home; on the talon the last two; a Rival's a move
        onto an Auxiliary and one home; an Auxiliary's one home. No move serves two
        cards, so the sum is never more than the moves a win still takes."""
        p = game.p
        stock = len(p[STOCK])
        rivals = sum(1 for i in RIVALS if p[i])
        return 3 * stock + 2 * len(p[TALON]) + 2 * rivals + sum(len(p[j]) for j in AUX)

    def own_beam(
        self, game: Game, width: int, deadline: float | None, max_nodes: int | None
    ) -> Outcome | None:
        """:func:`.light_and_shade_fast.beam`: the generic beam with these hooks, on a compact
        position, about three times faster. Not for a subclass that changes what it
        searches (its key, moves, scores or dead test): the generic beam runs those."""
        cls = type(self)
        if any(getattr(cls, name) is not getattr(LightAndShadeHooks, name) for name in _FAST):
            return None
        started = time.perf_counter()
        if self.lost_from_here(game):
            return Outcome(LOST, [], 0, time.perf_counter() - started)
        return light_and_shade_fast.beam(game, width, deadline, max_nodes)

    def lost_from_here(self, game: Game) -> bool:
        """Whether :func:`.light_and_shade_order.dead_from_here` proves the position the
        search starts from lost (asked once a position: each pass of the beam starts
        from the same one). It reads the whole stock's order, so it can decide a deal
        before a card is dealt: in deals 50 and 60 no card can ever go home."""
        # the key reads the stock by its length alone (enough within one deal): the
        # cache serves every deal, so it takes the stock's classes too
        key = self.key(game) + bytes(game.p[STOCK]).translate(_CLASS)
        known = self._from_here.get(key)
        if known is None:
            known = light_and_shade_order.dead_from_here(game)
            if len(self._from_here) >= 64:
                self._from_here.clear()
            self._from_here[key] = known
        return known

    @staticmethod
    def safe_home(game: Game, card: int) -> bool:
        """Whether ``card``, an Auxiliary's top that can go home, may be played home
        without trying anything else: it is when all four cards of the class it goes on
        (the class one rank below it in its group) are home already.

        Why that is safe: the only cards that could be built on ``card`` are of that class,
        and all of them are home, so ``card`` stays on top of its Auxiliary until it goes
        home (nothing leaves an Auxiliary but for home). Take any winning line that plays
        it home later, or any line at all: play it home first and the rest of the line
        unchanged, less that move. Every move stays legal: nothing else touched that
        Auxiliary while ``card`` was on it, the plays home of the other cards of its class
        still find a pile (a pile of the group stands one rank below them while any of
        the four is out, since all four of the class below are home), and one card more
        at home only lets more cards follow it. So the line still ends won.
        """
        r = RANK[card]
        if r == 2:
            return True  # the class below is the aces, all home from the deal
        below = ABOVE[card]
        p = game.p
        n = 0
        for f in FOUNDATIONS:
            pile = p[f]
            if len(pile) >= r - 1 and KEY[pile[r - 2]] == below:
                n += 1
        return n == 4


#: what :mod:`.light_and_shade_fast` does as the hooks do
_FAST: Final = ("key", "expand", "score", "stage_score", "dead", "is_stage", "safe_home")

HOOKS = LightAndShadeHooks()
