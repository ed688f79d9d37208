"""Replays: kept when a game ends (a ranked daily's, a race's, a challenge game's), or
made from the game's log when asked for (a solo or practice game's, while the game is
kept: ``keeper.KEPT_AS_REPLAYS``), and shown as their viewer may see them."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from server.protocol import ErrorCode
from server.protocol import messages as m

from ..domain import daily as d
from ..domain import games as g
from ..domain import replays
from .base import Handler, Part, Session, refuse
from .keeper import KEPT_AS_REPLAYS

log = logging.getLogger("patience.service")


class Replaying(Part):
    def requests(self) -> dict[type[m.Request], Handler]:
        return {
            m.Replay: self.on_replay,
            m.ReplayView: self.on_replay_view,
        }

    async def keep(self, live: g.LiveGame, extra: dict[str, Any]) -> dict[str, Any]:
        (replay,) = await self.keep_all([(live, extra)])
        return replay

    async def keep_all(
        self,
        games: list[tuple[g.LiveGame, dict[str, Any]]],
        also: Iterable[tuple[Any, ...]] = (),
    ) -> list[dict[str, Any]]:
        """The replays of ended games, built from their logs and kept for good: two round
        trips for them all (a race's), the first carrying the commands ``also``."""
        logs = await self.stored.read_logs([live.gid for live, _ in games], also)
        out = [
            replays.build(live, entries, extra)
            for (live, extra), entries in zip(games, logs, strict=True)
        ]
        await self.replays.keep(
            [(live.gid, replay, live.owner) for (live, _), replay in zip(games, out, strict=True)]
        )
        return out

    def extra_of(self, live: g.LiveGame, name: str) -> dict[str, Any]:
        """What a solo, practice or challenge game's replay says besides its log."""
        extra: dict[str, Any] = {"player": name}
        if live.day is not None:
            extra["day"] = live.day
        if live.challenge is not None:
            extra["challenge"] = live.challenge
        return extra

    async def keep_game(self, live: g.LiveGame, name: str, ttl: int) -> dict[str, Any]:
        """Keep a solo, practice or challenge game's replay ``ttl`` seconds (a challenge
        made from it, a challenge game's end)."""
        logs = await self.stored.read_logs([live.gid])
        replay = replays.build(live, logs[0], self.extra_of(live, name))
        await self.replays.keep([(live.gid, replay, live.owner)], ttl)
        return replay

    async def found(self, replay_id: str) -> tuple[dict[str, Any], str | None] | None:
        """A replay and its player's id: a kept one, or a finished solo, practice or
        challenge game's made from its log (not kept: what one player can make Redis
        keep stays bounded by the games they keep)."""
        found = await self.replays.get(replay_id)
        if found is not None or not replay_id.isalnum():
            return found
        live = await self.stored.load(replay_id, fence=False)
        if live is None or not live.finished or live.kind not in KEPT_AS_REPLAYS:
            return None
        session = self.sessions.get(live.owner)
        name = (session.name if session is not None else None) or await self.players.name_of(
            live.owner
        )
        log_entries = await self.stored.read_log(live.gid)
        return replays.build(live, log_entries, self.extra_of(live, name or "?")), live.owner

    async def public_replay(self, replay_id: str, pid: str | None) -> dict[str, Any]:
        """A replay as its viewer may see it: a daily game's, and a day's book line, are
        public only after the day's reset (a game's player sees it sooner, but not the
        seed)."""
        replay, secret, _owner = await self.shown(replay_id, pid)
        replay = await self.with_commitment(replay, secret)
        return {**replay, "seed": None} if secret else replay

    async def with_commitment(self, replay: dict[str, Any], secret: bool) -> dict[str, Any]:
        """A replay of a daily deal with its day's commitment (``docs/commitments.md``),
        and, once the day is over (``secret`` false), the salt that with its seed makes
        it: what ``verify`` checks (a replay with a ``day`` is of that day's deal; one of
        a deal changed after its commitment would fail that check, as it should)."""
        day, game = replay.get("day"), replay.get("game")
        if not isinstance(day, str) or not isinstance(game, str) or not d.valid_day(day):
            return replay
        record = await self.ctx.commitments.get(day, game)
        if record is None:
            return replay
        shown = {**replay, "commitment": record["commitment"]}
        if not secret:
            shown["salt"] = record["salt"]
        return shown

    async def shown(
        self, replay_id: str, pid: str | None
    ) -> tuple[dict[str, Any], bool, str | None]:
        """The replay as kept, if its viewer may see it at all, whether its seed is kept
        from them (a daily's own player before the day's reset: the seed would tell the
        cards they never turned, and the deal before anyone else has played it), and its
        player's id (never sent)."""
        found = await self.found(replay_id)
        if found is None:
            raise refuse(ErrorCode.NO_SUCH_REPLAY, f"no replay {replay_id!r}")
        replay, owner = found
        if owner is not None:  # the name it was played under stays; the name now beside it
            name = await self.players.name_of(owner)
            if name is not None:
                replay = {**replay, "player_now": name}
        day = replay.get("day")
        # a game of a daily deal (ranked, practice, a challenge of one) or its book line
        if day is not None and day >= d.day_of(self.now()):
            if pid is None or owner != pid:
                book = replay.get("kind") == replays.BOOK
                what = "the book line" if book else "a daily game's replay"
                raise refuse(ErrorCode.NOT_PUBLIC, f"{what} is public after the day's reset")
            return replay, True, owner
        return replay, False, owner

    async def on_replay(self, session: Session, req: m.Replay) -> dict[str, Any]:
        return {"type": "replay", "replay": await self.public_replay(req.replay, session.player)}

    async def on_replay_view(self, session: Session, req: m.ReplayView) -> dict[str, Any]:
        """The table after the first ``step`` entries of a replay, for a client that knows
        no rules to draw it: to anyone where the replay is public, and to a daily's own
        player before the reset too. A view shows what the player saw at that step (no
        card face down), so its own player, who saw them all, may have them; the seed
        stays with the server."""
        replay, _, _ = await self.shown(req.replay, session.player)
        if replay.get("seed") is None:
            raise refuse(ErrorCode.NOT_PUBLIC, "the deal is secret until the day's reset")
        moves = replay["moves"]
        if req.step > len(moves):
            raise refuse(ErrorCode.BAD_REQUEST, f"this replay has {len(moves)} steps")
        try:
            view = replays.view_after(replay, req.step)
        except replays.OtherRules as exc:
            raise refuse(ErrorCode.OTHER_RULES, str(exc)) from None
        return {"type": "replay_view", "replay": req.replay, "step": req.step, "view": view}
