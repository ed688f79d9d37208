"""Reviews: where a finished game was lost, or how many moves over par it was won
(``docs/protocol.md``, "review").

A review knows the stock: it says from which position a player who knew the order of
the hidden cards could still have won, and how. So it is given only for a game that is
over, and for a game of a daily deal (a ranked daily, a practice, a challenge of one) only
after the day's reset, for everyone (before it, its own player could still practise the
deal, or tell others what the stock holds). Who may ask: anyone who may see the game's
replay (``handlers/replays.py``: any finished solo, practice, challenge or race game's, by
its id; a daily's after the reset): a review tells nothing its replay, with its seed,
does not.

The search (``server.solver.review``) runs in a worker process of the ``review`` pool
with a budget of :data:`BUDGET_S` seconds, given plain data: the rules id, the seed, the
game's line (undone moves taken out) and, for a daily deal, its book line and par. Every
winning continuation it returns has been played through the engine from the deal; the
handler plays it once more (``check_line``) before anything keeps or shows it.

A review is worked out once: kept in Redis (``rv:{gid}``, ``store/reviews.py``), so a
second request, through any process, is answered from there (unless the game went on
since: a solo game's or a practice's loss may be undone, and a review kept for fewer of
its log's entries than it has now is worked out again). Two asking at once through
one process share one search; through two processes, the one that takes the game's claim
(``claim:review:{gid}``) searches and the other waits for its review to be kept (looking
every :data:`POLL_S` s), or takes the claim over if it lapses (its process died).

A player may have reviews worked out :data:`PER_HOUR` times an hour (a review answered
from Redis is not counted), one at a time per process's worker (:data:`WAIT_S` at most
in the queue, then ``rate_limited``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Final

from server.protocol import ErrorCode, ProtocolError
from server.protocol import messages as m
from server.solver import check_line
from server.solver.review import review as review_task

from ..domain import daily as d
from ..domain import replays
from ..domain import review as rv
from ..domain.games import WON
from ..store.keys import REVIEW_CLAIM_MS
from ..store.limits import Limit, Limiter
from ..store.reviews import DealLines, GameReviews
from .base import Context, Handler, Part, Session, refuse
from .replays import Replaying

log = logging.getLogger("patience.service")

#: the pool reviews run in (``server.app.workers``: one process unless configured)
POOL: Final = "review"
#: the search's budget, seconds (wall time in the worker)
BUDGET_S: Final = 10.0
#: how long a review may wait for the worker, and the margin past its budget
WAIT_S: Final = 30.0
MARGIN_S: Final = 10.0
#: reviews a player may have worked out in an hour (answered from Redis: not counted)
PER_HOUR: Final = 30
HOUR_MS: Final = 3_600_000
#: the limit's and the claim's kind (``store/limits.py``)
REVIEW: Final = "review"
#: how often a process waiting for another's review looks for it, seconds
POLL_S: Final = 0.2
BUSY: Final = "the server is busy reviewing other games: ask again in a minute"


class Reviewing(Part):
    def __init__(self, ctx: Context, replaying: Replaying) -> None:
        super().__init__(ctx)
        self.replaying = replaying
        self.kept = GameReviews(ctx.redis)
        self.deal_lines = DealLines(ctx.redis)
        self.limits = Limiter(ctx.redis)
        #: the reviews being worked out through this process, by game: one search each
        self._working: dict[str, asyncio.Future[dict[str, Any]]] = {}
        #: one review at a time in this process's worker (a search takes its budget)
        self._turn = asyncio.Semaphore(max(1, self.workers.sizes.get(POOL, 1)))
        #: reviews worked out here (for tests and /metrics)
        self.searched = 0
        #: the search's budget, seconds (a test may give it less)
        self.budget_s = BUDGET_S

    def requests(self) -> dict[type[m.Request], Handler]:
        return {m.Review: self.on_review}

    async def on_review(self, session: Session, req: m.Review) -> dict[str, Any]:
        pid = self.need_player(session)
        gid = req.game
        replay = await self.reviewable(gid, pid)
        found = await self.kept.get(gid)
        cached = found is not None and found.get("entries") == len(replay["moves"])
        if not cached:
            found = await self.shared(gid, replay, pid)
        assert found is not None
        return {"type": "review", "cached": cached, **found}

    async def reviewable(self, gid: str, pid: str) -> dict[str, Any]:
        """The replay of game ``gid`` if ``pid`` may review it now, else the error saying
        why not (another player's game in play is no game to them, as to ``replay``)."""
        if not gid.isalnum():
            raise refuse(ErrorCode.NO_SUCH_GAME, f"no game {gid!r}")
        gone = refuse(ErrorCode.NO_SUCH_GAME, f"no game {gid!r} (or it has expired)")
        held = self.games.get(gid)
        if held is not None and not held.finished:
            if held.owner != pid:
                raise gone
            raise refuse(ErrorCode.GAME_NOT_OVER, "the game is not over: review it once it is")
        found = await self.replaying.found(gid)
        if found is None:
            live = held or await self.stored.load(gid, fence=False)
            # (another's game in a race still on is no game to them either: "the race is
            # still on" told them it was one)
            if live is None or live.owner != pid:
                raise gone
            if not live.finished:
                raise refuse(ErrorCode.GAME_NOT_OVER, "the game is not over: review it once it is")
            raise refuse(
                ErrorCode.GAME_NOT_OVER, "the race is still on: its games are reviewed once it ends"
            )
        replay, _owner = found
        if replay.get("kind") == replays.BOOK:
            raise refuse(ErrorCode.NO_SUCH_GAME, "the book line is no player's game")
        day = replay.get("day")
        now = self.now()
        if isinstance(day, str) and day >= d.day_of(now):
            # (when, too: "after the reset" alone sent the player to guess)
            raise refuse(
                ErrorCode.REVIEW_LATER,
                "a game of a daily deal is reviewed after the day's reset (00:00 UTC, in"
                f" {d.till_reset_text(now)}): a review tells the order of the stock",
            )
        problem = replays.other_rules(replay)
        if problem is not None:
            raise refuse(ErrorCode.OTHER_RULES, problem)
        return replay

    async def shared(self, gid: str, replay: dict[str, Any], pid: str) -> dict[str, Any]:
        """The review of ``gid``, worked out once however many ask at once here."""
        working = self._working.get(gid)
        if working is not None:
            return await asyncio.shield(working)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._working[gid] = future
        try:
            found = await self.claimed(gid, replay, pid)
        except BaseException as exc:
            if not future.done():
                future.set_exception(exc)
                future.exception()  # (retrieved: those waiting on it get it raised)
            raise
        else:
            future.set_result(found)
            return found
        finally:
            del self._working[gid]

    async def claimed(self, gid: str, replay: dict[str, Any], pid: str) -> dict[str, Any]:
        """The review of ``gid``: worked out here under the game's claim, or, while
        another process holds the claim, the one it keeps."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + WAIT_S + BUDGET_S + MARGIN_S
        while True:
            claim = await self.limits.claim(REVIEW, gid, REVIEW_CLAIM_MS)
            if claim is not None:
                break
            await asyncio.sleep(POLL_S)
            found = await self.kept.get(gid)
            if found is not None and found.get("entries") == len(replay["moves"]):
                return found
            if loop.time() > give_up:
                raise refuse(ErrorCode.RATE_LIMITED, BUSY)
        try:
            found = await self.kept.get(gid)  # kept by another just before the claim
            if found is not None and found.get("entries") == len(replay["moves"]):
                return found
            use = await self.limits.take(Limit(REVIEW, PER_HOUR, HOUR_MS), pid, self.now())
            if not use.allowed:
                raise refuse(
                    ErrorCode.RATE_LIMITED,
                    f"at most {PER_HOUR} reviews worked out an hour: ask again in "
                    f"{use.wait_text()}",
                )
            try:
                found = await self.work_out(replay)
            except ProtocolError:  # the workers busy: not counted
                await self.limits.give_back(use)
                raise
            await self.kept.keep(gid, found)
            return found
        finally:
            try:
                await self.limits.let_go(REVIEW, gid, claim)
            except Exception as exc:
                self.failures.failed("letting go of a review's claim", exc)

    async def work_out(self, replay: dict[str, Any]) -> dict[str, Any]:
        """The review of a finished game's replay, searched in a worker process."""
        game_id, seed = replay["game"], int(replay["seed"])
        line, entries = rv.effective_line(replay)
        won = replay["result"]["status"] == WON
        book = await self.book_of(replay)
        version = replays.rules_version(replay)
        known = None if book is not None else await self.known_line(game_id, version, seed)
        try:
            async with asyncio.timeout(WAIT_S):
                await self._turn.acquire()
        except TimeoutError:
            raise refuse(ErrorCode.RATE_LIMITED, BUSY) from None
        try:
            found = await self.workers.run(
                POOL,
                review_task,
                game_id,
                seed,
                line,
                won,
                self.budget_s,
                book,
                known,
                timeout=self.budget_s + MARGIN_S,
            )
        except TimeoutError:
            raise refuse(ErrorCode.RATE_LIMITED, BUSY) from None
        finally:
            self._turn.release()
        self.searched += 1
        at = found.get("at")
        view = None
        if found.get("continuation") is not None and at is not None:
            # never show a line unchecked: the player's moves to there, then the line
            check_line(game_id, line[:at] + list(found["continuation"]), seed=seed)
            view = replays.view_after(replay, rv.step_of(replay, entries, at))
        if found.get("par_line") is not None:
            check_line(game_id, list(found["par_line"]), seed=seed)
        # the deal's shortest win found, shared by its reviews: par for the next won game
        # of it (each review's own search, bounded by its player's line, had found each
        # player "on par"), and a known win for the next lost one
        if book is None:
            for win in rv.wins_found(line, found):
                await self.deal_lines.offer(game_id, version, seed, win)
        return rv.shown(replay, entries, found, view)

    async def known_line(self, game_id: str, version: int, seed: int) -> list[str] | None:
        """The deal's shortest winning line earlier reviews found, checked to win (a
        line that does not, kept under other rules or tampered with, is not used)."""
        line = await self.deal_lines.shortest(game_id, version, seed)
        if line is None:
            return None
        try:
            check_line(game_id, line, seed=seed)
        except Exception:
            return None
        return line

    async def book_of(self, replay: dict[str, Any]) -> dict[str, Any] | None:
        """The book line and par of the daily deal a replay played (certified, its par
        found), or None."""
        day, game_id = replay.get("day"), replay.get("game")
        if not isinstance(day, str) or not isinstance(game_id, str):
            return None
        deal = await self.dailies.deal(day, game_id)
        if (
            deal is None
            or not deal.get("certified")
            or deal.get("par") is None
            or deal.get("seed") != replay.get("seed")
        ):
            return None
        return {
            "line": list(deal.get("line") or []),
            "par": int(deal["par"]),
            "shortest": bool(deal.get("shortest")),
        }
