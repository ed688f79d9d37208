"""Par in words: the day's par, and whether the solver proved its book line the
shortest (A* finished) or it is only the shortest it found in its budget.

>>> par_words(30, True)
'par 30 (proved shortest)'
>>> par_words(109, False)
'par 109 (shortest found)'
>>> par_words(109, None)
'par 109'
"""

from __future__ import annotations


def par_words(par: int, shortest: bool | None) -> str:
    """``par N (proved shortest)``, ``par N (shortest found)``, or ``par N`` from a
    server that does not say."""
    if shortest is None:
        return f"par {par}"
    return f"par {par} ({'proved shortest' if shortest else 'shortest found'})"
