"""Weekly events and their leagues, pure: the tiers, a league's points and standings,
and who moves up or down at the week's close (``docs/leaderboards.md``, "Weekly
leagues"; their Redis side is ``server.app.store.leagues``).

Each ISO week is an event made of that week's dailies. A player joins it once and is
placed in a league of at most :data:`LEAGUE_SIZE` players of their tier who joined at
about the same time. A daily that counts (:func:`points`): won, ``WIN_POINTS`` plus a
bonus by its rank by time among the league's wins of that day and game; ended not won,
:data:`PLAYED_POINTS`. Standings are worked out from the results whenever asked, so
they are the same in every process and after any restart.

>>> r = [Result("a", "2026-11-23", "gate", True, 90_000, 40, 5), Result("b",
... "2026-11-23", "gate", True, 80_000, 50, 6), Result("c", "2026-11-23", "gate", False,
... 0, 10, 7)]
>>> [(s.pid, s.points, s.rank) for s in standings(["a", "b", "c"], r)]
[('b', 20, 1), ('a', 19, 2), ('c', 2, 3)]
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .daily import DAY_MS, valid_week

#: the tiers, lowest first; a new player starts in the first
TIERS = ("bronze", "silver", "gold", "platinum", "diamond")
#: the most players a league holds: the tier's open league fills to this, then a new one
LEAGUE_SIZE = 30
#: at most this many move up (the top) and down (the bottom) of a league at the close
MOVERS = 5
#: a won daily's points before its rank's bonus
WIN_POINTS = 10
#: the bonus of the fastest win of a day's game in the league; one less for each rank
#: after it, none from rank ``RANK_BONUS + 1``
RANK_BONUS = 10
#: a ranked daily that ended not won (lost, resigned, timed out)
PLAYED_POINTS = 2
#: the week's close comes this long after the week's end (Monday 00:00 UTC), so that
#: the Sunday dailies the reset ended are finished (their finish owed, written)
CLOSE_GRACE_MS = 5 * 60_000
WEEK_MS = 7 * DAY_MS


def week_start_ms(week: str) -> int:
    """Monday 00:00 UTC of an ISO week ``YYYY-Www``, server ms.

    >>> week_start_ms("2026-W01") == dt.datetime(2025, 12, 29, tzinfo=dt.UTC).timestamp() * 1000
    True
    """
    if not valid_week(week):
        raise ValueError(f"{week!r} is no ISO week (YYYY-Www)")
    monday = dt.date.fromisocalendar(int(week[:4]), int(week[6:]), 1)
    return int(dt.datetime(monday.year, monday.month, monday.day, tzinfo=dt.UTC).timestamp()) * 1000


def week_end_ms(week: str) -> int:
    """The end of an ISO week: the next Monday 00:00 UTC."""
    return week_start_ms(week) + WEEK_MS


def week_of_day(day: str) -> str:
    """The ISO week a day ``YYYY-MM-DD`` is in.

    >>> week_of_day("2026-11-29"), week_of_day("2026-11-30")
    ('2026-W48', '2026-W49')
    """
    year, week, _ = dt.date.fromisoformat(day).isocalendar()
    return f"{year}-W{week:02d}"


def days_of(week: str) -> list[str]:
    """The seven days of an ISO week, Monday first."""
    monday = dt.date.fromisocalendar(int(week[:4]), int(week[6:]), 1)
    return [(monday + dt.timedelta(days=n)).isoformat() for n in range(7)]


def league_id(tier: str, number: int) -> str:
    """``gold-3``: the third league of the gold tier (of a week)."""
    return f"{tier}-{number}"


def tier_of(league: str) -> str:
    """The tier of a league id (:func:`league_id`)."""
    return league.rpartition("-")[0]


@dataclass(frozen=True, slots=True)
class Result:
    """A ranked daily's end as a league counts it (held results are not among them)."""

    pid: str
    day: str
    game: str
    won: bool
    time_ms: int
    moves: int
    #: when it finished (server ms): of two equal wins, the first finished ranks first
    at: int


@dataclass(slots=True)
class Standing:
    """A member's place in their league."""

    pid: str
    points: int = 0
    wins: int = 0
    #: the sum of their wins' times (ms): of equal points and wins, the lower ranks first
    win_time: int = 0
    played: int = 0
    rank: int = 0
    #: (day, game, points) of each daily counted
    dailies: list[tuple[str, str, int]] = field(default_factory=list)


def points(rank: int | None) -> int:
    """A daily's points: ``rank`` is its rank by time among the league's wins of that
    day and game (None: not won).

    >>> points(1), points(2), points(10), points(11), points(30), points(None)
    (20, 19, 11, 10, 10, 2)
    """
    if rank is None:
        return PLAYED_POINTS
    return WIN_POINTS + max(0, RANK_BONUS + 1 - rank)


def scored(results: Iterable[Result]) -> list[tuple[Result, int]]:
    """Each result with its points: each day and game's wins ranked by time, then
    moves, then who finished first (the daily boards' order), then player id."""
    by_deal: dict[tuple[str, str], list[Result]] = {}
    for result in results:
        by_deal.setdefault((result.day, result.game), []).append(result)
    out: list[tuple[Result, int]] = []
    for deal in sorted(by_deal):
        wins = sorted(
            (r for r in by_deal[deal] if r.won), key=lambda r: (r.time_ms, r.moves, r.at, r.pid)
        )
        out.extend((r, points(rank)) for rank, r in enumerate(wins, 1))
        out.extend((r, points(None)) for r in by_deal[deal] if not r.won)
    return out


def standings(members: Sequence[str], results: Iterable[Result]) -> list[Standing]:
    """A league's standings, first first: most points, then most wins, then the lowest
    time of the wins, then who joined first (``members`` is in the order they joined).
    A member with no result yet stands with none."""
    table = {pid: Standing(pid) for pid in members}
    for result, got in scored(results):
        row = table.get(result.pid)
        if row is None:
            continue  # (not a member: never written so)
        row.points += got
        row.played += 1
        row.dailies.append((result.day, result.game, got))
        if result.won:
            row.wins += 1
            row.win_time += result.time_ms
    joined = {pid: n for n, pid in enumerate(members)}
    rows = sorted(table.values(), key=lambda s: (-s.points, -s.wins, s.win_time, joined[s.pid]))
    for rank, row in enumerate(rows, 1):
        row.rank = rank
    return rows


def movers(size: int) -> int:
    """How many move up, and how many down, in a league of ``size``: :data:`MOVERS`,
    or a third of a smaller league (so that nobody both rises and falls).

    >>> movers(30), movers(15), movers(6), movers(2)
    (5, 5, 2, 0)
    """
    return min(MOVERS, size // 3)


def moves(tier: str, rows: Sequence[Standing]) -> dict[str, str]:
    """Who moves at the week's close, to which tier: the top :func:`movers` with points
    up a tier (not above diamond), the bottom :func:`movers` down (not below bronze).

    >>> rows = [Standing(p, pts) for p, pts in zip("abcdef", (9, 8, 5, 3, 0, 0))]
    >>> moves("silver", rows)
    {'a': 'gold', 'b': 'gold', 'e': 'bronze', 'f': 'bronze'}
    >>> moves("bronze", rows)
    {'a': 'silver', 'b': 'silver'}
    """
    n = movers(len(rows))
    level = TIERS.index(tier)
    out: dict[str, str] = {}
    if n == 0:
        return out
    if level + 1 < len(TIERS):
        for row in rows[:n]:
            if row.points > 0:
                out[row.pid] = TIERS[level + 1]
    if level > 0:
        for row in rows[-n:]:
            out[row.pid] = TIERS[level - 1]
    return out


def movement(tier: str, new_tier: str) -> str:
    """``up``, ``down`` or ``stay``."""
    diff = TIERS.index(new_tier) - TIERS.index(tier)
    return "up" if diff > 0 else "down" if diff < 0 else "stay"
