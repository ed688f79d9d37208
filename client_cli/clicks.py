"""What a click on the board means: pick a pile, then click where it goes.

Pure, like :mod:`.commands`: :func:`click` takes the pile picked before (if any), the pile
clicked, the legal moves the server sent and the piles' kinds, and returns an
:class:`~client_cli.commands.Action` and the pile picked after. It reads the notation's
shape only (``src>dst``, a counted ``c3:2>e2``, a pair ``4+8``, a word like ``deal``); the
server still decides whether a move is legal. A move's target may be a family of piles:
``w>f`` goes to whichever foundation fits, so a click on ``fh`` is a click on ``f``.

>>> legal = ["r>t4", "r>f", "l>t4", "deal"]
>>> kinds = {"r": "post", "t4": "bar", "fh": "foundation", "s": "stock", "l": "post"}
>>> click(None, "r", legal, kinds)
(Action(kind='say', arg=None, note='r picked: click where it goes (Esc drops it)'), 'r')
>>> click("r", "t4", legal, kinds)
(Action(kind='move', arg='r>t4', note=''), None)
>>> click("r", "fh", legal, kinds)
(Action(kind='move', arg='r>f', note=''), None)
>>> click(None, "s", legal, kinds)  # the stock deals
(Action(kind='move', arg='deal', note=''), None)
>>> click("l", "l", legal, kinds)  # the same pile again: its one move
(Action(kind='move', arg='l>t4', note=''), None)
>>> click("r", "l", legal, kinds)  # not legal: sent all the same, the server says why
(Action(kind='move', arg='r>l', note=''), None)
>>> click(None, "t4", legal, kinds)
(Action(kind='say', arg=None, note='no legal move starts at t4'), None)
>>> click(None, "6", ["6+11", "14+19"], {})  # a pair: both halves clicked
(Action(kind='say', arg=None, note='6 picked: click its pair (Esc drops it)'), '6')
>>> click("6", "11", ["6+11", "14+19"], {})
(Action(kind='move', arg='6+11', note=''), None)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .commands import Action, candidates
from .notation import move_piles, target


@dataclass(frozen=True)
class Hit:
    """A place on the screen a click means something: line ``line``, columns ``left`` up
    to ``right``; a pile (its ``label`` and ``kind``) or a move of the legal line."""

    line: int
    left: int
    right: int
    label: str = ""
    kind: str = ""
    move: str = ""


def hit_at(hits: Sequence[Hit], line: int, column: int) -> Hit | None:
    """The hit drawn at ``line``, ``column``, if any.

    >>> hit_at([Hit(3, 0, 2, label="l"), Hit(3, 4, 6, label="t1")], 3, 5).label
    't1'
    >>> hit_at([Hit(3, 0, 2, label="l")], 4, 0) is None
    True
    """
    for hit in hits:
        if hit.line == line and hit.left <= column < hit.right:
            return hit
    return None


#: the kinds of pile a click on deals (when a word move such as ``deal`` is legal; the
#: talon only when no move starts from it)
STOCK_KINDS = frozenset({"stock", "talon"})


def _goes_to(move: str, label: str, kinds: Mapping[str, str]) -> bool:
    """Whether ``move`` ends on the clicked pile ``label``, or on its family: ``f`` is any
    foundation ``fc`` .. ``fs``. A family is a target no pile is named, and only the
    foundations are in one: Babette's cell ``d2`` is not of ``>d``'s family (the falling
    foundations), nor The Wedge's ``22`` of ``2``'s."""
    goes = target(move)
    if not goes or label == goes:
        return bool(goes)
    return (
        goes not in kinds
        and label.startswith(goes)
        and kinds.get(label, "").startswith("foundation")
    )


def click(
    picked: str | None, label: str, legal: Sequence[str], kinds: Mapping[str, str]
) -> tuple[Action, str | None]:
    """The action a click on pile ``label`` asks for, and the pile picked after it."""
    words = [m for m in legal if move_piles(m) == (m,)]
    if picked is None:
        if label in legal:  # a pile named as its own move (Nestor's reserve)
            return Action("move", label), None
        kind = kinds.get(label)
        # (the talon deals too, but not over a card of its own that can be played)
        if kind in STOCK_KINDS and words and (kind == "stock" or not candidates(label, legal)):
            return Action("move", words[0]), None
        if not candidates(label, legal):
            return Action("say", note=f"no legal move starts at {label}"), None
        pair = any("+" in m for m in candidates(label, legal))
        what = "click its pair" if pair else "click where it goes"
        return Action("say", note=f"{label} picked: {what} (Esc drops it)"), label
    if label == picked:
        options = candidates(label, legal)
        if len(options) == 1:
            return Action("move", options[0]), None
        return Action("say", note=f"{label}: which move? {', '.join(options)}"), None
    from_picked = candidates(picked, legal)
    pairs = [m for m in from_picked if "+" in m and label in move_piles(m)]
    moves = pairs or [m for m in from_picked if _goes_to(m, label, kinds)]
    if len(moves) == 1:
        return Action("move", moves[0]), None
    if moves:
        return Action("say", note=f"which move? {', '.join(moves)}"), None
    if any("+" in m for m in from_picked):
        return Action("say", note=f"{picked} and {label} are not a pair"), None
    return Action("move", f"{picked}>{label}"), None  # the server says why not
