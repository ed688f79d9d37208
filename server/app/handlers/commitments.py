"""Committed daily deals (``docs/commitments.md``): every game's deal of today and the
next 7 days is committed to, by a hash of its seed and a salt, before anyone can play it;
the seed and salt are revealed at the day's reset; and a deal that no longer matches its
commitment is never dealt.

Who publishes: every process, and none has to. Each looks every minute (and at its
start), and so does a request for the page: a day and game of the window whose deal is
fixed but not committed to gets its commitment written once (``SET NX``, with a salt
drawn by the writer). Whoever writes first, every process then reads the same record,
so all serve the same commitments, across restarts of any of them.

A deal not fixed yet is left to the certifier while it may still certify it (its day is
within ``certify_ahead``): a new server's first looks would otherwise fix a week of deals
uncertified before the certifier reached them. The certifier fixes each deal two days
before its day enters the window, so in steady state every day is committed 7 days
ahead; a new server publishes each day as its deal is certified (today's within a
minute, the week's within the hour). A deal is fixed now as its first candidate,
uncertified, when nothing will certify it: certification is off or does not reach that
day, or a player asks for the day's daily (``daily``, ``daily_status``: its day has come).

One salt per day and game, not per day: it is drawn by whoever writes that commitment and
stored in the same record in the same ``SET NX``, so a commitment and its salt can never
come from two writers; all of a day's salts are revealed at the same moment anyway.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from server.engine import GAMES
from server.protocol import ErrorCode

from ..domain import commitments as c
from ..domain import daily as d
from ..periodic import Periodic
from .base import Context, Part, refuse
from .certify import Certifier

log = logging.getLogger("patience.service")

#: seconds between a process's looks at the window of committed days
PUBLISH_INTERVAL = 60.0


class Commitments(Part):
    def __init__(self, ctx: Context, certifier: Certifier) -> None:
        super().__init__(ctx)
        self.certifier = certifier
        self.store = ctx.commitments
        #: deals refused because they no longer match their commitment (for /metrics)
        self.refused = 0
        self._looks = Periodic(
            "publishing the daily commitments",
            self._publish,
            lambda: PUBLISH_INTERVAL,
            ctx.failures,
        )

    # -- publishing ---------------------------------------------------------------------

    def start(self) -> None:
        self._looks.start()

    def stop(self) -> asyncio.Task[None] | None:
        """Stop looking; the task, to await where a look under way must be over."""
        return self._looks.stop()

    async def _publish(self) -> None:
        await self.publish()

    async def publish(self) -> list[tuple[str, list[dict[str, Any] | None]]]:
        """Make sure every game's deal of every day of the window (today and the next
        7) is committed to: one round trip when all are (the usual case), else the
        missing ones fixed and committed now. The window's records, a day at a time."""
        today = d.day_of(self.now())
        days = c.window(today)
        pairs = [(day, game) for day in days for game in GAMES]
        found = await self.store.get_many(pairs)
        made = 0
        # the last day the certifier works on: up to it, a deal not fixed is left to it
        reach = c.days_after(today, self.settings.certify_ahead)
        for n, (record, (day, game)) in enumerate(zip(found, pairs, strict=True)):
            if record is not None:
                continue
            if self.settings.certify_ahead > 0 and day <= reach:
                deal = await self.dailies.deal(day, game)
                if deal is None:
                    continue  # (being certified: committed at a later look)
            else:
                deal = await self.certifier.fixed(day, game)
            found[n], written = await self._sealed(day, game, deal)
            made += written  # (not one another process wrote first)
        if made:
            log.info("daily deals committed", extra={"days": days, "committed": made})
        per_day = len(GAMES)
        return [(day, found[i * per_day : (i + 1) * per_day]) for i, day in enumerate(days)]

    async def _commit(self, day: str, game: str) -> dict[str, Any]:
        """Commit to the day's deal, fixing it now, uncertified, if it is not fixed."""
        return await self._seal(day, game, await self.certifier.fixed(day, game))

    async def _seal(self, day: str, game: str, deal: dict[str, Any]) -> dict[str, Any]:
        return (await self._sealed(day, game, deal))[0]

    async def _sealed(
        self, day: str, game: str, deal: dict[str, Any]
    ) -> tuple[dict[str, Any], bool]:
        """The commitment as written, and whether it was written here."""
        record = c.sealed(game, day, deal, c.new_salt(), self.now())
        return await self.store.commit(day, game, record)

    async def record(self, day: str, game: str) -> dict[str, Any]:
        """The commitment to a day's deal of a game, written now if it is not yet (a
        request of today's that came before any look at the window)."""
        found = await self.store.get(day, game)
        return found if found is not None else await self._commit(day, game)

    async def looked_up(self, day: str, game: str) -> dict[str, Any] | None:
        """The commitment to a day's deal of a game, written now if its deal is fixed
        (or nothing will certify it), but never fixing a deal the certifier may still
        certify: None while it is at it. For a look that deals nothing
        (``daily_status``)."""
        found = await self.store.get(day, game)
        if found is not None:
            return found
        if self.settings.certify_ahead == 0:
            return await self._commit(day, game)
        deal = await self.dailies.deal(day, game)
        return None if deal is None else await self._seal(day, game, deal)

    # -- dealing --------------------------------------------------------------------------

    async def deal(self, day: str, game: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The day's deal of a game, and its commitment; refused (``deal_changed``,
        logged as an error and counted) when the deal no longer matches what was
        committed: someone changed it in Redis after it was published."""
        deal = await self.certifier.deal(day, game)
        record = await self.record(day, game)
        if not c.matches(game, day, int(deal["seed"]), record):
            self.certifier.forget(day, game)
            self.refused += 1
            log.error(
                "a daily deal does not match its published commitment: not dealt",
                extra={"day": day, "game": game, "commitment": record["commitment"]},
            )
            raise refuse(
                ErrorCode.DEAL_CHANGED,
                f"today's deal of {GAMES[game].name} does not match the commitment "
                f"published for it ({record['commitment'][:12]}...): the server will not "
                "deal it; its operators are alerted",
            )
        return deal, record

    # -- showing --------------------------------------------------------------------------

    async def listing(self) -> dict[str, Any]:
        """The commitments page's content: the window's days (today and the next 7, their
        commitments only) and the last 31 days (revealed: seed and salt), the latest
        first, each with every game's commitment that was published, and the days ahead
        whose deals are still being certified (``pending``: none is committed yet)."""
        today = d.day_of(self.now())
        ahead = await self.publish()
        before = c.past(today)
        pairs = [(day, game) for day in before for game in GAMES]
        found = await self.store.get_many(pairs)
        per_day = len(GAMES)
        past = [(day, found[i * per_day : (i + 1) * per_day]) for i, day in enumerate(before)]
        days = []
        for day, records in [*reversed(ahead), *past]:
            shown = [
                c.shown(game, day, record, today)
                for game, record in zip(GAMES, records, strict=True)
                if record is not None
            ]
            pending = [game for game, record in zip(GAMES, records, strict=True) if record is None]
            if shown or (pending and day >= today):
                days.append(
                    {
                        "day": day,
                        "revealed": day < today,
                        "deals": shown,
                        **({"pending": pending} if pending and day >= today else {}),
                    }
                )
        return {"today": today, "layout": c.LAYOUT, "days": days}
