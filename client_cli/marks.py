"""What a board shows besides its cards, read from the view: its piles checked and
cleaned (:func:`piles_of`), the piles a view field marks (The Wedge's ``wedge``:
:func:`marked_piles`, :func:`mark_text`), the arrows of a view's ``path``
(:func:`path_arrows`), and a move written as the board names its garden's cells
(:func:`cell_case`). :mod:`.render` draws them; :mod:`.legend` and :mod:`.screen` say them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Any

from .sanitize import clean

#: kinds whose count of cards beneath the top is not shown (the progress says it)
HOME_KINDS = frozenset({"foundation", "foundation-up", "foundation-down", "discard"})
#: the longest label drawn in full
MAX_LABEL = 8
#: the longest label drawn in full
MAX_LABEL = 8
#: view fields whose value names a pile the board marks, and the mark (plain, ASCII): a view
#: could name its marked piles generically one day; until then the client knows this one
MARKING_FIELDS: Mapping[str, tuple[str, str]] = {"wedge": ("◀", "*")}


@dataclass(frozen=True)
class Pile:
    """One pile of a view, checked and cleaned."""

    label: str
    kind: str
    x: int
    y: int
    fan: str
    cards: tuple[str, ...]
    down: int


def _int(value: Any, low: int = 0, high: int = 999) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return min(max(value, low), high)
    return low


def piles_of(view: Mapping[str, Any]) -> list[Pile]:
    """The view's piles, every field checked (a malformed pile is skipped), every string
    cleaned."""
    out: list[Pile] = []
    raw = view.get("piles")
    if not isinstance(raw, list):
        return out
    for item in raw:
        if not isinstance(item, Mapping):
            continue
        cards = item.get("cards")
        out.append(
            Pile(
                label=clean(item.get("label", "?"), MAX_LABEL),
                kind=clean(item.get("kind", ""), 20),
                x=_int(item.get("x"), 0, 60),
                y=_int(item.get("y"), 0, 60),
                fan=clean(item.get("fan", "none"), 8),
                cards=tuple(clean(c, 2) for c in cards) if isinstance(cards, list) else (),
                down=_int(item.get("down"), 0, 9999),
            )
        )
    return out


_MOVE_PARTS = re.compile(r"([>:+])")


def cell_case(move: str, cells: frozenset[str]) -> str:
    """A move as the board names its piles: a garden cell with a capital letter (``D4``),
    every other pile as the notation has it. Case never matters to the server, so what a
    player reads is what they may type.

    >>> cell_case("d4>d", frozenset({"d4", "c3"})), cell_case("c3>g", frozenset({"c3"}))
    ('D4>d', 'C3>g')
    >>> cell_case("c3:2>e2", frozenset({"c3", "e2"})), cell_case("deal", frozenset())
    ('C3:2>E2', 'deal')
    """
    if not cells:
        return move
    parts = _MOVE_PARTS.split(move)
    return "".join(part.upper() if part in cells else part for part in parts)


def marked_piles(view: Mapping[str, Any]) -> dict[str, str]:
    """The piles the view's :data:`MARKING_FIELDS` name, each with its field's name.

    >>> marked_piles({"wedge": "15"}), marked_piles({"wedge": None})
    ({'15': 'wedge'}, {})
    """
    out: dict[str, str] = {}
    for name in MARKING_FIELDS:
        value = view.get(name)
        if isinstance(value, str) and value:
            out[clean(value, MAX_LABEL)] = name
    return out


#: the arrow from a pile on a path to the next, by the way it goes (plain, ASCII)
ARROWS: Mapping[tuple[int, int], tuple[str, str]] = {
    (-1, 0): ("←", "<"),
    (1, 0): ("→", ">"),
    (0, 1): ("↓", "v"),
    (0, -1): ("↑", "^"),
}


def path_arrows(view: Mapping[str, Any], piles: Sequence[Pile], ascii: bool) -> dict[str, str]:
    """The arrow after each label on the view's ``path`` (every pile but the last), the
    way to the next pile on it.

    >>> piles = [Pile("10", "cell", 0, 3, "down", (), 0), Pile("11", "cell", 1, 3, "down", (), 0),
    ...          Pile("16", "cell", 0, 4, "down", (), 0)]
    >>> path_arrows({"path": ["11", "10", "16"]}, piles, False)
    {'11': '←', '10': '↓'}
    """
    path = view.get("path")
    if not isinstance(path, list):
        return {}
    at = {p.label: (p.x, p.y) for p in piles}
    labels = [clean(label, MAX_LABEL) for label in path if isinstance(label, str)]
    out: dict[str, str] = {}
    for here, there in pairwise(labels):
        if here in at and there in at:
            (x0, y0), (x1, y1) = at[here], at[there]
            way = (0, 1 if y1 > y0 else -1) if y1 != y0 else (1 if x1 > x0 else -1, 0)
            out[here] = ARROWS[way][1 if ascii else 0]
    return out


def mark_text(name: str, ascii: bool) -> str:
    """The mark drawn after the top card of a pile the view field ``name`` names."""
    plain, plain_ascii = MARKING_FIELDS.get(name, ("*", "*"))
    return plain_ascii if ascii else plain
