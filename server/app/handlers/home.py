"""``home``: play every card that can go home now, and again, until none can.

Each card goes as an ordinary move would (``MovePath.start``): the same checks (the
game is the player's and not over, a race started and not over, a past daily closed),
logged before the next is played, a race's progress told, a ranked daily that ends this
way finished. Only the player asks for it: the server never plays a card home by itself
(the rules' automatic steps aside), since holding one back can be the better play.

Not in the games whose cards leave in pairs (Nestor, Doubles and Quits): there every
legal move takes a pair off, and ``home`` would play the whole game, each choice of pair
included, as one action to the pace policy (a script's daily in one request).
"""

from __future__ import annotations

import logging
from typing import Any

from server.protocol import ErrorCode, ProtocolError
from server.protocol import messages as m

from ..domain import games as g
from ..domain.lost import PAIRS, unit
from ..events import GameEnded, RacerProgress
from ..moves import MovePath
from ..store.failures import failure_text
from .base import Context, Handler, Part, Session, refuse
from .daily import DailyChallenge
from .keeper import GameKeeper
from .play import Play

log = logging.getLogger("patience.service")


class Homing(Part):
    def __init__(
        self,
        ctx: Context,
        keeper: GameKeeper,
        daily: DailyChallenge,
        play: Play,
        moves: MovePath,
    ) -> None:
        super().__init__(ctx)
        self.keeper = keeper
        self.daily = daily
        self.play = play
        self.moves = moves

    def requests(self) -> dict[type[m.Request], Handler]:
        return {m.Home: self.on_home}

    async def on_home(self, session: Session, req: m.Home) -> dict[str, Any]:
        live = self.games.get(req.game) if req.game is not None else None
        if live is None or live.owner != session.player:
            live = await self.keeper.game_for(session, req.game)
        if live.kind == g.DAILY:
            await self.daily.close_past_daily(live)
        room = self.moves.check_playable(live)
        if unit(live.game) == PAIRS:
            raise refuse(
                ErrorCode.NO_HOME,
                f"{live.game.name} has no home: each pair is yours to choose, sent as a move",
            )
        played: list[str] = []
        stopped: dict[str, str] | None = None
        first = live.log_length  # (the chain's first move's place in the log)
        # each move sends at least one card home: there are no more moves than cards
        for _ in range(live.game.total):
            found = live.game.home_moves() if live.result is None else []
            if not found:
                break
            try:
                text, room = await self.play.play_move(live, found[0].text)
            except Exception as exc:
                if not played:
                    raise
                stopped = self._stopped(session, exc)
                break
            played.append(text)
            if room is not None:
                self.events.tell(RacerProgress(room, live))
        if len(played) > 1:
            await self._chained(live, first, len(played))
        if played and live.result is not None:
            self.events.tell(GameEnded(live, room))
        if live.finished and live.kind == g.DAILY and played:
            await self.daily.finish(live)
        reply: dict[str, Any] = {
            "type": "homed",
            "game": live.gid,
            "moves": played,
            "view": live.encoded_view(),
            "legal": [mv.text for mv in live.game.legal_moves()],
            "status": live.status(),
        }
        if live.finished_ms is not None:  # (as a move's reply: the game's end, for its clock)
            reply["finished_at"] = live.finished_ms
        lost = live.lost()
        if lost is not None:
            reply["lost"] = lost
        if stopped is not None:
            reply["error"] = stopped
        if played:
            self.moves.after(live)
        return reply

    async def _chained(self, live: g.LiveGame, first: int, moves: int) -> None:
        """The moves one ``home`` played are one action of the player's to the pace
        check (``domain/pace.py``): recorded before the game's end is told, which its
        finish (the check) follows. Lost, they count as moves of their own (a result
        held for review, at worst): the moves stand either way."""
        try:
            await self.ctx.reviews.chained(live.gid, first, moves, self.settings.idle_ttl)
        except Exception as exc:
            self.failures.failed("recording a home chain", exc, player=live.owner)

    def _stopped(self, session: Session, exc: Exception) -> dict[str, str]:
        """Why ``home`` stopped part way (the moves before stand): as the error a move
        would have been refused with."""
        if isinstance(exc, ProtocolError):
            return {"code": exc.code.value, "message": exc.message}
        self.failures.failed("home", exc, player=session.player)
        return {"code": ErrorCode.INTERNAL_ERROR.value, "message": failure_text(exc)}
