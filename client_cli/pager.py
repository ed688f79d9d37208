"""Long text for a person at a terminal: through a pager when it is taller than the
screen, printed whole everywhere else (a pipe, a file, a test), so that what is piped is
the text itself.

The pager is ``$PAGER`` (run by the shell, as ``man`` and ``git`` run it), else ``less``,
else ``more``; with none of them, or one that cannot be run, the text is printed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from typing import Any, TextIO

from rich.console import Console
from rich.control import Control
from rich.segment import ControlType
from rich.text import Text

from .lines import rows as lines_rows

#: the exit status of a shell that could not find or run the command
NOT_RUN = (126, 127)


def pager_command(environ: dict[str, str] | None = None) -> str | None:
    """The pager to run: ``$PAGER``, else ``less``, else ``more``; None for none.

    >>> pager_command({"PAGER": "most -s"})
    'most -s'
    """
    env = os.environ if environ is None else environ
    chosen = env.get("PAGER", "").strip()
    if chosen:
        return chosen
    for name in ("less", "more"):
        if shutil.which(name):
            return name
    return None


def fits(text: str, rows: int) -> bool:
    """Whether ``text`` fits a screen of ``rows`` lines, one kept for the prompt after it.

    >>> fits("a\\nb\\n", 3), fits("a\\nb\\nc\\n", 3)
    (True, False)
    """
    return len(text.splitlines()) < rows


def show(text: str, out: TextIO | None = None) -> None:
    """Show ``text``: through the pager where ``out`` is a terminal (and the input too:
    a pager reads its keys there) and the text taller than it, else printed."""
    out = sys.stdout if out is None else out
    if out.isatty() and sys.stdin.isatty():
        rows = shutil.get_terminal_size().lines
        command = pager_command()
        if command is not None and not fits(text, rows) and _paged(text, command, out):
            return
    out.write(text)
    out.flush()


def _paged(text: str, command: str, out: TextIO) -> bool:
    """Run the pager on ``text``; False if it could not be run at all."""
    out.flush()
    env = dict(os.environ)
    env.setdefault("LESS", "FRX")  # less: quit at once if it fits, keep the colours
    try:
        pager = subprocess.Popen(command, shell=True, stdin=subprocess.PIPE, env=env)
    except OSError:
        return False
    assert pager.stdin is not None
    try:
        with contextlib.suppress(BrokenPipeError):  # the reader quit before the end
            pager.stdin.write(text.encode(out.encoding or "utf-8", "replace"))
            pager.stdin.close()
        while True:
            try:
                pager.wait()
                break
            except KeyboardInterrupt:  # Ctrl-C is the pager's (less stops a search)
                continue
    finally:
        with contextlib.suppress(BrokenPipeError):
            pager.stdin.close()
    return pager.returncode not in NOT_RUN


class Redrawn:
    """A view shown and shown again as it changes (``--watch``): redrawn in place on a
    terminal, else each version written whole after the one before, as it comes (a pipe
    or a file keeps every version; rich's Live wrote nothing there until it stopped, and
    then only the last). ``make`` draws the view from what :meth:`update` was last given
    (``first`` to begin with), at the console's width at that moment: on a terminal it
    is drawn again when the terminal is resized (SIGWINCH), so that the view is made for
    the new width without waiting for a change.

    In place, each line is written whole: one wider than the terminal (a command to copy,
    ``... --server ws://...``) is folded by the terminal, as a printed one is, and the
    rows it takes are counted, so that the next drawing goes over every one of them.
    rich's Live cut every line at the width: the command copied named another server."""

    def __init__(self, console: Console, make: Callable[[Any], Text], first: Any) -> None:
        self.console = console
        self.make = make
        self.data = first
        self.loop: asyncio.AbstractEventLoop | None = None
        #: the rows the last drawing took on the terminal; None: not drawn in place
        self.rows: int | None = None
        self.view = Text()

    def __enter__(self) -> Redrawn:
        if not self.console.is_terminal:
            self.update(self.data)
            return self
        with contextlib.suppress(RuntimeError, NotImplementedError, AttributeError):
            # (no running loop, or no SIGWINCH where there are no such signals); heard
            # before the first drawing, so that no resize after it goes unheard
            loop = asyncio.get_running_loop()
            loop.add_signal_handler(signal.SIGWINCH, self._resized)
            self.loop = loop
        self.rows = 0
        self.console.show_cursor(False)
        self._draw(self.make(self.data))
        return self

    def __exit__(self, *exc: object) -> None:
        if self.loop is not None:
            self.loop.remove_signal_handler(signal.SIGWINCH)
            self.loop = None
        if self.rows is not None:
            self._draw(self.view, whole=True)  # (as Live left it: all of it, to scroll back)
            self.console.line()
            self.console.show_cursor(True)
            self.rows = None

    def _resized(self) -> None:
        """Drawn again for the new size, from the screen's top, the screen cleared: a
        terminal that folds its lines anew on a resize (tmux, most now) has moved the last
        drawing's rows where they cannot be counted, and going back over the rows counted
        left part of it above the new one (an outside tester: the board's title twice)."""
        if self.rows is not None:
            self.console.control(Control.home(), Control.clear())
            self.rows = 0
            self._draw(self.make(self.data))

    def _draw(self, view: Text, whole: bool = False) -> None:
        """``view`` over the last drawing, each line whole (the terminal folds one wider
        than it); taller than the terminal, its top and a line ``...`` (``whole``: all of
        it)."""
        console = self.console
        width, height = console.size
        self.view = view
        lines = list(view.split("\n", allow_blank=True))
        while lines and not lines[-1].plain:
            lines.pop()
        rows = [lines_rows(line, width) for line in lines]
        if not whole and sum(rows) > height:
            room, kept = max(height - 1, 0), 0
            while kept < len(lines) and sum(rows[: kept + 1]) <= room:
                kept += 1
            lines = [*lines[:kept], Text("...")]
            rows = [*rows[:kept], 1]
        if self.rows:  # (back to the first row drawn, each row cleared: as Live went back)
            up = ((ControlType.CURSOR_UP, 1), (ControlType.ERASE_IN_LINE, 2))
            back = (ControlType.CARRIAGE_RETURN, (ControlType.ERASE_IN_LINE, 2))
            console.control(Control(*back, *up * (self.rows - 1)))
        console.print(Text("\n").join(lines), soft_wrap=True, end="")
        self.rows = sum(rows)

    def update(self, data: Any) -> None:
        """Show the view of ``data``."""
        self.data = data
        view = self.make(data)
        if self.rows is not None:
            self._draw(view)
            return
        self.console.print(view)
        self.console.print()
        self.console.file.flush()
