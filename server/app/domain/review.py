"""A finished game's review, the app's side of it (pure): the line a replay played (its
moves with the undone ones taken out), where each of its positions is in the replay (the
step a replay viewer shows it at), and what the review tells a client, from what the
solver found (``server.solver.review``, in a worker process).

>>> replay = {"moves": [[1, "a"], [2, "!hint"], [3, "b"], [4, "!undo"], [5, "c"],
...                     [6, "!resign"]]}
>>> effective_line(replay)
(['a', 'c'], [0, 4])
>>> step_of(replay, [0, 4], 1), step_of(replay, [0, 4], 2)
(4, 6)
"""

from __future__ import annotations

from typing import Any, Final

from .games import HINT, RESIGN, TIMEOUT_ENTRY, UNDO, WON

#: what a won game's review found (the solver's, for a game not won, are its own)
OVER_PAR: Final = "over_par"


def effective_line(replay: dict[str, Any]) -> tuple[list[str], list[int]]:
    """The moves that made the game's last position, from the deal (an ``!undo`` takes
    the move before it out), and for each, the index of its entry in the replay's
    moves."""
    line: list[str] = []
    entries: list[int] = []
    for n, (_at, what) in enumerate(replay["moves"]):
        if what == UNDO:
            line.pop()
            entries.pop()
        elif what not in (RESIGN, TIMEOUT_ENTRY, HINT):
            line.append(str(what))
            entries.append(n)
    return line, entries


def wins_found(line: list[str], found: dict[str, Any]) -> list[list[str]]:
    """The winning lines from the deal a review found (each checked where it was found):
    a won game's par line, or a lost game's moves up to where a win was still possible
    followed by the continuation that wins from there.

    >>> wins_found(["a", "b", "c"], {"par_line": ["x", "y"]})
    [['x', 'y']]
    >>> wins_found(["a", "b", "c"], {"at": 1, "continuation": ["y", "z"]})
    [['a', 'y', 'z']]
    >>> wins_found(["a"], {"found": "deal_lost"})
    []
    """
    wins: list[list[str]] = []
    if found.get("par_line") is not None:
        wins.append([str(m) for m in found["par_line"]])
    at = found.get("at")
    if found.get("continuation") is not None and isinstance(at, int):
        wins.append(line[:at] + [str(m) for m in found["continuation"]])
    return wins


def step_of(replay: dict[str, Any], entries: list[int], k: int) -> int:
    """The replay's step (entries played) at which it shows the position after the
    line's first ``k`` moves, as the player last stood in it: just before the line's
    next move was played (the end of the replay for the last position)."""
    return entries[k] if k < len(entries) else len(replay["moves"])


def shown(
    replay: dict[str, Any], entries: list[int], found: dict[str, Any], view: Any
) -> dict[str, Any]:
    """The review a client is sent: the solver's findings with the game's facts, and
    for a lost game's position, the move's number (``move``: the line's moves played
    before it, plus one), the replay's step there (``step``) and the board (``view``)."""
    status = replay["result"]["status"]
    out: dict[str, Any] = {
        "game": replay["id"],
        "entries": len(replay["moves"]),
        "rules": replay["game"],
        "status": status,
        **{k: v for k, v in found.items() if k not in ("nodes",)},
    }
    if status == WON:
        out["found"] = OVER_PAR
        return out
    at = found.get("at")
    if at is not None:
        out["move"] = at + 1
        out["step"] = step_of(replay, entries, at)
        out["view"] = view
    return out
