"""The games' rules pages for players, shipped with the client so that they can be read
with no server at all (in a game, or before the first one).

A page is plain ASCII text in ``client_cli/rules/<game id>.txt``, at most 76 columns
wide and a screenful or three long, for a pager on an 80x24 terminal: the goal, a sketch
of the table with its pile labels, the moves in the notation the client sends, what
happens by itself, how the game ends, and a worked first move on a numbered deal. The
server's own rules pages are the exact reference for developers; these are for playing.

>>> "gate" in games()
True
>>> page("gate").splitlines()[0]
'THE GATE  (gate)'
>>> title("gate")
'The Gate'
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

#: the folder of pages, inside the package
FOLDER = "rules"
SUFFIX = ".txt"


class UnknownGame(LookupError):
    """No page for that game id (the message names the ones there are)."""


def _folder() -> Traversable:
    return resources.files("client_cli").joinpath(FOLDER)


def games() -> list[str]:
    """The ids of the games that have a page, sorted."""
    return sorted(
        entry.name.removesuffix(SUFFIX)
        for entry in _folder().iterdir()
        if entry.name.endswith(SUFFIX) and entry.is_file()
    )


#: words a game's name keeps in lower case, past its first
SMALL_WORDS = frozenset({"and", "of", "the"})


def title(game_id: str) -> str:
    """The game's name, as its page's first line gives it (in capitals there).

    >>> title("gate-narrow"), title("light-and-shade")
    ('The Gate, Bars of Three', 'Light and Shade')
    """
    heading = page(game_id).splitlines()[0].rsplit("  (", 1)[0]
    words = heading.lower().split(" ")
    return " ".join(
        w if n and w in SMALL_WORDS else w[:1].upper() + w[1:] for n, w in enumerate(words)
    )


def page(game_id: str) -> str:
    """The rules page of ``game_id``, as text ending in a newline.

    Raises :class:`UnknownGame` for an id with no page (anything that is not exactly one
    of :func:`games`, so no path can reach another file).

    >>> page("klondike")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    client_cli.rules.UnknownGame: no rules page for 'klondike'; the games: babette, ...
    """
    known = games()
    if game_id not in known:
        raise UnknownGame(f"no rules page for {game_id!r}; the games: {', '.join(known)}")
    return _folder().joinpath(game_id + SUFFIX).read_text(encoding="utf-8")
