"""What the games built down in alternate colours share: when a card can never again be
a build target, so that sending it home loses nothing."""

from __future__ import annotations

from server.engine import Game
from server.engine.cards import RANK, RED

#: the suits of the other colour (foundation order: clubs, diamonds, hearts, spades), by
#: a card's redness
_OTHER_SUITS = ((1, 2), (0, 3))


def never_a_target(game: Game, card: int) -> bool:
    """True when no card can ever be built on ``card`` (a game with one foundation a suit,
    in suit order, that aces go out to the moment they are exposed): it is a two (an ace
    is never built anywhere), or both cards of the other colour one rank lower are on
    their foundations, which nothing leaves."""
    rank = RANK[card]
    if rank <= 2:
        return True
    p = game.p
    f0 = game.HOME[0]
    return all(len(p[f0 + s]) >= rank - 1 for s in _OTHER_SUITS[RED[card]])
