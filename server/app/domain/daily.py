"""The daily challenge: one deal per game per UTC day, and what a result looks like.

A day's seed is a keyed hash of the date and the game id under the server's secret, so
nobody can work out a future deal; it is published with the day's replays once the day
is over.

>>> daily_seed(b"secret", "2026-11-22", "gate")
5803003432585633996
>>> day_of(1795305600000), next_reset_ms(1795305600000 + 1)
('2026-11-22', 1795392000000)
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

DAY_MS = 86_400_000


def daily_seed(secret: bytes, day: str, game_id: str) -> int:
    """HMAC-SHA256 of ``"{day}/{game_id}"`` under ``secret``; its first 8 bytes, big-endian."""
    digest = hmac.new(secret, f"{day}/{game_id}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def candidate_seed(secret: bytes, day: str, game_id: str, n: int) -> int:
    """The ``n``-th candidate for a day's deal of a game: the first (``n`` = 0) is
    :func:`daily_seed`, the next ones HMAC-SHA256 of ``"{day}/{game_id}/{n}"``. The day's
    deal is the first the solver proves winnable (``docs/daily.md``).

    >>> candidate_seed(b"k", "2026-11-24", "gate", 0) == daily_seed(b"k", "2026-11-24", "gate")
    True
    >>> seeds = {candidate_seed(b"k", "2026-11-24", "gate", n) for n in range(3)}
    >>> len(seeds)
    3
    """
    if n == 0:
        return daily_seed(secret, day, game_id)
    digest = hmac.new(secret, f"{day}/{game_id}/{n}".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big")


def book_id(day: str, game_id: str) -> str:
    """The id of a day's book line (the certificate, as a replay): letters and digits.

    >>> book_id("2026-11-24", "gate-narrow")
    'book20261124gatenarrow'
    """
    return "book" + day.replace("-", "") + game_id.replace("-", "")


def day_of(ms: int) -> str:
    """The UTC date of a server time, ``YYYY-MM-DD``."""
    return dt.datetime.fromtimestamp(ms / 1000, dt.UTC).strftime("%Y-%m-%d")


def day_start_ms(day: str) -> int:
    date = dt.datetime.strptime(day, "%Y-%m-%d").replace(tzinfo=dt.UTC)
    return int(date.timestamp() * 1000)


def next_reset_ms(ms: int) -> int:
    """The server time of the next UTC midnight after ``ms``."""
    return (ms // DAY_MS + 1) * DAY_MS


def till_reset_text(ms: int) -> str:
    """How long from ``ms`` to the next reset, for a person: "17 min" (it said "0 h 17
    min"), "7 h 05 min".

    >>> till_reset_text(next_reset_ms(0) - 17 * 60_000), till_reset_text(3 * 60_000 + 59)
    ('17 min', '23 h 56 min')
    """
    left = max(next_reset_ms(ms) - ms, 0) // 60_000
    return f"{left // 60} h {left % 60:02d} min" if left >= 60 else f"{left} min"


def previous_day(day: str) -> str:
    return day_of(day_start_ms(day) - DAY_MS)


def next_day(day: str) -> str:
    """The day after ``day``.

    >>> next_day("2026-12-31")
    '2027-01-01'
    """
    return day_of(day_start_ms(day) + DAY_MS)


def iso_week(ms: int) -> str:
    """The ISO week of a server time, ``YYYY-Www``."""
    year, week, _ = dt.datetime.fromtimestamp(ms / 1000, dt.UTC).isocalendar()
    return f"{year}-W{week:02d}"


def valid_week(text: str) -> bool:
    """Whether ``YYYY-Www`` is an ISO week: W01 to W52, or W53 in a year that has one (a
    year whose 28 December falls in week 53).

    >>> valid_week("2026-W53"), valid_week("2025-W53"), valid_week("2026-W00")
    (True, False, False)
    """
    year, dash_w, week = text[:4], text[4:6], text[6:]
    if dash_w != "-W" or not (year + week).isascii() or not (year + week).isdecimal():
        return False
    if len(year) != 4 or len(week) != 2:
        return False
    try:
        dt.date.fromisocalendar(int(year), int(week), 1)
    except ValueError:  # week 0, 54 and up, 53 in a 52-week year; year 0
        return False
    return True


def valid_day(text: str) -> bool:
    try:
        dt.datetime.strptime(text, "%Y-%m-%d")
    except ValueError:
        return False
    return len(text) == 10


def moves_text(moves: int) -> str:
    """``1 move``, ``20 moves``: a count of moves as a line says it.

    >>> moves_text(1), moves_text(0), moves_text(20)
    ('1 move', '0 moves', '20 moves')
    """
    return f"{moves} move" if moves == 1 else f"{moves} moves"


def clock_text(ms: int) -> str:
    """``m:ss`` (or ``h:mm:ss``) of a duration."""
    seconds = ms // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def finish_text(ms: int) -> str:
    """A won game's time on a board, to the tenth as the clients give it (to the second,
    two times the board ranks apart read the same).

    >>> finish_text(55_260), finish_text(3_723_400)
    ('0:55.2', '1:02:03.4')
    """
    return f"{clock_text(ms)}.{max(ms, 0) // 100 % 10}"


def result_line(
    game_name: str,
    day: str,
    won: bool,
    time_ms: int,
    moves: int,
    home: int,
    total: int,
    par: int | None = None,
    hints: int = 0,
    unit: str = "cards",
) -> str:
    """The spoiler-free line a player pastes into a chat: no card, no move; with the
    day's par (the book line's length) where the deal is certified, and the hints
    taken, when there were any. Where the cards leave in pairs (``unit`` "pairs", as
    ``lost.unit`` says: Nestor, Doubles and Quits), the pairs taken off are counted.

    >>> result_line("The Gate", "2026-11-22", True, 205_000, 142, 52, 52)
    'Patience Race · The Gate · 2026-11-22 · won in 3:25 · 142 moves · 52/52 home'
    >>> result_line("Nestor", "2026-11-22", False, 61_000, 20, 30, 52, par=31)
    'Patience Race · Nestor · 2026-11-22 · not won · 20 moves · 30/52 home · par 31'
    >>> result_line("Nestor", "2026-11-22", False, 61_000, 20, 30, 52, hints=2)
    'Patience Race · Nestor · 2026-11-22 · not won · 20 moves · 30/52 home · 2 hints'
    >>> result_line("Nestor", "2026-11-22", False, 61_000, 20, 30, 52, unit="pairs")
    'Patience Race · Nestor · 2026-11-22 · not won · 20 moves · 15/26 pairs off'

    A game not won gives no time, as no board shows one: its time ranks nothing.
    """
    outcome = f"won in {clock_text(time_ms)}" if won else "not won"
    got = f"{home // 2}/{total // 2} pairs off" if unit == "pairs" else f"{home}/{total} home"
    line = f"Patience Race · {game_name} · {day} · {outcome} · {moves_text(moves)} · {got}"
    if par is not None:
        line += f" · par {par}"
    if hints:
        line += f" · {hints} hint" if hints == 1 else f" · {hints} hints"
    return line
