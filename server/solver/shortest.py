"""Shorter winning lines: a deal's *par* candidate.

The searches that decide a deal stop at the first win they find, and depth first's first
win is rarely short (a Wedge deal's first line can run to 800 moves). :func:`best_first`
looks for a shorter one, and its line is checked like any other.

It is A*: positions in order of moves made plus a lower bound on the moves still needed
(:meth:`Hooks.lower_bound`, never more than the truth, so the first win it takes off the
queue is a shortest one), bounded by the best line known (a position whose estimate
reaches that line's length is not queued). When the queue empties, or the best estimate
left reaches the best line, that line is the shortest there is among the lines the
game's hooks search (their dominances play a move sooner, never add one). Otherwise it
stops at its budget with the best line known, unproved.
"""

from __future__ import annotations

import heapq
import itertools
import time
from dataclasses import dataclass

from server.engine import Game, Move

from .hooks import Hooks

#: a line as a chain of (the line before, its last move)
Chain = tuple["Chain", Move] | None


def _texts(chain: Chain) -> list[str]:
    out: list[str] = []
    while chain is not None:
        chain, move = chain
        out.append(move.text)
    out.reverse()
    return out


@dataclass
class Shortest:
    """The shortest line found (move texts from the deal), whether it is proved the
    shortest, and the positions and seconds the search took."""

    line: list[str]
    proved: bool
    nodes: int
    seconds: float


def best_first(
    game: Game,
    hooks: Hooks,
    known: list[str] | None = None,
    max_nodes: int | None = 200_000,
    deadline: float | None = None,
) -> Shortest:
    """A* from ``game``'s position (left as it was), bounded by ``known``, a winning line
    from here if one is known: a shorter line, or the proof that there is none. It holds
    every position it queues (``max_nodes`` of them at most: they count), so memory
    bounds it before time does."""
    started = time.perf_counter()
    bound = len(known) if known is not None else None  # a line must be shorter
    best: list[str] | None = list(known) if known is not None else None
    total = game.total
    key = hooks.key
    lower = hooks.lower_bound
    tie = itertools.count()
    root = game.copy()
    # (moves made + lower bound, -moves made, tiebreak, moves made, key, position, line)
    Entry = tuple[int, int, int, int, object, Game, Chain]
    first = key(root)
    queue: list[Entry] = [(lower(root), 0, 0, 0, first, root, None)]
    fewest: dict[object, int] = {first: 0}
    nodes = 1
    proved = True
    while queue:
        f, _, _, made, k, pos, chain = heapq.heappop(queue)
        if bound is not None and f >= bound:
            break  # nothing left can beat the best line: it is the shortest
        if fewest[k] < made:
            continue  # reached again in fewer moves since it was queued
        if pos.cards_home() == total:
            best = _texts(chain)
            break  # a lower bound never overestimates: no line is shorter
        if (max_nodes is not None and nodes >= max_nodes) or (
            deadline is not None and time.perf_counter() > deadline
        ):
            proved = False
            break
        g = made + 1
        for move in hooks.expand(pos):
            nxt = pos.copy()
            nxt.play(move)
            k = key(nxt)
            if fewest.get(k, g + 1) <= g:
                continue
            h = lower(nxt)
            if bound is not None and g + h >= bound:
                continue
            fewest[k] = g
            nodes += 1
            heapq.heappush(queue, (g + h, -g, next(tie), g, k, nxt, (chain, move)))
    # the queue emptied: every line shorter than the bound was looked at
    if best is None:
        proved = False  # no bound and no win: this says nothing about shortness
    return Shortest(best or [], proved and best is not None, nodes, time.perf_counter() - started)
