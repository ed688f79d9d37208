"""Certifying a daily deal: the first of a day's candidate seeds the solver proves
winnable, with the shortest winning line it finds (the book line; its length is par).

Pure like the rest of the solver. The server runs it in two steps, in a worker process
(``server.app.handlers.certify``): :func:`first_winnable`, the quick verdict that fixes
the day's deal, then :func:`shortest_line`, the longer search for par; :func:`certify`
does both at once. Every line they return has been played through a fresh engine and won
(:func:`server.solver.solve` and :func:`server.solver.check_line`), and is checked once
more by the server before it is kept.

>>> found = certify("gate", [7], budget_s=1)
>>> found is not None and found["n"] == 0 and found["par"] == len(found["line"])
True
"""

from __future__ import annotations

import time
from typing import Any, Final

from server.engine import new_game

from . import WON, check_line, difficulty, hooks_for, solve
from .shortest import best_first, shortcut


def first_winnable(game_id: str, seeds: list[int], budget_s: float) -> dict[str, Any] | None:
    """The first of ``seeds`` whose deal is proved winnable within ``budget_s`` seconds of
    search (for it alone), with the winning line that search found and no looking for a
    shorter one, as ``{"n": its index, "seed", "line", "tried", "seconds"}``; None when
    none is. The same deal as :func:`certify` picks: its verdict comes first there too.

    >>> found = first_winnable("nestor", [1, 2, 3], budget_s=10)
    >>> found is not None and found["tried"] == found["n"] + 1
    True
    """
    started = time.perf_counter()
    for n, seed in enumerate(seeds):
        result = solve(game_id, seed, budget_s=budget_s)
        if result.verdict == WON and result.checked:
            return {
                "n": n,
                "seed": seed,
                "line": list(result.line),
                "tried": n + 1,
                "seconds": round(time.perf_counter() - started, 3),
            }
    return None


#: the board-only player's tries (``difficulty.board_play``: the hint engine playing the
#: deal, seeing only the board) whose shortest win bounds the search for par where it is
#: shorter than the certifying line: at each of the two weaker strengths, this many tries
BOARD_TRIES: Final = 6
#: the most of the search's budget the tries may take
BOARD_SHARE: Final = 0.25


def shorter_known(game_id: str, seed: int, line: list[str], until: float) -> list[str]:
    """The shortest of ``line`` (a winning line of the deal) and the wins of the board-only
    player's tries (:data:`BOARD_TRIES`, until ``until`` on ``time.perf_counter``), each
    with its detours cut (:func:`shortest.shortcut`, which A* would do to it first: The
    Wedge's certifying lines cut shorter than its board wins do). A* bounded by the
    certifying line alone seldom got far below it in its budget: The Gate's deal of seed
    11, certified by a line of 127 moves, got a par of 126, where the hint engine, seeing
    only the board, won it in 110 in a tenth of a second (and a player following the hints
    beat par by eleven moves).

    >>> first = first_winnable("gate", [11], 10)["line"]
    >>> len(shorter_known("gate", 11, first, time.perf_counter() + 5)) < len(first) - 10
    True
    """
    best = shortcut(new_game(game_id, seed=seed), line)
    rungs = difficulty.RUNGS_BY_GAME.get(game_id, difficulty.RUNGS)[:2]
    for attempt in range(BOARD_TRIES):
        for nodes in rungs:
            if time.perf_counter() >= until:
                return best
            tried = difficulty.board_play(game_id, seed, attempt, nodes)
            if tried["won"] and len(tried["line"]) < len(best) * 2:
                cut = shortcut(new_game(game_id, seed=seed), tried["line"])
                if len(cut) < len(best):
                    best = cut
    return best


def shortest_line(game_id: str, seed: int, line: list[str], budget_s: float) -> dict[str, Any]:
    """The search for par: the shortest winning line of the deal found within ``budget_s``
    seconds, knowing ``line`` wins (A*, bounded by it, or by a shorter win of the
    board-only player's: :func:`shorter_known`), as ``{"line", "par", "shortest",
    "seconds"}``; ``shortest`` says it is proved the shortest. The line is checked
    through a fresh engine.

    >>> found = shortest_line("gate", 7, first_winnable("gate", [7], 10)["line"], 1)
    >>> found["par"] == len(found["line"])
    True
    """
    started = time.perf_counter()
    known = shorter_known(game_id, seed, line, started + budget_s * BOARD_SHARE)
    game = new_game(game_id, seed=seed)
    short = best_first(game, hooks_for(game_id), known=known, deadline=started + budget_s)
    check_line(game_id, short.line, seed=seed)
    return {
        "line": list(short.line),
        "par": len(short.line),
        "shortest": short.proved,
        "seconds": round(time.perf_counter() - started, 3),
    }


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
