"""Practice against the board: once a player's ranked attempt at a day's daily is over,
their practice of that deal may race ghosts (``domain/ghosts.py``) of the players they
follow who have finished it and of the day's leaders, up to :data:`GHOSTS` of them
(``daily`` with ``"ghosts": true``). When the practice game ends the server ranks it
among them by its own clock (``ghosts_result``). Nothing here is ranked anywhere: a
practice game counts on no board."""

from __future__ import annotations

from typing import Any, Final

from server.engine import IllegalMove, UndoRefused

from ..domain import challenges as ch
from ..domain import daily as d
from ..domain import games as g
from ..domain import ghosts
from ..domain.boards import parse_board
from ..events import GameEnded
from .base import Context, Part

#: the most ghosts a practice game races
GHOSTS: Final = 8


class BoardGhosts(Part):
    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        ctx.events.on(GameEnded, self.on_game_ended)

    async def of_day(self, pid: str, game_id: str, day: str) -> list[dict[str, Any]]:
        """The ghosts a practice of that day's deal races: first the players ``pid``
        follows who have finished it (best first), then the day's leaders; never
        ``pid``; each once; at most :data:`GHOSTS`. Made from their ranked replays,
        counts only (no replay id: a daily's is secret until the reset)."""
        now = self.now()
        board = parse_board(f"daily/{game_id}/{day}", d.day_of(now), d.iso_week(now))
        followed = await self.players.followed(pid)
        entries: list[dict[str, Any]] = []
        if followed:
            entries += (await self.boards.among(board, followed))["entries"]
        entries += (await self.boards.top(board, 0, GHOSTS + 1))["entries"]
        out: list[dict[str, Any]] = []
        seen: set[str] = set()
        for entry in entries:
            replay_id = entry.get("replay")
            if entry.get("pid") == pid or not replay_id or replay_id in seen:
                continue
            seen.add(replay_id)
            found = await self.replays.get(replay_id)
            if found is None:
                continue
            try:
                ghost = ghosts.of_replay(found[0])
            except (IllegalMove, UndoRefused, KeyError, ValueError):
                continue  # (a replay the engine does not play is raced by nobody)
            # (named as the board names its player now, not as the game was played under)
            name = entry.get("player") or ghost["name"]
            out.append(ch.hidden({**ghost, "name": name, "hints": entry.get("hints", 0)}))
            if len(out) == GHOSTS:
                break
        return out

    async def race(self, live: g.LiveGame) -> list[dict[str, Any]]:
        """Make ``live`` (a practice game) a race against the board: its ghosts."""
        assert live.day is not None
        found = await self.of_day(live.owner, live.game.id, live.day)
        if not live.ghosts:
            live.ghosts = True
            await self.stored.race_ghosts(live.gid)
        return found

    def on_game_ended(self, event: GameEnded) -> None:
        live = event.live
        if live.kind == g.PRACTICE and live.ghosts and live.day is not None:
            self.spawn(self._ended(live))

    async def _ended(self, live: g.LiveGame) -> None:
        """``ghosts_result`` to the player: their practice ranked among the ghosts."""
        session = self.sessions.get(live.owner)
        if session is None or live.day is None:
            return
        found = await self.of_day(live.owner, live.game.id, live.day)
        mine = ch.entry_of(session.name or "?", live, live.created_ms)
        table = ch.rank([mine, *(ch.entry_of_ghost(gh, gh.get("hints", 0), 0) for gh in found)])
        session.send(
            {
                "type": "ghosts_result",
                "game": live.gid,
                "you": ch.hidden(mine),
                "beaten": sum(1 for e in table if e["ghost"] and e["place"] > _place(table)),
                "table": [ch.hidden(e) for e in table],
            }
        )


def _place(table: list[dict[str, Any]]) -> int:
    return int(next(e["place"] for e in table if not e["ghost"]))
