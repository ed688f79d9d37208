"""What the terminal says of a quick race: the wait (its rating window widening), the
ghosts raced when nobody was matched, the result against them. Pure functions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .challenge import result_words
from .places import place_of, placed
from .sanitize import clean


def waiting_line(msg: Mapping[str, Any], name: str, now: int) -> str:
    """What the wait says, as the window widens.

    >>> msg = {"rating": 4.44, "window": 3.0, "ghosts_at": 21_000, "now": 1_000}
    >>> waiting_line(msg, "The Gate", 1_000)
    'Quick race of The Gate: waiting · your rating 4 · within ±3 · ghosts in 20 s'
    """
    rating = msg.get("rating")
    window = msg.get("window")
    ghosts_at = msg.get("ghosts_at")
    parts = [f"Quick race of {name}: waiting"]
    if isinstance(rating, int | float) and not isinstance(rating, bool):
        parts.append(f"your rating {round(rating)}")  # (as every table shows it)
    if isinstance(window, int | float) and not isinstance(window, bool):
        parts.append(f"within ±{window:g}")
    if isinstance(ghosts_at, int) and not isinstance(ghosts_at, bool):
        left = max(ghosts_at - now, 0) // 1000
        parts.append(f"ghosts in {left} s")
    return " · ".join(parts)


def ghosts_words(msg: Mapping[str, Any]) -> str:
    """Who the ghosts are.

    >>> ghosts_words({"ghosts": [{"name": "ann"}, {"name": "bob"}]})
    "Nobody was matched in time: racing the ghosts of ann and bob, on their race's deal."
    >>> ghosts_words({"ghosts": []})
    'Nobody was matched in time, and no recorded race is left for you to race: a fresh deal, alone.'
    """
    ghosts = msg.get("ghosts")
    names = [clean(g.get("name", ""), 20) for g in ghosts or [] if isinstance(g, Mapping)]
    if not names:
        return (
            "Nobody was matched in time, and no recorded race is left for you to race: a "
            "fresh deal, alone."
        )
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"
    return f"Nobody was matched in time: racing the ghosts of {who}, on their race's deal."


def result_message(msg: Mapping[str, Any], unit: str = "cards") -> str:
    """``quick_ghosts_result`` in a line (``unit``: the game's, ``pairs`` where its cards
    come off in pairs).

    >>> you = {"status": "won", "time_ms": 61_000, "moves": 88, "home": 52, "total": 52}
    >>> result_message({"rank": 2, "place": 2, "you": you, "table": [
    ...     {"rank": 1, "place": 1, "ghost": True}, {"rank": 2, "place": 2, "ghost": False},
    ...     {"rank": 3, "place": 3, "ghost": True}]})
    'You finished 2nd of 3 against the ghosts: won in 1:01.0, 88 moves.'

    A ghost that did just as the player did shares their place:

    >>> result_message({"rank": 2, "place": 1, "you": you, "table": [
    ...     {"rank": 1, "place": 1, "ghost": True}, {"rank": 2, "place": 1, "ghost": False}]})
    'You finished joint 1st of 2 against the ghosts: won in 1:01.0, 88 moves.'

    Alone (no ghost to race), the game's end alone:

    >>> result_message({"rank": 1, "place": 1, "you": you, "table": [
    ...     {"rank": 1, "place": 1, "ghost": False}]})
    'Your game: won in 1:01.0, 88 moves.'
    """
    table = msg.get("table")
    entries = table if isinstance(table, list) else []
    count = len(entries)
    mine = msg.get("you")
    you: dict[str, Any] = dict(mine) if isinstance(mine, Mapping) else {}
    # the player's own row of the table says whether a ghost shares their place
    row = next((e for e in entries if isinstance(e, Mapping) and not e.get("ghost")), msg)
    if place_of(row) < 1:
        row = msg
    if not any(isinstance(e, Mapping) and e.get("ghost") for e in entries):
        return f"Your game: {result_words(you, unit)}."
    place = placed(row, entries) if place_of(row) > 0 else "?"
    return f"You finished {place} of {count} against the ghosts: {result_words(you, unit)}."
