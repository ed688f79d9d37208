"""Styled lines: the pieces every screen is made of, and their plain and ANSI forms.

The screens (:mod:`.screen`, :mod:`.room_screen`, the boards and replays) are lists of
rich :class:`~rich.text.Text` lines, each cut to the screen's width; :func:`plain` is what the
golden tests compare and :func:`ansi` what the terminal gets. ``--ascii`` screens go through
:func:`to_ascii`, one character for one so styles stay in place.
"""

from __future__ import annotations

import io
import os
import re
import sys
import textwrap
from collections.abc import Sequence
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text


class Glyphs:
    def __init__(self, ascii: bool) -> None:
        self.ascii = ascii
        self.sep = " | " if ascii else " · "
        self.me = ">" if ascii else "▸"
        self.full = "#" if ascii else "█"
        self.empty = "." if ascii else "░"
        self.dash = "-" if ascii else "—"
        self.won = "won" if ascii else "✓ won"
        self.box = box.ASCII2 if ascii else box.SIMPLE_HEAD


def clock(ms: int) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour.

    >>> clock(0), clock(75_400), clock(3_725_000)
    ('0:00', '1:15', '1:02:05')
    """
    seconds = max(ms, 0) // 1000
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02}:{secs:02}" if hours else f"{minutes}:{secs:02}"


def time_left(ms: int) -> str:
    """The time left on a clock counting down, as :func:`clock` writes it but rounded up
    to the second, as a countdown shows it (0:01 until the last moment): beside the time
    run, floored, the two add up to the limit (both floored, a 0:30 race read "0:06 (0:23
    left)").

    >>> time_left(23_500), time_left(23_000), time_left(1), time_left(0), time_left(-5)
    ('0:24', '0:23', '0:01', '0:00', '0:00')
    """
    return clock(-(-max(ms, 0) // 1000) * 1000)


#: how a game's status reads where it differs from the protocol's word, and its shorter
#: form for a narrow column: ``timeout`` (the race's time limit, or a daily's reset,
#: passed while it was played) read like the software's error
STATUS_WORDS = {"timeout": ("time ran out", "out of time")}


def status_words(status: str, short: bool = False) -> str:
    """A game's status as players read it (``short``: where room is short); the
    protocol's word where it reads well already.

    >>> status_words("timeout"), status_words("timeout", short=True), status_words("lost")
    ('time ran out', 'out of time', 'lost')
    """
    words = STATUS_WORDS.get(status)
    return status if words is None else words[1 if short else 0]


def race_time(ms: Any) -> str:
    """A winner's time, to the tenth of a second.

    >>> race_time(83_456), race_time(None)
    ('1:23.4', '')
    """
    if not isinstance(ms, int) or isinstance(ms, bool):
        return ""
    return f"{clock(ms)}.{(ms % 1000) // 100}"


def as_int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def fit(text: Text, width: int) -> Text:
    """``text`` cut to ``width`` cells with an ellipsis; a line over only by its padding
    loses the padding, not its last word.

    >>> fit(Text("t1>b2     "), 7).plain, fit(Text("the deal"), 6).plain
    ('t1>b2', 'the d…')
    """
    text = text.copy()
    if text.cell_len > width:
        text.rstrip()
    text.truncate(width, overflow="ellipsis")
    return text


#: a space inside a piece printed to be copied (a command, the result line to paste):
#: :func:`between_words` breaks no line there, and prints it as a space
KEPT = "\u00a0"


def kept(text: str) -> str:
    """``text`` as one piece to copy: :func:`between_words` breaks no line inside it. It
    starts a line of its own where it does not fit at the end of the one before; wider
    than the screen, it is left to the terminal to fold, one line still: copying the
    terminal's line gives it whole (a command broken by a newline ran half of itself).

    >>> said = "Your replay: " + kept("patience-race replay e25f --server ws://127.0.0.1:9460")
    >>> print(between_words(said, 40))
    Your replay:
    patience-race replay e25f --server ws://127.0.0.1:9460
    """
    return text.replace(" ", KEPT)


def kept_parts(line: str, sep: str = " · ") -> str:
    """``line``'s parts between its separators each one piece (:func:`kept`), its
    separator with it: :func:`between_words` breaks it only after a separator, never
    inside a value ("· seed " / "8469322028102417282", "ends in 14h" / "31m", printed to a
    pipe at 80 columns).

    >>> print(between_words(kept_parts("Week 2026-W48 · you are 3rd · ends in 14h 31m"), 30))
    Week 2026-W48 · you are 3rd ·
    ends in 14h 31m
    """
    parts = line.split(sep)
    mark = f" {sep.strip()}" if sep.strip() else ""
    return " ".join(
        kept(part + (mark if n < len(parts) - 1 else "")) for n, part in enumerate(parts)
    )


def between_words(text: str, width: int) -> str:
    """``text`` wrapped between words to ``width`` columns, each of its lines: printed as
    one line, the terminal broke it at its edge, in a word ("...whoever l" / "eaves"). A
    word longer than the width (a path, a link) is left whole for the terminal to fold,
    and so is a piece to copy (:func:`kept`).

    >>> print(between_words("Check the code with whoever sent it. Or not.", 24))
    Check the code with
    whoever sent it. Or not.
    """
    return "\n".join(
        "\n".join(
            textwrap.wrap(line, max(width, 20), break_long_words=False, break_on_hyphens=False)
        )
        for line in text.split("\n")
    ).replace(KEPT, " ")


def print_whole(console: Console, text: str, style: str = "") -> None:
    """Print ``text`` wrapped between words (:func:`between_words`), its pieces to copy
    whole (:func:`kept`), the terminal left to fold what is wider than it (rich would
    break a line at its width with a newline of its own)."""
    console.print(Text(between_words(text, console.width), style=style), soft_wrap=True)


def aside(message: str) -> None:
    """A line on stderr (a refusal, a note while the server works): wrapped between words
    to the terminal's width where stderr is a terminal; one line where it is not (a
    script's log, read whole)."""
    width = 0
    if sys.stderr.isatty():
        try:
            width = os.get_terminal_size(sys.stderr.fileno()).columns
        except OSError:
            width = 0
    print(between_words(message, width) if width else message.replace(KEPT, " "), file=sys.stderr)


#: words a message keeps on one line: a rating and its change ("Your rating: -4" / "(+1)."),
#: a rank and its number ("...is over (resigned): rank" / "2.")
TOGETHER = re.compile(r"\b(?:[Yy]our )?[Rr]ating: -?\d+ \([+-]\d+\)\.?|\brank \d+\.?")


def wrap(text: str, width: int, style: str, most: int) -> list[Text]:
    """``text`` in at most ``most`` lines of ``width``, wrapped between words (never at a
    word's hyphen: "patience-" / "race", nor inside :data:`TOGETHER`), the last shortened
    if it must be.

    >>> [t.plain for t in wrap("to play as yourself: patience-race link CODE", 30, "", 3)]
    ['to play as yourself:', 'patience-race link CODE']
    >>> [t.plain for t in wrap("You came 2nd. Your rating: -4 (+1).", 30, "", 2)]
    ['You came 2nd.', 'Your rating: -4 (+1).']
    >>> [t.plain for t in wrap("Your attempt is over (resigned): rank 2.", 36, "", 2)]
    ['Your attempt is over (resigned):', 'rank 2.']
    """
    text = TOGETHER.sub(lambda found: found.group().replace(" ", KEPT), text)
    lines = textwrap.wrap(text, width=max(width, 10), break_on_hyphens=False) or [""]
    if len(lines) > most:
        lines = [*lines[: most - 1], textwrap.shorten(" ".join(lines[most - 1 :]), width)]
    return [fit(Text(line.replace(KEPT, " "), style=style), width) for line in lines]


class HeadersWhole:
    """A table drawn with every header whole while another column has room to give: where
    the table is wider than the room, the columns wider than their headers give cells, the
    widest first (their cells cut with an ellipsis). rich cuts the columns it may wrap
    first, whatever they hold: the daily boards' overview read ``play…`` over one-figure
    cells beside results of 33, and beside long names lost that column altogether.
    ``first``: the columns that give first (names, whose start says whose), the widest of
    them first, while they have room: the others keep what they hold. Where they cannot
    give enough, the columns stand two cells apart rather than three before the others
    give.

    >>> table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False)
    >>> table.add_column("game", no_wrap=True)
    >>> table.add_column("players", justify="right")
    >>> table.add_column("result", no_wrap=True)
    >>> table.add_row("The Blockade (rows of ten)", "8", "not won, 2/26 pairs off, 11 moves")
    >>> print(lines_of(table, 64)[0].plain)
    game                           result
    >>> for line in lines_of(HeadersWhole(table), 64):
    ...     print(line.plain)
    game                       players  result
    ────────────────────────────────────────────────────────────────
    The Blockade (rows of te…        8  not won, 2/26 pairs off, 11…
    """

    def __init__(self, table: Table, first: Sequence[int] = (), words: bool = False) -> None:
        self.table = table
        self.first = first
        #: the ``first`` columns give down to their longest word (wrapping between words)
        #: before any is cut, standing two cells apart first where that is needed too
        self.words = words

    def _fitted(
        self, console: Console, options: ConsoleOptions
    ) -> tuple[list[int], bool, int] | None:
        """The columns' widths to draw the table in ``options.max_width``, whether they
        stand two cells apart, and the cells still over (rich cuts them evenly); None: it
        fits as it is."""
        table = self.table
        room_for = options.max_width
        collapsed = table.collapse_padding
        wide = options.update_width(10_000)  # (the table as wide as it likes)

        def measure(cell: RenderableType) -> int:
            return Measurement.get(console, wide, cell).maximum

        excess = measure(table) - room_for
        if excess <= 0:
            return None
        widths: list[int] = []
        floors: list[int] = []
        for column in table.columns:
            most = column.width or max(measure(cell) for cell in [column.header, *column.cells])
            widths.append(min(most, column.max_width or most))
            floors.append(min(max(measure(column.header), column.min_width or 0), widths[-1]))
        closer = collapsed
        if self.words:
            # (a challenge's table at 60 columns: "ann (ghost)" cut to "(ghos…" and
            # "resigned" to "resig…" while its columns had the room two cells apart)
            wordy = list(floors)
            for n in self.first:
                cells = table.columns[n].cells
                longest = max((cell_len(word) for c in cells for word in _words(c)), default=0)
                wordy[n] = min(max(floors[n], longest), widths[n])
            give = sum(widths[n] - wordy[n] for n in self.first)
            if give < excess and not collapsed:
                table.collapse_padding = True
                try:
                    closer_excess = measure(table) - room_for
                finally:
                    table.collapse_padding = collapsed
                if give >= closer_excess:
                    closer, excess = True, closer_excess
            if give >= excess:
                floors = wordy
        names_give = sum(widths[n] - floors[n] for n in self.first)
        if names_give < excess and not collapsed:
            # the names alone cannot give enough: the columns two cells apart rather
            # than three, before a time, a date or a place is cut
            table.collapse_padding = closer = True
            try:
                excess = measure(table) - room_for
            finally:
                table.collapse_padding = collapsed
        while excess > 0:
            room = [width - floor for width, floor in zip(widths, floors, strict=True)]
            giving = [n for n in self.first if room[n] > 0] or range(len(room))
            gives = max(giving, key=lambda n: room[n])
            if room[gives] <= 0:
                break  # (every column down to its header: rich cuts them evenly)
            widths[gives] -= 1
            excess -= 1
        return widths, closer, max(excess, 0)

    def whole(self, column: int, width: int) -> bool:
        """Whether every cell of ``column`` is drawn whole in ``width``: a column giving
        first may keep all it holds where the others stand closer (a table of names no
        wider than their header, too wide by three cells: two apart, it fits)."""
        console = fixed_console(10_000)
        wide = console.options
        fitted = self._fitted(console, wide.update_width(width))
        if fitted is None:
            return True
        widths, _, over = fitted
        cells = self.table.columns[column].cells
        longest = max((Measurement.get(console, wide, c).maximum for c in cells), default=0)
        return over == 0 and widths[column] >= longest

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        table = self.table
        fitted = self._fitted(console, options)
        if fitted is None:
            yield table
            return
        widths, closer, _ = fitted
        columns = table.columns
        own = [column.width for column in columns]
        collapsed = table.collapse_padding
        try:
            table.collapse_padding = closer
            for column, width in zip(columns, widths, strict=True):
                column.width = width
            yield table  # (drawn before this goes on: the table is the caller's again)
        finally:
            table.collapse_padding = collapsed
            for column, kept in zip(columns, own, strict=True):
                column.width = kept


def _words(cell: RenderableType) -> list[str]:
    """The words of a table's cell (a ``str`` or a ``Text``; nothing for anything else)."""
    if isinstance(cell, Text):
        return cell.plain.split()
    return cell.split() if isinstance(cell, str) else []


def fits_with(table: Table, width: int, column: int, most: int) -> bool:
    """Whether ``table`` fits in ``width`` with its ``column`` cut to ``most`` cells at
    the least (a name keeps that much of itself), every other cell whole."""
    console = fixed_console(10_000)
    natural = Measurement.get(console, console.options, table).maximum
    cells = [table.columns[column].header, *table.columns[column].cells]
    longest = max(Measurement.get(console, console.options, cell).maximum for cell in cells)
    return natural - max(longest - most, 0) <= width


def fixed_console(width: int) -> Console:
    """A console that renders to a string at a fixed width, in standard colours."""
    return Console(
        width=width,
        file=io.StringIO(),
        force_terminal=True,
        color_system="standard",
        legacy_windows=False,
        emoji=False,
        highlight=False,
    )


def lines_of(renderable: RenderableType, width: int) -> list[Text]:
    """A rich renderable (a table) as styled lines."""
    console = fixed_console(width)
    out = []
    for segments in console.render_lines(renderable, console.options, pad=False):
        line = Text()
        for seg in segments:
            if not seg.control:
                line.append(seg.text, seg.style)
        line.rstrip()
        out.append(line)
    while out and not out[-1].plain:
        out.pop()
    return out


def rows(line: Text, width: int) -> int:
    """The terminal's rows ``line`` takes at ``width``: one wider is folded by the
    terminal (a piece to copy, :func:`kept`, in a view redrawn in place).

    >>> rows(Text("x" * 61), 60), rows(Text("x" * 60), 60), rows(Text(""), 60)
    (2, 1, 1)
    """
    return max(1, -(-line.cell_len // max(width, 1)))


def side_by_side(left: Sequence[Text], left_width: int, right: Sequence[Text]) -> list[Text]:
    out = []
    for n in range(max(len(left), len(right))):
        line = left[n].copy() if n < len(left) else Text()
        if n < len(right):
            line.align("left", left_width)
            line.append("   ")
            line.append_text(right[n])
        out.append(line)
    return out


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def split_line(line: str, width: int, sep: str = " · ") -> list[str]:
    """A result line in lines of at most ``width``, broken after its separators.

    >>> split_line("Patience Race · The Gate · 2026-11-22 · won in 3:25", 30)
    ['Patience Race · The Gate ·', '2026-11-22 · won in 3:25']
    """
    parts = line.split(sep)
    out: list[str] = []
    current = ""
    for n, part in enumerate(parts):
        piece = part + (sep.rstrip() if n < len(parts) - 1 else "")
        joined = f"{current} {piece}" if current else piece
        if current and len(joined) > width:
            out.append(current)
            current = piece
        else:
            current = joined
    out.append(current)
    return [fit(Text(one), width).plain for one in out]


#: --ascii: every character the screen may hold, one for one (spans stay in place)
ONE_FOR_ONE = str.maketrans(
    {
        "…": ".",
        "—": "-",
        "–": "-",
        "·": ".",
        "▸": ">",
        "█": "#",
        "░": ".",
        "✓": "+",
        "─": "-",
        "━": "-",
        "│": "|",
        "♣": "C",
        "♦": "D",
        "♥": "H",
        "♠": "S",
    }
)


def to_ascii(line: Text) -> Text:
    """A line with every character ASCII, one for one, so its styles stay in place."""
    text = line.plain.translate(ONE_FOR_ONE)
    if not text.isascii():
        text = "".join(ch if ch.isascii() else "?" for ch in text)
    return Text(text, style=line.style, spans=list(line.spans), end="")


def plain(lines: Sequence[Text]) -> str:
    """The screen as text, trailing spaces removed: what the golden tests compare."""
    return "\n".join(line.plain.rstrip() for line in lines)


def ansi(lines: Sequence[Text], width: int) -> str:
    """The screen as ANSI text for the terminal."""
    console = fixed_console(width)
    with console.capture() as capture:
        for line in lines:
            console.print(line, end="\n", no_wrap=True, overflow="crop", crop=True)
    return capture.get().rstrip("\n")
