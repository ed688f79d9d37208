"""A daily deal's difficulty as the terminal shows it: the ``difficulty`` map of the
``daily`` and ``daily_status`` replies (docs/protocol.md#difficulty), checked and cut
to what can be said, and said in words.

>>> shown = difficulty_of({"grade": "hard", "board_wins": 1, "tries": 6,
...                        "line_wins": 4, "searches": 6, "home_pct": 44})
>>> shown["grade"]
'hard'
>>> for part in difficulty_words(shown).split(", "):
...     print(part)
Difficulty: hard for this game (the hint engine
seeing only the board
won 1 of 6 tries
44% of the cards home on average; 4 of 6 short solver searches found a win).
>>> difficulty_words(shown, "pairs").split(", ")[3][:38]  # (Nestor, Doubles and Quits)
'44% of the cards paired off on average'
>>> difficulty_of({"grade": "\\x1b[31mhard"}) is None, difficulty_of(None) is None
(True, True)
"""

from __future__ import annotations

from typing import Any

#: the grades a server sends, easiest first
GRADES = ("easy", "medium", "hard", "expert")


def _count(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0


def difficulty_of(raw: Any) -> dict[str, Any] | None:
    """The difficulty from a reply, or None (absent, null: not graded yet, or not a
    grade this client knows)."""
    if not isinstance(raw, dict) or raw.get("grade") not in GRADES:
        return None
    counts = ("board_wins", "tries", "line_wins", "searches")
    home = raw.get("home_pct")
    return {
        "grade": raw["grade"],
        **{name: _count(raw.get(name)) for name in counts},
        # a percentage, or None (a server before it sent none): then nothing is said of it
        "home_pct": home if home is not None and _count(home) == home <= 100 else None,
    }


def difficulty_words(shown: dict[str, Any], unit: str = "cards") -> str:
    """The difficulty in a sentence, with what it was measured from: the grade is the
    game's own, and where a try was lost, how far the tries got (what tells apart the
    deals of a game whose tries mostly lose): ``unit`` ``pairs`` where cards come off in
    pairs (Nestor, Doubles and Quits: "paired off", nothing goes home there)."""
    tries, searches, wins = shown["tries"], shown["searches"], shown["board_wins"]
    home = shown.get("home_pct")
    got = "paired off" if unit == "pairs" else "home"
    lost = home is not None and wins < tries
    how_far = f", {home}% of the cards {got} on average" if lost else ""
    return (
        f"Difficulty: {shown['grade']} for this game (the hint engine, seeing only the "
        f"board, won {wins} of {tries} {'try' if tries == 1 else 'tries'}{how_far}; "
        f"{shown['line_wins']} of {searches} short solver searches found a win)."
    )
