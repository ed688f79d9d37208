"""A wider search than depth first: a beam over the deal's *stages*.

A stage is what can be done between two stage moves (a ``deal``, a ``redeal``: the moves
that cannot be taken back, :meth:`Hooks.is_stage`). From every position it keeps, the
beam walks all the positions reachable without a stage move (depth first, with undo and
a table of the stage's keys, so a position reached from two kept ones is walked once),
plays each stage move that can end one, and keeps the ``width`` best of the positions
that makes, by the game's :meth:`Hooks.score` (when they are more than it keeps and it
has dropped none yet, less those :meth:`Hooks.dead` proves lost); then the next stage,
until one position is won or none is left.

Depth first commits to its first choices and must exhaust everything below them before
it changes one: in a game of many stages (Light and Shade deals 88 cards one by one) a
poor choice early is never undone in time. The beam instead keeps many lines abreast and
drops the worst, so it finds wins depth first never reaches; the price is that dropping
lines is a guess. So the beam says ``won`` (a line, checked like any other) or
``unknown``, and ``lost`` only when it never dropped a line (every stage kept all it
made, every walk finished): then it searched everything, as depth first would have.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from server.engine import Game, Move

from .hooks import Hooks
from .search import LOST, UNKNOWN, WON, Outcome

#: the width of the first beam a solve runs (:mod:`server.solver.portfolio`)
FIRST_WIDTH = 16
#: the positions one kept position's walk may enter within a stage
WALK_CAP = 4_000
_CLOCK_EVERY = 256

#: a line as a chain: (the line before, the moves after it), None for the empty line
Line = tuple["Line", tuple[Move, ...]] | None


def _flatten(line: Line) -> list[str]:
    parts: list[tuple[Move, ...]] = []
    while line is not None:
        line, moves = line
        parts.append(moves)
    return [m.text for moves in reversed(parts) for m in moves]


@dataclass
class _Candidate:
    score: float
    #: which kept position it came from, and the moves from there (the stage move last)
    source: int
    moves: tuple[Move, ...]


class _Stop(Exception):
    def __init__(self, why: str) -> None:
        self.why = why


def beam(
    game: Game,
    hooks: Hooks,
    width: int,
    deadline: float | None = None,
    max_nodes: int | None = None,
) -> Outcome:
    """One pass of the beam, ``width`` positions kept a stage, from ``game``'s position
    now (it is left as it was)."""
    started = time.perf_counter()
    key = hooks.key
    expand = hooks.expand
    is_stage = hooks.is_stage
    score = hooks.score
    stage_score = hooks.stage_score
    dead = hooks.dead
    total = game.total
    nodes = 0
    exhaustive = True
    kept: list[tuple[Game, Line]] = [(game.copy(), None)]

    def walk(g: Game, seen: set[bytes], out: dict[bytes, _Candidate], source: int) -> list[Move]:
        """Every position reachable from ``g`` by moves within the stage; returns a
        winning path if one is found, else [] (and fills ``out``)."""
        nonlocal nodes, exhaustive
        path: list[Move] = []
        stack: list[list[Move]] = []
        entered = 0

        def enter() -> bool:
            nonlocal nodes, entered
            nodes += 1
            entered += 1
            k = key(g)
            if k in seen:
                stack.append([])
                return False
            seen.add(k)
            if g.cards_home() == total:
                return True
            inner: list[Move] = []
            for move in expand(g):
                if is_stage(move):
                    known = stage_score(g, move)
                    if known is not None:
                        # the hooks promise distinct positions stay distinct after it
                        out[k + move.text.encode()] = _Candidate(known, source, (*path, move))
                        continue
                    g.play(move)
                    after = key(g)
                    if after not in out:
                        out[after] = _Candidate(score(g), source, (*path, move))
                    g.pop()
                else:
                    inner.append(move)
            inner.reverse()
            stack.append(inner)
            return False

        won = enter()
        try:
            while not won and stack:
                todo = stack[-1]
                if not todo:
                    stack.pop()
                    if path:
                        path.pop()
                        g.pop()
                    continue
                if nodes % _CLOCK_EVERY == 0:
                    if deadline is not None and time.perf_counter() > deadline:
                        raise _Stop("time")
                    if max_nodes is not None and nodes >= max_nodes:
                        raise _Stop("nodes")
                if entered >= WALK_CAP:
                    exhaustive = False
                    break
                move = todo.pop()
                g.play(move)
                path.append(move)
                won = enter()
            return list(path) if won else []
        finally:
            for _ in path:
                g.pop()

    try:
        while kept:
            seen: set[bytes] = set()
            made: dict[bytes, _Candidate] = {}
            for source, (g, line) in enumerate(kept):
                won = walk(g, seen, made, source)
                if won:
                    return Outcome(
                        WON, _flatten((line, tuple(won))), nodes, time.perf_counter() - started
                    )
            best = sorted(made.values(), key=lambda c: -c.score)
            # only when the stage makes more than it can keep, and it has dropped
            # nothing yet, are the dead positions looked for: leaving out a proved-lost
            # one drops nothing, so the beam may still say lost
            sift = exhaustive and len(best) > width
            nxt: list[tuple[Game, Line]] = []
            for cand in best:
                if len(nxt) == width:
                    exhaustive = False  # a live position is dropped (or may be)
                    break
                g, line = kept[cand.source]
                h = g.copy()
                for move in cand.moves:
                    h.play(move)
                if sift:
                    # (a dead test may take milliseconds: the budget holds here too)
                    if deadline is not None and time.perf_counter() > deadline:
                        raise _Stop("time")
                    if dead(h):
                        continue
                nxt.append((h, (line, cand.moves)))
            kept = nxt
    except _Stop as stop:
        return Outcome(UNKNOWN, [], nodes, time.perf_counter() - started, stop.why)
    verdict = LOST if exhaustive else UNKNOWN
    return Outcome(verdict, [], nodes, time.perf_counter() - started, "" if exhaustive else "beam")
