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


def against_par(par: int, moves: int, won: bool) -> str:
    """A won game's moves against par, in words ("" for a game not won): under par is a
    line shorter than the one the solver found (never so under a par proved shortest).

    >>> against_par(110, 102, True)
    'You beat par by 8 moves: a shorter line than the solver found.'
    >>> against_par(110, 110, True), against_par(110, 113, True), against_par(110, 90, False)
    ('You matched par.', '3 moves over par.', '')
    """
    if not won:
        return ""
    apart = abs(par - moves)
    counted = f"{apart} move{'s' if apart != 1 else ''}"
    if moves < par:
        return f"You beat par by {counted}: a shorter line than the solver found."
    if moves == par:
        return "You matched par."
    return f"{counted} over par."
