"""Playing a game: the games list and rules, dealing a solo game, moves, undo and
resigning, and the move log every one of them is written to first."""

from __future__ import annotations

import asyncio
import functools
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from server.engine import GAMES, UndoRefused
from server.protocol import ErrorCode
from server.protocol import messages as m
from server.solver.winnability import MEASURED

from .. import store
from ..domain import games as g
from ..domain.room import (
    COUNTDOWN,
    RACING,
)
from ..store.games import log_write
from ..store.limits import Limit, Limiter
from .base import Handler, Part, Session, refuse
from .host import HeldRoom

if TYPE_CHECKING:
    from ..service import Service

log = logging.getLogger("patience.service")

#: the limit of new games a player deals (``Settings.deal_rate`` of them a minute)
DEAL: Final = "deal"
MINUTE_MS: Final = 60_000


class Play(Part):
    def __init__(self, app: Service) -> None:
        super().__init__(app)
        self.limits = Limiter(app.redis)

    def requests(self) -> dict[type[m.Request], Handler]:
        return {
            m.Games: self.on_games,
            m.Rules: self.on_rules,
            m.Ping: self.on_ping,
            m.NewGame: self.on_new_game,
            m.Move: self.on_move,
            m.Undo: self.on_undo,
            m.Resign: self.on_resign,
        }

    async def on_games(self, session: Session, req: m.Games) -> dict[str, Any]:
        return {"type": "games", "games": self.games_list()}

    async def on_rules(self, session: Session, req: m.Rules) -> dict[str, Any]:
        info = GAMES.get(req.game)
        if info is None:
            raise refuse(ErrorCode.NO_SUCH_GAME, f"no game {req.game!r}; see the games list")
        text = rules_text(self.settings.rules_dir or RULES_DIR, info.id)
        return {"type": "rules", "game": info.id, "name": info.name, "text": text}

    async def on_ping(self, session: Session, req: m.Ping) -> dict[str, Any]:
        return {"type": "pong", "time": self.now()}

    def games_list(self) -> list[dict[str, Any]]:
        return [
            {
                "id": info.id,
                "name": info.name,
                "packs": info.packs,
                "summary": info.summary,
                "rules_version": info.rules_version,
                "winnability": MEASURED[info.id].to_json(),
            }
            for info in GAMES.values()
        ]

    async def get_game(self, gid: str, fresh: bool = False) -> g.LiveGame | None:
        """A game to play here: this process's copy, or (``fresh``, or none here) one
        rebuilt from Redis under a new fencing token."""
        live = None if fresh else self.games.get(gid)
        if live is None:
            live = await self.stored.load(gid, ttl=self.settings.idle_ttl)
            if live is not None:
                self.games[gid] = live
        return live

    async def on_new_game(self, session: Session, req: m.NewGame) -> dict[str, Any]:
        pid = self.need_player(session)
        if req.game not in GAMES:
            raise refuse(ErrorCode.NO_SUCH_GAME, f"no game {req.game!r}; see the games list")
        await self.count_deal(pid)
        before = await self.stored.newest_solo(pid)
        live = await self.stored.create(
            g.dealt(req.game, req.seed, pid, g.SOLO, self.now()), self.settings.idle_ttl
        )
        self.games[live.gid] = live
        await self.players.set_solo(pid, live.gid)
        self.take_solo(pid, live.gid)
        await self.keep_solo(pid, live.gid, before)
        return {"type": "game", **live.snapshot_message()}

    async def count_deal(self, pid: str) -> None:
        """``deal_rate`` new games a minute per player, counted in Redis, whichever
        process deals them; past it ``rate_limited``, saying when one more fits."""
        most = self.settings.deal_rate
        if most <= 0:
            return
        use = await self.limits.take(Limit(DEAL, most, MINUTE_MS), pid, self.now())
        if not use.allowed:
            raise refuse(
                ErrorCode.RATE_LIMITED,
                f"at most {most} new games a minute: try again in {use.wait_text()}",
            )

    async def keep_solo(self, pid: str, gid: str, before: str | None) -> None:
        """What a player keeps of their solo games once ``gid`` is dealt: the solo game
        dealt before it (``before``) stays if it has ended, with the last others that
        did (``SOLO_KEPT`` in ``store/keys.py``), and is deleted if it had not (nothing
        but its player plays it, and they have moved on); older ones are deleted. Whether it
        ended is read from Redis, as its log says, not from a copy here."""
        replaced = None
        if before is not None:
            old = await self.stored.load(before, fence=False)
            if old is None or not old.finished:
                replaced = before
        for gone in await self.stored.keep_solo(pid, gid, replaced, self.settings.idle_ttl):
            self.games.pop(gone, None)

    def take_solo(self, pid: str, gid: str) -> None:
        """The player's solo game is now ``gid``: the one it replaces is let go from
        memory (a finished one, or a daily, stays in Redis for a while and is rebuilt
        from its log if a request names it: :meth:`keep_solo`), so a player dealing game
        after game holds one here, not every one of them."""
        old = self.solo_of.get(pid)
        self.solo_of[pid] = gid
        if old is not None and old != gid:
            self.games.pop(old, None)

    async def game_for(self, session: Session, gid: str | None) -> g.LiveGame:
        """The game a move names; with none named, the player's race game while their room
        counts down or races, else their solo game."""
        pid = self.need_player(session)
        if gid is None:
            room = self.host.racer_room(pid)
            if room is not None and room.state in (COUNTDOWN, RACING):
                gid = room.racers[pid].gid
        if gid is None:
            gid = self.solo_of.get(pid)
            if gid is None:
                gid = await self.players.solo(pid)
                if gid is not None:
                    self.solo_of[pid] = gid
        live = await self.get_game(gid) if gid else None
        if live is None or live.owner != pid:
            raise refuse(ErrorCode.NO_SUCH_GAME, "no such game of yours: start one with new_game")
        return live

    def check_playable(self, live: g.LiveGame) -> HeldRoom | None:
        room: HeldRoom | None = self.app.moves.check_playable(live)
        return room

    def log_write(self, live: g.LiveGame, entry: str) -> store.Write:
        """The group commit's write of a log entry (``store.games.log_write``): fenced by
        the token this process took the game with; now and then, and at the end, the
        keys' time to live renewed; with a ranked daily's final entry, that its finish is
        owed (``DailyChallenge.finish``)."""
        ttl = self.settings.ended_ttl if live.finished else self.settings.idle_ttl
        fence = live.fence
        assert fence is not None, "a game is played only where it was taken"
        renew = live.finished or live.log_length % 64 == 0
        owed = live.finished and live.kind == g.DAILY  # a ranked daily's final entry
        return log_write(live.gid, fence, entry, ttl, renew, owed)

    def log_failed(self, live: g.LiveGame, exc: BaseException) -> BaseException:
        """What a failed log write means to its player: ``game_elsewhere`` when another
        process has taken the game (this copy is stale, and dropped), else the error.

        When the connection failed with the write sent, Redis may have run it: the copy
        here (the move taken back) may then be behind the log, so it is dropped too, and
        the game's next request reads it as the log has it."""
        if not isinstance(exc, store.Fenced):
            if store.outcome_unknown(exc) and self.games.get(live.gid) is live:
                del self.games[live.gid]
            return exc
        self.app.fenced += 1
        if self.games.get(live.gid) is live:
            del self.games[live.gid]
        return refuse(
            ErrorCode.GAME_ELSEWHERE,
            "this game is being played from another connection: sign in again to play it here",
        )

    async def log(self, live: g.LiveGame, entry: str) -> None:
        """Append a log entry through the group commit: returns once Redis has it."""
        try:
            await self.commit.submit(self.log_write(live, entry))
        except Exception as exc:
            failed = self.log_failed(live, exc)
            if failed is exc:
                raise
            raise failed from None
        live.log_length += 1

    async def play_move(self, live: g.LiveGame, text: str) -> tuple[str, HeldRoom | None]:
        """Play one move through the move path (``MovePath.start``): once Redis has its
        log entry, the move's text and the room it was raced in (the error, the move
        taken back, otherwise)."""
        played: asyncio.Future[tuple[str, HeldRoom | None]] = (
            asyncio.get_running_loop().create_future()
        )

        def settle(outcome: tuple[str, HeldRoom | None] | BaseException) -> None:
            if played.done():
                return
            if isinstance(outcome, BaseException):
                played.set_exception(outcome)
            else:
                played.set_result(outcome)

        self.app.moves.start(live, text, settle)
        return await played

    async def on_move(self, session: Session, req: m.Move) -> dict[str, Any]:
        live = self.games.get(req.game) if req.game is not None else None
        if live is None or live.owner != session.player:
            live = await self.game_for(session, req.game)
        if live.kind == g.DAILY:
            await self.daily.close_past_daily(live)
        text, room = await self.play_move(live, req.move)
        if live.finished and live.kind == g.DAILY:
            await self.daily.finish(live)
        return self._played("moved", live, text, room)

    async def on_undo(self, session: Session, req: m.Undo) -> dict[str, Any]:
        live = await self.game_for(session, req.game)
        await self.daily.close_past_daily(live)
        room = self.check_playable(live)
        self.app.moves.check_log_room(live)
        game = live.game
        now = self.now()
        home_before = game.cards_home()
        try:
            move = game.undo()
        except UndoRefused as exc:
            raise refuse(ErrorCode.UNDO_REFUSED, str(exc)) from None
        try:
            await self.log(live, f"{now} {g.UNDO}")
        except Exception:
            game.play(move)
            raise
        live.note_home_change(home_before, now)
        return self._played("undone", live, move.text, room)

    def _played(
        self, kind: str, live: g.LiveGame, move: str, room: HeldRoom | None
    ) -> dict[str, Any]:
        """The reply to an accepted move or undo (and the room's progress event)."""
        return self.app.moves.played(kind, live, move, room)

    async def on_resign(self, session: Session, req: m.Resign) -> dict[str, Any]:
        live = await self.game_for(session, req.game)
        await self.daily.close_past_daily(live)
        room = self.check_playable(live)
        await self.resign(live, room)
        if live.kind == g.DAILY:
            await self.daily.finish(live)
        return {"type": "resigned", "game": live.gid, "status": live.status()}

    async def resign(self, live: g.LiveGame, room: HeldRoom | None) -> None:
        now = self.now()
        live.finish(g.RESIGNED, now)
        try:
            await self.log(live, f"{now} {g.RESIGN}")
        except Exception:
            live.result = live.finished_ms = None  # not logged: not resigned
            raise
        if room is not None:
            self.races.progress(room, live)


#: the game pages, the rules a client shows (read from the source tree)
RULES_DIR = Path(__file__).resolve().parents[3] / "docs" / "games"


@functools.cache
def rules_text(folder: Path, game_id: str) -> str:
    """A game's page from ``folder`` (docs/games/), or its one-line summary where the
    pages are not installed beside the server."""
    try:
        return (folder / f"{game_id}.md").read_text(encoding="utf-8")
    except OSError:
        info = GAMES[game_id]
        return f"# {info.name}\n\n{info.summary}\n"
