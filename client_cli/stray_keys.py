"""Escape sequences that read as mouse reports and are none, dropped.

prompt_toolkit takes ``ESC [`` then digits and ``;`` ended by ``m`` or ``M`` for a mouse
report (``Keys.Vt100MouseEvent``), whether the mouse is on or not, and its handler then
parses it: a colour's code pasted into the move line (``ESC [31m``, from a copied
coloured line) has one number where a report has three, and the handler's exception
stopped the screen with ``Unhandled exception in event loop`` and ``Press ENTER to
continue...``, that Enter eaten. :func:`mouse_guard` is the client's own binding of that
key, taking priority over prompt_toolkit's (an application's and a prompt's bindings come
after the defaults): a report of a form prompt_toolkit reads goes on to its handler, and
anything else (or a report it cannot read after all) is dropped, as a key bound to
nothing is.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.key_binding.bindings.mouse import load_mouse_bindings
from prompt_toolkit.keys import Keys

if TYPE_CHECKING:  # a name for type checkers only
    from prompt_toolkit.key_binding.key_bindings import NotImplementedOrNone

#: the reports prompt_toolkit parses: X10's (``ESC [ M`` and three bytes), xterm's SGR
#: (``ESC [ < b;x;y`` then ``M`` or ``m``) and urxvt's (``ESC [ b;x;y M``)
REPORT_RE = re.compile(r"\x1b\[(?:M.{3}|<\d+;\d+;\d+[mM]|\d+;\d+;\d+M)", re.DOTALL)


def is_report(data: str) -> bool:
    """Whether ``data`` is a mouse report of a form prompt_toolkit reads.

    >>> is_report("\\x1b[<0;12;5M"), is_report("\\x1b[96;14;13M"), is_report("\\x1b[M !!")
    (True, True, True)
    >>> is_report("\\x1b[31m"), is_report("\\x1b[1;2M"), is_report("\\x1b[<5M")
    (False, False, False)
    """
    return REPORT_RE.fullmatch(data) is not None


def mouse_guard() -> KeyBindings:
    """The binding of ``Keys.Vt100MouseEvent`` that drops what is no mouse report."""
    keys = KeyBindings()
    theirs = load_mouse_bindings().get_bindings_for_keys((Keys.Vt100MouseEvent,))[0].handler

    @keys.add(Keys.Vt100MouseEvent)
    def _report(event: KeyPressEvent) -> NotImplementedOrNone:
        if not is_report(event.data):
            return None
        try:
            return theirs(event)
        except (KeyError, ValueError, IndexError):  # (a button or a place it knows not)
            return None

    return keys
