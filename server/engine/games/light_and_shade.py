"""Light and Shade (seed 001, Lady Cadogan).

Two packs. The eight aces are taken out first and laid as foundations, which build up to
the king in alternate colours whatever the suit. Four **Auxiliaries** (piles, built down in
alternate colours) stand above four **Rivals** (single cards). Only an Auxiliary's top card
goes to a foundation; a Rival's card or the talon's top is built on an Auxiliary first. A
Rival fills an empty Auxiliary, the talon's top an empty Rival, both by choice. ``deal``
turns one stock card onto the talon while the stock lasts; there is no redeal.

Notation: ``a1``..``a4`` the Auxiliaries, ``r1``..``r4`` the Rivals, ``t`` the talon, ``f``
the foundations. ``r2>a1`` a Rival onto an Auxiliary (a build, or into an empty one),
``t>a3`` the talon's top onto an Auxiliary, ``t>r2`` the talon's top into an empty Rival,
``a1>f`` an Auxiliary's top home, ``deal``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar, Final

from ..cards import CODE, RANK, RANK_NAMES, RED, card_of, takes
from ..core import Game, Move, PileSpec
from ..deal import sorted_deck

TO_FOUNDATION: Final = 0
TO_PILE: Final = 1
DEAL: Final = 2
SIDE: Final = 4
#: pile indexes: Auxiliaries, Rivals, talon, stock, foundations
AUX: Final = tuple(range(SIDE))
RIVALS: Final = tuple(range(SIDE, 2 * SIDE))
TALON: Final = 2 * SIDE
STOCK: Final = TALON + 1
F0: Final = STOCK + 1
FOUNDATIONS: Final = tuple(range(F0, F0 + 2 * SIDE))
#: the aces laid out first, f1 to f8: the red ones, then the black, suits in C D H S order
ACES: Final = tuple(card_of(1, suit) for suit in (1, 1, 2, 2, 0, 0, 3, 3))

# A card's key is its rank and colour in one int. A card goes on an Auxiliary whose top has
# the key BELOW[card], and on a foundation whose top has the key ABOVE[card].
KEY: Final = tuple(RANK[c] * 2 + RED[c] for c in range(52))
BELOW: Final = tuple((RANK[c] + 1) * 2 + (not RED[c]) for c in range(52))
ABOVE: Final = tuple((RANK[c] - 1) * 2 + (not RED[c]) for c in range(52))


def _colour(red: bool) -> str:
    return "red" if red else "black"


class LightAndShade(Game):
    id = "light-and-shade"
    name = "Light and Shade"
    packs = 2
    summary = "Two packs, aces out: Rivals feed four Auxiliaries, which alone play home."
    PILES = (
        *(PileSpec(f"a{k + 1}", "auxiliary", 2 + k, 0, "down") for k in range(SIDE)),
        *(PileSpec(f"r{k + 1}", "rival", 2 + k, 4) for k in range(SIDE)),
        PileSpec("t", "talon", 9, 0),
        PileSpec("s", "stock", 8, 0, hidden=True),
        *(PileSpec(f"f{k + 1}", "foundation", k, 5, home=True) for k in range(2 * SIDE)),
    )
    ALIASES: ClassVar[dict[str, str]] = {"d": "deal"}
    NOTATION_HINT = "Moves look like r2>a1, t>a3, t>r2, a1>f or deal."
    HOME_KINDS = frozenset({TO_FOUNDATION})
    DEAL_KINDS = frozenset({DEAL})

    TO_F: ClassVar[tuple[Move, ...]]
    #: ONTO[j][i - RIVALS[0]]: the move from Rival or talon ``i`` onto Auxiliary ``j``
    ONTO: ClassVar[tuple[tuple[Move, ...], ...]]
    #: FILL[j - RIVALS[0]]: the talon's top into Rival ``j``
    FILL: ClassVar[tuple[Move, ...]]
    DEAL_MOVE: ClassVar[Move]

    @classmethod
    def _all_moves(cls) -> Iterable[Move]:
        label = [s.label for s in cls.PILES]
        places = (*AUX, *RIVALS, TALON)
        for i in places:
            yield Move(f"{label[i]}>f", TO_FOUNDATION, i, -1)
            for j in places:
                if i != j:
                    yield Move(f"{label[i]}>{label[j]}", TO_PILE, i, j)
        yield Move("deal", DEAL)

    @classmethod
    def _interned(cls) -> None:
        label = [s.label for s in cls.PILES]
        cls.TO_F = tuple(cls.MOVES[f"{label[i]}>f"] for i in AUX)
        cls.ONTO = tuple(
            tuple(cls.MOVES[f"{label[i]}>{label[j]}"] for i in (*RIVALS, TALON)) for j in AUX
        )
        cls.FILL = tuple(cls.MOVES[f"t>{label[j]}"] for j in RIVALS)
        cls.DEAL_MOVE = cls.MOVES["deal"]

    # -- deal ----------------------------------------------------------------------------

    @classmethod
    def deck_cards(cls) -> list[int]:
        """The 96 cards of two packs other than the aces, which start on the foundations."""
        return [c for c in sorted_deck(cls.packs) if RANK[c] != 1]

    @classmethod
    def _deck_from_shuffle(cls, shuffled: list[int]) -> list[int]:
        """The aces are taken out of the shuffled packs; the rest keep their order."""
        return [c for c in shuffled if RANK[c] != 1]

    def _setup(self, deck: list[int]) -> None:
        """Deck order (the 96 cards other than the aces): a1 to a4, r1 to r4, then the
        stock, dealt from the front. The aces go to f1..f8 as ``ACES`` lists them."""
        p = self.p
        for f, ace in zip(FOUNDATIONS, ACES, strict=True):
            p[f].append(ace)
        for i, card in zip((*AUX, *RIVALS), deck, strict=False):
            p[i].append(card)
        p[STOCK].extend(reversed(deck[2 * SIDE :]))

    # -- rules ---------------------------------------------------------------------------

    def _generate(self) -> list[Move]:
        p = self.p
        out: list[Move] = []
        home = {KEY[f[-1]] for f in p[F0:] if f}
        to_f = self.TO_F
        for j in AUX:
            a = p[j]
            if a and ABOVE[a[-1]] in home:
                out.append(to_f[j])
        talon = p[TALON]
        top = talon[-1] if talon else -1
        rivals = [(i - SIDE, p[i][-1]) for i in RIVALS if p[i]]
        onto = self.ONTO
        for j in AUX:
            a = p[j]
            moves = onto[j]
            if a:
                want = KEY[a[-1]]
                for k, c in rivals:
                    if BELOW[c] == want:
                        out.append(moves[k])
                if top >= 0 and BELOW[top] == want:
                    out.append(moves[SIDE])
            else:
                for k, _ in rivals:
                    out.append(moves[k])
        if talon and len(rivals) < SIDE:
            fill = self.FILL
            for j in RIVALS:
                if not p[j]:
                    out.append(fill[j - SIDE])
        if p[STOCK]:
            out.append(self.DEAL_MOVE)
        return out

    def _apply(self, move: Move) -> None:
        kind = move.kind
        if kind == TO_PILE:
            self._mv(move.a, move.b)
        elif kind == TO_FOUNDATION:
            p = self.p
            want = ABOVE[p[move.a][-1]]
            for f in FOUNDATIONS:
                pile = p[f]
                if pile and KEY[pile[-1]] == want:
                    self._mv(move.a, f)
                    return
        else:
            self._mv(STOCK, TALON)

    def _why(self, move: Move) -> str:
        p = self.p
        if move.kind == DEAL:
            return "the stock is empty, and there is no redeal"
        src, dst = move.a, move.b
        label = self.PILES[src].label
        if move.kind == TO_FOUNDATION:
            if src not in AUX:
                where = "a Rival's card" if src in RIVALS else "the talon's top"
                return (
                    f"only an Auxiliary's top card goes to a foundation: {where} "
                    "must first pass into an Auxiliary"
                )
            if not p[src]:
                return f"{label} is empty"
            c = p[src][-1]
            return (
                f"{CODE[c]} cannot go home: no foundation has a "
                f"{_colour(not RED[c])} {RANK_NAMES[RANK[c] - 1]} on top"
            )
        if dst == TALON:
            return "only a deal lays a card on the talon"
        if src in AUX:
            if dst in AUX:
                return "nothing moves between Auxiliaries"
            return "nothing moves from an Auxiliary to a Rival"
        if dst in RIVALS:
            if p[dst]:
                return f"nothing builds on a Rival: {self.PILES[dst].label} is taken"
            if src in RIVALS:
                return "an empty Rival is filled from the talon only"
        elif not p[dst] and src == TALON:
            return "the talon never fills an empty Auxiliary: a Rival does"
        if not p[src]:
            return "the talon is empty" if src == TALON else f"{label} is empty"
        # a Rival's card or the talon's top onto an Auxiliary that does not take it
        c, d = p[src][-1], p[dst][-1]
        return (
            f"{CODE[c]} cannot go on {CODE[d]}: Auxiliaries build down in alternate colours "
            f"{takes(d)}"
        )
