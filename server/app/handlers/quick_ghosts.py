"""The quick race's ghosts: a player nobody is matched with within ``quick_ghosts_after``
seconds races the replays of a recorded race of players of a similar rating, on a deal
they have not played (with none, a fresh deal alone): its start, told at the countdown's
end; its end, ranked among the ghosts (``quick_ghosts_result``); taken up again at sign-in
(``welcome.resume.quick``); and the races recorded, as each ends, to be raced so later.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any, Final

from server.engine import IllegalMove, UndoRefused

from ..domain import challenges as ch
from ..domain import games as g
from ..domain import ghosts
from ..domain import quick as q
from ..events import GameEnded
from ..held import HeldRoom
from ..store.queue import MuSigma, OrdinalsOf, QuickQueue
from .base import Context, Part, Session
from .keeper import GameKeeper
from .replays import Replaying

#: the most ghosts a lone player races
GHOSTS: Final = 7
#: recorded races looked at on each side of the player's rating
NEAR: Final = 10
#: days a ghost race's replay is kept after its end (as long as a challenge's)
REPLAY_DAYS: Final = 30


class GhostRace(Part):
    def __init__(
        self, ctx: Context, ratings: MuSigma, keeper: GameKeeper, replaying: Replaying
    ) -> None:
        super().__init__(ctx)
        self.keeper = keeper
        self.replaying = replaying
        self.queue = QuickQueue(ctx.redis)
        # the players' ratings, as shown (the ratings' store: ``ctx.ratings``)
        self.ordinals = OrdinalsOf(ratings)
        #: player -> the timer that sends their ghost race's start
        self.starts: dict[str, asyncio.TimerHandle] = {}
        ctx.events.on(GameEnded, self.on_game_ended)

    def stop(self) -> list[asyncio.Task[None]]:
        """Stop the starts' timers."""
        for timer in self.starts.values():
            timer.cancel()
        self.starts.clear()
        return []

    async def race_ghosts(self, session: Session, pid: str, game: str) -> None:
        """Race the ghosts of a recorded race near the player's rating, on its deal
        (never one they have played or raced before); with none, a fresh deal alone."""
        rating = (await self.ordinals.ordinals(game, [pid]))[pid]
        found, race, seed = await self.ghosts_for(pid, game, rating)
        if seed is None:
            seed = secrets.randbits(64)
        start = self.now() + int(self.settings.countdown * 1000)
        live = g.dealt(game, seed, pid, g.CHALLENGE, start)
        live.hints_off = True
        ttl = self.settings.idle_ttl
        await self.queue.keep_ghosts(live.gid, {"ghosts": found, "race": race}, ttl)
        if race:
            await self.queue.mark_seen(pid, race)
        await self.stored.create(live, ttl)
        await self.queue.set_current(pid, live.gid, ttl)
        self.games[live.gid] = live
        session.send({"type": "quick_ghosts", **self.ghosts_message(live, found)})
        self.arm_start(pid, live, found)

    def ghosts_message(self, live: g.LiveGame, found: list[dict[str, Any]]) -> dict[str, Any]:
        """What ``quick_ghosts`` says of a ghost race (and ``resume.quick``)."""
        return {
            "game": live.gid,
            "rules": live.game.id,
            "start_at": live.created_ms,
            "now": self.now(),
            "ghosts": [ch.ghost_shown(gh) for gh in found],
        }

    def start_message(self, live: g.LiveGame, found: list[dict[str, Any]]) -> dict[str, Any]:
        return {
            "type": "quick_ghosts_start",
            "start_at": live.created_ms,
            "ghosts": [ch.ghost_shown(gh) for gh in found],
            **live.snapshot_message(),
        }

    async def resume(self, pid: str) -> dict[str, Any] | None:
        """The player's ghost race in play, for ``welcome.resume.quick`` (it may have
        been raced through another process): as ``quick_ghosts`` says it, with
        ``started``, the ``quick_ghosts_start`` message, once it has started (before,
        that message is sent here at the start)."""
        gid = await self.queue.current(pid)
        live = await self.keeper.get_game(gid, fresh=True) if gid else None
        record = await self.queue.ghosts_of(gid) if gid else None
        if live is None or live.finished or record is None or live.owner != pid:
            return None
        found = record.get("ghosts") or []
        out = self.ghosts_message(live, found)
        if self.now() < live.created_ms:
            self.arm_start(pid, live, found)
        else:
            out["started"] = self.start_message(live, found)
        return out

    async def ghosts_for(
        self, pid: str, game: str, rating: float
    ) -> tuple[list[dict[str, Any]], str | None, int | None]:
        """The ghosts to race, the race they come from and its seed (none: [], None, None)."""
        near = await self.queue.races_near(game, rating, NEAR)
        seen = await self.queue.seen(pid)
        for race in q.pick_race(near, seen, rating, self.settings.quick_window):
            results = await self.queue.race_results(race)
            if results is None or results.get("seed") is None:
                continue
            out: list[dict[str, Any]] = []
            played = False
            for entry in results.get("results") or []:
                replay_id = entry.get("replay")
                found = await self.replays.get(replay_id) if replay_id else None
                if found is None:
                    continue
                replay, owner = found
                if owner == pid:
                    played = True
                    break
                try:
                    ghost = ghosts.of_replay(replay)
                except (IllegalMove, UndoRefused, KeyError, ValueError):
                    continue
                if len(out) < GHOSTS:
                    out.append({**ghost, "hints": entry.get("hints", 0)})
            if out and not played:
                return out, race, int(results["seed"])
        return [], None, None

    def arm_start(self, pid: str, live: g.LiveGame, found: list[dict[str, Any]]) -> None:
        old = self.starts.pop(pid, None)
        if old is not None:
            old.cancel()
        delay = max(live.created_ms - self.now(), 0) / 1000

        def send() -> None:
            self.starts.pop(pid, None)
            session = self.sessions.get(pid)
            if session is not None and not live.finished:
                session.send(self.start_message(live, found))

        self.starts[pid] = asyncio.get_running_loop().call_later(delay, send)

    def on_game_ended(self, event: GameEnded) -> None:
        live = event.live
        if live.kind == g.CHALLENGE and live.challenge is None:
            self.spawn(self._ghosts_ended(live))
        elif live.kind == g.RACE and event.room is not None and live.room:
            self.spawn(self._record(live, event.room))

    async def _record(self, live: g.LiveGame, room: HeldRoom) -> None:
        """A race game ended: its race may be raced as ghosts by a lone player later (its
        results, written at the race's end, say its seed and replays)."""
        try:
            rating = (await self.ordinals.ordinals(live.game.id, [live.owner]))[live.owner]
            await self.queue.record_race(live.game.id, f"{room.code}:{live.race}", rating)
        except Exception as exc:
            self.failures.failed("recording a race for the quick race's ghosts", exc)

    async def _ghosts_ended(self, live: g.LiveGame) -> None:
        """``quick_ghosts_result``: the lone player's game ranked among its ghosts; the
        game kept as a replay (:data:`REPLAY_DAYS`), and no longer theirs to resume."""
        record = await self.queue.ghosts_of(live.gid)
        if record is None:
            return
        if await self.queue.current(live.owner) == live.gid:
            await self.queue.set_current(live.owner, None)
        session = self.sessions.get(live.owner)
        name = session.name if session is not None else None
        name = name or await self.players.name_of(live.owner) or "?"
        await self.replaying.keep_game(live, name, REPLAY_DAYS * 86_400)
        if session is None:
            return
        found = record.get("ghosts") or []
        mine = ch.entry_of(name, live, live.created_ms)
        table = ch.rank([mine, *(ch.entry_of_ghost(gh, gh.get("hints", 0), 0) for gh in found)])
        rank, place = next((e["rank"], e["place"]) for e in table if not e["ghost"])
        session.send(
            {
                "type": "quick_ghosts_result",
                "game": live.gid,
                "rules": live.game.id,
                "replay": live.gid,
                "you": ch.hidden(mine),
                "rank": rank,
                "place": place,
                "beaten": sum(1 for e in table if e["ghost"] and e["place"] > place),
                "table": [ch.hidden(e) for e in table],
            }
        )
