"""A race's results: the racers ranked, and each one's line of the results table.

Pure: what the room step ``end`` keeps and tells (``server.app.handlers.steps``) is
ranked here, from the racers and their games as the race left them.
"""

from __future__ import annotations

from typing import Any

from .games import RESIGNED, TIMEOUT, WON, LiveGame
from .room import Racer


def standing(racer: Racer, live: LiveGame) -> tuple[Any, ...]:
    """How a racer did, as the results order it, short of who joined first: winners by
    the server time of the winning move (every racer of a race starts together), then
    fewer moves; then everyone else by cards home, a racer who stayed above one who left
    the room (``Racer.left``) with as many, then by who reached that count first. Level
    there (a count none changed since the deal: the deal's time, the same for all), they
    share the place: fewer moves put a racer who did nothing above one who tried."""
    if live.result == WON:
        assert live.finished_ms is not None
        return (0, live.finished_ms, live.game.moves, 0)
    return (1, -live.game.cards_home(), racer.left, live.home_at_ms)


def rank(entries: list[tuple[Racer, LiveGame]], start_at_ms: int) -> list[dict[str, Any]]:
    """Results: ordered by :func:`standing`, ties after that by who joined first (ranks
    1, 2, 3, ...: a list has an order), each with its ``place``: its rank, shared by
    racers whose :func:`standing` is the same, as a competition's (1, 2, 2, 4)."""

    def key(item: tuple[Racer, LiveGame]) -> tuple[Any, ...]:
        racer, live = item
        return (*standing(racer, live), racer.joined_ms)

    ordered = sorted(entries, key=key)
    places = shared_places([standing(racer, live) for racer, live in ordered])
    results = []
    for n, (racer, live) in enumerate(ordered, start=1):
        home, total = live.game.progress
        won = live.result == WON
        results.append(
            {
                "rank": n,
                "place": places[n - 1],
                "player": racer.name,
                "status": live.result or TIMEOUT,
                "time_ms": (live.finished_ms or 0) - start_at_ms if won else None,
                "moves": live.game.moves,
                "home": home,
                "total": total,
                "resigned": live.result == RESIGNED,
                "hints": live.hints,
                "replay": live.gid,
                # (one who left the room ranks below one who stayed with as many: the
                # table said "resigned" of both, and not why)
                **({"left": True} if racer.left else {}),
                # (resigned by the server, away too long: the table said "resigned")
                **({"forfeited": True} if racer.forfeited else {}),
            }
        )
    return results


def shared_places(keys: list[Any]) -> list[int]:
    """Places for a list already in order, by each one's sort key short of what only
    orders it: an entry whose key is the one before's shares its place, as in a
    competition (1, 2, 2, 4).

    >>> shared_places([(0, 5), (1, 3), (1, 3), (2, 0)])
    [1, 2, 2, 4]
    """
    places: list[int] = []
    for n, key in enumerate(keys):
        places.append(places[-1] if n and key == keys[n - 1] else n + 1)
    return places


def rated_ranks(entries: list[tuple[Racer, LiveGame]]) -> dict[str, int]:
    """Each racer's rank for the ratings, by name: as the results rank them, except that
    racers whose :func:`standing` is the same (the results part them only by who joined
    first: two who resign at the start with nothing played) share the better rank, which
    the rating model reads as a draw.

    Ranks like a competition's: 1, 1, 3 (the results' ``place``)."""
    return {r["player"]: r["place"] for r in rank(entries, 0)}
