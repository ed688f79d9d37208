"""The daily challenge: today's deal (ranked first, practice after), streaks, and a
ranked game's end (its replay, the boards, the result line)."""

from __future__ import annotations

import logging
from typing import Any

from server.engine import GAMES
from server.protocol import ErrorCode
from server.protocol import messages as m

from .. import review
from ..domain import daily as d
from ..domain import difficulty as df
from ..domain import games as g
from ..domain import leagues as lg
from ..domain import lost
from ..domain.boards import parse_board
from ..events import LeagueChanged
from ..store.difficulty import Grades
from ..store.leagues import Leagues
from .base import Context, Handler, Part, Session, no_such_game, refuse
from .boards import Leaderboards
from .certify import Certifier
from .commitments import Commitments
from .ghosts import BoardGhosts
from .keeper import GameKeeper
from .replays import Replaying

log = logging.getLogger("patience.service")


class DailyChallenge(Part):
    def __init__(
        self,
        ctx: Context,
        keeper: GameKeeper,
        leaderboards: Leaderboards,
        certifier: Certifier,
        replaying: Replaying,
        ghosts: BoardGhosts,
        commitments: Commitments,
    ) -> None:
        super().__init__(ctx)
        self.commitments = commitments
        self.ghosts = ghosts
        self.keeper = keeper
        self.leaderboards = leaderboards
        self.certifier = certifier
        self.replaying = replaying
        #: what the daily seeds are made from (``d.daily_seed``)
        self.secret = ctx.secret
        #: the weekly leagues a member's result counts in (``handlers/leagues.py``)
        self.leagues = Leagues(ctx.redis)
        #: each daily deal's difficulty, as graded ahead (``handlers/difficulty.py``)
        self.grades = Grades(ctx.redis)

    def requests(self) -> dict[type[m.Request], Handler]:
        return {
            m.Daily: self.on_daily,
        }

    async def close_past_daily(self, live: g.LiveGame) -> None:
        """A ranked daily game ends at its day's reset (00:00 UTC): its replays become
        public then, and nobody may finish yesterday's game knowing them. It ends as it
        stands, as a time-out: at the reset (:meth:`close_ended`), or, if that has not
        come to it yet, at the next request on it."""
        if live.kind != g.DAILY or live.finished or live.day is None:
            return
        reset = d.day_start_ms(live.day) + d.DAY_MS
        if self.now() < reset:
            return
        live.finish(g.TIMEOUT, reset)
        try:
            await self.keeper.log(live, f"{reset} {g.TIMEOUT_ENTRY}")
        except Exception:
            live.result = live.finished_ms = None  # not logged: not ended
            raise
        await self.finish(live)

    async def close_ended(self) -> int:
        """The reset: end every ranked attempt still open whose day is over
        (:meth:`close_past_daily`), as it stood, with its replay, its board entry and,
        for a player connected here, ``daily_result``; how many were ended here.

        Each process ends those of its own players and those of players connected
        nowhere (a player connected elsewhere is left to that process, which tells
        them), each under a claim (``Dailies.claim_closing``), and through the game's
        fencing token, so an attempt gets one time-out however many processes look. An
        attempt leaves ``dailies:open`` only once its final entry is logged, with its
        finish owed (:meth:`finish_owed` writes what a failure left): a process that
        dies part way leaves it to the next look, here or elsewhere."""
        due = await self.dailies.open_until(self.now())
        if not due:
            return 0
        away = sorted({pid for pid, _ in due if pid not in self.sessions})
        elsewhere = await self.presence.online(away) if away else set()
        ended = 0
        for pid, gid in due:
            if pid in elsewhere:
                continue
            try:
                if not await self.dailies.claim_closing(gid, self.proc):
                    continue  # another process is ending it
                if await self._close(pid, gid):
                    ended += 1
            except Exception as exc:  # (tried again at the next look)
                self.failures.failed("ending a daily at the reset", exc, player=pid)
        if ended:
            log.info("dailies ended at the reset", extra={"ended": ended})
        return ended

    async def _close(self, pid: str, gid: str) -> bool:
        """End one ranked attempt past its day's reset; whether it was ended here."""
        live = await self.keeper.get_game(gid)
        if (
            live is None  # expired, or a start that lost its claim (deleted)
            or live.kind != g.DAILY
            or live.owner != pid
            or live.day is None
            or await self.dailies.ranked(live.day, live.game.id, pid) != gid
        ):
            await self.dailies.ended(pid, gid)  # nothing for the reset to end
            return False
        if live.finished:  # its final entry is logged: the finish is owed, or written
            await self.dailies.ended(pid, gid)
            return False
        await self.close_past_daily(live)
        return live.finished

    def _streak_of(self, fields: dict[str, str], prefix: str, today: str) -> dict[str, int]:
        last = fields.get(f"{prefix}:last")
        current = int(fields.get(f"{prefix}:cur", 0))
        if last not in (today, d.previous_day(today)):
            current = 0  # a day was missed
        return {"current": current, "best": int(fields.get(f"{prefix}:best", 0))}

    async def _streaks(self, pid: str, game_id: str) -> dict[str, Any]:
        fields = await self.dailies.streak_fields(pid)
        today = d.day_of(self.now())
        return {
            "game": self._streak_of(fields, game_id, today),
            "all": self._streak_of(fields, "all", today),
        }

    async def on_daily(self, session: Session, req: m.Daily) -> dict[str, Any]:
        """Start or resume today's challenge: the first attempt is ranked; once it has
        ended, further attempts that day are practice."""
        pid = self.need_player(session)
        if req.game not in GAMES:
            raise no_such_game(req.game)
        if not req.start:
            return await self.status(pid, req.game)
        now = self.now()
        day = d.day_of(now)
        deal, committed = await self.commitments.deal(day, req.game)
        seed = int(deal["seed"])
        gid = await self.dailies.ranked(day, req.game, pid)
        live: g.LiveGame | None = None
        if gid is None:
            fresh = await self.stored.create(
                g.dealt(req.game, seed, pid, g.DAILY, now, day=day),
                self.settings.idle_ttl,
            )
            # what the day's reset ends if it is still open then
            await self.dailies.opened(pid, fresh.gid, d.next_reset_ms(now))
            # two connections may race to start it: exactly one ranked attempt wins
            if await self.dailies.claim_ranked(day, req.game, pid, fresh.gid):
                self.games[fresh.gid] = live = fresh
            else:
                await self.stored.delete(fresh.gid)
                await self.dailies.ended(pid, fresh.gid)
                gid = await self.dailies.ranked(day, req.game, pid)
        if live is None:
            assert gid is not None
            live = await self.keeper.get_game(gid)
            if live is None:
                raise refuse(ErrorCode.NO_SUCH_GAME, "today's ranked game has expired")
        ranked = not live.finished
        ranked_result = None
        par = par_shortest = over_par = None
        if not ranked:
            if deal.get("certified") and deal.get("par") is not None:
                par = int(deal["par"])  # (once the ranked attempt is over, not before)
                par_shortest = bool(deal.get("shortest"))
            ranked_result = self._result_line_of(live, par)
            over_par = self._over_par(live, par)
            pgid = await self.dailies.practice(day, req.game, pid)
            practice = await self.keeper.get_game(pgid) if pgid else None
            if practice is None or practice.finished:
                await self.keeper.count_deal(pid)  # (a practice game is a new game too)
                practice = await self.stored.create(
                    g.dealt(req.game, seed, pid, g.PRACTICE, now, day=day),
                    self.settings.idle_ttl,
                )
                self.games[practice.gid] = practice
                await self.dailies.set_practice(day, req.game, pid, practice.gid)
                # kept as the solo games are: the last ten that ended, older ones deleted
                await self.keeper.keep_solo(pid, practice.gid, None)
            live = practice
        self.keeper.take_solo(pid, live.gid)
        # (the day's board kept as the player's last daily: top's board when none is named)
        await self.players.set_solo(pid, live.gid, daily=f"daily/{req.game}/{day}")
        reset = d.next_reset_ms(now)
        return {
            "type": "daily",
            "day": day,
            "ranked": ranked,
            "note": None
            if ranked
            else "practice: your ranked attempt today has ended; this one is not ranked",
            "reset_at": reset,
            "reset_in_ms": reset - now,
            "ranked_result": ranked_result,
            "certified": bool(deal.get("certified")),
            "commitment": committed["commitment"],
            "par": par,
            "par_shortest": par_shortest,
            "over_par": over_par,
            "difficulty": df.shown(await self.grades.get(day, req.game), seed),
            "streak": await self._streaks(pid, req.game),
            **live.snapshot_message(),
            **({"ghosts": await self.ghosts.race(live)} if req.ghosts and not ranked else {}),
        }

    async def status(self, pid: str, game_id: str) -> dict[str, Any]:
        """What a ``daily`` of ``game_id`` would do now, without doing it: the player's
        ranked attempt today is ``pending`` (a ``daily`` deals it and starts its clock),
        ``playing`` (a ``daily`` resumes it; its clock has run since ``started_at``) or
        ``ended`` (a ``daily`` deals practice). Nothing is dealt, nothing taken: a client
        asks this before it lets the player start the clock."""
        now = self.now()
        day = d.day_of(now)
        gid = await self.dailies.ranked(day, game_id, pid)
        live = None
        if gid is not None:
            # looked at, not taken: where it is played (here or elsewhere) it plays on
            live = self.games.get(gid) or await self.stored.load(gid, fence=False)
        state, result = "pending", None
        if gid is not None:
            state = "ended" if live is None or live.finished else "playing"
        held: dict[str, Any] = {}
        par = par_shortest = over_par = None
        if live is not None and live.finished:
            par = await self.certifier.par(day, game_id)
            par_shortest = await self.certifier.par_shortest(day, game_id)
            result = self._result_line_of(live, par)
            over_par = self._over_par(live, par)
        committed = await self.commitments.looked_up(day, game_id)
        if gid is not None and state == "ended":
            held = await review.told_of(self.ctx.reviews, gid)
        reset = d.next_reset_ms(now)
        return {
            "type": "daily_status",
            "day": day,
            "rules": game_id,
            "ranked_attempt": state,
            "game": gid,
            "started_at": live.created_ms if live is not None else None,
            "reset_at": reset,
            "reset_in_ms": reset - now,
            "ranked_result": result,
            "commitment": committed["commitment"] if committed else None,
            "certified": bool(committed.get("certified")) if committed else None,
            "difficulty": await self._difficulty(day, game_id),
            "streak": await self._streaks(pid, game_id),
            # (told once the attempt is over, as its daily_result told it)
            "par": par if state == "ended" else None,
            "par_shortest": par_shortest if state == "ended" else None,
            "over_par": over_par if state == "ended" else None,
            **held,
        }

    async def _difficulty(self, day: str, game_id: str) -> dict[str, Any] | None:
        """The difficulty of the day's deal, where it is fixed and graded (a look that
        fixes nothing: ``daily_status``)."""
        kept = await self.grades.get(day, game_id)
        if kept is None:
            return None
        deal = await self.dailies.deal(day, game_id)
        return df.shown(kept, None if deal is None else int(deal["seed"]))

    @staticmethod
    def _over_par(live: g.LiveGame, par: int | None) -> int | None:
        """A won ranked attempt's moves against the day's par (below 0: under it), for a
        player who comes back after the attempt's end told it; None for a game not won
        or a day without par."""
        return live.game.moves - par if par is not None and live.result == g.WON else None

    def _result_line_of(self, live: g.LiveGame, par: int | None) -> str:
        """The result line of an ended ranked daily (for a player who missed the event)."""
        home, total = live.game.progress
        end = live.finished_ms or live.created_ms
        return d.result_line(
            live.game.name,
            live.day or d.day_of(live.created_ms),
            live.result == g.WON,
            end - live.created_ms,
            live.game.moves,
            home,
            total,
            par,
            hints=live.hints,
            unit=lost.unit(live.game),
        )

    async def finished(self, live: g.LiveGame) -> None:
        """A ranked daily game has ended: its replay, the boards, the streaks, and the
        result line for the player. Every write may be done again (a finish that failed
        part way is tried again whole): the replay is the same, the day's board keeps the
        first entry, ``best/`` the best, ``wins/`` counts the game once, the streak a day
        once. The finish is then owed no more, and whoever takes it off tells the player."""
        pid = live.owner
        name = self.sessions[pid].name if pid in self.sessions else None
        if name is None:
            name = await self.players.name_of(pid) or "?"
        day = live.day or d.day_of(live.created_ms)
        replay = await self.replaying.keep(live, {"player": name, "day": day})
        result = replay["result"]
        won = live.result == g.WON
        details = {
            "player": name,
            "won": won,
            "time_ms": result["time_ms"],
            "moves": result["moves"],
            "home": result["home"],
            "total": result["total"],
            "hints": live.hints,
            "replay": live.gid,
            "day": day,
        }
        finished = live.finished_ms or self.now()
        today, week = d.day_of(self.now()), d.iso_week(self.now())
        daily_board = parse_board(f"daily/{live.game.id}/{day}", today, week)
        writes = [review.time_write(daily_board.id, details, finished, "first")]
        if won:
            writes.append(review.time_write(f"best/{live.game.id}", details, finished, "best"))
            wins = {"player": name, "replay": live.gid}
            writes.append(review.count_write(f"wins/{live.game.id}", wins, finished, live.gid))
        week = lg.week_of_day(day)
        member = await self.leagues.league_of(week, pid)
        if member is not None:  # (a member's: leagues.py)
            league = {"day": day, "game": live.game.id, "won": won, "moves": result["moves"]}
            league["time_ms"] = result["time_ms"]
            writes.append(review.league_write(week, league, finished))
        check = await review.judge(self.ctx.reviews, live.gid, replay["moves"], live.created_ms)
        state = None
        if check.fast:  # kept, off the public boards until an operator clears it
            record = review.held_record(
                gid=live.gid,
                kind=g.DAILY,
                pid=pid,
                name=name,
                rules=live.game.id,
                finished_ms=finished,
                check=check,
                writes=writes,
                day=day,
            )
            state = await self.ctx.reviews.hold(record, self.now())
        if state in (None, review.CLEARED):
            for write in writes:
                board = await review.put(self.boards, pid, write, self.now())
                if board is not None or write["board"] == daily_board.id:
                    await self.leaderboards.changed(board or daily_board, pid)
            if member is not None:  # its watchers are sent the standings again
                self.ctx.events.tell(LeagueChanged(week, member))
        if won:  # (the streak is the player's own: it counts while a result is held)
            await self.dailies.count_win(pid, live.game.id, day, d.previous_day(day))
        await self.dailies.ended(pid, live.gid)  # (the reset has nothing to end)
        if not await self.dailies.settle(live.gid):
            return  # another finisher of the same game took it off, and tells the player
        session = self.sessions.get(pid)
        if session is not None:
            par = await self.certifier.par(day, live.game.id)
            session.send(
                {
                    "type": "daily_result",
                    "day": day,
                    "game": live.gid,
                    "rules": live.game.id,
                    "status": live.result,
                    "time_ms": result["time_ms"],
                    "moves": result["moves"],
                    "rank": await self.boards.rank_of(daily_board, pid),
                    "board": daily_board.id,
                    "streak": await self._streaks(pid, live.game.id),
                    "par": par,
                    "par_shortest": await self.certifier.par_shortest(day, live.game.id),
                    "difficulty": await self._difficulty(day, live.game.id),
                    **review.told(state, None, check.why),
                    "line": d.result_line(
                        live.game.name,
                        day,
                        won,
                        result["time_ms"],
                        result["moves"],
                        result["home"],
                        result["total"],
                        par,
                        hints=live.hints,
                        unit=lost.unit(live.game),
                    ),
                }
            )

    async def finish(self, live: g.LiveGame) -> None:
        """Finish a ranked daily that has just ended (:meth:`finished`). Its final entry
        is logged, so the request that ended it was applied, and is answered as such even
        when the finish fails (Redis away): the write of that entry marked the finish owed
        (``GameKeeper.log_write``), and housekeeping finishes it (:meth:`finish_owed`)."""
        try:
            await self.finished(live)
        except Exception as exc:
            self.failures.failed("finishing a daily", exc, player=live.owner)

    async def finish_owed(self) -> None:
        """Housekeeping: finish each ranked daily whose finish is owed, as its log has it,
        here when its player is connected here or nowhere (the process they are connected
        to finishes the others, and tells them). A game whose log has not ended (its
        final append was refused: another process took the game) stays owed until its
        day is over; a game gone from Redis is owed no more."""
        for gid in await self.dailies.owed():
            try:
                live = await self.stored.load(gid, fence=False)
                if live is None or live.kind != g.DAILY:
                    await self.dailies.settle(gid)
                elif not live.finished:
                    day = live.day or d.day_of(live.created_ms)
                    if self.now() >= d.day_start_ms(day) + d.DAY_MS:
                        await self.dailies.settle(gid)
                else:
                    owner = live.owner
                    if owner in self.sessions or not await self.presence.online([owner]):
                        await self.finished(live)
            except Exception as exc:
                self.failures.failed("finishing a daily", exc)
