"""The server clock is Redis's: every process sharing a Redis tells the same time, whatever
its own machine's clock says.

Every time the server measures (a race's start and its moves, a daily's deal and its end,
the day's reset, countdowns, time limits, forfeits) was read from the clock of whichever
process handled the step, so processes on machines whose clocks disagreed (a VM whose NTP
drifted a second or two) disagreed about it: a racer on a process 2 s behind had their
moves timed before the race's start and won races they had tied, and a daily dealt on one
process and finished on another took less than it was played, or less than nothing.

:class:`RedisClock` reads Redis's ``TIME`` as the server starts (the round trip of the
least of a few tries, Redis's time taken at its middle) and keeps it on this process's
monotonic clock from then on, so that this machine's clock being set, stepped or slewed
changes nothing either; :func:`keep_in_step` reads it again every minute, to follow
Redis's clock (and a Redis started again elsewhere), never going back: where Redis's time
is found behind what this process has told, the clock waits for it. What it cannot be
read (Redis away) keeps the last reading. The ``clock_offset`` setting moves it, as it
moved the machine's clock (every process given the same).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from .settings import Clock
from .store.ready import redis_time

log = logging.getLogger("patience.main")

#: tries a reading takes, the one with the shortest round trip kept
TRIES = 5
#: seconds between readings once the server runs
EVERY = 60.0
#: what this machine's clock may be off Redis's before the log warns (ms)
WARN_MS = 1000


def _mono_ms() -> float:
    return time.monotonic_ns() / 1e6


def _wall_ms() -> float:
    return time.time_ns() / 1e6


class RedisClock(Clock):
    """Redis's time (plus ``shift_ms``, the ``clock_offset`` setting) on this process's
    monotonic clock; this machine's wall clock until the first reading."""

    def __init__(self, shift_ms: int = 0) -> None:
        self.shift_ms = shift_ms
        #: Redis's time less this process's monotonic clock (ms), once read
        self.base_ms: int | None = None
        #: the last time told (ms, unshifted): never told less again
        self.told_ms = 0
        #: the last reading's round trip (ms)
        self.round_trip_ms = 0.0

    def redis_ms(self) -> int:
        """Redis's time now, unshifted (what Redis's own stream ids count)."""
        return self.now_ms() - self.shift_ms

    def now_ms(self) -> int:
        # (every move asks it: one call)
        base = self.base_ms
        if base is None:
            now = time.time_ns() // 1_000_000
        else:
            now = time.monotonic_ns() // 1_000_000 + base
        if now < self.told_ms:
            now = self.told_ms
        else:
            self.told_ms = now
        return now + self.shift_ms

    async def read(self, redis: Any) -> float:
        """Read Redis's time; returns how far this machine's clock is ahead of it (ms)."""
        best: tuple[float, float] | None = None  # (round trip, base)
        for _ in range(TRIES):
            before = _mono_ms()
            seconds, micros = await redis_time(redis)
            after = _mono_ms()
            base = seconds * 1000 + micros / 1000 - (before + after) / 2
            if best is None or after - before < best[0]:
                best = (after - before, base)
        assert best is not None
        self.round_trip_ms, exact = best
        base = round(exact)
        if self.base_ms is not None and abs(base - self.base_ms) > WARN_MS:
            log.warning(
                "Redis's clock moved",
                extra={"by_ms": base - self.base_ms, "round_trip_ms": self.round_trip_ms},
            )
        self.base_ms = base
        return _wall_ms() - (_mono_ms() + exact)


def said(ahead_ms: float) -> None:
    """The log's line on this machine's clock against Redis's: a warning when they are a
    second apart or more (the server keeps Redis's)."""
    fields = {"machine_ahead_ms": round(ahead_ms)}
    if abs(ahead_ms) >= WARN_MS:
        way = "ahead of" if ahead_ms > 0 else "behind"
        log.warning(
            f"this machine's clock is {abs(ahead_ms) / 1000:.1f} s {way} Redis's: "
            "the server keeps Redis's time",
            extra=fields,
        )
    else:
        log.info("the server clock is Redis's", extra=fields)


async def keep_in_step(clock: RedisClock, redis: Any, every: float = EVERY) -> None:
    """Read Redis's time every ``every`` seconds until cancelled (a failed reading, Redis
    away, keeps the last)."""
    while True:
        await asyncio.sleep(every)
        try:
            await clock.read(redis)
        except Exception as exc:  # Redis away: the next reading
            log.debug("reading Redis's time failed: %s", exc)
