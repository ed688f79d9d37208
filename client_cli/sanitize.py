"""Server strings made safe for a terminal.

Everything the server sends that reaches the screen passes through :func:`clean`:
control characters, escape sequences and bidirectional overrides are dropped, and the
client builds rich ``Text`` objects from the result, never markup, so a name like
``[bold]ann`` is shown as typed.

>>> clean("ann\\x1b[31m")
'ann[31m'
>>> clean("a very long name", limit=6)
'a ver…'
"""

from __future__ import annotations

import re

# C0 and C1 controls, DEL, zero-width and bidirectional formatting characters
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]")


def clean(value: object, limit: int | None = None) -> str:
    """One line of server text, safe to show: no control characters, at most ``limit``
    characters (cut with an ellipsis)."""
    text = value if isinstance(value, str) else str(value)
    text = _CONTROL.sub("", text)
    if limit is not None and len(text) > limit:
        text = text[: max(limit - 1, 0)] + "…"
    return text
