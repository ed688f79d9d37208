"""What one part tells the others without knowing them: a game ended, a racer made
progress, a room's timer fell due.

The parts form a tree (each is built with the few parts it calls: ``service.py``), so a
call back up the tree would be a circle. Such news is an event instead: the part where
it happens publishes it here, and the parts that care subscribe when the service puts
them together, in the order they are told. Two kinds:

- told at once, on the caller's stack (:meth:`Events.tell`): the move path's news
  (:class:`RacerProgress`, :class:`GameEnded`), which has no coroutine, a daily's
  finish's (:class:`LeagueChanged`) and a sign-in's or a going away's
  (:class:`PresenceChanged`);
- awaited (:meth:`Events.publish`): :class:`RoomDue`, whose handler does I/O; an error
  from a handler reaches the publisher (the room's timer tries again).

>>> events = Events()
>>> heard = []
>>> events.on(GameEnded, lambda event: heard.append(event.live))
>>> events.tell(GameEnded("a game", None))
>>> heard
['a game']
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from .domain.games import LiveGame
from .held import HeldRoom


@dataclass(frozen=True, slots=True)
class RacerProgress:
    """A racer's game changed (a move, an undo, ``home``, a resignation) in ``room``."""

    room: HeldRoom
    live: LiveGame


@dataclass(frozen=True, slots=True)
class GameEnded:
    """A game ended (won, lost, resigned, timed out) where it is played here; ``room``:
    the room it was raced in (None: not a race)."""

    live: LiveGame
    room: HeldRoom | None


@dataclass(frozen=True, slots=True)
class LeagueChanged:
    """A league's standings changed here (a member's daily result counted in it): its
    watchers, in every process, are sent them again (``handlers/leagues.py``)."""

    week: str
    league: str


@dataclass(frozen=True, slots=True)
class PresenceChanged:
    """A player signed in here, or their connection here went (their presence mark set
    or taken away): the groups they are in show them online or not."""

    pid: str


@dataclass(frozen=True, slots=True)
class Renamed:
    """A player changed their name here: the groups they are in show the new one to
    whoever watches them, here and in the other processes."""

    pid: str


@dataclass(frozen=True, slots=True)
class RoomDue:
    """A room's timer fell due: its countdown is over, or its race's time is up."""

    room: HeldRoom


Told = RacerProgress | GameEnded | LeagueChanged | PresenceChanged | Renamed
E = TypeVar("E")


class Events:
    """Who hears which event, in the order they subscribed."""

    def __init__(self) -> None:
        self._told: dict[type[Any], list[Callable[[Any], None]]] = {}
        self._awaited: dict[type[Any], list[Callable[[Any], Awaitable[None]]]] = {}

    def on(self, kind: type[E], handler: Callable[[E], None]) -> None:
        """``handler`` hears every ``kind`` told (:meth:`tell`)."""
        self._told.setdefault(kind, []).append(handler)

    def on_async(self, kind: type[E], handler: Callable[[E], Awaitable[None]]) -> None:
        """``handler`` is awaited for every ``kind`` published (:meth:`publish`)."""
        self._awaited.setdefault(kind, []).append(handler)

    def tell(self, event: Told) -> None:
        for handler in self._told.get(type(event), ()):
            handler(event)

    async def publish(self, event: RoomDue) -> None:
        for handler in self._awaited.get(type(event), ()):
            await handler(event)
