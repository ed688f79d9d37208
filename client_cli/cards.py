"""Cards as the player sees them: a rank and a suit symbol, red or black.

The wire form of a card is its code, a rank ``A 2 3 4 5 6 7 8 9 T J Q K`` and a suit
``C D H S`` (``TH`` is the ten of hearts). Drawn, it is two cells wide: ``T♥`` (or ``TH``
with ``--ascii``), red for hearts and diamonds.

>>> card_text("TH").plain, card_text("TH", ascii=True).plain
('T♥', 'TH')
>>> card_text("TH").style
'red'
>>> card_text("zz").plain
'??'
"""

from __future__ import annotations

import re

from rich.text import Text

RANKS = "A23456789TJQK"
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
RED_SUITS = frozenset("DH")
RED = "red"
BLACK = "default"


def suit_style(code: str) -> str:
    return RED if code[-1:] in RED_SUITS else BLACK


def card_text(code: object, *, ascii: bool = False, style: str = "") -> Text:
    """A card code as two coloured cells; ``??`` for a code that is not a card."""
    if not (isinstance(code, str) and len(code) == 2 and code[0] in RANKS and code[1] in SUITS):
        return Text("??", style="magenta")
    rank, suit = code[0], code[1]
    shown = rank + (suit if ascii else SUITS[suit])
    colour = suit_style(code)
    return Text(shown, style=f"{colour} {style}".strip() if style else colour)


#: a card's code standing as a word in the server's text ("8D cannot go on KD")
_CODE_WORD = re.compile(r"\b([A2-9TJQK])([CDHS])\b")


def card_words(text: str, *, ascii: bool = False) -> str:
    """The server's words with each card's code drawn as the board draws it (``8♦``, as
    the player sees the card, not ``8D``); unchanged with ``--ascii``, whose cards are
    their codes.

    >>> card_words("illegal move 'l>t1': 8D cannot go on KD: bars build down")
    "illegal move 'l>t1': 8♦ cannot go on K♦: bars build down"
    >>> card_words("TH and 5S are not of equal rank; AS at t1 is blocked")
    'T♥ and 5♠ are not of equal rank; A♠ at t1 is blocked'
    >>> card_words("8D cannot go on KD", ascii=True)
    '8D cannot go on KD'
    >>> card_words("move l>t1, deal, 4+5, fc, AND SO ON")
    'move l>t1, deal, 4+5, fc, AND SO ON'
    """
    if ascii:
        return text
    return _CODE_WORD.sub(lambda m: m[1] + SUITS[m[2]], text)
