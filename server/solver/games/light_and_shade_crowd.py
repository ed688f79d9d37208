"""Light and Shade: a proof that a position is lost because four Rivals are too few.

:mod:`.light_and_shade_dead` counts no places: a Rival free once is free for every card.
This counts them. Take a card ``X`` on the talon. Before ``X`` leaves the talon, every
card above it must leave it first, each onto an Auxiliary's top one rank higher in the
other colour or into an empty Rival; a card in a Rival leaves it only onto such a top or
into an empty Auxiliary. Now mark what can happen *before* ``X`` leaves:
:meth:`.light_and_shade_dead.Events.close` with ``X``'s depth pinned (nothing at that
depth or below leaves; its docstring says why every event before ``X`` leaves is then
marked). Call a card *stuck* when

- it lies above ``X`` on the talon, no card it builds on (one rank higher, the other
  colour) is marked as coming to be an Auxiliary's top, and no Auxiliary is marked as
  coming to be empty: it can leave the talon only into a Rival, and once there it
  never leaves before ``X`` does; or
- it is a Rival's card now, and no card it builds on is marked as a top, nor an empty
  Auxiliary: it stays in its Rival until ``X`` has left.

When ``X`` leaves, every stuck card is in a Rival at once (those above ``X`` left the
talon before it, into Rivals, and none of them left its Rival since), one a Rival. So if
more than four cards are stuck, ``X`` never leaves the talon; and if some card above
``X`` is not marked as leaving the talon at all, nor does ``X``. Then ``X`` and every card
under it stay on the talon for good (nothing leaves it but from the top), which
:meth:`~.light_and_shade_dead.Events.close` can take in: pinned there, it marks every
event of every game from here, and a card not marked as going home never does. Each
``X`` found pins more of the talon and the marks shrink, so the search for one goes on,
higher up the talon, until none is found. A card never home: the position is lost
(every card must go home, and one on the talon only after leaving it).

It costs a fixpoint for each card on the talon (about 25 ms a position), so the
hooks do not ask it everywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from server.engine import Game

from .light_and_shade_dead import Events, home_counts

#: the Rivals
SIDE: Final = 4


def pinned_depth(events: Events) -> int:
    """The highest talon depth proved never to leave by the count (the talon under it
    stays too), or -1; ``events`` is left closed with that pin."""
    pinned = -1
    talon, depth = events.talon, events.depth
    while True:
        found = -1
        # from the top down: the first X found blocked pins the most (every card under
        # it stays too), and with it pinned, cards above it may be found blocked next
        for x in reversed(talon):
            d = depth[x]
            if d <= pinned:
                break
            events.close(d)
            if _blocked(events, d):
                found = d
                break
        if found < 0:
            events.close(pinned)
            return pinned
        pinned = found


def _blocked(events: Events, d: int) -> bool:
    """Whether, with the talon card at depth ``d`` pinned and the events closed, the card
    at ``d`` can never leave: one above it never leaves, or more are stuck than there
    are Rivals."""
    e = events.e
    built = events.built
    leave, depth = events.leave, events.depth
    stuck = 0
    for r in events.rivals:
        if not e and not built(r, -1):
            stuck += 1
    for a in events.talon:
        da = depth[a]
        if da <= d:
            continue
        if not leave[a]:
            return True
        if not e and not built(a, -1):
            stuck += 1
    return stuck > SIDE


def never_home(p: Sequence[Sequence[int]], home_now: Sequence[int]) -> list[int]:
    """The cards (as card numbers) that can never go home, by the count; the piles and
    counts as :func:`.light_and_shade_dead.never_home_of` reads them."""
    events = Events(p, home_now)
    pinned_depth(events)
    return events.never_home()


def dead(game: Game) -> bool:
    """Whether some card can never go home from here, by the count (so the position is
    lost). Never true of a position that can be won; the module's docstring says why."""
    return bool(never_home(game.p, home_counts(game)))
