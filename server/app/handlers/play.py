"""Playing a game: the games list and rules, dealing a solo game, moves, undo and
resigning (each written to the game's log first: ``GameKeeper.log``)."""

from __future__ import annotations

import asyncio
import functools
import logging
from pathlib import Path
from typing import Any

from server.engine import GAMES, UndoRefused
from server.protocol import ErrorCode
from server.protocol import messages as m
from server.solver.winnability import MEASURED

from ..domain import games as g
from ..domain import lost
from ..held import HeldRoom
from ..moves import MovePath
from .base import Context, Handler, Part, Session, no_such_game, refuse
from .daily import DailyChallenge
from .keeper import GameKeeper

log = logging.getLogger("patience.service")


class Play(Part):
    def __init__(
        self, ctx: Context, keeper: GameKeeper, daily: DailyChallenge, moves: MovePath
    ) -> None:
        super().__init__(ctx)
        self.keeper = keeper
        self.daily = daily
        self.moves = moves

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
        return {"type": "games", "games": games_list()}

    async def on_rules(self, session: Session, req: m.Rules) -> dict[str, Any]:
        info = GAMES.get(req.game)
        if info is None:
            raise no_such_game(req.game)
        text = rules_text(self.settings.rules_dir or RULES_DIR, info.id)
        return {"type": "rules", "game": info.id, "name": info.name, "text": text}

    async def on_ping(self, session: Session, req: m.Ping) -> dict[str, Any]:
        return {"type": "pong", "time": self.now()}

    async def on_new_game(self, session: Session, req: m.NewGame) -> dict[str, Any]:
        pid = self.need_player(session)
        if req.game not in GAMES:
            raise no_such_game(req.game)
        await self.keeper.count_deal(pid)
        before = await self.stored.newest_solo(pid)
        live = await self.stored.create(
            g.dealt(req.game, req.seed, pid, g.SOLO, self.now()), self.settings.idle_ttl
        )
        self.games[live.gid] = live
        await self.players.set_solo(pid, live.gid)
        held = self.games.get(before) if before is not None else None
        self.keeper.take_solo(pid, live.gid)
        await self.keeper.keep_solo(pid, live.gid, before, held)
        return {"type": "game", **live.snapshot_message()}

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

        self.moves.start(live, text, settle)
        return await played

    async def on_move(self, session: Session, req: m.Move) -> dict[str, Any]:
        live = self.games.get(req.game) if req.game is not None else None
        if live is None or live.owner != session.player:
            live = await self.keeper.game_for(session, req.game)
        if live.kind == g.DAILY:
            await self.daily.close_past_daily(live)
        text, room = await self.play_move(live, req.move)
        if live.finished and live.kind == g.DAILY:
            await self.daily.finish(live)
        return self._played("moved", live, text, room)

    async def on_undo(self, session: Session, req: m.Undo) -> dict[str, Any]:
        live = await self.keeper.game_for(session, req.game)
        await self.daily.close_past_daily(live)
        reopen = live.result == g.LOST and live.kind in g.UNDO_AFTER_LOSS
        if reopen:
            await self._check_loss_undoable(live)
            room = None
        else:
            room = self.moves.check_playable(live)
        self.moves.check_log_room(live)
        game = live.game
        now = self.now()
        home_before = game.cards_home()
        try:
            move = game.undo()
        except UndoRefused as exc:
            raise refuse(ErrorCode.UNDO_REFUSED, str(exc)) from None
        ended = live.result, live.finished_ms
        if reopen:
            live.result = live.finished_ms = None
        try:
            # an undo after a loss renews the keys' time to live as the loss set it
            await self.keeper.log(live, f"{now} {g.UNDO}", renew=reopen)
        except Exception:
            game.play(move)
            live.result, live.finished_ms = ended
            raise
        live.note_home_change(home_before, now)
        return self._played("undone", live, move.text, room)

    async def _check_loss_undoable(self, live: g.LiveGame) -> None:
        """A lost solo or practice game's ``undo`` is refused, ``game_over`` as before,
        once a challenge has been made of it: the challenge races the game as it ended,
        and its replay is kept as it was (``Challenging.challenge_of``)."""
        if await self.replays.kept(live.gid):
            raise refuse(
                ErrorCode.GAME_OVER,
                "the game is over (lost), and a challenge has been made of it: its end stands",
            )

    def _played(
        self, kind: str, live: g.LiveGame, move: str, room: HeldRoom | None
    ) -> dict[str, Any]:
        """The reply to an accepted move or undo (and the room's progress event)."""
        return self.moves.played(kind, live, move, room)

    async def on_resign(self, session: Session, req: m.Resign) -> dict[str, Any]:
        live = await self.keeper.game_for(session, req.game)
        await self.daily.close_past_daily(live)
        room = self.moves.check_playable(live)
        await self.keeper.resign(live, room)
        if live.kind == g.DAILY:
            await self.daily.finish(live)
        return {
            "type": "resigned",
            "game": live.gid,
            "status": live.status(),
            "finished_at": live.finished_ms,
        }


def games_list() -> list[dict[str, Any]]:
    return [
        {
            "id": info.id,
            "name": info.name,
            "packs": info.packs,
            "summary": info.summary,
            "rules_version": info.rules_version,
            "unit": lost.unit(info.cls),
            "winnability": MEASURED[info.id].to_json(),
        }
        for info in GAMES.values()
    ]


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
