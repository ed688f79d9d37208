"""Ratings: a race of two or more people rates each racer at the race's game
(``domain/ratings.py``: Plackett-Luce through ``openskill``), once, as the race ends;
the rating board of each game (``rating/GAME``); a player's ratings (``profile``).

What is rated is what counts on the race boards (``Races.counts``): a race of two or
more racers (a room's racers are people: ghosts race only practice and challenge games,
which are no room's) on a deal nobody chose. A race whose win the pace check held for
review is not rated (``docs/ratings.md``: a script's win must not move anyone's rating,
and a rating worked out weeks later, when an operator clears it, would be worked out
from ratings that have moved on since).

The race's end (``RoomSteps._end``, under the room's lock, before the results are kept)
calls :meth:`RaceRatings.rate`: the new ratings are written by one script, marked with
the race (``{code}:{n}:{start ms}``), so two processes ending the race both get the
figures of the one write that landed, and put them in the results."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from server.engine import GAMES
from server.protocol import ErrorCode
from server.protocol import messages as m

from .. import review
from ..domain import daily as d
from ..domain import games as g
from ..domain import ratings as rt
from ..domain.boards import parse_board
from ..domain.results import rated_ranks
from ..domain.room import Racer
from ..held import HeldRoom
from .base import Context, Handler, Part, Session, refuse
from .boards import Leaderboards
from .races import Races

log = logging.getLogger("patience.service")


def race_id(room: HeldRoom) -> str:
    """A race's id for its rating mark: its room, its number in the room, its start."""
    return f"{room.code}:{room.race}:{room.start_at_ms}"


class RaceRatings(Part):
    def __init__(self, ctx: Context, leaderboards: Leaderboards) -> None:
        super().__init__(ctx)
        self.ratings = ctx.ratings
        self.leaderboards = leaderboards

    def requests(self) -> dict[type[m.Request], Handler]:
        return {m.Profile: self.on_profile}

    # -- the race's end -------------------------------------------------------------------

    async def rate(
        self,
        room: HeldRoom,
        results: list[dict[str, Any]],
        entries: Sequence[tuple[Racer, g.LiveGame]],
    ) -> None:
        """Rate a race that counts from its results' order (each result gets ``rating``
        and ``rating_change``), racers the results part only by who joined first rated
        as a draw (:func:`~server.app.domain.results.rated_ranks`), once however often
        this is tried, and put its racers on the game's rating board."""
        if not Races.counts(room, entries) or not results:
            return
        if any(r.get("review") == review.HELD for r in results):
            return
        pid_of = {racer.name: racer.pid for racer, _ in entries}
        ranks = rated_ranks(list(entries))
        order = [
            (pid_of[r["player"]], ranks[r["player"]]) for r in results if r["player"] in pid_of
        ]
        if len(order) < 2:
            return
        pids = [pid for pid, _ in order]

        def work_out(
            before: dict[str, rt.Rating],
        ) -> tuple[dict[str, rt.Rating], dict[str, Any]]:
            after = rt.update([before[pid] for pid in pids], [rank for _, rank in order])
            new = dict(zip(pids, after, strict=True))
            figures = {
                pid: {**new[pid].to_dict(), **rt.figures(before[pid], new[pid])} for pid in pids
            }
            return new, figures

        figures = await self.ratings.rate(room.game_id, race_id(room), pids, work_out)
        for result in results:
            pid = pid_of.get(result["player"])
            if pid in figures:
                result["rating"] = figures[pid]["rating"]
                result["rating_change"] = figures[pid]["rating_change"]
        try:
            await self._on_board(room, figures)
        except Exception as exc:  # the race is rated; its board catches up at the next
            self.failures.failed("a rating board", exc, room=room.code)

    async def _on_board(self, room: HeldRoom, figures: dict[str, Any]) -> None:
        """The racers with enough rated races on the game's rating board, as rated."""
        now = self.now()
        board = parse_board(f"rating/{room.game_id}", d.day_of(now), d.iso_week(now))
        at = room.start_at_ms or now
        for racer in room.racers.values():
            figure = figures.get(racer.pid)
            if figure is None:
                continue
            rating = rt.Rating.from_dict(figure)
            if rating.n < self.settings.rating_board_races:
                continue
            details = {"player": racer.name, "rating": rating.shown, "races": rating.n}
            await self.ratings.put_on_board(board, racer.pid, rating, details, at)
            await self.leaderboards.changed(board, racer.pid)

    # -- reading them ---------------------------------------------------------------------

    async def shown(self, game: str, pids: list[str]) -> dict[str, int]:
        """Each player's shown rating at ``game`` (the lobby's)."""
        return {pid: r.shown for pid, r in (await self.ratings.read(game, pids)).items()}

    async def on_profile(self, session: Session, req: m.Profile) -> dict[str, Any]:
        """A player's ratings, each game they have raced rated (theirs, or another's by
        name: anyone's to see, as the rating boards are)."""
        if req.name:
            found = await self.players.by_name(req.name)
            if found is None:
                raise refuse(ErrorCode.NO_SUCH_PLAYER, f"no player named {req.name!r}")
            pid = found
        else:
            pid = self.need_player(session)
        name = await self.players.name_of(pid) or "?"
        mine = await self.ratings.of_player(pid, sorted(GAMES))
        ratings = [
            {
                "game": game,
                "rating": rating.shown,
                "races": rating.n,
                "mu": round(rating.mu, 3),
                "sigma": round(rating.sigma, 3),
                "board": f"rating/{game}",
            }
            for game, rating in sorted(mine.items(), key=lambda item: -item[1].ordinal)
        ]
        reply: dict[str, Any] = {"type": "profile", "player": name, "ratings": ratings}
        if pid == session.player:  # whom one follows is one's own to see
            followed = await self.players.names_of(sorted(await self.players.followed(pid)))
            names = [n for n in followed if n is not None]
            reply["following"] = sorted(names, key=str.lower)
        return reply
