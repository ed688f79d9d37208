"""Nestor (seed 001, Lady Cadogan).

Six rows of eight, dealt so that no column holds two cards of one rank (a card that would
is put at the bottom of the pack and the next one tried). Four cards are left as a
face-down reserve. Pairs of equal rank are removed from the lowest cards of the columns
and the reserve cards already turned up; the next reserve card is turned only when no
pair remains.

Notation: columns ``1``..``8``, turned reserve cards ``r1``..``r4``. ``3+7`` pairs the
lowest cards of columns 3 and 7, ``2+r1`` a column with a reserve card; ``reserve``
turns up the next reserve card.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import ClassVar, Final

from ..cards import CODE, RANK
from ..core import DealFailed, Game, Move, PileSpec

COLUMNS: Final = 8
ROWS: Final = 6
RESERVE_SIZE: Final = 4
PAIR: Final = 0
TURN: Final = 1
RESERVE: Final = COLUMNS
SLOT0: Final = COLUMNS + 1
DISCARD: Final = SLOT0 + RESERVE_SIZE
AVAILABLE = (*range(COLUMNS), *range(SLOT0, SLOT0 + RESERVE_SIZE))


class Nestor(Game):
    id = "nestor"
    name = "Nestor"
    summary = "Pair off cards of equal rank from six rows of eight; a reserve of four, face down."
    PILES = (
        *(PileSpec(str(c + 1), "column", c, 0, "down") for c in range(COLUMNS)),
        PileSpec("reserve", "reserve", COLUMNS + 1, 0, "none", hidden=True),
        *(PileSpec(f"r{k + 1}", "reserve-card", COLUMNS + 1 + k, 2) for k in range(RESERVE_SIZE)),
        PileSpec("x", "discard", COLUMNS + 1, 4, "none", home=True),
    )
    ALIASES: ClassVar[dict[str, str]] = {"r": "reserve", "t": "reserve", "turn": "reserve"}
    NOTATION_HINT = "Moves look like 3+7, 2+r1 or reserve."
    HOME_KINDS = frozenset({PAIR})
    DEAL_KINDS = frozenset({TURN})
    PAIRS: ClassVar[dict[tuple[int, int], Move]]
    TURN_MOVE: ClassVar[Move]

    @classmethod
    def _all_moves(cls) -> Iterable[Move]:
        for n, i in enumerate(AVAILABLE):
            for j in AVAILABLE[n + 1 :]:
                yield Move(f"{cls.PILES[i].label}+{cls.PILES[j].label}", PAIR, i, j)
        yield Move("reserve", TURN)

    @classmethod
    def _interned(cls) -> None:
        cls.PAIRS = {(m.a, m.b): m for m in cls.MOVES.values() if m.kind == PAIR}
        cls.TURN_MOVE = cls.MOVES["reserve"]

    def _normalize(self, text: str) -> str:
        key = super()._normalize(text)
        if "+" in key:
            a, _, b = key.partition("+")
            order = self.LABELS
            if a in order and b in order and order[a] > order[b]:
                key = f"{b}+{a}"
        return key

    def _setup(self, deck: list[int]) -> None:
        """Deck order: the pack from its top. Rows are dealt left to right, top row first;
        a card whose rank is already in its column goes to the bottom of the pack. The four
        cards left, in pack order, are the reserve, turned up first to last."""
        pack = deque(deck)
        cols = self.p
        ranks: list[set[int]] = [set() for _ in range(COLUMNS)]
        for _row in range(ROWS):
            for c in range(COLUMNS):
                tries = 0
                while RANK[pack[0]] in ranks[c]:
                    pack.rotate(-1)
                    tries += 1
                    if tries == len(pack):
                        raise DealFailed(f"no card left can go in column {c + 1}")
                card = pack.popleft()
                ranks[c].add(RANK[card])
                cols[c].append(card)
        self.p[RESERVE].extend(reversed(pack))

    def _generate(self) -> list[Move]:
        p = self.p
        by_rank: dict[int, list[int]] = {}
        for i in AVAILABLE:
            pile = p[i]
            if pile:
                by_rank.setdefault(RANK[pile[-1]], []).append(i)
        out: list[Move] = []
        pairs = self.PAIRS
        for group in by_rank.values():
            if len(group) > 1:
                for n, i in enumerate(group):
                    for j in group[n + 1 :]:
                        out.append(pairs[i, j])
        if out:
            out.sort(key=_pair_order)
        elif p[RESERVE]:
            out.append(self.TURN_MOVE)
        return out

    def _apply(self, move: Move) -> None:
        if move.kind == PAIR:
            self._mv(move.a, DISCARD)
            self._mv(move.b, DISCARD)
        else:
            self._mv(RESERVE, SLOT0 + RESERVE_SIZE - len(self.p[RESERVE]))

    def _why(self, move: Move) -> str:
        p = self.p
        if move.kind == TURN:
            if not p[RESERVE]:
                return "the reserve is used up"
            pair = self._generate()[0]
            return f"a pair is still available ({pair.text}); the reserve waits until none is"
        for i in (move.a, move.b):
            if not p[i]:
                label = self.PILES[i].label
                if i >= SLOT0:
                    return f"{label} has not been turned up, or is paired already"
                return f"column {label} is empty"
        a, b = p[move.a][-1], p[move.b][-1]
        return f"{CODE[a]} and {CODE[b]} are not of equal rank"


def _pair_order(move: Move) -> tuple[int, int]:
    return (move.a, move.b)
