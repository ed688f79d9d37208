"""A room held in this process (:class:`HeldRoom`): its state as persisted
(``domain.room.Room``) and what is this process's own, and the room a player is in.
The room host (``handlers/host.py``) holds them; the parts that read them need no more."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from .domain.room import Room


@dataclass
class HeldRoom(Room):
    """A room held in this process: its persisted state (:class:`Room`) and what is this
    process's own, never persisted: who watches it from here, its timer, its lock."""

    watchers: set[Any] = field(default_factory=set, repr=False)
    timer: asyncio.Task[None] | None = field(default=None, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: racers whose progress changed since the last progress events (progress is
    #: throttled: see ``Races.progress``)
    progress_due: dict[str, Any] = field(default_factory=dict, repr=False)
    #: what the last ``room`` told here said of who is connected and how many watch
    #: (``RoomHost.retell``: a dead process's marks lapse with nobody to say so)
    told_around: tuple[int, tuple[bool, ...]] | None = field(default=None, repr=False)
    #: the race whose ``race_start`` this process has sent, and to which of its racers
    starts_sent: tuple[int, frozenset[str]] = field(default=(0, frozenset()), repr=False)
    #: held while ``race_start`` is being sent from here: the bus's start message and
    #: this process's own countdown timer arrive together, and one sends while the other
    #: waits, then finds it sent (``RoomSteps.send_race_starts``)
    starts_lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: the race whose ``results`` this process's audience has been told (by this process,
    #: or relayed from the one that ended it): told once, whichever way comes first
    results_told: int = field(default=0, repr=False)
    #: the games of racers found away whose logs have been looked at since they went
    #: (``Housekeeping``: an end its dying process never told the race is found once)
    ends_looked: set[str] = field(default_factory=set, repr=False)


def racer_room(rooms: dict[str, HeldRoom], room_of: dict[str, str], pid: str) -> HeldRoom | None:
    """The room the player is in (and has not left), as held here."""
    code = room_of.get(pid)
    room = rooms.get(code) if code else None
    if room is None:
        return None
    racer = room.racers.get(pid)
    return room if racer is not None and not racer.left else None
