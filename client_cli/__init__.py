"""``patience-race``: the terminal client people race with.

A thin client: it knows no rules. It draws the views the server sends (one renderer for
every game, from the layout data in each view) and sends the moves the player types.

Modules: :mod:`.config` (the token file), :mod:`.connection` (the websocket, requests,
events, reconnects), :mod:`.render` (a view as board text), :mod:`.screen` (whole screens),
:mod:`.model` (what the client knows), :mod:`.commands` (what a typed line means),
:mod:`.boards` (leaderboard tables), :mod:`.replay` (a replay's screen), :mod:`.controller`
(what a typed line or a server event does), :mod:`.tui` (a game's full-screen loop),
:mod:`.session` (start-up and sign-in, then the screen), :mod:`.replay_tui` (the replay
viewer's loop), :mod:`.queries` (the commands that ask the server and print the answer),
:mod:`.cli` (the ``patience-race`` command line).
"""

from importlib.metadata import PackageNotFoundError
from importlib.metadata import version as _installed


def _version() -> str:
    """The version ``pyproject.toml`` gives, as the installed package carries it (the
    server's too: one distribution)."""
    try:
        return _installed("patience-race")
    except PackageNotFoundError:
        return "0+unknown"


__version__ = _version()
