"""Telling a player their game is stuck: after a move, an undo or ``home`` leaves a
position where no legal move plainly gets the game on, the stuck check
(``server.solver.stuck``) looks further, in a worker process, and a ``stuck`` event tells
the player when nothing they can do will (the clients then offer to resign).

The move path asks :meth:`Game.plain_progress` after every reply (cheap: the legal
moves, listed for the reply anyway) and calls :meth:`StuckWatch.check_later` only when it
is False: most moves cost nothing more. The check waits until the game has stood still
for ``Settings.stuck_settle`` seconds (1 by default: a player still moving needs no
notice yet, and one moving fast costs no check a move), runs after the reply is sent,
never delaying it, and its event comes only if the game still stands where it was
checked.

A player's checks are limited: at most :data:`PER_MINUTE` searches a minute (server
time), counted in Redis whichever process runs them (``store/limits.py``), each at most
2 s of CPU (``server.solver.stuck``). A check past the limit is put off, not searched:
the game is looked at again every :data:`RETRY_S` seconds at most, until the minute
allows one more, if it still stands there. Verdicts kept here cost nothing and are not
counted.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from typing import Any, Final

from server.solver.stuck import REASON

from ..domain import games as g
from ..domain.stuck import verdict
from ..store.limits import Limit, Limiter
from .base import Context, Part

log = logging.getLogger("patience.service")

#: how long a check may take, its worker's start and its queue included; past it the
#: game counts as not stuck (the search's own bound is 2 s: server.solver.stuck)
CHECK_TIMEOUT: Final = 10.0
#: verdicts kept, by game and position: a position met again (an undo and the same move)
#: is not searched again
KEPT: Final = 4096
#: searches a player's games may have in a minute (server time), across processes
PER_MINUTE: Final = 10
MINUTE_MS: Final = 60_000
#: the limit's kind (``store/limits.py``)
STUCK_CHECKS: Final = "stuck"
#: the longest wait, in seconds, before a check put off by the limit is tried again
RETRY_S: Final = 5.0


class StuckWatch(Part):
    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        #: (game id, position key) -> stuck, the newest last
        self._verdicts: OrderedDict[tuple[str, Any], bool] = OrderedDict()
        #: the games being checked now, and those that moved on meanwhile (checked again
        #: once the check in hand ends: one check a game at a time)
        self._checking: set[str] = set()
        self._again: set[str] = set()
        #: the games waiting to settle, and their timers
        self._timers: dict[str, asyncio.TimerHandle] = {}
        #: checks run in a worker, and the stuck events sent (for tests and /metrics);
        #: checks put off by the limit a minute
        self.searched = 0
        self.told = 0
        self.deferred = 0
        self.limits = Limiter(ctx.redis)

    def check_later(self, live: g.LiveGame) -> None:
        """Check ``live``'s position once the game has stood there for
        ``Settings.stuck_settle`` seconds (its reply is already queued)."""
        self._arm(live, self.settings.stuck_settle)

    def _arm(self, live: g.LiveGame, delay: float) -> None:
        """Check ``live`` in ``delay`` seconds if it stands where it is now."""
        timer = self._timers.pop(live.gid, None)
        if timer is not None:
            timer.cancel()
        loop = asyncio.get_running_loop()
        self._timers[live.gid] = loop.call_later(delay, self._settled, live, live.log_length)

    def _settled(self, live: g.LiveGame, at: int) -> None:
        gid = live.gid
        self._timers.pop(gid, None)
        if live.log_length != at:
            return  # moved on (a move that wants a check set a timer of its own)
        if gid in self._checking:
            self._again.add(gid)
            return
        self._checking.add(gid)
        self.spawn(self._watch(live))

    def stop(self) -> None:
        """The server is stopping: no more checks."""
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()

    async def _watch(self, live: g.LiveGame) -> None:
        gid = live.gid
        try:
            while True:
                self._again.discard(gid)
                if (
                    live.result is None
                    and self.games.get(gid) is live
                    and not live.game.plain_progress()
                ):
                    await self._check(live)
                if gid not in self._again:
                    return
        finally:
            self._checking.discard(gid)
            self._again.discard(gid)

    async def _check(self, live: g.LiveGame) -> None:
        """Check the position ``live`` stands in now; tell its player if it is stuck and
        the game still stands there."""
        at = live.log_length
        key = (live.gid, live.game.key())
        stuck = self._verdicts.get(key)
        if stuck is None:
            wait = await self._may_search(live.owner)
            if wait is not None:
                self.deferred += 1
                if (
                    live.log_length == at
                    and self.games.get(live.gid) is live
                    and not self.ctx.stopping
                ):
                    self._arm(live, min(RETRY_S, wait))
                return
            data = live.view_encoder().encode_bytes()
            try:
                found = await self.workers.run("stuck", verdict, data, timeout=CHECK_TIMEOUT)
            except TimeoutError:
                log.warning("the stuck check of game %s ran out of time", live.gid)
                return
            self.searched += 1
            stuck = found.stuck
            self._verdicts[key] = stuck
            if len(self._verdicts) > KEPT:
                self._verdicts.popitem(last=False)
        else:
            self._verdicts.move_to_end(key)
        if not stuck or live.log_length != at or live.result is not None:
            return
        session = self.sessions.get(live.owner)
        if session is not None:
            self.told += 1
            session.send(
                {"type": "stuck", "game": live.gid, "moves": live.game.moves, "reason": REASON}
            )

    async def _may_search(self, pid: str) -> float | None:
        """None if one more search of the player's games fits the limit a minute (and
        it is counted), else the seconds until one does (Redis away: :data:`RETRY_S`)."""
        try:
            use = await self.limits.take(
                Limit(STUCK_CHECKS, PER_MINUTE, MINUTE_MS), pid, self.now()
            )
        except Exception as exc:
            self.failures.failed("a stuck check", exc)
            return RETRY_S
        return None if use.allowed else use.wait_ms / 1000
