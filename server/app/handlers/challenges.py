"""Challenges: a finished game raced again by anyone, later, against its ghost
(``domain/challenges.py``, ``domain/ghosts.py``). Making one, taking it (the taker's game
dealt from the same seed, started after a countdown), its table, the results its player
has not seen.

A challenge game is a game like any other on the move path (its kind ``challenge``,
refused ``not_started`` before its start); when it ends (:class:`GameEnded`) the taker's
entry is written once, the taker told how they did against the ghost
(``challenge_result``) and the challenge's player told of the new result
(``challenge_news``, through the process they are connected to). A solo or practice
game's replay is made from its log when a challenge is made of it, and kept as long as
the challenge (``Replaying.found``). An end whose writing
failed is written when the challenge is next looked at (:meth:`Challenging.settle`)."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Final

from server.engine import GAMES, IllegalMove, UndoRefused
from server.protocol import ErrorCode
from server.protocol import messages as m

from ..domain import challenges as ch
from ..domain import daily as d
from ..domain import games as g
from ..domain import ghosts, replays
from ..events import GameEnded
from ..store.limits import Limit, Limiter
from .base import Context, Handler, Part, Session, refuse
from .keeper import KEPT_AS_REPLAYS, GameKeeper
from .replays import Replaying

log = logging.getLogger("patience.service")

CHALLENGE: Final = "challenge"
HOUR_MS: Final = 3_600_000
#: entries of a table sent (the viewer's own is sent besides, wherever it ranks)
TABLE_TOP: Final = 50
#: challenges listed by ``challenges``
LISTED: Final = 50
#: tries at writing a challenge game's end before it is left to the next look
SETTLE_TRIES: Final = 5
#: takers with no entry whose games a look at the table reads (to write the entry of
#: one whose end was not written): a look costs at most this many reads
SETTLED_A_LOOK: Final = 10


class Challenging(Part):
    def __init__(self, ctx: Context, keeper: GameKeeper, replaying: Replaying) -> None:
        super().__init__(ctx)
        self.keeper = keeper
        self.replaying = replaying
        self.kept = ctx.challenges
        self.limits = Limiter(ctx.redis)
        #: player -> the timer that sends their challenge_start
        self.starts: dict[str, asyncio.TimerHandle] = {}
        ctx.events.on(GameEnded, self.on_game_ended)

    def requests(self) -> dict[type[m.Request], Handler]:
        return {
            m.ChallengeCreate: self.on_create,
            m.ChallengeTake: self.on_take,
            m.ChallengeShow: self.on_show,
            m.Challenges: self.on_list,
        }

    # -- making ---------------------------------------------------------------------------

    async def on_create(self, session: Session, req: m.ChallengeCreate) -> dict[str, Any]:
        pid = self.need_player(session)
        record = await self.challenge_of(session, pid, req.replay)
        return {"type": "challenge", "challenge": self.shown(record, pid, reveal=True)}

    async def challenge_of(self, session: Session, pid: str, replay_id: str) -> dict[str, Any]:
        """The challenge of a replay the player may see (made now if it was not)."""
        replay, owner = await self.replay_for(session, pid, replay_id)
        cid = ch.challenge_id(self.ctx.secret, owner, replay["id"])
        record = await self.kept.get(cid)
        if record is not None:
            return record
        await self._count(pid)
        try:
            replays.verify(replay)  # a line is trusted once the engine has played it
            ghost = ghosts.of_replay(replay)
        except (replays.Tampered, replays.OtherRules, IllegalMove, UndoRefused) as exc:
            raise refuse(ErrorCode.OTHER_RULES, f"this replay cannot be raced: {exc}") from None
        hints = bool(replay.get("hints_allowed", True))
        if replay.get("kind") == g.RACE and "hints_allowed" not in replay:
            hints = bool(replay.get("result", {}).get("hints"))  # (kept before it was said)
        ttl = self.settings.challenge_ttl
        record = ch.make(cid, replay, ghost, hints, self.now(), ttl * 1000)
        record["owner"] = owner
        record["ghost_hints"] = int(replay.get("result", {}).get("hints") or 0)
        if replay.get("kind") in KEPT_AS_REPLAYS:  # made from its log: kept from now on
            await self.replays.keep([(replay["id"], replay, owner)], ttl)
        return await self.kept.make(record, owner, ttl)

    async def replay_for(
        self, session: Session, pid: str, replay_id: str
    ) -> tuple[dict[str, Any], str]:
        """A finished game's replay the player may see, and its player's id: a kept one,
        or the player's own finished game's, made from its log now."""
        replay, _secret, owner = await self.replaying.shown(replay_id, pid)
        if not owner:
            raise refuse(ErrorCode.NO_SUCH_REPLAY, "the book line is no player's game")
        return replay, owner

    async def _count(self, pid: str) -> None:
        most = self.settings.challenge_rate
        if most <= 0:
            return
        use = await self.limits.take(Limit(CHALLENGE, most, HOUR_MS), pid, self.now())
        if not use.allowed:
            raise refuse(
                ErrorCode.RATE_LIMITED,
                f"at most {most} new challenges an hour: try again in {use.wait_text()}",
            )

    # -- taking ---------------------------------------------------------------------------

    async def on_take(self, session: Session, req: m.ChallengeTake) -> dict[str, Any]:
        pid = self.need_player(session)
        if req.challenge is not None:
            record = await self.find(req.challenge)
        elif req.replay is not None:
            _, owner = await self.replay_for(session, pid, req.replay)
            if owner == pid:  # (refused before its challenge is made: none is left behind)
                raise refuse(
                    ErrorCode.OWN_CHALLENGE,
                    "this replay is of your own game: challenge_create makes its challenge, "
                    "for others to race",
                )
            record = await self.challenge_of(session, pid, req.replay)
        else:
            raise refuse(ErrorCode.BAD_REQUEST, "challenge_take: name a 'challenge' or a 'replay'")
        record = await self.named(record)
        cid = record["id"]
        if record["owner"] == pid:
            raise refuse(ErrorCode.OWN_CHALLENGE, "this challenge is of your own game")
        why = await self.closed_to(record, pid)
        if why is not None:
            raise refuse(ErrorCode.NOT_YET, why)
        info = GAMES.get(record["game"])
        if info is None or info.rules_version != record["rules_version"]:
            raise refuse(ErrorCode.OTHER_RULES, "this challenge was played under other rules")
        if await self.kept.taken(cid, pid) is not None:
            raise refuse(ErrorCode.ALREADY_TAKEN, "you have taken this challenge: see its table")
        await self.one_at_a_time(pid)
        await self.keeper.count_deal(pid)
        start = self.now() + int(self.settings.countdown * 1000)
        live = g.dealt(record["game"], int(record["seed"]), pid, g.CHALLENGE, start)
        live.challenge, live.hints_off = cid, not record["hints"]
        live.day = record["day"]  # (its replay is a daily deal's: secret until the reset)
        # (kept until the game can be over: no result is lost with an expired challenge)
        now = self.now()
        expires = await self.kept.lengthen(cid, now, now + self.settings.idle_ttl * 1000)
        if expires is None:
            raise refuse(ErrorCode.NO_SUCH_CHALLENGE, f"no challenge {cid!r} (it has expired)")
        record = {**record, "expires_ms": expires}
        ttl_ms = max(expires - now, 60_000)
        if await self.kept.take(cid, pid, live.gid, ttl_ms) is not None:
            raise refuse(ErrorCode.ALREADY_TAKEN, "you have taken this challenge: see its table")
        try:
            await self.stored.create(live, self.settings.idle_ttl)
        except BaseException:
            await self.kept.untake(cid, pid, live.gid)
            raise
        self.games[live.gid] = live
        await self.kept.set_current(pid, live.gid, self.settings.idle_ttl)
        self.arm_start(pid, live, record)
        return {
            "type": "challenge_taken",
            "challenge": self.shown(record, pid),
            "game": live.gid,
            "start_at": start,
            "now": self.now(),
            "ghosts": [self.ghost_shown(record)],
        }

    async def one_at_a_time(self, pid: str) -> None:
        """Refuse a take while the player's game of another challenge is being played
        (in its countdown or after): it would drop out of ``welcome.resume``."""
        gid = await self.kept.current(pid)
        live = await self.keeper.get_game(gid, fresh=True) if gid else None
        if live is None or live.finished or live.challenge is None:
            return
        record = await self.kept.get(live.challenge)
        whose = "a challenge"
        if record is not None:
            record = await self.named(record)
            info = GAMES.get(record["game"])
            name = info.name if info is not None else record["game"]
            whose = f"{record['name']}'s challenge on {name}"
        raise refuse(
            ErrorCode.CHALLENGE_IN_PLAY,
            f"you are racing {whose} (game {live.gid}): finish or resign it first",
        )

    async def find(self, cid: str) -> dict[str, Any]:
        record = await self.kept.get(cid) if ch.looks_like_id(cid) else None
        if record is None:
            raise refuse(
                ErrorCode.NO_SUCH_CHALLENGE, f"no challenge {cid[:20]!r} (or it has expired)"
            )
        return record

    async def closed_to(self, record: dict[str, Any], pid: str) -> str | None:
        """Why ``pid`` may not take this challenge yet (None: they may): a challenge of
        today's daily deal opens to a player once their ranked attempt at it is over, or
        at the day's reset, so that no challenge shows a daily before it is played."""
        opens = ch.daily_open_at(record, self.now())
        if opens is None:
            return None
        gid = await self.dailies.ranked(record["day"], record["game"], pid)
        live = None
        if gid is not None:
            live = self.games.get(gid) or await self.stored.load(gid, fence=False)
        if gid is not None and (live is None or live.finished):
            return None
        name = GAMES[record["game"]].name
        wait = d.clock_text(opens - self.now())
        return (
            f"this challenge is of today's daily deal of {name}: it opens once your own "
            f"ranked attempt at it is over, or at the day's reset (in {wait})"
        )

    def start_message(self, live: g.LiveGame, record: dict[str, Any]) -> dict[str, Any]:
        return {
            "type": "challenge_start",
            "challenge": record["id"],
            "start_at": live.created_ms,
            "ghosts": [self.ghost_shown(record)],
            **live.snapshot_message(),
        }

    def arm_start(self, pid: str, live: g.LiveGame, record: dict[str, Any]) -> None:
        """``challenge_start`` to the player at the game's start, on whichever connection
        they have here then (one who has come back on another process is sent it there,
        with ``welcome``)."""
        old = self.starts.pop(pid, None)
        if old is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        delay = max(live.created_ms - self.now(), 0) / 1000

        def send() -> None:
            self.starts.pop(pid, None)
            session = self.sessions.get(pid)
            if session is not None and not live.finished:
                session.send(self.start_message(live, record))

        self.starts[pid] = loop.call_later(delay, send)

    async def resume(self, pid: str) -> dict[str, Any] | None:
        """The player's challenge game in play, for ``welcome.resume``: before its start
        as ``challenge_taken`` says it (``challenge_start`` follows), after as
        ``challenge_start``."""
        gid = await self.kept.current(pid)
        live = await self.keeper.get_game(gid, fresh=True) if gid else None
        if live is None or live.finished or live.challenge is None:
            return None
        record = await self.kept.get(live.challenge)
        if record is None:
            return None
        if self.now() < live.created_ms:
            self.arm_start(pid, live, record)
            return {"game": live.gid, "challenge": record["id"], "start_at": live.created_ms,
                    "ghosts": [self.ghost_shown(record)]}  # fmt: skip
        return self.start_message(live, record)

    def stop(self) -> None:
        for timer in self.starts.values():
            timer.cancel()
        self.starts.clear()

    # -- the end of a challenge game ------------------------------------------------------

    def on_game_ended(self, event: GameEnded) -> None:
        live = event.live
        if live.kind == g.CHALLENGE and live.challenge is not None:
            self.spawn(self._ended(live))

    async def _ended(self, live: g.LiveGame) -> None:
        """Write the taker's entry, tell them and the challenge's player; tried again a
        few times while Redis is away (then left to :meth:`settle`)."""
        pause = self.settings.retry_pause
        for _ in range(SETTLE_TRIES):
            try:
                record = await self.kept.get(live.challenge or "")
                if record is None:
                    return
                entry = await self.settle(record, live.owner, live)
                session = self.sessions.get(live.owner)
                if session is not None and entry is not None:
                    session.send(await self.result_message(record, live.owner, entry))
                await self.kept.set_current(live.owner, None, 0)
                return
            except Exception as exc:
                self.failures.failed("a challenge's result", exc)
            if self.ctx.stopping:
                return
            await asyncio.sleep(pause)
            pause *= 2

    async def settle(
        self, record: dict[str, Any], pid: str, live: g.LiveGame | None = None
    ) -> dict[str, Any] | None:
        """The taker's entry, written once their game has ended (None: not ended, or
        gone): its replay kept as long as the challenge, the challenge's player told."""
        cid = record["id"]
        if live is None:
            gid = await self.kept.taken(cid, pid)
            live = await self.stored.load(gid, fence=False) if gid else None
        if live is None or not live.finished:
            return None
        session = self.sessions.get(pid)
        name = (session.name if session is not None else None) or await self.players.name_of(pid)
        ttl_s = max((record["expires_ms"] - self.now()) // 1000, 60)
        await self.replaying.keep_game(live, name or "?", ttl_s)
        entry = ch.entry_of(name or "?", live, live.created_ms)
        if await self.kept.enter(cid, pid, entry, record["owner"], ttl_s * 1000):
            await self.tell_owner(record, entry)
        return entry

    async def tell_owner(self, record: dict[str, Any], entry: dict[str, Any]) -> None:
        """``challenge_news`` to the challenge's player, wherever they are connected."""
        owner = record["owner"]
        said = ch.verdict(entry, ch.ghost_entry(record))
        message = {
            "type": "challenge_news",
            "challenge": record["id"],
            "game": record["game"],
            "result": entry,
            "beat_you": said["beat"],
            "tied": said["tied"],
            "unseen": await self.kept.unseen(owner),
        }
        await self.ctx.tell(owner, message)

    async def result_message(
        self, record: dict[str, Any], pid: str, mine: dict[str, Any]
    ) -> dict[str, Any]:
        record = await self.named(record)
        ghost = ch.ghost_entry(record)
        table, _ = await self.table(record, pid, reveal=True)
        return {
            "type": "challenge_result",
            "challenge": self.shown(record, pid, reveal=True),
            "verdict": ch.verdict(mine, ghost),
            "you": mine,
            "ghost": ghost,
            "table": table,
        }

    # -- looking at them ------------------------------------------------------------------

    async def table(
        self, record: dict[str, Any], pid: str | None, reveal: bool | None = None
    ) -> tuple[list[dict[str, Any]], str | None]:
        """The challenge's table (its top, and the viewer's entry wherever it ranks), and
        the viewer's game in it if they took it; takers whose end was not written yet are
        settled first. Its replays are shown (``reveal``; by default: to the challenge's
        player and its takers whose game is over) or left out."""
        entries, takers = await self.kept.table(record["id"])
        unsettled = [
            taker
            for taker, gid in takers.items()
            if taker not in entries and (gid not in self.games or self.games[gid].finished)
        ]
        for taker in unsettled[:SETTLED_A_LOOK]:  # (most are still being played)
            entry = await self.settle(record, taker)
            if entry is not None:
                entries[taker] = entry
        names = await self.players.names_of(list(entries))  # (their names now)
        for taker, name in zip(list(entries), names, strict=True):
            if name is not None:
                entries[taker] = {**entries[taker], "player": name}
        ranked = ch.rank([ch.ghost_entry(record), *entries.values()])
        mine = entries.get(pid) if pid is not None else None
        top = ranked[:TABLE_TOP]
        top += [e for e in ranked[TABLE_TOP:] if mine is not None and e["replay"] == mine["replay"]]
        if reveal is None:
            reveal = pid is not None and (pid == record["owner"] or mine is not None)
        if not reveal:
            top = [ch.hidden(e) for e in top]
        elif ch.daily_open_at(record, self.now()) is not None:
            # a daily deal's games are public after the day's reset: the viewer's own only
            own = mine["replay"] if mine is not None else None
            if pid == record["owner"]:
                own = record["replay"]
            top = [e if e.get("replay") == own else ch.hidden(e) for e in top]
        return top, takers.get(pid) if pid is not None else None

    @staticmethod
    def ghost_shown(record: dict[str, Any]) -> dict[str, Any]:
        return ch.ghost_shown(record["ghost"], int(record.get("ghost_hints", 0)))

    async def named(self, record: dict[str, Any]) -> dict[str, Any]:
        """The challenge's record, to show: its player under their name now (the record
        keeps the name it was made under)."""
        name = await self.players.name_of(record["owner"])
        if name is None or name == record["name"]:
            return record
        return {**record, "name": name, "ghost": {**record["ghost"], "name": name}}

    def shown(
        self, record: dict[str, Any], pid: str | None, reveal: bool = False
    ) -> dict[str, Any]:
        mine = pid is not None and pid == record["owner"]
        opens = ch.daily_open_at(record, self.now())
        # (a daily deal's game, the ghost's, is public after the day's reset: its player's)
        out = ch.shown(record, mine=mine, reveal=(reveal and opens is None) or mine)
        out["opens_at"] = opens
        return out

    async def on_show(self, session: Session, req: m.ChallengeShow) -> dict[str, Any]:
        record = await self.named(await self.find(req.challenge))
        pid = session.player
        entries, _ = await self.kept.table(record["id"])
        raced = pid is not None and pid in entries
        table, game = await self.table(record, pid, reveal=raced or pid == record["owner"])
        why = await self.closed_to(record, pid) if pid is not None else None
        if pid is not None and pid == record["owner"]:
            await self.marked_seen(pid, [record["id"]])
        return {
            "type": "challenge",
            "challenge": self.shown(record, pid, reveal=raced),
            "table": table,
            "taken": game,
            "closed": why,
        }

    async def on_list(self, session: Session, req: m.Challenges) -> dict[str, Any]:
        pid = self.need_player(session)
        listed = await self.kept.of_player(pid, LISTED)
        out = [
            {**self.shown({**record, "name": session.name}, pid), "takers": takers, "new": new}
            for record, takers, new in listed
        ]
        await self.marked_seen(pid, [c["id"] for c in out if c["new"]])
        return {"type": "challenges", "challenges": out}

    async def marked_seen(self, pid: str, cids: list[str]) -> None:
        """The player has seen the results on these challenges: marked so, and where
        anything new was, ``challenges_seen`` to the player wherever they are connected
        (another device's badge had counted them until it signed in again)."""
        if await self.kept.seen(pid, cids):
            await self.ctx.tell(
                pid, {"type": "challenges_seen", "unseen": await self.kept.unseen(pid)}
            )
