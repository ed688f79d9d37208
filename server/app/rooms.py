"""Race rooms: who is in, the lobby, the countdown, the race, the results.

This module holds the room's data and the pure rules about it (codes, ranking); the
service drives it and does the I/O.
"""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass, field
from typing import Any

from .games import RESIGNED, TIMEOUT, WON, LiveGame

#: room codes: six characters without look-alikes (no 0/O, 1/I/L)
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6

LOBBY, COUNTDOWN, RACING, FINISHED = "lobby", "countdown", "racing", "finished"


class RoomConflict(Exception):
    """The room changed in Redis (another process) since this process last read it."""


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def normalize_code(text: str) -> str:
    return text.strip().upper()


@dataclass
class Racer:
    pid: str
    name: str
    joined_ms: int
    ready: bool = False
    #: the racer's game in the current race (None in the lobby)
    gid: str | None = None
    #: left the room during a race: resigned, and not in the next one
    left: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "pid": self.pid,
            "name": self.name,
            "joined": self.joined_ms,
            "ready": self.ready,
            "gid": self.gid,
            "left": self.left,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Racer:
        return cls(
            pid=data["pid"],
            name=data["name"],
            joined_ms=data["joined"],
            ready=data["ready"],
            gid=data.get("gid"),
            left=data.get("left", False),
        )


@dataclass
class Room:
    code: str
    game_id: str
    host: str
    max_players: int
    time_limit: int | None
    created_ms: int
    #: the seed asked for at creation; every race without one deals a random seed
    fixed_seed: int | None = None
    seed: int | None = None
    state: str = LOBBY
    race: int = 0
    start_at_ms: int | None = None
    racers: dict[str, Racer] = field(default_factory=dict)
    results: list[dict[str, Any]] | None = None
    #: the version in Redis this copy was read at or written as (see ROOM_CAS)
    version: int = 0
    # not persisted
    watchers: set[Any] = field(default_factory=set, repr=False)
    timer: asyncio.Task[None] | None = field(default=None, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: racers whose progress changed since the last progress events (progress is
    #: throttled: see ``Service._race_progress``)
    progress_due: dict[str, Any] = field(default_factory=dict, repr=False)
    #: the race whose ``race_start`` this process has sent, and to which of its racers
    starts_sent: tuple[int, frozenset[str]] = field(default=(0, frozenset()), repr=False)
    #: the state this copy last had in common with Redis (read from it, or written to it):
    #: a change whose write fails is taken back to it, so that the copy never runs ahead
    #: of Redis (see ``Service._persist_room``)
    persisted: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def end_at_ms(self) -> int | None:
        if self.start_at_ms is None or self.time_limit is None:
            return None
        return self.start_at_ms + self.time_limit * 1000

    def members(self) -> list[Racer]:
        """Racers still in the room, longest present first."""
        return sorted((r for r in self.racers.values() if not r.left), key=lambda r: r.joined_ms)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "game": self.game_id,
            "host": self.host,
            "max_players": self.max_players,
            "time_limit": self.time_limit,
            "created": self.created_ms,
            "fixed_seed": self.fixed_seed,
            "seed": self.seed,
            "state": self.state,
            "race": self.race,
            "start_at": self.start_at_ms,
            "racers": [r.to_dict() for r in self.racers.values()],
            "results": self.results,
            "version": self.version,
        }

    def refresh(self, data: dict[str, Any]) -> None:
        """Take the persisted fields of ``data`` (a newer state read from Redis), keeping
        what is this process's own: watchers, timers, the lock, pending progress."""
        fresh = Room.from_dict(data)
        for name in PERSISTED:
            setattr(self, name, getattr(fresh, name))
        self.persisted = data

    def roll_back(self) -> None:
        """Take back the changes made since the state last in common with Redis."""
        if self.persisted is not None:
            self.refresh(self.persisted)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Room:
        room = cls(
            code=data["code"],
            game_id=data["game"],
            host=data["host"],
            max_players=data["max_players"],
            time_limit=data["time_limit"],
            created_ms=data["created"],
            fixed_seed=data.get("fixed_seed"),
            seed=data.get("seed"),
            state=data["state"],
            race=data["race"],
            start_at_ms=data.get("start_at"),
            results=data.get("results"),
            version=data.get("version", 0),
        )
        room.persisted = data
        for item in data["racers"]:
            racer = Racer.from_dict(item)
            room.racers[racer.pid] = racer
        return room


PERSISTED = (
    "game_id",
    "host",
    "max_players",
    "time_limit",
    "created_ms",
    "fixed_seed",
    "seed",
    "state",
    "race",
    "start_at_ms",
    "racers",
    "results",
    "version",
)


def rank(entries: list[tuple[Racer, LiveGame]], start_at_ms: int) -> list[dict[str, Any]]:
    """Results: winners by server time from the start to the winning move, then fewer
    moves; then everyone else by cards home, then by who reached that count first; ties
    after that by who joined first."""

    def key(item: tuple[Racer, LiveGame]) -> tuple[Any, ...]:
        racer, live = item
        if live.result == WON:
            assert live.finished_ms is not None
            return (0, live.finished_ms - start_at_ms, live.game.moves, 0, racer.joined_ms)
        return (1, -live.game.cards_home(), live.home_at_ms, live.game.moves, racer.joined_ms)

    results = []
    for n, (racer, live) in enumerate(sorted(entries, key=key), start=1):
        home, total = live.game.progress
        won = live.result == WON
        results.append(
            {
                "rank": n,
                "player": racer.name,
                "status": live.result or TIMEOUT,
                "time_ms": (live.finished_ms or 0) - start_at_ms if won else None,
                "moves": live.game.moves,
                "home": home,
                "total": total,
                "resigned": live.result == RESIGNED,
                "replay": live.gid,
            }
        )
    return results
