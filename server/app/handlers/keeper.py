"""The games a player plays here (:class:`GameKeeper`): taking a game from Redis to
play it here, the game a request names, the new games a player may deal and the solo games
they keep, and the move log every change to a game is written to first."""

from __future__ import annotations

import logging
from typing import Final

from server.protocol import ErrorCode

from .. import store
from ..domain import games as g
from ..domain.room import COUNTDOWN, FINISHED, RACING
from ..events import GameEnded, RacerProgress
from ..held import HeldRoom
from ..store.games import log_write
from ..store.limits import Limit, Limiter
from .base import Context, Part, Session, refuse

log = logging.getLogger("patience.service")

#: the kinds of game whose replay is made when it is asked for, from the game's log: a
#: finished one is kept ``replay_ttl`` (a solo or practice game, within the last ones
#: that ended a player keeps: ``keep_solo``; a challenge game)
KEPT_AS_REPLAYS: Final = frozenset((g.SOLO, g.PRACTICE, g.CHALLENGE))
#: the limit of new games a player deals (``Settings.deal_rate`` of them a minute)
DEAL: Final = "deal"
MINUTE_MS: Final = 60_000


class GameKeeper(Part):
    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.limits = Limiter(ctx.redis)

    async def get_game(
        self, gid: str, fresh: bool = False, owner: str | None = None
    ) -> g.LiveGame | None:
        """A game to play here: this process's copy, or (``fresh``, or none here) one
        rebuilt from Redis under a new fencing token; with ``owner``, only that player's
        (another's is neither taken nor held: see ``Games.load``)."""
        live = None if fresh else self.games.get(gid)
        if live is None:
            live = await self.stored.load(gid, ttl=self.settings.idle_ttl, owner=owner)
            if live is not None:
                self.games[gid] = live
        return live

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

    async def keep_solo(
        self, pid: str, gid: str, before: str | None, held: g.LiveGame | None = None
    ) -> None:
        """What a player keeps of their solo games once ``gid`` is dealt: the solo game
        dealt before it (``before``) stays if it has ended, with the last others that
        did (``SOLO_KEPT`` in ``store/keys/limits.py``), and is deleted if it had not (nothing
        but its player plays it, and they have moved on); older ones are deleted.

        Whether it ended is what its log in Redis says, read back and replayed, unless
        this process holds it (``held``, taken under its fencing token) and it has ended
        here: an ended game takes no more moves but an undo after a loss, so the copy
        here is its log's last word (a log of hundreds of moves read and replayed on
        every new deal cost the load test 2.5% of the server's time). If the player undid
        that loss from another process meanwhile, the game is kept as one that ended
        rather than deleted: one more kept, never one lost. Held unfinished, its fencing
        token is read: still the one held here, no other process has taken it and the
        copy here is its log's last word too; else it is read back and replayed (another
        process may have taken it since and ended it)."""
        replaced = None
        if before is not None:
            # held here under a fencing token
            mine = (
                held if held is not None and held.gid == before and held.fence is not None else None
            )
            if mine is not None and mine.result is not None:
                pass  # ended here
            elif mine is not None and await self.stored.fence_of(before) == mine.fence:
                replaced = before  # not ended, as held here
            else:
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
        named = gid is not None
        room = None if named else self.ctx.racer_room(pid)
        if room is not None and room.state in (COUNTDOWN, RACING):
            gid = room.racers[pid].gid
        if gid is None:
            gid = self.solo_of.get(pid)
            if gid is None:
                gid = await self.players.solo(pid)
                if gid is not None:
                    self.solo_of[pid] = gid
        live = await self.get_game(gid, owner=pid) if gid else None
        if live is None or live.owner != pid:
            if room is not None and room.state == FINISHED and not named:
                # (in a room whose race is over, no game named: "no such game" had not
                # said the race game had ended)
                raise refuse(
                    ErrorCode.NO_SUCH_GAME,
                    "your race is over: no game of yours is being played (rematch, or "
                    "new_game for a game alone)",
                )
            raise refuse(ErrorCode.NO_SUCH_GAME, "no such game of yours: start one with new_game")
        return live

    def log_write(self, live: g.LiveGame, entry: str, renew: bool = False) -> store.Write:
        """The group commit's write of a log entry (``store.games.log_write``): fenced by
        the token this process took the game with; now and then, at the end, and with
        ``renew``, the keys' time to live renewed; with a ranked daily's final entry, that
        its finish is owed (``DailyChallenge.finish``)."""
        settings = self.settings
        if not live.finished:
            ttl = settings.idle_ttl
        elif live.kind in KEPT_AS_REPLAYS:  # (their replay is made from their log)
            ttl = max(settings.replay_ttl, settings.ended_ttl)
        else:
            ttl = settings.ended_ttl
        fence = live.fence
        assert fence is not None, "a game is played only where it was taken"
        renew = renew or live.finished or live.log_length % 64 == 0
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
        self.ctx.fenced += 1
        if self.games.get(live.gid) is live:
            del self.games[live.gid]
        return refuse(
            ErrorCode.GAME_ELSEWHERE,
            "this game is being played from another connection: sign in again to play it here",
        )

    async def log(self, live: g.LiveGame, entry: str, renew: bool = False) -> None:
        """Append a log entry through the group commit (with ``renew``, the keys' time to
        live renewed too): returns once Redis has it."""
        try:
            await self.commit.submit(self.log_write(live, entry, renew))
        except Exception as exc:
            failed = self.log_failed(live, exc)
            if failed is exc:
                raise
            raise failed from None
        live.log_length += 1

    async def resign(self, live: g.LiveGame, room: HeldRoom | None) -> None:
        now = self.now()
        live.finish(g.RESIGNED, now)
        try:
            await self.log(live, f"{now} {g.RESIGN}")
        except Exception:
            live.result = live.finished_ms = None  # not logged: not resigned
            raise
        if room is not None:
            self.events.tell(RacerProgress(room, live))
        self.events.tell(GameEnded(live, room))
