"""Hints: a suggested move for a game the player holds, and a short reason.

A hint is worked out from what the player sees and nothing else. This module hands the
worker (``server.solver.hints.suggest``, in a process of the ``hints`` pool, off the
event loop) the game's view, the map the client itself is sent (no face-down card is in
it), with the rules id and a seed made from that view: plain data, never the game. So
the hint cannot depend on the order of the stock, and two players who see the same
position are given the same hint.

Fair play: a hint given is written to the game's move log (``!hint``) before it is sent,
so it is counted across restarts (``LiveGame.hints``), shown in race results, on the
daily boards and in the daily's result line. Solo and daily games always allow hints; a
race room allows them only when it was made with ``hints`` (``room_create``).

Limits (``docs/protocol.md``), the same whichever process a player asks through: one
hint at a time per player (a claim in Redis, ``store/limits.py``), :data:`PER_MINUTE` a
minute (counted in Redis over the last minute). The hint takes at most ``BUDGET_S`` of
CPU (200 ms), and as long on the wall clock, in one of this process's hint workers
(the best move found by then); at most
:data:`WAITING_PER_WORKER` hints a worker wait for them (:class:`HintQueue`), the
players who had the fewest hints lately first, and one more is refused at once
(``rate_limited``, the server busy) rather than queued for seconds behind a flood; a
hint refused so is not counted in the minute. A hint that waits :data:`TIMEOUT_S` for a
worker, or whose search takes longer, is refused the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
from collections.abc import AsyncIterator
from typing import Any, Final

from server.protocol import ErrorCode, ProtocolError
from server.protocol import messages as m
from server.solver.hints import BUDGET_S, suggest

from ..domain import games as g
from ..moves import MovePath
from ..store.keys import CLAIM_MS
from ..store.limits import Limit, Limiter, Use
from .base import Context, Handler, Part, Session, refuse
from .daily import DailyChallenge
from .keeper import GameKeeper

#: hints a player may ask for in a minute (server time), whichever process answers
PER_MINUTE: Final = 10
MINUTE_MS: Final = 60_000
#: the limit's and the claim's kind (``store/limits.py``)
HINT: Final = "hint"
#: how long a hint may wait for a worker, and then be worked out, in seconds (each)
TIMEOUT_S: Final = 10.0
#: the pool of worker processes hints run in (``server.app.workers``)
POOL: Final = "hints"
#: hints that may wait for this process's hint workers, for each worker
WAITING_PER_WORKER: Final = 4
#: how many times a hint is worked out again when the game changed meanwhile
_TRIES: Final = 3
#: what a hint refused for want of a worker is told
BUSY: Final = "the server is busy working out other players' hints: ask again in a few seconds"


def hint_seed(view: dict[str, Any]) -> int:
    """The seed a hint's samples are drawn with: made from the view alone, so that the
    same position always gets the same hint."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class HintQueue:
    """The hints waiting for this process's hint workers: at most ``workers`` handed to
    them at once, at most ``most_waiting`` waiting. A worker that comes free takes the
    waiting hint ranked first: its player's hints in the last minute, fewest first,
    then the earliest asked. One hint past ``most_waiting`` refuses the hint ranked last
    (this one, or one that waits behind it) at once, with ``rate_limited``: a flood of
    hints from a few players is refused, a player who asks now and then is served."""

    def __init__(self, workers: int, most_waiting: int) -> None:
        self.free = workers
        self.most_waiting = most_waiting
        #: (rank, turn): the turn is resolved when a worker is theirs
        self.waiting: list[tuple[tuple[int, int], asyncio.Future[None]]] = []
        self._asked = itertools.count()

    @contextlib.asynccontextmanager
    async def turn(self, lately: int) -> AsyncIterator[None]:
        """A worker's turn for a hint whose player had ``lately`` hints in the last
        minute, this one included; ``rate_limited`` if none comes free in time."""
        if self.free > 0 and not self.waiting:
            self.free -= 1
        else:
            await self._wait((lately, next(self._asked)))
        try:
            yield
        finally:
            self._pass_on()

    async def _wait(self, rank: tuple[int, int]) -> None:
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        entry = (rank, turn)
        self.waiting.append(entry)
        if len(self.waiting) > self.most_waiting:
            last = max(self.waiting, key=lambda waiting: waiting[0])
            self.waiting.remove(last)
            last[1].set_exception(refuse(ErrorCode.RATE_LIMITED, BUSY))
        try:
            async with asyncio.timeout(TIMEOUT_S):
                await turn
        except TimeoutError:
            self._give_up(entry)
            raise refuse(ErrorCode.RATE_LIMITED, BUSY) from None
        except asyncio.CancelledError:
            self._give_up(entry)
            raise

    def _give_up(self, entry: tuple[tuple[int, int], asyncio.Future[None]]) -> None:
        """A hint stops waiting (its time is up, or its request was cancelled): out of
        the queue, and a worker's turn given to it at that moment passed on."""
        turn = entry[1]
        if entry in self.waiting:
            self.waiting.remove(entry)
        elif turn.done() and not turn.cancelled() and turn.exception() is None:
            self._pass_on()

    def _pass_on(self) -> None:
        """A worker's turn is over: to the hint waiting ranked first, or free."""
        if self.waiting:
            first = min(self.waiting, key=lambda waiting: waiting[0])
            self.waiting.remove(first)
            first[1].set_result(None)
        else:
            self.free += 1


class Hints(Part):
    def __init__(
        self, ctx: Context, keeper: GameKeeper, daily: DailyChallenge, moves: MovePath
    ) -> None:
        super().__init__(ctx)
        self.keeper = keeper
        self.daily = daily
        self.moves = moves
        self.limits = Limiter(ctx.redis)
        workers = self.workers.sizes.get(POOL, 1)
        self.queue = HintQueue(workers, WAITING_PER_WORKER * workers)

    def requests(self) -> dict[type[m.Request], Handler]:
        return {m.Hint: self.on_hint}

    async def on_hint(self, session: Session, req: m.Hint) -> dict[str, Any]:
        live = await self.keeper.game_for(session, req.game)
        await self.daily.close_past_daily(live)
        self.check_allowed(live)
        pid = live.owner
        claim, use = await self.take_turn(pid)
        worked = False
        try:
            async with self.queue.turn(use.used):
                worked = True
                for _ in range(_TRIES):
                    view = live.view()
                    found = await self.work_out(view, live.game.id)
                    self.check_allowed(live)  # the game may have ended meanwhile
                    # moves on the move path go on meanwhile: a hint is for the game as it is
                    if live.view() == view:
                        break
                else:
                    raise refuse(
                        ErrorCode.RATE_LIMITED,
                        "the game kept changing while its hint was worked out: ask again",
                    )
            if found is None:
                move, reason = None, None
            else:
                move, reason = found
                # counted before it is sent: a hint the log has not got is not given
                await self.keeper.log(live, f"{self.now()} {g.HINT}")
                live.hints += 1
        except ProtocolError:
            if not worked:  # refused for want of a worker: not counted
                await self.limits.give_back(use)
            raise
        finally:
            await self.let_go(pid, claim)
        return {
            "type": "hint",
            "game": live.gid,
            "move": move,
            "reason": reason,
            "hints": live.hints,
        }

    async def work_out(self, view: dict[str, Any], rules: str) -> tuple[str, str] | None:
        """The hint for ``view`` (a ``rules`` game), from a worker process: the view and
        plain values are all it is given."""
        try:
            return await self.workers.run(
                POOL, suggest, view, rules, hint_seed(view), BUDGET_S, timeout=TIMEOUT_S
            )
        except TimeoutError:
            raise refuse(ErrorCode.RATE_LIMITED, BUSY) from None

    def check_allowed(self, live: g.LiveGame) -> None:
        """Refuse a hint on a game over, a race not started or over, a race in a room
        made without hints, or a challenge of a race in such a room."""
        if live.hints_off and not live.finished:
            raise refuse(
                ErrorCode.HINTS_OFF,
                "the game this challenge races was played without hints"
                if live.challenge is not None
                else "hints are off in a race against ghosts",  # (a quick race's ghosts)
            )
        if live.kind == g.RACE and not live.finished:
            room = self.rooms.get(live.room or "")
            if room is not None and room.race == live.race and not room.hints:
                raise refuse(ErrorCode.HINTS_OFF, "this race room was made without hints")
        self.moves.check_playable(live)

    async def take_turn(self, pid: str) -> tuple[str, Use]:
        """One hint at a time, :data:`PER_MINUTE` a minute, per player, whichever
        process they ask through: the player's claim (to let go of once the hint is
        answered) and the use counted (``used``: their hints in the last minute, this
        one included)."""
        claim = await self.limits.claim(HINT, pid, CLAIM_MS)
        if claim is None:
            raise refuse(ErrorCode.RATE_LIMITED, "a hint is being worked out: wait for it")
        try:
            use = await self.limits.take(Limit(HINT, PER_MINUTE, MINUTE_MS), pid, self.now())
        except BaseException:
            await self.let_go(pid, claim)
            raise
        if not use.allowed:
            await self.let_go(pid, claim)
            raise refuse(
                ErrorCode.RATE_LIMITED,
                f"at most {PER_MINUTE} hints a minute: ask again in {use.wait_text()}",
            )
        return claim, use

    async def let_go(self, pid: str, claim: str) -> None:
        """The player's hint is over: their claim let go (or left to lapse, with Redis
        away)."""
        try:
            await self.limits.let_go(HINT, pid, claim)
        except Exception as exc:
            self.failures.failed("letting go of a hint's claim", exc)
