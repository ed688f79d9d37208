"""Weekly events and their leagues: joining the week's event (``event_join``), one's
league's standings (``event``), and the week's close, which moves the top of each
league up a tier and the bottom down, once, whichever of the processes sharing the
Redis does it (``docs/leaderboards.md``, "Weekly leagues").

A member's ranked daily results reach their league through the daily's finish
(``DailyChallenge.finished``: a ``league`` write among its board writes, so that a
result held for review scores when, and only if, an operator clears it:
``review.put``). Standings are worked out from the results each time they are asked
for, so every process shows the same, and clients ask again (after a daily, or every
minute on the standings screen) rather than being pushed each change.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from server.protocol import ErrorCode
from server.protocol import messages as m

from ..domain import daily as d
from ..domain import leagues as lg
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
        self._closer = Periodic(
            "closing the weekly leagues",
            self._close_look,
            lambda: self.settings.sweep_interval,
            ctx.failures,
        )

    def requests(self) -> dict[type[m.Request], Handler]:
        return {m.EventJoin: self.on_join, m.Event: self.on_event}

    def start(self) -> None:
        self._closer.start()

    def stop(self) -> None:
        self._closer.stop()

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
        _, fresh = await self.leagues.join(week, pid, tier)
        return {"type": "event", "joined_now": fresh, **await self.view(week, pid)}

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
        return {"type": "event", **await self.view(week, pid)}

    async def view(self, week: str, pid: str) -> dict[str, Any]:
        """The player's league of the week as ``event`` shows it (``docs/protocol.md``)."""
        now = self.now()
        end = lg.week_end_ms(week)
        closed = await self.leagues.closed(week)
        league = await self.leagues.league_of(week, pid)
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
        tier = lg.tier_of(league)
        members = await self.leagues.members(week, league)
        rows = lg.standings(members, await self.leagues.results(week, league))
        moved = lg.moves(tier, rows)
        names = await self.players.names_of([row.pid for row in rows])
        today = d.day_of(now)
        mine = next(row for row in rows if row.pid == pid)
        entries = []
        for row, name in zip(rows, names, strict=True):
            entries.append(
                {
                    "rank": row.rank,
                    "name": name or "?",
                    "points": row.points,
                    "wins": row.wins,
                    "played": row.played,
                    "today": sum(p for day, _, p in row.dailies if day == today),
                    "zone": lg.movement(tier, moved.get(row.pid, tier)),
                    "you": row.pid == pid,
                }
            )
        return {
            **base,
            "joined": True,
            "tier": tier,
            "league": league,
            "players": len(rows),
            "rank": mine.rank,
            "points": mine.points,
            "zone": lg.movement(tier, moved.get(pid, tier)),
            "standings": entries,
        }

    # -- the week's close ---------------------------------------------------------------

    async def _close_look(self) -> None:
        await self.close_due()

    async def close_due(self) -> int:
        """Close every week whose close is due (its end and :data:`~lg.CLOSE_GRACE_MS`
        passed) and that no other process is closing: how many were closed here."""
        done = 0
        for week in await self.leagues.due(self.now()):
            if await self.leagues.closed(week):  # (its close died before it was forgotten:
                await self.leagues.forget_open(week)  # never done again, nor its tiers)
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
