"""Certified daily deals: each game's deal of a day is the first of the day's candidate
seeds (``domain.daily.candidate_seed``) that the solver proves winnable, its shortest line
found kept as the book line (its length is par), all of it secret until the day's reset.

Deals are certified ahead, today's and ``certify_ahead`` days more (9 by default: a deal
is fixed before its day enters the 8 days whose commitments are published,
``handlers.commitments``), by a background task
that runs the solver in a worker process (``server.solver.certify``, in the ``certify``
pool, whose processes run at a lower CPU priority than the server: the event loop never
waits on it) and that one process of those sharing the Redis claims for each deal. A
day at a time, today's first, every game's deal is fixed by the solver's quick verdict
before the longer search for the pars begins. A deal is fixed once
(``Dailies.fix_deal``): by its certificate, or, when its day comes first (or no candidate
could be proved winnable in the budget), as its first candidate, marked uncertified. The
day is never held up. Its book line and par are fixed once too, when found
(``Dailies.fix_par``); until then the deal has no par to tell.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import Any

from server.engine import GAMES
from server.solver import CertificateError, check_line
from server.solver.certify import first_winnable, shortest_line

from ..domain import daily as d
from ..domain import replays
from ..periodic import Periodic
from ..workers import timed
from .base import Context, Part

log = logging.getLogger("patience.service")

#: seconds between the background task's looks at the deals ahead
CERTIFY_INTERVAL = 60.0


class Certifier(Part):
    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        #: the deals fixed, as read (they never change once fixed)
        self._deals: dict[tuple[str, str], dict[str, Any]] = {}
        #: deals certified by this process (for the tests and the log)
        self.certified_here = 0
        self._looks = Periodic(
            "certifying daily deals", self.certify_ahead, lambda: CERTIFY_INTERVAL, ctx.failures
        )

    # -- the deal of a day --------------------------------------------------------------

    async def deal(self, day: str, game_id: str) -> dict[str, Any]:
        """The day's deal of a game: ``{"seed", "n", "certified", "par", "line",
        "shortest"}`` (``line`` only where certified, ``par`` and ``shortest`` once its
        search for par is done too). Fixed now as its first
        candidate, uncertified, if nothing fixed it before (the day has come)."""
        key = (day, game_id)
        found = self._deals.get(key)
        if found is None:
            found = await self.fixed(day, game_id)
            if not found.get("certified") or "par" in found:  # (else: its par to come)
                self._deals[key] = found
            if len(self._deals) > 4 * len(GAMES):  # (yesterday's and older: forgotten)
                oldest = min(self._deals)
                del self._deals[oldest]
        return found

    def forget(self, day: str, game_id: str) -> None:
        """Read the day's deal afresh next time: what was read is not the deal committed
        to (``Commitments.deal``), and an operator may put that one back."""
        self._deals.pop((day, game_id), None)

    async def fixed(self, day: str, game_id: str) -> dict[str, Any]:
        """The day's deal of a game as Redis holds it, fixed now as its first candidate,
        uncertified, if nothing fixed it before (its day has come, or entered the window
        of committed days: ``handlers.commitments``). Not kept here: read afresh."""
        found = await self.dailies.deal(day, game_id)
        if found is None:
            seed = d.candidate_seed(self.ctx.secret, day, game_id, 0)
            found = await self.dailies.fix_deal(day, game_id, uncertified(seed))
        return found

    async def par(self, day: str, game_id: str) -> int | None:
        """The day's par for a game, where its deal is certified and its par found (None:
        not, or not yet fixed: par is never a reason to fix a deal)."""
        found = self._deals.get((day, game_id)) or await self.dailies.deal(day, game_id)
        if found is None or not found.get("certified") or found.get("par") is None:
            return None
        return int(found["par"])

    async def par_shortest(self, day: str, game_id: str) -> bool | None:
        """Whether the day's par is proved the shortest line (A* finished), where there
        is a par to tell (:meth:`par`); else None."""
        found = self._deals.get((day, game_id)) or await self.dailies.deal(day, game_id)
        if found is None or not found.get("certified") or found.get("par") is None:
            return None
        return bool(found.get("shortest"))

    # -- certifying ahead ---------------------------------------------------------------

    def start(self) -> None:
        if self.settings.certify_ahead > 0:
            self._looks.start()

    def stop(self) -> list[asyncio.Task[None]]:
        """Stop the looks; their task, to await where a look under way must be over."""
        return [t for t in (self._looks.stop(),) if t is not None]

    async def certify_ahead(
        self, days: list[str] | None = None, games: list[str] | None = None
    ) -> None:
        """Certify every deal not fixed yet of ``days`` (today's and the
        ``certify_ahead`` next) and ``games`` (all), in the order players need them: a
        day at a time, today's first, each game's deal fixed by the quick verdict
        (:meth:`fix_one`) before the search for par of any (:meth:`par_one`). A log
        line a day says what was done for it, if anything, as soon as it is done."""
        if days is None:
            today = d.day_of(self.now())
            days = [today]
            for _ in range(self.settings.certify_ahead):
                days.append(d.next_day(days[-1]))
        for day in days:
            # a line a day, as each is done (a pass of ten days' pars runs for many
            # minutes, and one line at its end left an operator guessing till then), and
            # for a day cut short (a stop, Redis away) what it did do
            done = Done(started=time.monotonic())
            try:
                for game_id in games or list(GAMES):
                    await self.fix_one(day, game_id, done)
                for game_id in games or list(GAMES):
                    await self.par_one(day, game_id, done)
            finally:
                if done.certified or done.uncertified or done.pars:
                    log.info(
                        "daily deals certified",
                        extra={
                            "days": [day],
                            "certified": done.certified,
                            "uncertified": done.uncertified,
                            "pars": done.pars,
                            "seconds": round(time.monotonic() - done.started, 1),
                            "cpu_seconds": round(done.cpu, 1),
                        },
                    )

    async def certify_one(self, day: str, game_id: str) -> dict[str, Any] | None:
        """Certify one deal and find its par (:meth:`fix_one`, :meth:`par_one`), unless
        it is fixed or another process has claimed it: the deal as fixed, or None when
        it was left to another process."""
        fixed = await self.fix_one(day, game_id)
        if fixed is None:
            return None
        return await self.par_one(day, game_id) or await self.dailies.deal(day, game_id)

    async def fix_one(
        self, day: str, game_id: str, done: Done | None = None
    ) -> dict[str, Any] | None:
        """Fix one deal by the quick verdict, unless it is fixed or another process has
        claimed it: the first candidate proved winnable, with the line that proved it
        (its par comes later, :meth:`par_one`), or the first candidate, uncertified, when
        none is. The deal as fixed, or None when it was left to another process."""
        if await self.dailies.deal(day, game_id) is not None:
            return None
        budget = self.settings.certify_budget
        candidates = self.settings.certify_candidates
        # the claim outlasts the search (then another process takes the deal over)
        claim_ms = int((budget * candidates * 1.5 + 60) * 1000)
        if not await self.dailies.claim_certifying(day, game_id, self.proc, claim_ms):
            return None
        try:
            if await self.dailies.deal(day, game_id) is not None:
                return None  # fixed by the process whose claim this one came after
            secret = self.ctx.secret
            seeds = [d.candidate_seed(secret, day, game_id, n) for n in range(candidates)]
            found, cpu = await self.workers.run(
                "certify", timed, first_winnable, game_id, seeds, budget, timeout=claim_ms / 1000
            )
            if done is not None:
                done.cpu += cpu
            if found is None:
                deal = uncertified(seeds[0])
            else:
                try:  # a line is trusted once it has won through the engine here too
                    check_line(game_id, found["line"], seed=found["seed"])
                except CertificateError as exc:
                    self.failures.failed("certifying daily deals", exc, game=game_id)
                    return None
                deal = {**found, "certified": True}
            fixed = await self.dailies.fix_deal(day, game_id, deal)
        finally:
            await self.dailies.release_certifying(day, game_id, self.proc)
        ours = fixed.get("seed") == deal.get("seed")
        if ours and fixed.get("certified"):
            self.certified_here += 1
            if done is not None:
                done.certified += 1
        elif ours and done is not None:
            done.uncertified += 1
        log.debug(
            "daily deal fixed" if fixed.get("certified") else "no candidate proved winnable",
            extra={
                "step": "verdict",
                "day": day,
                "game": game_id,
                "candidate": fixed.get("n"),
                "certified": bool(fixed.get("certified")),
                "tried": found["tried"] if found else candidates,
                "cpu_seconds": round(cpu, 3),
            },
        )
        return fixed

    async def par_one(
        self, day: str, game_id: str, done: Done | None = None
    ) -> dict[str, Any] | None:
        """Search for the par of a certified deal whose par is not found yet, unless
        another process has claimed it: the shortest line found within
        ``certify_budget`` seconds, bounded by the line that certified the deal, fixed as
        its book line (kept as a replay, secret until the day's reset) and par. The deal
        with them, or None when there was nothing to do here."""
        deal = await self.dailies.deal(day, game_id)
        if deal is None or not deal.get("certified") or "par" in deal:
            return None
        budget = self.settings.certify_budget
        claim_ms = int((budget * 1.5 + 60) * 1000)
        if not await self.dailies.claim_certifying(day, game_id, self.proc, claim_ms):
            return None
        try:
            now = await self.dailies.deal(day, game_id)
            if now is None or "par" in now:
                return None  # found by the process whose claim this one came after
            seed = int(deal["seed"])
            found, cpu = await self.workers.run(
                "certify",
                timed,
                shortest_line,
                game_id,
                seed,
                list(deal["line"]),
                budget,
                timeout=claim_ms / 1000,
            )
            if done is not None:
                done.cpu += cpu
            try:
                check_line(game_id, found["line"], seed=seed)
            except CertificateError as exc:
                self.failures.failed("certifying daily deals", exc, game=game_id)
                return None
            fixed = await self.dailies.fix_par(day, game_id, found)
            if fixed["line"] == found["line"]:
                shown = replays.book(day, d.day_start_ms(day), game_id, seed, fixed["line"])
                shown["shortest"] = bool(fixed.get("shortest"))
                await self.replays.keep([(shown["id"], shown, "")])
                if done is not None:
                    done.pars += 1
        finally:
            await self.dailies.release_certifying(day, game_id, self.proc)
        log.debug(
            "daily deal's par found",
            extra={
                "step": "par",
                "day": day,
                "game": game_id,
                "par": fixed["par"],
                "shortest": bool(fixed.get("shortest")),
                "cpu_seconds": round(cpu, 3),
            },
        )
        return {**deal, **fixed}


@dataclass
class Done:
    """What a pass of :meth:`Certifier.certify_ahead` did, for its log line."""

    started: float
    certified: int = 0
    uncertified: int = 0
    pars: int = 0
    #: CPU seconds the worker processes spent on it
    cpu: float = 0.0


def uncertified(seed: int) -> dict[str, Any]:
    return {"seed": seed, "n": 0, "certified": False}
