"""Places in a race's results and a ghosts' table, as the server gives them: an entry's
``rank`` is its order in the list, its ``place`` the rank shared by entries the server
parts only by who joined (or took the challenge) first, as a competition's (1, 2, 2, 4).
A shared place reads "=2" in a table and "joint 2nd" in words.

>>> table = [{"player": "cy", "rank": 1, "place": 1}, {"player": "ann", "rank": 2,
...     "place": 2}, {"player": "bob", "rank": 3, "place": 2}]
>>> [place_cell(e, table) for e in table], placed(table[2], table), level_with(table[1], table)
(['1', '=2', '=2'], 'joint 2nd', ['bob'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .lines import as_int
from .sanitize import clean


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st.

    >>> [ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd', '101st']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{({1: 'st', 2: 'nd', 3: 'rd'}).get(n % 10, 'th')}"


def place_of(entry: Mapping[str, Any]) -> int:
    """The entry's place; its rank from a server that sends no ``place``."""
    place = entry.get("place")
    return as_int(place) if isinstance(place, int) else as_int(entry.get("rank"))


def _sharing(entry: Mapping[str, Any], entries: Sequence[Any]) -> list[Mapping[str, Any]]:
    """The other entries in the same place as ``entry``."""
    place = place_of(entry)
    return [
        e for e in entries if isinstance(e, Mapping) and e is not entry and place_of(e) == place
    ]


def place_cell(entry: Mapping[str, Any], entries: Sequence[Any]) -> str:
    """The entry's place for a table's ``#`` column: "=2" where it is shared."""
    shared = "=" if _sharing(entry, entries) else ""
    return f"{shared}{place_of(entry)}"


def placed(entry: Mapping[str, Any], entries: Sequence[Any]) -> str:
    """The entry's place in words: "2nd", or "joint 2nd" where it is shared."""
    joint = "joint " if _sharing(entry, entries) else ""
    return f"{joint}{ordinal(place_of(entry))}"


def level_with(entry: Mapping[str, Any], entries: Sequence[Any]) -> list[str]:
    """The names of the others in the same place as ``entry``."""
    return [clean(e.get("player", ""), 20) for e in _sharing(entry, entries)]
