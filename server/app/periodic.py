"""A step run again and again on a task of its own (the certifier's looks ahead, the
daily commitments' looks, housekeeping's sweeps) until it is stopped, and that stops.

Cancelling the task is not enough on CPython 3.11: ``asyncio.wait_for`` returns the
awaited result instead of raising when a cancel lands as that result arrives (CPython
gh-86296, fixed in 3.12), and redis-py sends every command through ``wait_for`` where
the connection has a socket timeout. A cancel landing in a Redis call was then lost, and
the loop went on after its service had shut down (measured: 38 of 40 cancels lost in a
loop of GETs). So :meth:`Periodic.stop` both sets a flag the loop reads after every step
and cancels the task, which a sleep between steps always takes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from concurrent.futures.process import BrokenProcessPool

from .store.failures import FailureLog

log = logging.getLogger("patience.service")


class Periodic:
    """``step`` run now (or after ``interval`` seconds, with ``wait_first``) and then
    ``interval`` seconds after each run ends, until :meth:`stop`. A step that fails is
    logged as ``what`` failing, and the next run tries again."""

    def __init__(
        self,
        what: str,
        step: Callable[[], Awaitable[None]],
        interval: Callable[[], float],
        failures: FailureLog,
        *,
        wait_first: bool = False,
    ) -> None:
        self.what = what
        self.step = step
        self.interval = interval
        self.failures = failures
        self.wait_first = wait_first
        self._task: asyncio.Task[None] | None = None

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._forever())

    def stop(self) -> asyncio.Task[None] | None:
        """Stop: no step starts after this, and a step under way is cancelled (or, if
        the cancel is lost, ends as it would). The task, to await where that matters."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
        return task

    def _wanted(self) -> bool:
        """Whether the task running is still this one's (not stopped, nor replaced by a
        start after a stop)."""
        return self._task is not None and self._task is asyncio.current_task()

    async def _forever(self) -> None:
        if self.wait_first:
            await asyncio.sleep(self.interval())
        while self._wanted():
            try:
                await self.step()
            except BrokenProcessPool as exc:  # (no fault of the code: no traceback)
                log.warning(
                    "%s: a worker process died (%s); tried again at the next run", self.what, exc
                )
            except Exception as exc:  # tried again at the next run
                self.failures.failed(self.what, exc)
            if not self._wanted():
                return
            await asyncio.sleep(self.interval())
