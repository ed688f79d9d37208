"""Players' names: what a name may be, and what a refusal of one says (registering and
changing a name answer with the same words).

>>> [bool(NAME_RE.fullmatch(n)) for n in ("ann", "a", "ann\\n", "Ann_2-b", "é" * 3)]
[True, False, False, True, False]
>>> [bool(NAME_RE.fullmatch(n)) for n in ("-h", "--watch", "_-", "_ann", "2ann", "a-")]
[False, False, False, False, True, True]
>>> name_taken("ann", "")
"the name 'ann' is taken"
>>> name_taken("ann", "1795000000000")[18:]
'kept for the player who had it until 2026-11-18 (a name changed is kept for them a while)'
>>> next_change(1795000000000, 1795000000000 + 30 * DAY_MS)
'you may change your name once in 30 days: the next change is allowed from 2026-12-18 (UTC)'
"""

from __future__ import annotations

import re
from typing import Final

from .daily import day_of

#: matched with fullmatch, never match and "$" ("$" also matches before a last "\n");
#: ASCII letters and digits only (``[A-Za-z0-9]``), so that no two names look alike
#: the first a letter or a digit: "-h" or "--" could not be named to the terminal's
#: commands (taken for an option), and "_-" named nobody
NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{1,19}")
BAD_NAME: Final = (
    "a name is 2 to 20 letters (A to Z), digits, '_' or '-', the first a letter or a digit"
)
DAY_MS: Final = 86_400_000


def name_taken(name: str, kept_until: str) -> str:
    """The refusal of a name held by another player: theirs now (``kept_until`` ''), or
    one they had, kept for them until that server ms (as text, as Redis gives it)."""
    if not kept_until:
        return f"the name {name!r} is taken"
    return (
        f"the name {name!r} is kept for the player who had it until "
        f"{day_of(int(kept_until))} (a name changed is kept for them a while)"
    )


def next_change(last_ms: int, next_ms: int) -> str:
    """The refusal of a change of name too soon after the last (at ``last_ms``): the next
    is allowed from ``next_ms``."""
    days = round((next_ms - last_ms) / DAY_MS)
    often = "once a day" if days == 1 else f"once in {days} days"
    return (
        f"you may change your name {often}: the next change is allowed from {day_of(next_ms)} (UTC)"
    )
