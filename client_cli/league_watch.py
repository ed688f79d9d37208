"""``league --watch`` across the week's end and its close, and the first minutes of a
week while last week's leagues are being closed (``docs/client.md``, "This week's
league").

What the watch shows is kept in :class:`Watched`, a pure state moved on by what the
server sends (:meth:`Watched.heard`), by the reply to watching again (after the close,
or once the connection is back: :meth:`Watched.rewatched`) and by the local clock
(:meth:`Watched.tick`): the week's end is drawn at its time even if nothing is pushed.
:func:`watch_view` draws it. The times are the local clock's (``time.monotonic``),
reckoned from the time left each reply says, so the server's clock is never needed."""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field
from typing import Any

from rich.console import Group
from rich.text import Text

from .connection import DOWN, RETRYING, SIGNED_OUT
from .fitted import fitted
from .lines import as_int, kept_parts
from .sanitize import clean

WEEK_MS = 7 * 86_400_000
#: the close comes this long after the week's end (the server's ``CLOSE_GRACE_MS``)
CLOSE_GRACE_MS = 5 * 60_000
#: from the week's start, the time a join may be refused (``event_closing``) while last
#: week's leagues are being closed: the grace, and a minute for the server's look
CLOSING_MS = CLOSE_GRACE_MS + 60_000
#: seconds between two asks of a week being closed, if its close is not pushed
POLL_S = 20.0
#: the countdown is redrawn this long after the time left passes a minute (or an hour):
#: by then the words have changed
PAST_S = 0.05

CLOSING_WORDS = (
    "Last week's leagues are being closed and the tiers settled: this week's league "
    "opens to joining in a few minutes"
)


def at_end(reply: dict[str, Any]) -> dict[str, Any]:
    """The standings as they stand at the week's end, as the server would send them
    then: no time left, not this week any more, no day's points."""
    rows = [{**r, "today": 0} if isinstance(r, dict) else r for r in reply.get("standings") or []]
    return {**reply, "current": False, "ends_in_ms": 0, "standings": rows}


def since_start_ms(reply: dict[str, Any]) -> int:
    """How long this week had run when ``reply`` (this week's) was made."""
    return WEEK_MS - as_int(reply.get("ends_in_ms"))


def in_closing_window(reply: dict[str, Any]) -> bool:
    """Whether this week's ``reply`` came in its first minutes, when last week's leagues
    may still be being closed (a join refused with ``event_closing``).

    >>> in_closing_window({"current": True, "ends_in_ms": WEEK_MS - 60_000})
    True
    >>> in_closing_window({"current": True, "ends_in_ms": WEEK_MS - CLOSING_MS})
    False
    """
    return bool(reply.get("current")) and 0 <= since_start_ms(reply) < CLOSING_MS


def previous_week(week: str) -> str:
    """The ISO week before ``week``.

    >>> previous_week("2026-W01"), previous_week("2026-W48")
    ('2025-W52', '2026-W47')
    """
    monday = datetime.date.fromisocalendar(int(week[:4]), int(week[6:]), 1)
    year, number, _ = (monday - datetime.timedelta(days=7)).isocalendar()
    return f"{year}-W{number:02d}"


@dataclass
class Watched:
    """What ``league --watch`` shows: the week watched (``now``), and the week watched
    before it once it has ended (``last``: its result, closed or closing, shown above the
    new week until the player joins the new week's league)."""

    now: dict[str, Any]
    #: the local time (monotonic seconds) at which ``now``'s week ends
    end_at: float = 0.0
    last: dict[str, Any] | None = None
    #: the weeks heard to be closed
    closed: set[str] = field(default_factory=set)
    #: when a week being closed was last asked about
    asked_at: float = 0.0
    #: the connection's state while it is not up (:func:`link_words`), else ""
    link: str = ""

    @classmethod
    def first(cls, reply: dict[str, Any], at: float) -> Watched:
        watched = cls(reply)
        watched._timed(reply, at)
        return watched

    def _timed(self, reply: dict[str, Any], at: float) -> None:
        if reply.get("current"):
            self.end_at = at + as_int(reply.get("ends_in_ms")) / 1000

    def _ended(self, at: float) -> None:
        """The week watched has ended: its close is first asked about when due."""
        self.asked_at = at + CLOSE_GRACE_MS / 1000 - POLL_S

    def heard(self, reply: dict[str, Any], at: float) -> bool:
        """A week's standings heard (pushed, or asked): whether the week watched is
        closed, so that the new week's is to be watched."""
        week = str(reply.get("week", ""))
        if reply.get("closed"):
            self.closed.add(week)
        if week == self.now.get("week"):
            if reply.get("joined") and not self.now.get("joined"):
                self.last = None  # (joined the new week: its league is shown now)
            if self.now.get("current") and not reply.get("current"):
                self._ended(at)
            self.now = reply
            self._timed(reply, at)
            return bool(reply.get("closed"))
        if self.last is not None and week == self.last.get("week"):
            self.last = reply
        return False

    def rewatched(self, reply: dict[str, Any], at: float) -> str | None:
        """The reply to watching again: the week whose result is to be asked for, where
        the week watched has ended meanwhile (its result is shown first)."""
        ask = None
        if reply.get("week") != self.now.get("week") and self.now.get("joined"):
            self.last = self.now
            if str(self.now.get("week")) not in self.closed:
                ask = str(self.now.get("week"))
        self.now = reply
        self._timed(reply, at)
        return ask

    def left_ms(self, at: float) -> int:
        """The time left to the end of the week watched at ``at``, by the local clock from
        the last reply (the line on top counts down with nothing pushed)."""
        return max(0, round((self.end_at - at) * 1000))

    def shown(self, at: float) -> dict[str, Any]:
        """The week watched as drawn at ``at``: its time left counted down."""
        if self.now.get("current") and not self.now.get("closed"):
            return {**self.now, "ends_in_ms": self.left_ms(at)}
        return self.now

    def next_words(self, at: float) -> float:
        """When the time left next reads otherwise: past the next whole minute (past the
        next hour while it reads in days and hours); under a minute, at the end."""
        left = self.end_at - at
        if left < 60:
            return self.end_at
        step = 3600 if left >= 86_400 else 60
        return at + left % step + PAST_S

    def tick(self, at: float) -> bool:
        """The local clock at ``at``: whether the view changed (the week's end come)."""
        if self.now.get("current") and not self.now.get("closed") and at >= self.end_at:
            self.now = at_end(self.now)
            self._ended(at)
            return True
        return False

    def closing(self, at: float) -> bool:
        """Whether last week's leagues are (likely) being closed: this week's first
        minutes, last week not heard to be closed."""
        if not self.now.get("current"):
            return False
        before = previous_week(str(self.now.get("week", "")))
        if before in self.closed:
            return False
        if self.last is not None and self.last.get("week") == before:
            return True  # (heard to be closing, whatever the time)
        return at < self.end_at - WEEK_MS / 1000 + CLOSING_MS / 1000

    def being_closed(self, at: float) -> str | None:
        """The week whose close is awaited (ended, not heard closed): to ask about."""
        now = self.now
        week = str(now.get("week", ""))
        if not now.get("current") and week not in self.closed:
            return week
        if self.last is not None and str(self.last.get("week")) not in self.closed:
            return str(self.last.get("week"))
        if self.closing(at):
            return previous_week(week)
        return None

    def wake(self, at: float) -> float | None:
        """Seconds to wait before looking again without hearing anything (None: none)."""
        times = []
        if self.now.get("current") and not self.now.get("closed"):
            times.append(self.end_at)
            times.append(self.next_words(at))
            if self.closing(at):
                times.append(self.end_at - WEEK_MS / 1000 + CLOSING_MS / 1000)
        if self.being_closed(at) is not None:
            times.append(self.asked_at + POLL_S)
        return max(0.0, min(times) - at) if times else None


def link_words(state: str, delay: float | None) -> str:
    """The connection's state (``Connection.on_link``) as the watch says it, in place of
    its hint, until it is back (it said "watching: redrawn as the standings change"
    while its server was down); "" when up.

    >>> link_words("retrying", 0.5), link_words("up", None)
    ('connection lost: reconnecting in 0.5 s', '')
    """
    if state == RETRYING:
        return f"connection lost: reconnecting in {delay or 0:g} s"
    if state == DOWN:
        return "disconnected: cannot sign in again"
    if state == SIGNED_OUT:
        return "signed out: signed in elsewhere"
    return ""


def ended_words(reply: dict[str, Any], closed: bool) -> Text:
    """A week watched not joined, once it has ended (or closed)."""
    week = clean(str(reply.get("week", "")), 8)
    if closed:
        return Text(f"Week {week} is closed; you did not race in its league.", style="bold")
    return Text.assemble(
        (f"Week {week} has ended; you did not race in its league.", "bold"),
        "\nIts leagues are being closed and the tiers settled: the next week's league "
        "opens after, in a few minutes.",
    )


def watch_view(
    watched: Watched, at: float, ascii: bool, join: str, hint: Text, keep: int | None = None
) -> Group:
    """The watch's screen: the last week's result where it has one, then this week's (a
    line alone under a result), how to join it (or that it cannot be joined yet), and
    the hint; ``keep``: the rows its table may take (:func:`watch_screen`)."""
    from .league import headline, league_view

    now = watched.shown(at)
    parts: list[Any] = []
    if watched.last is not None:
        parts += [league_view(watched.last, ascii, keep), Text("")]
    if now.get("joined") or now.get("current"):
        shown = league_view(now, ascii, keep)
        last = Text(kept_parts(headline(now)), style="bold")
        parts.append(last if watched.last is not None else shown)
    else:
        parts.append(ended_words(now, bool(now.get("closed"))))
    if not now.get("joined") and now.get("current"):
        closing = watched.closing(at)
        parts.append(Text(f"{CLOSING_WORDS}." if closing else f"Join it: {join}"))
    parts.append(Text(f"{watched.link} · Ctrl-C stops", style="bold red") if watched.link else hint)
    return Group(*parts)


def watch_screen(
    watched: Watched,
    at: float,
    ascii: bool,
    join: str,
    hint: Text,
    width: int,
    height: int | None,
) -> Text:
    """:func:`watch_view` fitted to ``height`` lines (None: whole): a league too long
    for the screen shows its top, the rows around one's own and its bottom, "…" between
    (:func:`~.league.picked`), its line on top and the watching line (or the
    connection's state) always there (:mod:`.fitted`); rich cut it at the screen's foot."""
    table = watched.last if watched.last is not None else watched.now
    size = len(table.get("standings") or [])

    def make(keep: int | None) -> Group:
        return watch_view(watched, at, ascii, join, hint, keep)

    return fitted(make, size, ascii, width, height)
