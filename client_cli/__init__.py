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

import os
import sys

#: how the installed distribution's metadata folder is named: ``patience_race-0.2.0.dist-info``
_DIST_INFO = ("patience_race-", ".dist-info")


def _version() -> str:
    """The version ``pyproject.toml`` gives, as the installed package carries it (the
    server's too: one distribution): the version in the name of its ``.dist-info``
    folder (the name the wheel's format gives it), found on ``sys.path`` as
    ``importlib.metadata`` finds it, without importing it (it brings the email package
    and zipfile: a tenth of a one-shot command's start). Where there is no such folder,
    ``server._version``'s reading (the metadata as ``importlib.metadata`` reads it, else
    ``pyproject.toml`` beside the source)."""
    start, end = _DIST_INFO
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:  # (not a folder: a zip, or gone)
            continue
        for name in names:
            if name.startswith(start) and name.endswith(end):
                return name[len(start) : -len(end)]
    from server._version import version

    return version()


__version__ = _version()
