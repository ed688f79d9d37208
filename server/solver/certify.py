"""Certifying a daily deal: the first of a day's candidate seeds the solver proves
winnable, with the shortest winning line it finds (the book line; its length is par).

Pure like the rest of the solver; the server runs :func:`certify` in a worker process
(``server.app.handlers.certify``). Every line it returns has been played through a fresh
engine and won (:func:`server.solver.solve` checks it), and is checked once more by the
server before it is kept.

>>> found = certify("gate", [7], budget_s=10)
>>> found is not None and found["n"] == 0 and found["par"] == len(found["line"])
True
"""

from __future__ import annotations

import time
from typing import Any

from . import WON, solve


def certify(game_id: str, seeds: list[int], budget_s: float) -> dict[str, Any] | None:
    """The first of ``seeds`` whose deal is proved winnable within ``budget_s`` seconds of
    search (for it alone), as ``{"n": its index, "seed", "line", "par", "shortest",
    "tried", "seconds"}``; None when none is. ``shortest`` says the line is proved the
    shortest (otherwise it is the shortest found within the budget)."""
    started = time.perf_counter()
    for n, seed in enumerate(seeds):
        result = solve(game_id, seed, budget_s=budget_s, shortest=True)
        if result.verdict == WON and result.checked:
            return {
                "n": n,
                "seed": seed,
                "line": list(result.line),
                "par": len(result.line),
                "shortest": result.shortest,
                "tried": n + 1,
                "seconds": round(time.perf_counter() - started, 3),
            }
    return None
