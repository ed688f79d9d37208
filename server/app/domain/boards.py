"""Leaderboards: board ids, their scores and members (their Redis side is
``server.app.store.boards``). ``docs/leaderboards.md`` defines every board's order;
this module is its code.

In Redis a board is kept under its id (``server.app.store.keys.board_keys``: a sorted
set of members, their details, their members, and for counting boards their counts,
sharing one hash tag so each write touches a single Redis Cluster slot).

The order is total. Time boards pack (won, time, moves) or (not won, cards home, moves)
into the score, and ties go to whoever finished first, because their member is
``"{finish ms, 13 digits}:{player id}"`` and equal scores are ordered by member.
Counting boards pack (count, when it was reached, in seconds) into the score.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from server.engine import GAMES

from .daily import valid_day, valid_week

MOVES_CAP = 4095
NOT_WON = 1 << 45

# matched with fullmatch, never match and "$" ("$" also matches before a last "\n");
# digits are [0-9], not \d, which takes any script's digits ("٢")
_BOARD = re.compile(
    r"daily/(?P<dgame>[a-z-]+)/(?P<day>[0-9]{4}-[0-9]{2}-[0-9]{2})"
    r"|(?P<kind>wins|best|rating)/(?P<game>[a-z-]+)"
    r"|races/week/(?P<week>[0-9]{4}-W[0-9]{2})"
    r"|races/all"
)


@dataclass(frozen=True)
class Board:
    """A board id, parsed: ``daily/GAME/DATE``, ``wins/GAME``, ``best/GAME``,
    ``races/week/YYYY-Www``, ``races/all`` or ``rating/GAME``."""

    id: str
    kind: str  # daily, wins, best, races, rating
    game: str | None = None
    day: str | None = None

    @property
    def counting(self) -> bool:
        return self.kind in ("wins", "races")

    def title(self) -> str:
        name = GAMES[self.game].name if self.game else ""
        if self.kind == "daily":
            return f"{name}: daily challenge, {self.day}"
        if self.kind == "wins":
            return f"{name}: daily wins, all time"
        if self.kind == "best":
            return f"{name}: best daily times, all time"
        if self.kind == "rating":
            return f"{name}: ratings"
        if self.id == "races/all":
            return "Races won, all time"
        return f"Races won, week {self.id.rsplit('/', 1)[1]}"


def parse_board(text: str, today: str, week: str) -> Board:
    """A board id to a :class:`Board` (``daily/GAME`` means today's, ``races/week`` this
    week's); ValueError if it names none: not a board id, an unknown game, an impossible
    day or week, or a week after ``week``. (A day after ``today`` is refused by
    ``Leaderboards.board``.)"""
    if re.fullmatch(r"daily/[a-z-]+", text):
        text = f"{text}/{today}"
    elif text == "races/week":
        text = f"races/week/{week}"
    found = _BOARD.fullmatch(text)
    if found is None:
        raise ValueError(f"no board {text!r}")
    game = found["dgame"] or found["game"]
    if game is not None and game not in GAMES:
        raise ValueError(f"no game {game!r}")
    if found["day"] is not None:
        if not valid_day(found["day"]):
            raise ValueError(f"no day {found['day']!r}")
        return Board(text, "daily", game, found["day"])
    if found["kind"]:
        return Board(text, found["kind"], game)
    if found["week"] is not None:
        if not valid_week(found["week"]):
            raise ValueError(f"no week {found['week']!r}")
        if found["week"] > week:  # YYYY-Www: later weeks sort later
            raise ValueError(f"{found['week']} has not come yet")
    return Board(text, "races")


def time_score(won: bool, time_ms: int, moves: int, home: int) -> int:
    """Lower is better: every win before every loss; wins by time, then moves; the rest
    by cards home (more first), then moves."""
    moves = min(moves, MOVES_CAP)
    if won:
        return min(time_ms, (1 << 32) - 1) * (MOVES_CAP + 1) + moves
    return NOT_WON + (1000 - home) * (MOVES_CAP + 1) + moves


def time_member(finished_ms: int, pid: str) -> str:
    return f"{finished_ms:013d}:{pid}"


def pid_of(member: str) -> str:
    return member.rsplit(":", 1)[-1]
