"""A race's results: the racers ranked, and each one's line of the results table.

Pure: what the room step ``end`` keeps and tells (``server.app.handlers.steps``) is
ranked here, from the racers and their games as the race left them.
"""

from __future__ import annotations

from typing import Any

from .games import RESIGNED, TIMEOUT, WON, LiveGame
from .room import Racer


def rank(entries: list[tuple[Racer, LiveGame]], start_at_ms: int) -> list[dict[str, Any]]:
    """Results: winners by server time from the start to the winning move, then fewer
    moves; then everyone else by cards home, a racer who stayed above one who left the
    room (``Racer.left``) with as many, then by who reached that count first; ties after
    that by who joined first."""

    def key(item: tuple[Racer, LiveGame]) -> tuple[Any, ...]:
        racer, live = item
        if live.result == WON:
            assert live.finished_ms is not None
            return (0, live.finished_ms - start_at_ms, live.game.moves, 0, racer.joined_ms)
        return (
            1,
            -live.game.cards_home(),
            racer.left,
            live.home_at_ms,
            live.game.moves,
            racer.joined_ms,
        )

    results = []
    for n, (racer, live) in enumerate(sorted(entries, key=key), start=1):
        home, total = live.game.progress
        won = live.result == WON
        results.append(
            {
                "rank": n,
                "player": racer.name,
                "status": live.result or TIMEOUT,
                "time_ms": (live.finished_ms or 0) - start_at_ms if won else None,
                "moves": live.game.moves,
                "home": home,
                "total": total,
                "resigned": live.result == RESIGNED,
                "hints": live.hints,
                "replay": live.gid,
            }
        )
    return results
