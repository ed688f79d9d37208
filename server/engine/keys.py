"""A position packed into bytes, for a search's transposition table: cheap to build, to
hash and to keep (compiled with the engine, it costs about what a move does).

Every pile but the foundations is written card by card (hidden piles too: a search that
knows the stock keys on it), each foundation by its height alone (its cards follow from
it: a foundation builds in one fixed order from its first card), then the counters. Piles
are separated by 255, which no card number (0-51) or height (at most 104) reaches.

>>> from server.engine import new_game
>>> a, b = new_game("nestor", seed=4), new_game("nestor", seed=4)
>>> packed_key(a) == packed_key(b)
True
>>> _ = a.play(a.legal_moves()[0])
>>> packed_key(a) == packed_key(b)
False
"""

from __future__ import annotations

from typing import Final

from .core import Game

SEP: Final = 255


def packed_key(game: Game) -> bytes:
    """The position of ``game`` as bytes (moves made and the undo journal left out)."""
    out: list[int] = []
    home = game.HOME
    first_home = home[0] if home else -1
    for i, pile in enumerate(game.p):
        # foundations are few, and (in every game) declared together: test the cheap
        # bound first
        if i >= first_home and i in home:
            out.append(len(pile))
        else:
            out.extend(pile)
        out.append(SEP)
    for value in game.sc:
        out.append(value & 0xFF)
    return bytes(out)
