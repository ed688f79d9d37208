"""What the one-shot commands print, and how: through ASCII with ``--ascii``
(:func:`asciify`), wrapped between words with each piece to copy whole (a command, a
link: :func:`~.lines.kept`), the terminal left to fold a line wider than it, rich never
breaking one with a newline of its own (:func:`_print`); the same for a live display
(:func:`_render`, a board or a group watched)."""

from __future__ import annotations

import argparse
import io
import sys
import unicodedata
from typing import Any

from rich.console import Console, Group
from rich.text import Text

from .lines import KEPT, between_words

#: characters --ascii replaces that NFKD cannot take apart
_ASCII = str.maketrans(
    {
        "•": "*",
        "→": "->",
        "←": "<-",
        "–": "-",
        "—": "--",
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
        "…": "...",
        "·": "-",
        "×": "x",
        "−": "-",
        "♣": "C",
        "♦": "D",
        "♥": "H",
        "♠": "S",
        "▌": "|",
        "━": "=",
        "─": "-",
        "│": "|",
        "┃": "|",
        "┏": "+",
        "┓": "+",
        "┗": "+",
        "┛": "+",
        "┌": "+",
        "┐": "+",
        "└": "+",
        "┘": "+",
        "├": "+",
        "┤": "+",
        "┬": "+",
        "┴": "+",
        "┼": "+",
    }
)


def asciify(text: str) -> str:
    """Text for a terminal without Unicode symbols.

    >>> asciify("Aces → up • 10♥ – “done”")
    'Aces -> up * 10H - "done"'
    """
    text = text.translate(_ASCII)
    if text.isascii():
        return text
    out = []
    for ch in text:
        if ch.isascii():
            out.append(ch)
            continue
        base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
        out.append(base or "?")
    return "".join(out)


def _console(args: argparse.Namespace) -> Console:
    return Console(highlight=False, emoji=False)


def _whole(renderable: Any, width: int) -> Any:
    """``renderable`` with its lines that hold a piece to copy (a ``str``, or a ``Text``
    with a :func:`~.lines.kept` piece: a command), itself or in a ``Group``, wrapped
    between words to ``width``, each piece whole (on a line of its own where it does not
    fit at the end of the one before), and not wrapped again: rich broke a command at
    its width with a newline of its own (``... --server`` / ``ws://...``)."""
    if isinstance(renderable, str):
        renderable = Text(renderable)
    if isinstance(renderable, Text) and KEPT in renderable.plain:
        # (in a Group: printed alone, rich joins a Text with its end into one that wraps)
        return Group(
            Text(
                between_words(renderable.plain, width),
                style=renderable.style,
                no_wrap=True,
                overflow="ignore",
            )
        )
    if isinstance(renderable, Group):
        return Group(*(_whole(part, width) for part in renderable.renderables))
    return renderable


def _print(console: Console, renderable: Any, ascii: bool) -> None:
    """Print, through ASCII when asked. A ``str`` is wrapped between words, its pieces
    to copy whole (:func:`~.lines.kept`: commands, links), the terminal left to fold a
    line wider than it: rich would break it at its width with a newline of its own. So
    is a ``Text`` holding a piece to copy, alone or in a ``Group`` (:func:`_whole`).
    Printed to a pipe or a file, no line ends in spaces (a table pads its cells)."""
    soft = isinstance(renderable, str)
    if soft:
        renderable = Text(between_words(renderable, console.width))
    else:
        renderable = _whole(renderable, console.width)
    piped = not console.is_terminal
    if not ascii and not piped:
        console.print(renderable, soft_wrap=soft, crop=False)
        return
    buffer = io.StringIO()
    Console(
        file=buffer,
        width=console.width,
        force_terminal=console.is_terminal,
        color_system=console.color_system,  # type: ignore[arg-type]
        highlight=False,
        emoji=False,
    ).print(renderable, soft_wrap=soft, crop=False)
    text = asciify(buffer.getvalue()) if ascii else buffer.getvalue()
    if piped:  # (no line padded with spaces: a table's, its edge a line of 80)
        text = "\n".join(line.rstrip() for line in text.split("\n"))
    if not ascii:  # (through the console: a pipe closed early, head's, is its to handle)
        console.out(text, end="", highlight=False)
        return
    sys.stdout.write(text)
    sys.stdout.flush()


def _render(renderable: Any, ascii: bool, width: int) -> Text:
    """A renderable as ANSI text (through ASCII when asked), for a live display: a piece
    to copy wider than ``width`` kept whole on its line (it was cut at the width, a
    command's ``--server ws://127.0.0.`` and the rest gone), for the display to let the
    terminal fold it (:class:`~.pager.Redrawn`)."""
    buffer = io.StringIO()
    Console(file=buffer, width=width, force_terminal=True, highlight=False, emoji=False).print(
        _whole(renderable, width), crop=False
    )
    text = buffer.getvalue()
    return Text.from_ansi(asciify(text) if ascii else text)
