"""The search: depth first over the engine's own moves, with undo, a transposition table
and a game's own knowledge (its :class:`~server.solver.hooks.Hooks`).

It plays *thoughtfully*: the engine holds the stock in its real order, and a ``deal``
simply turns the next card, so the search knows every hidden card. A line it finds wins
for a player who knew the order of the stock; ``lost`` means no line wins even then.

The search walks the positions reachable from the deal once each, remembering every
position it has entered (a compact key: :meth:`Hooks.key`). A position met again adds
nothing: either it was searched to the end without a win, or it is on the current path
and a winning line never needs to come back to where it was. So when the walk ends with
no win, no line wins: ``lost`` is a proof (within the hooks' stated dominances).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from server.engine import Game, Move

from .hooks import Hooks

WON = "won"
LOST = "lost"
UNKNOWN = "unknown"

#: how many nodes pass between looks at the clock
_CLOCK_EVERY = 1024


@dataclass
class Outcome:
    """What a search found: ``verdict`` and, when won, the winning ``line`` (move texts
    from the deal); ``nodes`` positions entered, ``seconds`` taken, ``why`` an unknown
    stopped (``time``, ``nodes``)."""

    verdict: str
    line: list[str] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    why: str = ""


def search(
    game: Game, hooks: Hooks, budget_s: float | None = None, max_nodes: int | None = None
) -> Outcome:
    """Search ``game`` from its position now (it is left where it was found)."""
    started = time.perf_counter()
    deadline = None if budget_s is None else started + budget_s
    seen: set[object] = set()
    key = hooks.key
    expand = hooks.expand
    nodes = 0
    # the stack holds, per depth, the moves still to try there (the next is the last)
    path: list[Move] = []
    stack: list[list[Move]] = []

    def enter() -> bool:
        """Count the position now and, when new, push its moves; True if it is won."""
        nonlocal nodes
        nodes += 1
        k = key(game)
        if k in seen:
            stack.append([])
            return False
        seen.add(k)
        if game.cards_home() == game.total:
            return True
        moves = expand(game)
        moves.reverse()  # tried first is popped first
        stack.append(moves)
        return False

    won = enter()
    why = ""
    while not won and stack:
        todo = stack[-1]
        if not todo:
            stack.pop()
            if path:
                path.pop()
                game.pop()
            continue
        if deadline is not None and nodes % _CLOCK_EVERY == 0 and time.perf_counter() > deadline:
            why = "time"
            break
        if max_nodes is not None and nodes >= max_nodes:
            why = "nodes"
            break
        move = todo.pop()
        game.play(move)
        path.append(move)
        won = enter()
    line = [m.text for m in path] if won else []
    for _ in path:
        game.pop()
    if won:
        verdict = WON
    elif why:
        verdict = UNKNOWN
    else:
        verdict = LOST
    return Outcome(verdict, line, nodes, time.perf_counter() - started, why)
