"""A watched screen (``group show GROUP --watch``, ``league --watch``) fitted to the
terminal's height: drawn whole where it fits; else its list (a group's members, a
league's standings) shortened until it does, the view saying what it left out; and at
the last its middle lines given up, so that its first line (what is watched) and its last
(watching, or the connection's state) are always on the screen. rich's Live cut a view
taller than the screen at its foot, under a lone "...": the watching line went, and with
it the line that says the connection is lost.

>>> from rich.text import Text
>>> view = lambda keep: Text("\\n".join(["head", *["row"] * (9 if keep is None else keep), "foot"]))
>>> fitted(view, 9, False, 20, 6).plain.split("\\n")
['head', 'row', 'row', 'row', 'row', 'foot']
>>> fitted(view, 9, False, 20, None).plain.count("row")
9
"""

from __future__ import annotations

from collections.abc import Callable

from rich.console import RenderableType
from rich.text import Text

from .lines import rows
from .printing import _render


def _lines(text: Text) -> list[Text]:
    lines = list(text.split("\n", allow_blank=True))
    while lines and not lines[-1].plain:
        lines.pop()
    return lines


def fitted(
    make: Callable[[int | None], RenderableType],
    size: int,
    ascii: bool,
    width: int,
    height: int | None,
) -> Text:
    """``make(None)`` drawn at ``width`` where it fits in ``height`` lines (None: any
    height, as a pipe takes it); else ``make(keep)`` with the fewest fewer lines of its
    list that fit (``size``: the list's lines in full), at worst its first and last lines
    around as many of the rest as fit."""
    lines = _lines(_render(make(None), ascii, width))
    if height is None or _rows(lines, width) <= height:
        return Text("\n").join(lines)
    keep = max(0, size - (_rows(lines, width) - height))
    while True:
        lines = _lines(_render(make(keep), ascii, width))
        if _rows(lines, width) <= height or keep == 0:
            break
        keep -= 1
    if _rows(lines, width) > height:  # (the list gone, and still too tall: the middle gives)
        top = lines[:1]
        for line in lines[1:-1]:
            if _rows([*top, line, lines[-1]], width) > height:
                break
            top.append(line)
        lines = top + lines[-1:]
    return Text("\n").join(lines[: max(height, 1)] if height < 2 else lines)


def _rows(lines: list[Text], width: int) -> int:
    """The terminal's rows ``lines`` take: a piece to copy wider than the terminal is
    folded by it (:class:`~.pager.Redrawn`), and takes two."""
    return sum(rows(line, width) for line in lines)
