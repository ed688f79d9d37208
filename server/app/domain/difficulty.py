"""A daily deal's difficulty as players are shown it (``difficulty`` in ``daily``,
``daily_status`` and a daily board), from what the grader kept
(``server.solver.difficulty.grade_deal``, ``handlers/difficulty.py``).

>>> kept = {"grade": "hard", "seed": 7, "board_wins": 1, "tries": 6, "line_wins": 4,
...         "searches": 6, "ease": 0.3333, "version": 1, "seconds": 3.2}
>>> shown(kept, 7)
{'grade': 'hard', 'board_wins': 1, 'tries': 6, 'line_wins': 4, 'searches': 6}
>>> shown(kept, 8) is None, shown(None, 7) is None
(True, True)
>>> for part in words(shown(kept, 7)).split("; "):
...     print(part)
hard: the hint engine, seeing only the board, won 1 of 6 tries
4 of 6 solver searches found a win
"""

from __future__ import annotations

from typing import Any

#: the fields a player is shown, as kept
SHOWN = ("grade", "board_wins", "tries", "line_wins", "searches")


def shown(kept: dict[str, Any] | None, seed: int | None) -> dict[str, Any] | None:
    """The difficulty to show for the deal of ``seed``, or None: not graded yet, or
    graded for another seed (an operator put another deal back: never shown for this
    one), or the grader could not grade it (``grade`` null: kept so, with ``why``)."""
    if kept is None or seed is None or kept.get("seed") != seed or kept.get("grade") is None:
        return None
    return {name: kept[name] for name in SHOWN}


def words(difficulty: dict[str, Any]) -> str:
    """The difficulty in a line, as the pages say it."""
    tries = difficulty["tries"]
    searches = difficulty["searches"]
    return (
        f"{difficulty['grade']}: the hint engine, seeing only the board, won"
        f" {difficulty['board_wins']}"
        f" of {tries} {'try' if tries == 1 else 'tries'}; {difficulty['line_wins']} of"
        f" {searches} solver searches found a win"
    )
