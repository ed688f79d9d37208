"""Groups: what a group's name, id and join key may be, its link, and the group's week
board (``week/GAME/YYYY-Www``), worked out from the week's daily boards among its members.
Pure; the Redis side is ``server.app.store.groups``, the requests ``handlers/groups.py``,
and ``docs/leaderboards.md`` says the week board's order.

>>> bool(GROUP_NAME_RE.fullmatch("Friday Club")), bool(GROUP_NAME_RE.fullmatch(" x"))
(True, False)
>>> check_group_name("The  Gate"), check_group_name("A&B's 5-a-side")
("a group's name has no two spaces in a row", None)
>>> group_link("k3v9xq2mab", "Zm9vYmFyYmF6cXV4")
'/g/k3v9xq2mab?k=Zm9vYmFyYmF6cXV4'
>>> week_days("2026-W01")[0], week_days("2026-W01")[-1]
('2025-12-29', '2026-01-04')
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from typing import Any, Final

from .daily import valid_week

#: matched with fullmatch: 2 to 32 ASCII letters, digits, spaces and ``_ - ' . &``,
#: starting with a letter or digit and not ending with a space
GROUP_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9 _'.&-]{0,30}[A-Za-z0-9_'.&-]")
BAD_GROUP_NAME: Final = (
    "a group's name is 2 to 32 letters (A to Z), digits, spaces, '_', '-', \"'\", '.' or '&', "
    "starting with a letter or digit"
)
#: a group's id: 10 of these (about 51 bits), made by the server
GROUP_ID_RE = re.compile(r"[a-z0-9]{10}")
ID_ALPHABET: Final = "abcdefghijklmnopqrstuvwxyz0123456789"
#: a join key: 16 URL-safe base64 characters (96 random bits), made by the server
GROUP_KEY_RE = re.compile(r"[A-Za-z0-9_-]{16}")
KEY_BYTES: Final = 12


def check_group_name(name: str) -> str | None:
    """Why ``name`` cannot be a group's name, or None if it can."""
    if not GROUP_NAME_RE.fullmatch(name):
        return BAD_GROUP_NAME
    if "  " in name:
        return "a group's name has no two spaces in a row"
    return None


def name_order(name: str) -> tuple[Any, ...]:
    """The order a player's groups are listed in: by name ignoring case, numbers by their
    value ("Filler 2" before "Filler 10", which came after "Filler 1").

    >>> sorted(["Filler 10", "filler 2", "Filler 1", "Club"], key=name_order)
    ['Club', 'Filler 1', 'filler 2', 'Filler 10']
    """
    parts = re.split(r"(\d+)", name.lower())  # (text, number, text, ...: alike in kind)
    return tuple(int(p) if n % 2 else p for n, p in enumerate(parts))


def group_link(gid: str, key: str) -> str:
    """The path a member passes on: opened in the browser, or given to
    ``patience-race group join``, it joins the group."""
    return f"/g/{gid}?k={key}"


def week_days(week: str) -> list[str]:
    """The seven days (``YYYY-MM-DD``, Monday first) of an ISO week ``YYYY-Www``."""
    if not valid_week(week):
        raise ValueError(f"no week {week!r}")
    monday = dt.date.fromisocalendar(int(week[:4]), int(week[6:]), 1)
    return [(monday + dt.timedelta(days=n)).isoformat() for n in range(7)]


_WEEK = re.compile(r"week/(?P<game>[a-z-]+)(?:/(?P<week>[0-9]{4}-W[0-9]{2}))?")


def parse_week_board(text: str, this_week: str) -> tuple[str, str] | None:
    """``week/GAME/YYYY-Www`` (``week/GAME``: this week) to ``(game, week)``; None when
    ``text`` is no week board at all; ValueError when it is one of a week that is not
    (or has not come yet). The game is checked by the caller.

    >>> parse_week_board("week/gate", "2026-W48"), parse_week_board("wins/gate", "2026-W48")
    (('gate', '2026-W48'), None)
    """
    found = _WEEK.fullmatch(text)
    if found is None:
        return None
    week = found["week"] or this_week
    if not valid_week(week):
        raise ValueError(f"no week {week!r}")
    if week > this_week:
        raise ValueError(f"{week} has not come yet")
    return found["game"], week


@dataclass
class WeekLine:
    """One member's week of a game's dailies: their ranked attempts on the days' boards."""

    pid: str
    played: int = 0
    wins: int = 0
    #: the total of their won dailies' times, ms
    time_ms: int = 0
    #: server ms of their last won daily's finish (who reached their wins first)
    reached_ms: int = 0
    #: the details of their last entry (its name as written: shown if the player is gone)
    player: str = "?"

    def add(self, details: dict[str, Any], finished_ms: int) -> None:
        self.played += 1
        self.player = str(details.get("player", self.player))
        if details.get("won"):
            self.wins += 1
            self.time_ms += int(details.get("time_ms", 0))
            self.reached_ms = max(self.reached_ms, finished_ms)

    def key(self) -> tuple[int, int, int, int, str]:
        """The week board's order, best first: more wins, then less total time over
        them, then more dailies played, then who reached their wins first, then id."""
        return (-self.wins, self.time_ms, -self.played, self.reached_ms, self.pid)


def week_standings(
    days: list[tuple[list[bytes | None], list[bytes | None]]],
    pids: list[str],
    unpack: Any,
) -> list[WeekLine]:
    """The members' week lines, best first, from each day's board as read for them:
    ``(details, members)`` with one value a player (``lbd`` and ``lbm`` of the day's
    board; None where they have no entry). Members with no daily that week have no line.

    >>> import json
    >>> won = lambda t: json.dumps({"player": "x", "won": True, "time_ms": t}).encode()
    >>> lines = week_standings([([won(9), won(5)], [b"1:a", b"2:b"]),
    ...                         ([None, won(5)], [None, b"3:b"])], ["a", "b"], json.loads)
    >>> [(w.pid, w.wins, w.time_ms) for w in lines]
    [('b', 2, 10), ('a', 1, 9)]
    """
    lines: dict[str, WeekLine] = {}
    for details, members in days:
        for pid, raw, member in zip(pids, details, members, strict=True):
            if raw is None or member is None:
                continue
            finished = member.decode() if isinstance(member, bytes) else str(member)
            line = lines.setdefault(pid, WeekLine(pid))
            line.add(dict(unpack(raw)), int(finished.split(":", 1)[0]))
    return sorted(lines.values(), key=WeekLine.key)
