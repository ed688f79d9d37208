"""Cards and their two-character codes.

A card is an ``int`` from 0 to 51: ``suit * 13 + rank - 1``, with suits in the order
clubs, diamonds, hearts, spades and ranks ace (1) to king (13). The engine keeps plain
ints in its piles; :class:`Card` is the same number with a name, for the public surface.

>>> str(Card.parse("TH"))
'TH'
>>> Card.parse("ah").rank, Card.parse("KS").suit
(1, 3)
>>> int(Card.parse("2C"))
1
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

_T = TypeVar("_T")

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # pure Python: the decorator only speaks to the compiler

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Callable[[_T], _T]:
        return lambda cls: cls


SUITS: Final = "CDHS"
RANKS: Final = "A23456789TJQK"
SUIT_NAMES: Final = ("clubs", "diamonds", "hearts", "spades")
RANK_NAMES: Final = (
    "",
    "ace",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "10",
    "knave",
    "queen",
    "king",
)

#: rank (1..13) of each card number
RANK: Final[tuple[int, ...]] = tuple(c % 13 + 1 for c in range(52))
#: suit index (0..3, in ``SUITS`` order) of each card number
SUIT: Final[tuple[int, ...]] = tuple(c // 13 for c in range(52))
#: True for diamonds and hearts
RED: Final[tuple[bool, ...]] = tuple(SUIT[c] in (1, 2) for c in range(52))
#: the two-character code of each card number
CODE: Final[tuple[str, ...]] = tuple(RANKS[RANK[c] - 1] + SUITS[SUIT[c]] for c in range(52))
_BY_CODE: Final[dict[str, int]] = {code: c for c, code in enumerate(CODE)}
_BY_CODE.update({"10" + SUITS[c // 13]: c for c in range(52) if RANK[c] == 10})


def card_of(rank: int, suit: int) -> int:
    """The card number of ``rank`` (1..13) in suit index ``suit`` (0..3)."""
    return suit * 13 + rank - 1


def parse_card(text: str) -> int:
    """Read a card code (``"TH"``, ``"10h"``, ``"as"``) into its number.

    >>> parse_card("QD")
    24
    """
    try:
        return _BY_CODE[text.strip().upper()]
    except KeyError:
        raise ValueError(
            f"not a card code: {text!r} (rank A 2-9 T J Q K, then suit C D H S)"
        ) from None


def takes(card: int) -> str:
    """What a build down in alternate colours takes on ``card``, said after its code.

    >>> takes(CODE.index("4C")), takes(CODE.index("KD")), takes(CODE.index("AH"))
    ('(4C takes a red 3)', '(KD takes a black queen)', '(nothing goes on an ace)')
    """
    rank = RANK[card]
    if rank == 1:
        return "(nothing goes on an ace)"
    colour = "black" if RED[card] else "red"
    return f"({CODE[card]} takes a {colour} {RANK_NAMES[rank - 1]})"


def card_name(card: int) -> str:
    """The card in words, as the seed books say it.

    >>> card_name(parse_card("JC"))
    'knave of clubs'
    """
    return f"{RANK_NAMES[RANK[card]]} of {SUIT_NAMES[SUIT[card]]}"


@mypyc_attr(native_class=False)  # compiled (server.native): an int subclass stays a Python class
class Card(int):
    """A card: an ``int`` 0..51 whose text form is its two-character code."""

    __slots__ = ()

    @classmethod
    def parse(cls, text: str) -> Card:
        return CARD[parse_card(text)]

    @property
    def rank(self) -> int:
        return RANK[self]

    @property
    def suit(self) -> int:
        return SUIT[self]

    @property
    def red(self) -> bool:
        return RED[self]

    @property
    def code(self) -> str:
        return CODE[self]

    def __str__(self) -> str:
        return CODE[self]

    def __repr__(self) -> str:
        return f"Card.parse({CODE[self]!r})"


#: the 52 interned :class:`Card` values, indexed by card number
CARD: Final[tuple[Card, ...]] = tuple(Card(c) for c in range(52))


def codes(cards: list[int] | tuple[int, ...]) -> list[str]:
    """Card numbers to their codes, in order."""
    return [CODE[c] for c in cards]
