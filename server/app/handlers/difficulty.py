"""The difficulty of each daily deal: graded ahead of its day, in a worker process
(``server.solver.difficulty.grade_deal``, in the ``certify`` pool, at the certifier's
lower CPU priority, after the certifications queued before it), and kept in Redis with
the deal (``store/difficulty.py``) so that every process shows the same grade, across
restarts.

Every minute (and at its start) a process looks at the days the certifier works on
(today and ``certify_ahead`` more, today's first) and grades each deal that is fixed
(certified or not) and not graded yet, under a claim of its own
(``Grades.claim``): of the processes sharing the Redis one grades a deal, and another
takes over if it dies part way (its claim lapses). The grade is fixed once, with the
seed it graded, so a deal an operator put back in place of another is never shown the
other's grade. A deal fixed as its day came (uncertified: nothing certified it in time)
is graded at the next look. With ``certify_ahead`` 0 nothing is graded: ``difficulty``
is null.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from server.engine import GAMES
from server.solver import CertificateError
from server.solver.difficulty import grade_deal

from ..domain import daily as d
from ..domain import difficulty as df
from ..periodic import Periodic
from ..store.difficulty import Grades
from ..workers import timed
from .base import Context, Part

log = logging.getLogger("patience.service")

#: seconds between a process's looks at the deals to grade
GRADE_INTERVAL = 60.0
#: how long a process may take to grade a deal (its claim's length), queued behind the
#: certifier's work included, before another process takes it over
GRADE_CLAIM_S = 900.0


class Grader(Part):
    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.grades = Grades(ctx.redis)
        #: deals graded by this process (for the tests and the log)
        self.graded_here = 0
        self._looks = Periodic(
            "grading daily deals", self.grade_ahead, lambda: GRADE_INTERVAL, ctx.failures
        )

    def start(self) -> None:
        if self.settings.certify_ahead > 0:
            self._looks.start()

    def stop(self) -> list[asyncio.Task[None]]:
        """Stop the looks; their task, to await where a look under way must be over."""
        return [t for t in (self._looks.stop(),) if t is not None]

    async def difficulty(self, day: str, game_id: str, seed: int | None) -> dict[str, Any] | None:
        """The difficulty to show of the day's deal of ``seed`` (``domain.difficulty``),
        or None: not graded yet."""
        return df.shown(await self.grades.get(day, game_id), seed)

    async def grade_ahead(
        self, days: list[str] | None = None, games: list[str] | None = None
    ) -> None:
        """Grade every fixed deal not graded yet of ``days`` (today and the
        ``certify_ahead`` next) and ``games`` (all), today's first."""
        if days is None:
            today = d.day_of(self.now())
            days = [today]
            for _ in range(self.settings.certify_ahead):
                days.append(d.next_day(days[-1]))
        started = time.monotonic()
        graded = 0
        cpu = 0.0
        for day in days:
            for game_id in games or list(GAMES):
                try:
                    found = await self.grade_one(day, game_id)
                except Exception as exc:  # (a time-out, a pool that died: the next look)
                    self.failures.failed("grading daily deals", exc, game=game_id)
                    continue
                if found is not None:
                    graded += 1
                    cpu += float(found.get("cpu_seconds", 0.0))
        if graded:
            log.info(
                "daily deals graded",
                extra={
                    "days": days,
                    "graded": graded,
                    "seconds": round(time.monotonic() - started, 1),
                    "cpu_seconds": round(cpu, 1),
                },
            )

    async def grade_one(self, day: str, game_id: str) -> dict[str, Any] | None:
        """Grade the day's deal of a game, if it is fixed and not graded yet, unless
        another process has claimed it: the grade as kept (with ``cpu_seconds``, this
        grading's), or None when there was nothing to do here."""
        deal = await self.dailies.deal(day, game_id)
        if deal is None:
            return None  # (not fixed yet: the certifier is at it, or the day is far)
        seed = int(deal["seed"])
        if await self.grades.get(day, game_id) is not None:
            return None  # (graded; or, for another seed, never shown: ``domain.difficulty``)
        claim_ms = int(GRADE_CLAIM_S * 1000)
        if not await self.grades.claim(day, game_id, self.proc, claim_ms):
            return None
        try:
            try:
                found, cpu = await self.workers.run(
                    "certify", timed, grade_deal, game_id, seed, timeout=GRADE_CLAIM_S
                )
            except CertificateError as exc:
                # a search called a line winning that is not: a fault in the solver, the
                # same every time for this deal, so kept as ungraded (``why``) for good
                self.failures.failed("grading daily deals", exc, game=game_id)
                found, cpu = {"grade": None, "why": str(exc)}, 0.0
            fixed = await self.grades.fix(day, game_id, {**found, "seed": seed})
        finally:
            await self.grades.release(day, game_id, self.proc)
        if fixed.get("seed") == seed:
            self.graded_here += 1
        log.debug(
            "daily deal graded",
            extra={
                "day": day,
                "game": game_id,
                "grade": fixed.get("grade"),
                "cpu_seconds": round(cpu, 3),
            },
        )
        return {**fixed, "cpu_seconds": cpu}
