"""What changed in a room, said in a few words: "bob joined", "bob is ready", "everyone is
ready: s to start", "bob finished 1st", "bob left", "you host the room now".

Pure: :func:`room_notices` compares the room message shown with the one that replaces it;
:func:`progress_notice` reads a racer's ``progress`` event against the room as it stood.
The controller shows the newest notice as the message, so a racer hears of the others
without reading the roster.

>>> before = {"state": "lobby", "host": "ann", "players": [{"name": "ann", "ready": False}]}
>>> after = {**before, "players": [{"name": "ann", "ready": False}, {"name": "bob"}]}
>>> room_notices(before, after, me="ann")
['bob joined']
>>> ready = {**after, "players": [{"name": "ann"}, {"name": "bob", "ready": True}]}
>>> room_notices(after, ready, me="ann")
['bob is ready', 'everyone is ready: s to start']
>>> room_notices(after, ready, me="bob")  # one's own doing is no news
[]
>>> room_notices(ready, before, me="ann")
['bob left']
>>> renamed = {**ready, "players": [{"name": "ann"}, {"name": "bobby", "ready": True}]}
>>> room_notices(ready, renamed, me="ann"), room_notices(ready, renamed, me="bobby")
(['bob is bobby now'], [])
>>> room_notices(after, {**after, "host": "bob", "players": [{"name": "bob"}]}, me="bob")
['ann left', 'you host the room now: s starts the race']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .places import ordinal
from .racers import renamed_in
from .sanitize import clean

#: how long a notice said in passing stays (``Reconnected.``: on a watcher's line, which
#: nothing else replaced, it stayed for minutes), as the browser's notices stay 6 s
PASSING_MS = 6_000


def _players(room: Mapping[str, Any] | None) -> dict[str, Mapping[str, Any]]:
    players = (room or {}).get("players") or []
    return {
        clean(p.get("name", ""), 20): p
        for p in players
        if isinstance(p, Mapping) and isinstance(p.get("name"), str) and not p.get("left")
    }


def room_notices(
    before: Mapping[str, Any] | None, after: Mapping[str, Any], me: str | None
) -> list[str]:
    """What a ``room`` message changed, for ``me`` to read: who joined, left, went away or
    came back, who is ready, and (to the host, in the lobby) that everyone is ready."""
    if before is None or before.get("code") != after.get("code"):
        return []
    old, new = _players(before), _players(after)
    out: list[str] = []
    renamed = renamed_in(list(old), list(new))
    for gone, now in renamed.items():
        if me not in (gone, now):  # (one's own: the ``renamed`` event says it)
            out.append(f"{gone} is {now} now")
    for name in new:
        if name not in old and name != me and name not in renamed.values():
            out.append(f"{name} joined")
    for name in old:
        if name not in new and name != me and name not in renamed:
            out.append(f"{name} left")
    lobby = after.get("state") == "lobby"
    for name, p in new.items():
        was = old.get(name)
        if was is None or name == me:
            continue
        if was.get("present", True) and not p.get("present", True):
            out.append(f"{name} went away (their seat is kept)")
        elif not was.get("present", True) and p.get("present", True):
            out.append(f"{name} is back")
        if lobby and p.get("ready") and not was.get("ready"):
            out.append(f"{name} is ready")
    host = after.get("host")
    others = [p for name, p in new.items() if name != host]
    everyone = lobby and others and all(p.get("ready") for p in others)
    was_everyone = before.get("state") == "lobby" and all(
        p.get("ready") for name, p in old.items() if name != before.get("host")
    )
    same = {renamed.get(name, name) for name in old} == set(new)  # (a new name: the same)
    if everyone and host == me and (not was_everyone or not same):
        out.append("everyone is ready: s to start")
    was_host = before.get("host")
    was_host = renamed.get(was_host, was_host) if isinstance(was_host, str) else was_host
    if me is not None and host == me and was_host != me and not after.get("quick"):
        out.append(host_notice(after.get("state")))
    return out


def host_notice(state: Any) -> str:
    """What the player is told as the room's host passes to them (the host left): nothing
    said it, and they waited for a rematch only they could call.

    >>> host_notice("finished"), host_notice("lobby")
    ('you host the room now: m calls a rematch', 'you host the room now: s starts the race')
    """
    if state == "finished":
        return "you host the room now: m calls a rematch"
    if state == "lobby":
        return "you host the room now: s starts the race"
    return "you host the room now"


def progress_notice(room: Mapping[str, Any] | None, event: Mapping[str, Any]) -> str:
    """A racer's ``progress`` event that ends their game, as a notice ("bob finished 1st",
    "bob resigned"); "" for any other (read before the event is applied to the room).

    >>> room = {"players": [{"name": "ann", "status": "won"}, {"name": "bob",
    ...                     "status": "playing"}]}
    >>> progress_notice(room, {"player": "bob", "status": "won"})
    'bob finished 2nd'
    >>> progress_notice(room, {"player": "bob", "status": "resigned"})
    'bob resigned'
    >>> progress_notice(room, {"player": "bob", "status": "resigned", "forfeited": True})
    'bob resigned (away too long)'
    >>> progress_notice(room, {"player": "bob", "status": "playing"})
    ''
    """
    name = clean(event.get("player", ""), 20)
    status = event.get("status")
    players: Sequence[Any] = (room or {}).get("players") or []
    was = next((p for p in players if isinstance(p, Mapping) and p.get("name") == name), None)
    if was is None or was.get("status") == status or status in (None, "playing"):
        return ""
    if status == "won":
        done = sum(1 for p in players if isinstance(p, Mapping) and p.get("status") == "won")
        return f"{name} finished {ordinal(done + 1)}"
    if status == "timeout":
        return f"{name} ran out of time"
    if event.get("forfeited") is True:  # (the server resigned them: not given up)
        return f"{name} resigned (away too long)"
    return f"{name} {clean(status, 12)}"


def signed_out_notice(event: Mapping[str, Any]) -> str:
    """What the player reads when this terminal's connection was taken over or signed
    out by another of their devices (``signed_out``: its ``reason`` names it).

    >>> signed_out_notice({"reason": "signed in on another device: Chrome on Android"})
    'Signed in on another device: Chrome on Android. This terminal has stopped; q quits.'
    >>> signed_out_notice({"reason": "signed out from tablet", "cause": "signed_out"})[-47:]
    'quits (link it again: patience-race link CODE).'
    """
    reason = clean(event.get("reason") or "signed in from another client", 120)
    line = f"{reason[:1].upper()}{reason[1:]}. This terminal has stopped; q quits"
    if event.get("cause") == "signed_out":
        return line + " (link it again: patience-race link CODE)."
    return line + "."
