"""Weekly events and their leagues: joining the week's event (``event_join``), one's
league's standings (``event``), and the week's close, which moves the top of each
league up a tier and the bottom down, once, whichever of the processes sharing the
Redis does it (``docs/leaderboards.md``, "Weekly leagues").

A member's ranked daily results reach their league through the daily's finish
(``DailyChallenge.finished``: a ``league`` write among its board writes, so that a
result held for review scores when, and only if, an operator clears it:
``review.put``). Standings are worked out from the results each time they are asked
for, so every process shows the same.

Live standings: a connection may watch its league of this week (``event`` with
``watch``). A change (a member joins, a member's daily counts, the week closes) is a
``league`` notice on the bus (the daily's finish tells it here as a
:class:`~server.app.events.LeagueChanged`; the operator's ``review clear`` publishes it
from outside); each process that hears it reads the standings once and sends them to its
own watchers of that league, each as they see it. A process that could not hear the bus
for a while sends every watcher the standings again when it hears again.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from server.protocol import ErrorCode
from server.protocol import messages as m

from ..domain import daily as d
from ..domain import leagues as lg
from ..events import LeagueChanged
from ..periodic import Periodic
from ..store.leagues import BATCH, KEPT_MS, Leagues
from .base import Context, Handler, Part, Session, refuse

log = logging.getLogger("patience.service")


class WeeklyEvents(Part):
    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.leagues = Leagues(ctx.redis)
        #: weeks closed by this process (the test of "exactly once" adds these up)
        self.closed_here: list[str] = []
        #: connections here watching their league: session -> (week, league; None until
        #: they join), and (week, league) -> its watchers
        self.watching: dict[Session, tuple[str, str | None]] = {}
        self.watchers: dict[tuple[str, str], set[Session]] = {}
        #: the weeks whose end this process has told its watchers of
        self.told_ended: set[str] = set()
        ctx.events.on(LeagueChanged, self.on_changed)
        self._closer = Periodic(
            "closing the weekly leagues",
            self.look,
            lambda: self.settings.sweep_interval,
            ctx.failures,
        )

    def requests(self) -> dict[type[m.Request], Handler]:
        return {m.EventJoin: self.on_join, m.Event: self.on_event}

    def start(self) -> None:
        self._closer.start()

    def stop(self) -> list[asyncio.Task[None]]:
        """Stop the looks; their task, to await where a look under way must be over."""
        return [t for t in (self._closer.stop(),) if t is not None]

    async def on_join(self, session: Session, req: m.EventJoin) -> dict[str, Any]:
        """Join this week's event (once: joining again answers the league joined)."""
        pid = self.need_player(session)
        now = self.now()
        week = d.iso_week(now)
        if await self.close_due() or await self._unclosed(now):
            raise refuse(
                ErrorCode.EVENT_CLOSING,
                "last week's leagues are being closed and the tiers settled; "
                "try again in a few minutes",
            )
        tier = await self.leagues.tier(pid)
        league, fresh = await self.leagues.join(week, pid, tier)
        if fresh:  # its members watching see one more, here at once and elsewhere soon
            self.bus.publish_league(week, league)
            await self.send_standings(week, league)
        if session in self.watching:
            self.watch(session, week, league)
        return {
            "type": "event",
            "joined_now": fresh,
            **await self.view(week, pid),
            "watching": session in self.watching,
        }

    async def _unclosed(self, now: int) -> bool:
        """Whether a week that has ended is not closed yet (its grace, or its close under
        way elsewhere): a tier may be about to change."""
        return bool(await self.leagues.due(now + lg.CLOSE_GRACE_MS))

    async def on_event(self, session: Session, req: m.Event) -> dict[str, Any]:
        pid = self.need_player(session)
        now = self.now()
        week = req.week or d.iso_week(now)
        if not d.valid_week(week):
            raise refuse(
                ErrorCode.NO_SUCH_WEEK, f"{week!r} is no ISO week (YYYY-Www, e.g. 2026-W48)"
            )
        if week > d.iso_week(now):
            raise refuse(ErrorCode.NO_SUCH_WEEK, f"{week} has not come yet")
        if now - lg.week_end_ms(week) > KEPT_MS:
            raise refuse(ErrorCode.NO_SUCH_WEEK, f"{week}'s event is no longer kept")
        if req.watch and week != d.iso_week(now):
            raise refuse(
                ErrorCode.BAD_REQUEST, f"event: only this week's league is watched, not {week}'s"
            )
        if req.watch:
            self.watch(session, week, await self.leagues.league_of(week, pid))
        elif req.watch is not None:
            self.forget(session)
        view = await self.view(week, pid)
        return {"type": "event", **view, "watching": session in self.watching}

    # -- live standings -----------------------------------------------------------------

    def watch(self, session: Session, week: str, league: str | None) -> None:
        """``session`` watches its league of ``week`` (None: not joined yet; its join
        makes it the league's watcher)."""
        self.forget(session)
        self.watching[session] = (week, league)
        if league is not None:
            self.watchers.setdefault((week, league), set()).add(session)

    def forget(self, session: Session) -> None:
        """No more standings for ``session`` (asked, or its connection closed)."""
        found = self.watching.pop(session, None)
        if found is None or found[1] is None:
            return
        watchers = self.watchers.get((found[0], found[1]))
        if watchers is not None:
            watchers.discard(session)
            if not watchers:
                del self.watchers[(found[0], found[1])]

    def on_changed(self, event: LeagueChanged) -> None:
        """A league's standings changed here: its watchers here and in every process."""
        self.bus.publish_league(event.week, event.league)
        self.spawn(self.send_standings(event.week, event.league))

    def relay(self, data: dict[str, Any]) -> None:
        """A ``league`` notice from another process (or the operator's command)."""
        week, league = data.get("week"), data.get("league")
        if isinstance(week, str) and isinstance(league, str):
            self.spawn(self.send_standings(week, league))

    async def catch_up(self) -> None:
        """The bus is heard again after it was not: the notices missed meanwhile are
        lost, so every watcher here is sent its standings as they stand."""
        for week, league in list(self.watchers):
            await self.send_standings(week, league)

    async def send_standings(self, week: str, league: str) -> None:
        """Each watcher here of ``league`` (every league of ``week``: ``""``, those not
        joined too) is sent its standings as it sees them, read once a league. A watcher
        not joined when they began who has joined since (from another connection, here
        or elsewhere: the join's notice brings this) watches their league from now on."""
        await self._joined_since(week)
        keys = [k for k in self.watchers if k[0] == week and (k[1] == league or not league)]
        for key in keys:
            table = await self.table(week, key[1])
            members = {row["pid"] for row in table["rows"]}
            for session in list(self.watchers.get(key, ())):
                if session.player in members:
                    seen = self.seen_by(table, str(session.player))
                    session.send({"type": "event", **seen, "watching": True})
        if not league:
            for session, watched in list(self.watching.items()):
                if watched == (week, None) and session.player is not None:
                    seen = await self.view(week, str(session.player))
                    session.send({"type": "event", **seen, "watching": True})

    async def _joined_since(self, week: str) -> None:
        for session, watched in list(self.watching.items()):
            if watched == (week, None) and session.player is not None:
                league = await self.leagues.league_of(week, str(session.player))
                if league is not None:
                    self.watch(session, week, league)

    async def view(self, week: str, pid: str) -> dict[str, Any]:
        """The player's league of the week as ``event`` shows it (``docs/protocol.md``)."""
        league = await self.leagues.league_of(week, pid)
        if league is None:
            base = await self.table(week, None)
            return {
                **base,
                "joined": False,
                "tier": await self.leagues.tier(pid),
                "league": None,
                "players": 0,
                "rank": None,
                "points": 0,
                "standings": [],
            }
        return self.seen_by(await self.table(week, league), pid)

    async def table(self, week: str, league: str | None) -> dict[str, Any]:
        """What every member of ``league`` sees alike: the week, its rules, and (with a
        league) ``rows``, the standings with each member's id (:meth:`seen_by` makes
        one member's view of it)."""
        now = self.now()
        end = lg.week_end_ms(week)
        closed = await self.leagues.closed(week)
        if not closed and end <= now:
            # a week over that nobody joined has nothing to close, and no close runs: it
            # had read as one still closing, for ever
            closed = await self.leagues.size(week) == 0
        base: dict[str, Any] = {
            "week": week,
            "current": week == d.iso_week(now),
            "ends_at": end,
            "ends_in_ms": max(0, end - now),
            "closed": closed,
            "tiers": list(lg.TIERS),
            "rules": {
                "league_size": lg.LEAGUE_SIZE,
                "movers": lg.MOVERS,
                "win": lg.WIN_POINTS,
                "rank_bonus": lg.RANK_BONUS,
                "played": lg.PLAYED_POINTS,
            },
        }
        if league is None:
            return base
        tier = lg.tier_of(league)
        members = await self.leagues.members(week, league)
        rows = lg.standings(members, await self.leagues.results(week, league))
        moved = lg.moves(tier, rows)
        names = await self.players.names_of([row.pid for row in rows])
        today = d.day_of(now)
        entries = []
        for row, name in zip(rows, names, strict=True):
            entries.append(
                {
                    "pid": row.pid,
                    "rank": row.rank,
                    "name": name or "?",
                    "points": row.points,
                    "wins": row.wins,
                    "played": row.played,
                    "today": sum(p for day, _, p in row.dailies if day == today),
                    "zone": lg.movement(tier, moved.get(row.pid, tier)),
                }
            )
        # how many move each way at the close, at the league's size now
        movers = lg.movers(len(rows))
        return {**base, "tier": tier, "league": league, "movers": movers, "rows": entries}

    @staticmethod
    def seen_by(table: dict[str, Any], pid: str) -> dict[str, Any]:
        """A member's view of their league's :meth:`table`: the standings with their own
        row marked (``you``), and their rank, points and way at the close."""
        rows = table["rows"]
        mine = next(row for row in rows if row["pid"] == pid)
        out = {k: v for k, v in table.items() if k != "rows"}
        standings = [
            {**{k: v for k, v in row.items() if k != "pid"}, "you": row["pid"] == pid}
            for row in rows
        ]
        return {
            **out,
            "joined": True,
            "players": len(rows),
            "rank": mine["rank"],
            "points": mine["points"],
            "zone": mine["zone"],
            "standings": standings,
        }

    # -- the week's close ---------------------------------------------------------------

    async def look(self) -> None:
        """The periodic look: the end of a week watched here told (:meth:`tell_ended`),
        then every close due (:meth:`close_due`)."""
        await self.tell_ended()
        await self.close_due()

    async def tell_ended(self) -> None:
        """A week watched here that has ended since the last look: its watchers here
        (each process its own) are sent the standings once, as they stand at its end
        (no time left, no day's points), before the close comes minutes later."""
        now = self.now()
        for week in sorted({week for week, _ in self.watching.values()}):
            if week not in self.told_ended and lg.week_end_ms(week) <= now:
                self.told_ended.add(week)
                await self.send_standings(week, "")

    async def close_due(self) -> int:
        """Close every week whose close is due (its end and :data:`~lg.CLOSE_GRACE_MS`
        passed) and that no other process is closing: how many were closed here."""
        done = 0
        for week in await self.leagues.due(self.now()):
            if await self.leagues.closed(week):
                # its close died before it was told (never done again, nor its tiers):
                # told now, to every league's watchers, wherever they are
                await self.told_closed(week)
                continue
            if not await self.leagues.claim_close(week, self.proc):
                continue  # another process is closing it
            try:
                if await self.close(week):
                    done += 1
            finally:
                await self.leagues.release_close(week, self.proc)
        return done

    async def close(self, week: str) -> bool:
        """Close a week (:func:`close_week`); True if this call marked it closed."""
        closed = await close_week(self.leagues, week, self.proc)
        await self.told_closed(week)
        if closed.marked:
            self.closed_here.append(week)
            log.info(
                "weekly leagues closed",
                extra={
                    "week": week,
                    "leagues": closed.leagues,
                    "up": closed.up,
                    "down": closed.down,
                },
            )
        return closed.marked

    async def told_closed(self, week: str) -> None:
        """Tell every league's watchers the week is closed, then take it off the open
        weeks (told twice where a close died between the two: the same standings)."""
        self.bus.publish_league(week, "")
        await self.send_standings(week, "")
        await self.leagues.forget_open(week)


@dataclass(frozen=True, slots=True)
class Closed:
    """What a week's close did: whether it marked the week closed (False: a close before
    had), how many leagues it went through, and how many moved up and down."""

    marked: bool
    leagues: int
    up: int
    down: int


async def close_week(store: Leagues, week: str, proc: str) -> Closed:
    """Close a week: no more results (its door shut first), each league's standings as
    they stand, its top up a tier and bottom down (:func:`lg.moves`), the week marked
    closed and its keys kept :data:`~.keys.EVENT_TTL`. Every write may be done again
    (the tiers written are worked out from the week's tiers, not added to), so a close
    cut short is done again whole by the next claim (``bench/league_close.py`` times it)."""
    await store.shut(week)
    leagues = await store.leagues(week)
    up = down = 0
    for start in range(0, len(leagues), BATCH):
        batch = leagues[start : start + BATCH]
        tiers: dict[str, str] = {}
        for league, (members, results) in zip(batch, await store.tables(week, batch), strict=True):
            tier = lg.tier_of(league)
            moved = lg.moves(tier, lg.standings(members, results))
            for pid in members:
                tiers[pid] = moved.get(pid, tier)
                way = lg.movement(tier, tiers[pid])
                up += way == "up"
                down += way == "down"
        await store.set_tiers(tiers)
    marked = await store.mark_closed(week, leagues, proc)
    return Closed(marked, len(leagues), up, down)
