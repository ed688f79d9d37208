"""Shorter winning lines: a deal's *par* candidate.

The searches that decide a deal stop at the first win they find, and depth first's first
win is rarely short (a Wedge deal's first line can run to 800 moves). :func:`best_first`
looks for a shorter one, and its line is checked like any other.

First it cuts the known line's detours (:func:`shortcut`): a first win found by depth
first wanders (stretches that come back to a position already met, cards moved round
three cells and back), and a Wedge line of 504 moves is 148 without them. That alone
costs a move's worth of legal moves a step; with time to spare it also looks two moves
ahead of each step. Then it is A*: positions in order of moves made plus a lower bound
on the moves still needed (:meth:`Hooks.lower_bound`, never more than the truth, so the
first win it takes off the queue is a shortest one), bounded by the best line known (a
position whose estimate reaches that line's length is not queued). When the queue
empties, or the best estimate left reaches the best line, that line is the shortest
there is among the lines the game's hooks search (their dominances play a move sooner,
never add one). Otherwise it stops at its budget with the best line known, unproved.
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


#: the share of the time left that :func:`shortcut` may spend looking two moves ahead (the
#: rest is A*'s)
SHORTCUT_SHARE = 0.25


def shortcut(game: Game, line: list[str], ahead_until: float = 0.0) -> list[str]:
    """``line``, a line from ``game``'s position (left as it was), with its detours cut:
    from each position it reaches, it goes on to the last position of the line that is
    this one again or that one move reaches (or two moves, while ``time.perf_counter()``
    is before ``ahead_until``), whichever leaves the fewest moves, and along the line from
    there. Positions are compared whole (:meth:`Game.key`: every pile and counter, the
    hidden cards too), so the line it gives ends where ``line`` ends, in no more moves.

    >>> from server.engine import new_game
    >>> from server.solver import solve
    >>> line = solve("wedge", seed=1).line  # depth first's first win
    >>> len(line), len(shortcut(new_game("wedge", seed=1), line))
    (863, 135)
    """
    pos = game.copy()
    keys = [pos.key()]
    for text in line:
        pos.play(text)
        keys.append(pos.key())
    last = {key: i for i, key in enumerate(keys)}  # a position's last place on the line
    clock = time.perf_counter
    pos = game.copy()
    out: list[str] = []
    i, end = 0, len(line)
    while True:
        i = last[keys[i]]  # back where the line has been: the loop between dropped
        if i == end:
            return out
        # the step that leaves the fewest moves: the line's next, or a way further on
        # (to the line's position ``j`` in ``len(step)`` moves: ``j - len(step)`` gained)
        gain, best, step = i, i + 1, [line[i]]
        ahead = clock() < ahead_until
        for move in pos.legal_moves():
            pos.play(move)
            j = last.get(pos.key(), -1)
            if j - 1 > gain:
                gain, best, step = j - 1, j, [move.text]
            if ahead:
                for second in pos.legal_moves():
                    pos.play(second)
                    j = last.get(pos.key(), -1)
                    if j - 2 > gain:
                        gain, best, step = j - 2, j, [move.text, second.text]
                    pos.pop()
            pos.pop()
        for text in step:
            pos.play(text)
        out.extend(step)
        i = best


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
    if known is not None:
        # two moves ahead for a share of the time (none without a deadline)
        ahead = 0.0 if deadline is None else started + SHORTCUT_SHARE * (deadline - started)
        known = shortcut(game, known, ahead)
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
