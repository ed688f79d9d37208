"""A race room's data: its code, its racers and its state as Redis keeps it, with the
states' names (the rules that change it: :mod:`.room`, whose docstring tables a room's
life)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any, Self

#: room codes: six characters without look-alikes (no 0/O, 1/I/L)
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6

LOBBY, COUNTDOWN, RACING, FINISHED = "lobby", "countdown", "racing", "finished"
#: a race whose start is written this late (Redis was away at its start) starts when it
#: is written instead, so that its racers have all of its time
LATE_START_MS = 1000


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
    #: resigned by the server, away from the race too long (``forfeit``)
    forfeited: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "pid": self.pid,
            "name": self.name,
            "joined": self.joined_ms,
            "ready": self.ready,
            "gid": self.gid,
            "left": self.left,
            **({"forfeited": True} if self.forfeited else {}),
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
            forfeited=data.get("forfeited", False),
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
    #: whether its racers may ask for hints (chosen at creation; off by default)
    hints: bool = False
    #: a quick race's room: its racers the players matched, no host's actions, not joined
    #: by its code
    quick: bool = False
    state: str = LOBBY
    race: int = 0
    start_at_ms: int | None = None
    racers: dict[str, Racer] = field(default_factory=dict)
    results: list[dict[str, Any]] | None = None
    #: the version in Redis this copy was read at or written as (see ROOM_CAS)
    version: int = 0
    #: the state this copy last had in common with Redis (read from it, or written to it):
    #: a change whose write fails is taken back to it, so that the copy never runs ahead
    #: of Redis (see ``RoomHost.persist``)
    persisted: dict[str, Any] | None = field(default=None, repr=False)

    @property
    def end_at_ms(self) -> int | None:
        if self.start_at_ms is None or self.time_limit is None:
            return None
        return self.start_at_ms + self.time_limit * 1000

    def members(self) -> list[Racer]:
        """Racers still in the room, longest present first."""
        return sorted((r for r in self.racers.values() if not r.left), key=lambda r: r.joined_ms)

    def gone(self) -> list[Racer]:
        """Racers of the race on who have left the room (their game resigned), longest
        present first: out of the room, still in the race's standings (once it is over,
        in its results)."""
        if self.state != RACING:
            return []
        left = (r for r in self.racers.values() if r.left and r.gid)
        return sorted(left, key=lambda r: r.joined_ms)

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
            "hints": self.hints,
            "quick": self.quick,
            "state": self.state,
            "race": self.race,
            "start_at": self.start_at_ms,
            "racers": [r.to_dict() for r in self.racers.values()],
            "results": self.results,
            "version": self.version,
        }

    def refresh(self, data: dict[str, Any]) -> None:
        """Take the persisted fields of ``data`` (a newer state read from Redis), keeping
        what is this process's own (a held room's watchers, timer, lock...)."""
        fresh = Room.from_dict(data)
        for name in PERSISTED:
            setattr(self, name, getattr(fresh, name))
        self.persisted = data

    def roll_back(self) -> None:
        """Take back the changes made since the state last in common with Redis."""
        if self.persisted is not None:
            self.refresh(self.persisted)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        room = cls(
            code=data["code"],
            game_id=data["game"],
            host=data["host"],
            max_players=data["max_players"],
            time_limit=data["time_limit"],
            created_ms=data["created"],
            fixed_seed=data.get("fixed_seed"),
            seed=data.get("seed"),
            hints=bool(data.get("hints", False)),  # rooms were first written without it
            quick=bool(data.get("quick", False)),
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
    "hints",
    "quick",
    "state",
    "race",
    "start_at_ms",
    "racers",
    "results",
    "version",
)
