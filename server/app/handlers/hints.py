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

Limits (``docs/protocol.md``): one hint at a time per player, :data:`PER_MINUTE` a
minute; the search takes at most ``BUDGET_S`` of CPU (about 200 ms); a hint not
answered within :data:`TIMEOUT_S` (the workers busy) is refused as ``rate_limited``.
"""

from __future__ import annotations

import hashlib
import json
from collections import deque
from typing import TYPE_CHECKING, Any, Final

from server.protocol import ErrorCode
from server.protocol import messages as m
from server.solver.hints import BUDGET_S, suggest

from ..domain import games as g
from .base import Handler, Part, Session, refuse

if TYPE_CHECKING:
    from ..service import Service

#: hints a player may ask for in a minute (server time)
PER_MINUTE: Final = 10
MINUTE_MS: Final = 60_000
#: how long a hint may wait for a worker and be worked out, in seconds
TIMEOUT_S: Final = 10.0
#: the pool of worker processes hints run in (``server.app.workers``)
POOL: Final = "hints"
#: how many times a hint is worked out again when the game changed meanwhile
_TRIES: Final = 3
#: players held in the minute's counts before those idle a minute are let go
_SWEEP_AT: Final = 1024


def hint_seed(view: dict[str, Any]) -> int:
    """The seed a hint's samples are drawn with: made from the view alone, so that the
    same position always gets the same hint."""
    text = json.dumps(view, sort_keys=True, separators=(",", ":"))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


class Hints(Part):
    def __init__(self, app: Service) -> None:
        super().__init__(app)
        #: players with a hint being worked out now
        self.busy: set[str] = set()
        #: player -> server ms of the hints they asked for in the last minute
        self.asked: dict[str, deque[int]] = {}

    def requests(self) -> dict[type[m.Request], Handler]:
        return {m.Hint: self.on_hint}

    async def on_hint(self, session: Session, req: m.Hint) -> dict[str, Any]:
        live = await self.play.game_for(session, req.game)
        await self.daily.close_past_daily(live)
        self.check_allowed(live)
        pid = live.owner
        self.take_turn(pid)
        try:
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
                await self.play.log(live, f"{self.now()} {g.HINT}")
                live.hints += 1
        finally:
            self.busy.discard(pid)
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
            raise refuse(
                ErrorCode.RATE_LIMITED, "the server is busy working out hints: ask again soon"
            ) from None

    def check_allowed(self, live: g.LiveGame) -> None:
        """Refuse a hint on a game over, a race not started or over, or a race in a room
        made without hints."""
        if live.kind == g.RACE and not live.finished:
            room = self.rooms.get(live.room or "")
            if room is not None and room.race == live.race and not room.hints:
                raise refuse(ErrorCode.HINTS_OFF, "this race room was made without hints")
        self.play.check_playable(live)

    def take_turn(self, pid: str) -> None:
        """One hint at a time, :data:`PER_MINUTE` a minute, per player."""
        if pid in self.busy:
            raise refuse(ErrorCode.RATE_LIMITED, "a hint is being worked out: wait for it")
        now = self.now()
        if len(self.asked) > _SWEEP_AT:
            self.sweep(now)
        asked = self.asked.setdefault(pid, deque())
        while asked and asked[0] <= now - MINUTE_MS:
            asked.popleft()
        if len(asked) >= PER_MINUTE:
            wait = (asked[0] + MINUTE_MS - now + 999) // 1000
            raise refuse(
                ErrorCode.RATE_LIMITED,
                f"at most {PER_MINUTE} hints a minute: ask again in {wait} s",
            )
        asked.append(now)
        self.busy.add(pid)

    def sweep(self, now: int) -> None:
        """Let go of the players who asked for no hint in the last minute."""
        self.asked = {
            pid: asked for pid, asked in self.asked.items() if asked and asked[-1] > now - MINUTE_MS
        }
