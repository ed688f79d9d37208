"""Ghosts: a recorded game raced again, as its progress over time and nothing else.

A ghost is what a taker of a challenge races against: the challenger's replay played
through the engine once, kept as the points where its standing changed, each the
milliseconds from the game's start and the cards home and moves on the board then::

    {"name": "ann", "replay": "92629d6edd830077", "total": 52, "hints": 0,
     "points": [[0, 0, 0], [1830, 1, 1], [2410, 1, 2], ...],
     "end": {"status": "won", "at": 102400}}

``end`` is how and when the recorded game ended (null for a game not over: none is made
into a ghost). A ghost carries no card, no move and no seed: the counts a racer's
``progress`` shows. A client moves the ghost along its points from the race's start;
the server compares results by its own clock (``server.app.domain.challenges``).

>>> replay = {"game": "gate", "seed": 3, "start_ms": 1000, "player": "ann", "id": "r1",
...           "moves": [[1500, "!hint"], [2600, "!resign"]],
...           "result": {"status": "resigned", "total": 52}}
>>> ghost = of_replay(replay)
>>> ghost["points"], ghost["end"], ghost["hints"]
([[0, 1, 0]], {'status': 'resigned', 'at': 1600}, 1)
>>> at(ghost, 5000)
(1, 0, 'resigned')
"""

from __future__ import annotations

import bisect
from typing import Any

from server.engine import new_game

from .games import HINT, LOST, RESIGN, RESIGNED, TIMEOUT, TIMEOUT_ENTRY, UNDO

PLAYING = "playing"


def of_replay(replay: dict[str, Any]) -> dict[str, Any]:
    """The ghost of a finished game's replay (its moves replayed through the engine: a
    replay is trusted only as far as the engine takes its moves; one it refuses raises
    ``IllegalMove`` or ``UndoRefused``)."""
    game = new_game(replay["game"], seed=int(replay["seed"]))
    start = int(replay["start_ms"])
    points = [[0, game.cards_home(), 0]]
    status = PLAYING
    ended_at = hints = 0
    for at, what in replay["moves"]:
        if status != PLAYING:
            if status != LOST or what != UNDO:
                break
            status, ended_at = PLAYING, 0  # a loss undone (a solo or practice game)
        offset = max(int(at) - start, 0)
        if what == RESIGN:
            status = RESIGNED
        elif what == TIMEOUT_ENTRY:
            status = TIMEOUT
        elif what == HINT:
            hints += 1
            continue
        else:
            if what == UNDO:
                game.undo()
            else:
                game.play(what)
            if game.status != PLAYING:
                status = game.status
            point = [offset, game.cards_home(), game.moves]
            if point[1:] == points[-1][1:]:
                continue
            if points[-1][0] == offset:
                points[-1] = point  # two changes in one millisecond: the later stands
            else:
                points.append(point)
        if status != PLAYING:
            ended_at = offset
    _home, total = game.progress
    return {
        "name": replay.get("player"),
        "replay": replay.get("id"),
        "total": total,
        "hints": hints,
        "points": points,
        "end": {"status": status, "at": ended_at} if status != PLAYING else None,
    }


def at(ghost: dict[str, Any], offset_ms: int) -> tuple[int, int, str]:
    """The ghost's cards home, moves and status ``offset_ms`` after the start."""
    points = ghost["points"]
    n = bisect.bisect_right([p[0] for p in points], offset_ms) - 1
    _, home, moves = points[max(n, 0)]
    end = ghost.get("end")
    status = end["status"] if end is not None and offset_ms >= end["at"] else PLAYING
    return home, moves, status
