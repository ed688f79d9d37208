"""Certified daily deals: each game's deal of a day is the first of the day's candidate
seeds (``domain.daily.candidate_seed``) that the solver proves winnable, its shortest line
found kept as the book line (its length is par), all of it secret until the day's reset.

Deals are certified ahead, today's and ``certify_ahead`` days more, by a background task
that runs the solver in a worker process (``server.solver.certify``, in the ``certify``
pool: the event loop never waits on it) and that one process of those sharing the Redis
claims for each deal. A deal is fixed once (``Dailies.fix_deal``): by its certificate, or,
when its day comes first (or no candidate could be proved winnable in the budget), as
its first candidate, marked uncertified. The day is never held up.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from server.engine import GAMES
from server.solver import CertificateError, check_line
from server.solver.certify import certify

from ..domain import daily as d
from ..domain import replays
from .base import Part

if TYPE_CHECKING:
    from ..service import Service

log = logging.getLogger("patience.service")

#: seconds between the background task's looks at the deals ahead
CERTIFY_INTERVAL = 60.0


class Certifier(Part):
    def __init__(self, app: Service) -> None:
        super().__init__(app)
        #: the deals fixed, as read (they never change once fixed)
        self._deals: dict[tuple[str, str], dict[str, Any]] = {}
        #: deals certified by this process (for the tests and the log)
        self.certified_here = 0
        self._task: asyncio.Task[None] | None = None

    # -- the deal of a day --------------------------------------------------------------

    async def deal(self, day: str, game_id: str) -> dict[str, Any]:
        """The day's deal of a game: ``{"seed", "n", "certified", "par", "line",
        "shortest"}`` (``line`` and ``par`` only where certified). Fixed now as its first
        candidate, uncertified, if nothing fixed it before (the day has come)."""
        key = (day, game_id)
        found = self._deals.get(key)
        if found is None:
            found = await self.dailies.deal(day, game_id)
            if found is None:
                seed = d.candidate_seed(self.app.daily.secret, day, game_id, 0)
                found = await self.dailies.fix_deal(day, game_id, uncertified(seed))
            self._deals[key] = found
            if len(self._deals) > 4 * len(GAMES):  # (yesterday's and older: forgotten)
                oldest = min(self._deals)
                del self._deals[oldest]
        return found

    async def par(self, day: str, game_id: str) -> int | None:
        """The day's par for a game, where its deal is certified (None: not, or not yet
        fixed: par is never a reason to fix a deal)."""
        found = self._deals.get((day, game_id)) or await self.dailies.deal(day, game_id)
        return None if found is None or not found.get("certified") else int(found["par"])

    # -- certifying ahead ---------------------------------------------------------------

    def start(self) -> None:
        if self.settings.certify_ahead > 0 and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._forever())

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _forever(self) -> None:
        while True:
            try:
                await self.certify_ahead()
            except Exception as exc:  # tried again at the next look
                self.failures.failed("certifying daily deals", exc)
            await asyncio.sleep(CERTIFY_INTERVAL)

    async def certify_ahead(
        self, days: list[str] | None = None, games: list[str] | None = None
    ) -> None:
        """Certify every deal not fixed yet of ``days`` (today's and the
        ``certify_ahead`` next) and ``games`` (all), one at a time."""
        if days is None:
            today = d.day_of(self.now())
            days = [today]
            for _ in range(self.settings.certify_ahead):
                days.append(d.next_day(days[-1]))
        for day in days:
            for game_id in games or list(GAMES):
                await self.certify_one(day, game_id)

    async def certify_one(self, day: str, game_id: str) -> dict[str, Any] | None:
        """Certify one deal, unless it is fixed or another process has claimed it: the
        deal as fixed, or None when it was left to another process."""
        if await self.dailies.deal(day, game_id) is not None:
            return None
        budget = self.settings.certify_budget
        candidates = self.settings.certify_candidates
        # the claim outlasts the search (then another process takes the deal over)
        claim_ms = int((budget * candidates * 1.5 + 60) * 1000)
        if not await self.dailies.claim_certifying(day, game_id, self.proc, claim_ms):
            return None
        secret = self.app.daily.secret
        seeds = [d.candidate_seed(secret, day, game_id, n) for n in range(candidates)]
        found = await self.workers.run(
            "certify", certify, game_id, seeds, budget, timeout=claim_ms / 1000
        )
        if found is None:
            log.warning(
                "no candidate proved winnable: the deal is its first, uncertified",
                extra={"day": day, "game": game_id, "tried": candidates},
            )
            deal = uncertified(seeds[0])
        else:
            try:  # a line is trusted once it has won through the engine here too
                check_line(game_id, found["line"], seed=found["seed"])
            except CertificateError as exc:
                self.failures.failed("certifying daily deals", exc, game=game_id)
                return None
            deal = {**found, "certified": True}
        fixed = await self.dailies.fix_deal(day, game_id, deal)
        if fixed.get("certified") and fixed.get("seed") == deal.get("seed"):
            self.certified_here += 1
            shown = replays.book(day, d.day_start_ms(day), game_id, fixed["seed"], fixed["line"])
            shown["shortest"] = bool(fixed.get("shortest"))
            await self.replays.keep([(shown["id"], shown, "")])
            log.info(
                "daily deal certified",
                extra={
                    "day": day,
                    "game": game_id,
                    "candidate": fixed["n"],
                    "par": fixed["par"],
                    "seconds": fixed["seconds"],
                },
            )
        return fixed


def uncertified(seed: int) -> dict[str, Any]:
    return {"seed": seed, "n": 0, "certified": False}
