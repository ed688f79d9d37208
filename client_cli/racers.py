"""What a room's messages say of its racers, read into the model (:mod:`.model`): those
who left a race while it ran (seen leaving, or listed in the message's ``left``), and how
the player's own game ended by the race's results. Pure functions over the messages."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .sanitize import clean


def with_leavers(before: Any, now: Any) -> list[Any]:
    """A race's racers as a ``room`` message lists them, with those who left it since the
    one before kept at the end, marked ``left`` (and ``resigned``, if they were playing):
    they are in the race, and its results, still; the room lists only who is in it. A
    racer who changed their name did not leave (their old name stayed, marked "left",
    under the new one).

    >>> before = [{"name": "ann", "status": "playing"}, {"name": "bob", "status": "playing"}]
    >>> with_leavers(before, [{"name": "ann", "status": "playing"}])[1]
    {'name': 'bob', 'status': 'resigned', 'left': True, 'present': False}
    >>> [p["name"] for p in with_leavers(before, [before[0], {"name": "Robert"}])]
    ['ann', 'Robert']
    """
    names = [p.get("name") for p in before or [] if isinstance(p, Mapping) and not p.get("left")]
    now_names = [p.get("name") for p in now or [] if isinstance(p, Mapping) and not p.get("left")]
    renamed = renamed_in(names, now_names)
    return _after(
        now, [p for p in before or [] if not (isinstance(p, Mapping) and p.get("name") in renamed)]
    )


def renamed_in(old: list[Any], new: list[Any]) -> dict[Any, Any]:
    """A racer whose name changed (``rename``), old name to new: one gone from the roster
    and one come in its place, the others where they were (it read "catD left" and
    "catty joined").

    >>> renamed_in(["ann", "bob"], ["ann", "bobby"]), renamed_in(["ann", "bob"], ["ann"])
    ({'bob': 'bobby'}, {})
    """
    if len(old) != len(new):
        return {}
    changed = [(a, b) for a, b in zip(old, new, strict=True) if a != b]
    if len(changed) != 1 or changed[0][1] in old or changed[0][0] in new:
        return {}
    return dict(changed)


def with_left(players: Any, left: Any) -> list[Any]:
    """A racing room's racers: those in it (``players``), then those its message lists
    as having left the race on (``left``), marked as :func:`with_leavers` marks one seen
    leaving (a watcher who came after a racer left never saw them, and the results then
    ranked someone never seen).

    >>> with_left([{"name": "ann"}], [{"name": "bob", "home": 4, "status": "resigned"}])[1]
    {'name': 'bob', 'home': 4, 'status': 'resigned', 'left': True, 'present': False}
    """
    return _after(players, left)


def _after(listed: Any, gone: Any) -> list[Any]:
    """``listed``, then those of ``gone`` not in it, marked as out of the room."""
    kept = [p for p in listed or [] if isinstance(p, Mapping)]
    names = {p.get("name") for p in kept}
    out = [
        {
            **p,
            "status": "resigned" if p.get("status", "playing") == "playing" else p["status"],
            "left": True,
            "present": False,
        }
        for p in gone or []
        if isinstance(p, Mapping) and p.get("name") not in names
    ]
    return [*kept, *out]


def own_status(results: Any, gid: str, me: str | None) -> str | None:
    """How the player's race game ``gid`` ended, by a race's ``results`` (its entry: the
    one whose replay is that game, or, from a server that sends no replay ids, the one of
    the player's name); None where it is not in them.

    A game still played when the time limit passes ends as ``timeout`` with no reply or
    event about it to its player: the results are the only word of it, so the game was
    still taken for one being played (no replay of it offered, nor a challenge).

    >>> results = [{"player": "bob", "status": "won", "replay": "b0b0"},
    ...            {"player": "ann", "status": "timeout", "replay": "a1a1"}]
    >>> own_status(results, "a1a1", "ann"), own_status(results, "c2c2", "cy")
    ('timeout', None)
    >>> own_status([{"player": "ann", "status": "lost"}], "a1a1", "ann")
    'lost'
    """
    entries = [r for r in results or [] if isinstance(r, Mapping)]
    mine = [r for r in entries if r.get("replay") == gid] or [
        r for r in entries if me is not None and not r.get("replay") and r.get("player") == me
    ]
    if not mine:
        return None
    return clean(mine[0].get("status") or "", 16) or None
