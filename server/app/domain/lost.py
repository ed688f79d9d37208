"""A lost game told plainly: why no move is left and how far it got, the ``lost`` field of
every reply that carries a lost game's status (``docs/protocol.md``, "Undo after a
loss"). Worked out from the position alone, for any game: what its piles are (the
hidden ones are its stock or reserve, a ``discard`` home takes pairs) and its counters.

>>> from server.engine import new_game
>>> game = new_game("nestor", seed=16)
>>> for move in "1+5 reserve reserve reserve reserve 8+r4".split():
...     _ = game.play(move)
>>> game.status
'lost'
>>> why(game)
'No pair is left to take off and the reserve is out.'
>>> report(game, undo=True)["home"], report(game, undo=True)["total"], unit(game)
(2, 26, 'pairs')
"""

from __future__ import annotations

from typing import Any, Final

from server.engine import GAMES, Game

CARDS: Final = "cards"
PAIRS: Final = "pairs"


def unit(game: Game | type[Game]) -> str:
    """``pairs`` for the games whose cards leave the table in pairs (their home is a
    ``discard``: Nestor, Doubles and Quits), else ``cards``."""
    for spec in game.PILES:
        if spec.home and spec.kind == "discard":
            return PAIRS
    return CARDS


def progress(home: int, total: int, unit: str) -> str:
    """How far a game not won got, in words: ``30/52 cards home``, or ``15/26 pairs off``
    where cards come off in pairs (``unit``; ``home`` and ``total`` count cards).

    >>> progress(30, 52, CARDS), progress(30, 52, PAIRS)
    ('30/52 cards home', '15/26 pairs off')
    """
    if unit == PAIRS:
        return f"{home // 2}/{total // 2} pairs off"
    return f"{home}/{total} cards home"


def unit_of(rules: str) -> str:
    """:func:`unit` of a game by its id (``cards`` for an id no game has)."""
    info = GAMES.get(rules)
    return unit(info.cls) if info is not None else CARDS


def why(game: Game) -> str:
    """One short sentence: why no move is left (the game's status is ``lost``)."""
    head = "No pair is left to take off" if unit(game) == PAIRS else "No move is left"
    hidden = [i for i, spec in enumerate(game.PILES) if spec.hidden]
    if not hidden or any(game.p[i] for i in hidden):
        return f"{head}."
    name = "reserve" if all(game.PILES[i].kind == "reserve" for i in hidden) else "stock"
    if game.counters().get("redeals") == 0:
        return f"{head}: the {name} is out and no redeal is left."
    return f"{head} and the {name} is out."


def report(game: Game, undo: bool) -> dict[str, Any]:
    """The ``lost`` field: why, how many got home of how many (in pairs where the game
    takes pairs), and whether an ``undo`` would be accepted now (the caller knows)."""
    home, total = game.progress
    if unit(game) == PAIRS:
        home, total = home // 2, total // 2
    return {"why": why(game), "home": home, "total": total, "unit": unit(game), "undo": undo}
