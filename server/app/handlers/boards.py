"""Leaderboards: their pages, watching them, and telling watchers of a change."""

from __future__ import annotations

import logging
from typing import Any

from server.engine import GAMES
from server.protocol import ErrorCode, encode
from server.protocol import messages as m

from .. import review
from ..domain import daily as d
from ..domain import difficulty as df
from ..domain import lost
from ..domain.boards import Board, parse_board
from ..store.difficulty import Grades
from .base import Context, Handler, Part, Session, refuse

log = logging.getLogger("patience.service")


def counted(board: Board, page: dict[str, Any], rating_races: int) -> None:
    """Tell on a daily or best board's ``page`` what its results' home counts (``unit``):
    Nestor's and Doubles and Quits' cards come off in pairs; on a rating board, who is on
    it (``min_races``: those rated ``rating_races`` times or more, ratings.md), the whole
    board's and a group's alike."""
    if board.kind in ("daily", "best") and board.game in GAMES:
        page["unit"] = lost.unit(GAMES[board.game].cls)
    if board.kind == "rating":
        page["min_races"] = rating_races


class Leaderboards(Part):
    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        #: board id -> sessions watching it
        self.board_watchers: dict[str, set[Session]] = {}
        #: each daily deal's difficulty, shown on its day's board (``handlers/difficulty.py``)
        self.grades = Grades(ctx.redis)

    def requests(self) -> dict[type[m.Request], Handler]:
        return {
            m.Top: self.on_top,
            m.BoardWatch: self.on_board_watch,
            m.BoardUnwatch: self.on_board_unwatch,
        }

    def board(self, text: str) -> Board:
        now = self.now()
        try:
            board = parse_board(text, d.day_of(now), d.iso_week(now))
        except ValueError as exc:
            raise refuse(ErrorCode.NO_SUCH_BOARD, str(exc)) from None
        if board.day is not None and board.day > d.day_of(now):
            raise refuse(ErrorCode.NO_SUCH_BOARD, f"{board.day} has not come yet")
        return board

    async def board_page(
        self,
        board: Board,
        offset: int = 0,
        limit: int = 20,
        pid: str | None = None,
        around: bool = False,
        friends: bool = False,
    ) -> dict[str, Any]:
        if around:
            assert pid is not None
            page = await self.boards.around(board, pid)
        elif friends:
            assert pid is not None
            followed = await self.players.followed(pid)
            page = await self.boards.among(board, [pid, *followed])
        else:
            page = await self.boards.top(board, offset, limit)
        leader = page["entries"][0] if page["entries"] and page["entries"][0]["rank"] == 1 else None
        if leader is None and page["size"]:
            leader = (await self.boards.top(board, 0, 1))["entries"][0]
        page["leader"] = leader
        rank = page.get("rank")
        if around and rank is not None and rank > 1:
            above = [e for e in page["entries"] if e["rank"] == rank - 1]
            page["to_beat"] = above[0] if above else None
        else:
            page["to_beat"] = leader
        for entry in page["entries"]:
            entry.pop("pid", None)
        for entry in (page["leader"], page["to_beat"]):
            if entry:
                entry.pop("pid", None)
        if board.kind == "daily":
            page["book"] = await self._book(board)
            page["difficulty"] = await self._difficulty(board)
            if pid is not None and (around or friends):
                page.update(await self._own_review(board, pid))
        counted(board, page, self.settings.rating_board_races)
        page["today"] = d.day_of(self.now())  # (today's daily replays are private)
        return {"board": board.id, "title": board.title(), "kind": board.kind, **page}

    async def _own_review(self, board: Board, pid: str) -> dict[str, Any]:
        """``review`` of the player's own ranked result of a daily board's day, where the
        pace check held it: a held result is off the board, and the player looking for
        it there is told why, as ``daily_status`` tells them."""
        if board.day is None or board.game is None:
            return {}
        gid = await self.ctx.dailies.ranked(board.day, board.game, pid)
        return {} if gid is None else await review.told_of(self.ctx.reviews, gid)

    async def _book(self, board: Board) -> dict[str, Any] | None:
        """A past day's board's par and book line, where its deal was certified (never
        before the day's reset)."""
        if board.kind != "daily" or board.day is None or board.game is None:
            return None
        if board.day >= d.day_of(self.now()):
            return None
        deal = await self.dailies.deal(board.day, board.game)
        if deal is None or not deal.get("certified") or deal.get("par") is None:
            return None  # (a deal whose search for par never ended has no book line)
        return {
            "replay": d.book_id(board.day, board.game),
            "par": int(deal["par"]),
            "shortest": bool(deal.get("shortest")),
        }

    async def _difficulty(self, board: Board) -> dict[str, Any] | None:
        """The difficulty of a daily board's deal, where it is graded: shown before and
        during the day too (it tells nothing of the stock: ``docs/solver.md``)."""
        if board.day is None or board.game is None:
            return None
        kept = await self.grades.get(board.day, board.game)
        if kept is None:
            return None
        deal = await self.dailies.deal(board.day, board.game)
        return df.shown(kept, None if deal is None else int(deal["seed"]))

    def relay(self, board_id: str, data: bytes) -> None:
        """A ``board_update`` from another process, to the board's watchers here."""
        for session in list(self.board_watchers.get(board_id, ())):
            session.send_encoded(data)

    async def catch_up(self) -> None:
        """The bus is heard again after it was not: the board updates the other processes
        published meanwhile, to this process's watchers."""
        if not self.board_watchers:
            return
        for board_id, data in await self.bus.missed_boards():
            self.relay(board_id, data)

    async def on_top(self, session: Session, req: m.Top) -> dict[str, Any]:
        pid = session.player
        if (req.around or req.friends) and pid is None:
            raise refuse(ErrorCode.NOT_AUTHENTICATED, "sign in to see yourself or friends")
        if req.board:
            board = self.board(req.board)
        elif pid is not None and (req.around or req.friends):
            board = self.board(await self._last_daily(pid))
        else:  # (as the request's parser said when the board was always needed)
            raise refuse(ErrorCode.BAD_REQUEST, "top: field 'board' is required")
        page = await self.board_page(board, req.offset, req.limit, pid, req.around, req.friends)
        return {"type": "board", **page}

    async def _last_daily(self, pid: str) -> str:
        """The board of the player's last daily: where ``around`` and ``friends`` look
        when no board is named."""
        last = await self.players.last_daily(pid)
        if last is None:
            raise refuse(
                ErrorCode.NO_SUCH_BOARD, "you have played no daily on this server yet; name a board"
            )
        return last

    async def on_board_watch(self, session: Session, req: m.BoardWatch) -> dict[str, Any]:
        board = self.board(req.board)
        self.board_watchers.setdefault(board.id, set()).add(session)
        return {"type": "board", **await self.board_page(board)}

    async def on_board_unwatch(self, session: Session, req: m.BoardUnwatch) -> dict[str, Any]:
        board = self.board(req.board)
        self.unwatch(board.id, session)
        return {"type": "unwatched", "board": board.id}

    def unwatch(self, board_id: str, session: Session) -> None:
        """(A board nobody here watches any more is forgotten: the boards watched over
        time, a new one each day, are not kept for ever.)"""
        watchers = self.board_watchers.get(board_id)
        if watchers is not None:
            watchers.discard(session)
            if not watchers:
                del self.board_watchers[board_id]

    async def changed(self, board: Board, pid: str) -> None:
        """``board_update`` to the board's watchers, here and in the other processes."""
        page = await self.boards.around(board, pid, radius=0)
        entry = page["entries"][0] if page["entries"] else None
        if entry is not None:
            entry.pop("pid", None)
        data = encode(
            {"type": "board_update", "board": board.id, "entry": entry, "size": page["size"]}
        )
        for session in list(self.board_watchers.get(board.id, ())):
            session.send_encoded(data)
        self.bus.publish_board(board.id, data)
