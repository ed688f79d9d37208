"""Ratings' repository: each game's ratings in one hash (``rtg:{GAME}``: player id ->
msgpack ``{"mu", "sigma", "n"}``), a race's new ratings written once by the Lua script
``RATE``, and the rating board (``rating/GAME``) kept as the other boards are
(``keys.board_keys``). The model is ``server.app.domain.ratings``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from ..domain.boards import Board, time_member
from ..domain.ratings import DEFAULT, Rating
from .codec import pack, unpack
from .commit import RedisClient
from .keys import RATED_TTL, board_keys, rated_key, ratings_key
from .scripts import RATE, SET_ENTRY

#: how a race's new ratings are worked out from the racers' ratings as they stand: the new
#: ratings, and the figures to keep with the race's mark
WorkOut = Callable[[dict[str, Rating]], tuple[dict[str, Rating], dict[str, Any]]]


class Ratings:
    def __init__(self, redis: RedisClient) -> None:
        self.redis = redis

    async def get_many(self, game: str, pids: list[str]) -> dict[str, tuple[float, float]]:
        """Each player's ``(mu, sigma)`` at ``game``; the model's defaults for a player
        who has none (the quick race's matchmaker reads this)."""
        ratings = await self.read(game, pids)
        return {pid: (r.mu, r.sigma) for pid, r in ratings.items()}

    async def read(self, game: str, pids: list[str]) -> dict[str, Rating]:
        """Each player's rating at ``game`` (:data:`DEFAULT` for one who has none)."""
        raw = await self._raw(game, pids)
        return {pid: _rating(value) for pid, value in raw.items()}

    async def _raw(self, game: str, pids: list[str]) -> dict[str, bytes | None]:
        if not pids:
            return {}
        values = cast("list[bytes | None]", await self.redis.hmget(ratings_key(game), pids))
        return dict(zip(pids, values, strict=True))

    async def of_player(self, pid: str, games: list[str]) -> dict[str, Rating]:
        """A player's rating at each game they have one at (a pipeline: one round trip)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for game in games:
                pipe.hget(ratings_key(game), pid)
            values = await pipe.execute()
        return {game: _rating(v) for game, v in zip(games, values, strict=True) if v is not None}

    async def rate(
        self, game: str, race: str, pids: list[str], work_out: WorkOut, tries: int = 5
    ) -> dict[str, Any]:
        """Rate a race once: ``work_out(before: dict[pid, Rating]) -> (after: dict[pid,
        Rating], figures)`` from the ratings as they stand; the figures kept with the
        race's mark are returned (those of the first try to land, wherever it ran). A
        player's rating changed between the read and the write (another race of theirs
        rated meanwhile) is read and worked out again, up to ``tries`` times."""
        for _ in range(tries):
            raw = await self._raw(game, pids)
            before = {pid: _rating(value) for pid, value in raw.items()}
            after, figures = work_out(before)
            changes = " ".join(
                f"{pid} {(raw[pid] or b'').hex() or '-'} {pack(after[pid].to_dict()).hex()}"
                for pid in pids
            )
            kept = await RATE(
                self.redis,
                keys=[ratings_key(game), rated_key(game, race)],
                args=[changes, pack(figures), RATED_TTL],
            )
            if kept is not None:
                return dict(unpack(kept))
        raise RuntimeError(f"ratings of {game} kept changing while race {race} was rated")

    async def put_on_board(
        self, board: Board, pid: str, rating: Rating, details: dict[str, Any], at_ms: int
    ) -> None:
        """A player's entry on a rating board: higher ordinal first (the score is its
        negation), equal ordinals by who reached theirs first (the member, as on the time
        boards: ``"{ms}:{pid}"``). Set as it stands, so writing it again changes nothing."""
        await SET_ENTRY(
            self.redis,
            keys=board_keys(board.id)[:3],
            args=[pid, time_member(at_ms, pid), repr(-rating.ordinal), pack(details)],
        )


def _rating(value: bytes | None) -> Rating:
    return DEFAULT if value is None else Rating.from_dict(unpack(value))
