"""The list of a replay's moves: a row for each entry of its log, in four columns (its
step, its time from the start, the move, and what became of it: ``undone``, ``takes back
2``), the current one highlighted. Pure.

The columns are laid out once for the whole replay (they stay put while it is stepped
through): as wide as a full screen draws them where the list has the room, else closer,
as narrow as the replay's own numbers, times and moves (those with notes). A row never
loses its time: a note with no room beside its move goes, whole, on the line under it
(beside Nestor's board at 80 columns the undo rows lost their time, the move taking its
column, and their notes were cut to ``takes b…``).

>>> from .replay import Entry
>>> from .lines import Glyphs
>>> entries = [Entry(1, 300, "4+7"), Entry(2, 400, "1+7", undone=True),
...     Entry(3, 500, "undo", note="takes back 2")]
>>> Columns.fitting(entries, 60).heading().plain
'      #      time   move'
>>> [line.plain for line in Columns.fitting(entries, 60).block(entries[2], False, Glyphs(True))]
['      3    0:00.5   undo        takes back 2']
>>> narrow = Columns.fitting(entries, 26)
>>> narrow.heading().plain
'  #   time move'
>>> [line.plain for line in narrow.block(entries[1], True, Glyphs(True))]
['> 2 0:00.4 1+7  undone']
>>> [line.plain for line in narrow.block(entries[2], False, Glyphs(True), 28)]
['  3 0:00.5 undo takes back 2']
>>> [line.plain for line in narrow.block(entries[2], False, Glyphs(True), 26)]
['  3 0:00.5 undo', '           takes back 2']
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.cells import cell_len
from rich.text import Text

from .lines import Glyphs, fit, race_time, wrap

if TYPE_CHECKING:
    from .replay import Entry

#: the widest a move's column is padded to (a longer move is whole, its note after it)
MOVE_CELLS = 10


def note_of(entry: Entry) -> str:
    """What became of an entry, beside it: ``undone``, ``takes back 2``."""
    return " ".join(word for word in ("undone" if entry.undone else "", entry.note) if word)


@dataclass(frozen=True)
class Columns:
    """Where a row's columns stand: the margin before the marker, the cells of the
    step's number, of its time and of its move, and the spaces between them."""

    margin: int = 1
    number: int = 4
    time: int = 8
    move: int = MOVE_CELLS
    gaps: tuple[int, int, int] = (2, 3, 2)

    @classmethod
    def fitting(cls, entries: Sequence[Entry], width: int) -> Columns:
        """The widest layout in which every row of ``entries`` is whole in ``width``,
        its note beside it; else the closest (where a note that has no room goes under
        its move)."""
        number = len(str(len(entries)))
        time = max((len(race_time(e.at_ms)) for e in entries), default=6)
        # (the moves' column is padded for the notes after it: as wide as the moves with
        # notes, a longer move with none, Nestor's "reserve", making no room for them)
        noted = [cell_len(e.text) for e in entries if note_of(e)]
        move = min(max(noted, default=4), MOVE_CELLS)
        layouts = (
            cls(number=max(number, 4), time=max(time, 8)),  # as a full screen draws it
            cls(1, number, time, move, (2, 2, 2)),
            cls(0, number, time, move, (1, 2, 2)),
            cls(0, number, time, move, (1, 1, 1)),
        )
        for layout in layouts:
            if all(layout.row_cells(entry) <= width for entry in entries):
                return layout
        return layouts[-1]

    @property
    def move_at(self) -> int:
        """The cell the move's column starts at."""
        return self.margin + 2 + self.number + self.gaps[0] + self.time + self.gaps[1]

    def row_cells(self, entry: Entry) -> int:
        """The cells an entry's row takes on one line, its note beside its move."""
        note = note_of(entry)
        if not note:  # (its padding is cut where the row would be wider)
            return self.move_at + cell_len(entry.text)
        return self.move_at + max(cell_len(entry.text), self.move) + self.gaps[2] + len(note)

    def heading(self) -> Text:
        g0, g1, _ = self.gaps
        text = f"{' ' * (self.margin + 2)}{'#':>{self.number}}{' ' * g0}{'time':>{self.time}}"
        return Text(f"{text}{' ' * g1}move", style="dim")

    def block(self, entry: Entry | None, current: bool, g: Glyphs, width: int = 0) -> list[Text]:
        """An entry's row (None: the deal's), and the line of its note under it where
        the row has no room for it in ``width`` (0: room enough)."""
        g0, g1, g2 = self.gaps
        line = Text(" " * self.margin + (g.me if current else " "), style="bold")
        number, at_ms = (entry.number, entry.at_ms) if entry else (0, 0)
        line.append(f" {number:>{self.number}}{' ' * g0}{race_time(at_ms):>{self.time}}")
        line.append(" " * g1)
        if entry is None:
            line.append("the deal")
            return [_current(line, current)]
        note = note_of(entry)
        style = "dim strike" if entry.undone else ("bold" if entry.text == "resign" else "")
        line.append(f"{entry.text:<{self.move}}", style=style)
        if note and (not width or self.row_cells(entry) <= width):
            line.append(" " * g2 + note, style="dim")
        elif note:  # (no room beside the move: under it, whole)
            under = wrap(note, max(width - self.move_at, 10), "dim", 2)
            return [_current(line, current), *(Text(" " * self.move_at) + u for u in under)]
        return [_current(line, current)]


def _current(line: Text, current: bool) -> Text:
    if current:
        line.stylize("reverse", 1)
    return line


def window(at: int, rows: int, room: int, block: Callable[[int], list[Text]]) -> list[Text]:
    """The lines of rows ``0`` to ``rows - 1`` around row ``at`` in ``room`` lines: up to
    half of them above it, then the rows after it, then (at the end) more above; a row's
    lines together (the last one shown may lose its note's line)."""
    shown = block(at)
    first, last, above = at, at, 0
    while first > 0 and above + len(block(first - 1)) <= room // 2:
        first -= 1
        above += len(block(first))
    lines = [line for n in range(first, at) for line in block(n)] + shown
    while last + 1 < rows and len(lines) < room:
        last += 1
        lines += block(last)
    while first > 0 and len(lines) + len(block(first - 1)) <= room:
        first -= 1
        lines = block(first) + lines
    return lines[: max(room, 1)]


def listing(
    entries: Sequence[Entry], at: int, g: Glyphs, width: int, room: int, end: str = ""
) -> tuple[Text, list[Text]]:
    """The heading of the list, and its ``room`` lines of moves around step ``at``
    (highlighted), then a line for the end (``end``, where the list is at the end)."""
    columns = Columns.fitting(entries, width)
    room = max(room, 1)

    @functools.cache
    def block(n: int) -> list[Text]:
        rows = columns.block(entries[n - 1] if n else None, n == at, g, width)
        return [fit(row, width) for row in rows]

    body = window(at, len(entries) + 1, room, block)  # the deal, then every entry
    body += [Text("")] * (room - len(body))
    body.append(fit(Text(f"   the end: {end}", style="bold"), width) if end else Text(""))
    return fit(columns.heading(), width), body
