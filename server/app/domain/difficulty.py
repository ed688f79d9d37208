"""A daily deal's difficulty as players are shown it (``difficulty`` in ``daily``,
``daily_status`` and a daily board), from what the grader kept
(``server.solver.difficulty.grade_deal``, ``handlers/difficulty.py``).

>>> kept = {"grade": "hard", "seed": 7, "board_wins": 1, "tries": 6, "home_pct": 44,
...         "line_wins": 4, "searches": 6, "ease": 0.47, "version": 1, "seconds": 3.2}
>>> shown(kept, 7)
{'grade': 'hard', 'board_wins': 1, 'tries': 6, 'line_wins': 4, 'searches': 6, 'home_pct': 44}
>>> shown(kept, 8) is None, shown(None, 7) is None
(True, True)
>>> for part in words(shown(kept, 7)).split(", "):
...     print(part)
hard for this game (the hint engine
seeing only the board
won 1 of 6 tries
44% of the cards home on average; 4 of 6 short solver searches found a win)
"""

from __future__ import annotations

from typing import Any

from server.solver.difficulty import LOSS_WEIGHT

#: the fields a player is shown, as kept
SHOWN = ("grade", "board_wins", "tries", "line_wins", "searches", "home_pct")


def shown(kept: dict[str, Any] | None, seed: int | None) -> dict[str, Any] | None:
    """The difficulty to show for the deal of ``seed``, or None: not graded yet, or
    graded for another seed (an operator put another deal back: never shown for this
    one), or the grader could not grade it (``grade`` null: kept so, with ``why``)."""
    if kept is None or seed is None or kept.get("seed") != seed or kept.get("grade") is None:
        return None
    if "home_pct" not in kept:
        kept = {**kept, "home_pct": home_pct_of(kept)}
    return {name: kept[name] for name in SHOWN}


def home_pct_of(kept: dict[str, Any]) -> int:
    """The board-only player's cards home (a percentage, on average over its tries) of
    a grade kept before they were kept with it (``home_pct``), from the ease it kept:
    the ease is two parts its tries' mean score, one part its searches won
    (``server.solver.difficulty.ease``), and a lost try scores its share of the cards
    home times ``LOSS_WEIGHT`` (a won try 1).

    >>> home_pct_of({"ease": 0.155, "board_wins": 0, "tries": 6, "line_wins": 0, "searches": 6})
    31
    """
    tries, wins = int(kept["tries"]), int(kept["board_wins"])
    if not tries:
        return 0
    searched = float(kept["line_wins"]) / max(int(kept["searches"]), 1)
    scores = tries * (3 * float(kept["ease"]) - searched) / 2
    shares = wins + max(scores - wins, 0.0) / LOSS_WEIGHT
    return max(0, min(100, round(100 * shares / tries)))


def words(difficulty: dict[str, Any], unit: str = "cards") -> str:
    """The difficulty in a line, as the pages say it (after "Difficulty: ", as the
    clients do): the grade is the game's own (its thresholds are), and where a try was
    lost, how far the tries got, which is what tells apart the deals of a game whose
    tries mostly lose; ``unit`` ``pairs`` where cards come off in pairs ("paired
    off", nothing goes home there)."""
    tries, wins = difficulty["tries"], difficulty["board_wins"]
    searches = difficulty["searches"]
    home = difficulty.get("home_pct")
    got = "paired off" if unit == "pairs" else "home"
    lost = home is not None and wins < tries
    how_far = f", {home}% of the cards {got} on average" if lost else ""
    return (
        f"{difficulty['grade']} for this game (the hint engine, seeing only the board, won"
        f" {wins} of {tries} {'try' if tries == 1 else 'tries'}{how_far};"
        f" {difficulty['line_wins']} of {searches} short solver searches found a win)"
    )
