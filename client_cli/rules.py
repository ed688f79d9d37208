"""The games' rules pages for players, shipped with the client so that they can be read
with no server at all (in a game, or before the first one): the terminal's form of the
pages in :mod:`rulebook`, one source a game that the browser's pages are rendered from too.

>>> "gate" in games()
True
>>> page("gate").splitlines()[0]
'THE GATE  (gate)'
>>> title("gate")
'The Gate'
"""

from __future__ import annotations

import rulebook
from rulebook import UnknownGame, games, title

__all__ = ["UnknownGame", "games", "page", "title"]


def page(game_id: str) -> str:
    """The rules page of ``game_id`` as the terminal shows it, text ending in a newline.

    Raises :class:`UnknownGame` for an id with no page.

    >>> page("klondike")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rulebook.UnknownGame: no rules page for 'klondike'; the games: babette, ...
    """
    return rulebook.text(game_id)
