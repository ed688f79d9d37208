"""Light and Shade's beam on a compact position: the same search as :func:`server.solver.beam.beam`
with :class:`~.light_and_shade.LightAndShadeHooks`, about 2.7 times faster.

The generic beam walks the engine's own game (``play``, ``legal_moves``, ``pop``, ``copy``)
and keys each position it enters by translating its piles; that machinery is most of its
time. Here a position is a tuple of small immutable values, by class (a card's rank and
colour, ``KEY``: the rules never read a suit):

- ``aux``: the four Auxiliaries, each ``bytes`` of classes, bottom first;
- ``riv``: the four Rivals' classes as ``bytes`` (0: empty; a class is at least 4);
- ``talon``: ``bytes`` of classes, bottom first;
- ``n``: how many cards are left in the stock (the deal's own order: its cards are
  ``stock[:n]``, the top last, as the engine holds them);
- ``home``: cards home of each class, ``bytes`` of 30 (the aces' classes hold 4 from the
  deal), and ``homed``, their sum.

A move is a small number (:data:`TEXT` gives its notation); a child is a new tuple, so
the walk needs no undo. The moves offered, their order, the key, the scores and the
passes' bookkeeping are those of the hooks and of the generic beam, move for move, so
this beam keeps the same positions and finds the same line
(``tests/solver/test_light_and_shade_fast.py`` checks both, and every position's moves,
key, score, dead test and children against the hooks' and the engine's along random
games). A ``won`` line is replayed through the engine by :func:`server.solver.solve` like
any other; a ``lost`` comes, as there, only from a pass that dropped no position but
those :func:`dead` proves lost (the lock proof, or the count of the Rivals).
"""

from __future__ import annotations

import time
from typing import Any, Final

from server.engine import Game
from server.engine.games.light_and_shade import (
    AUX,
    FOUNDATIONS,
    KEY,
    RIVALS,
    SIDE,
    STOCK,
    TALON,
)

from ..beam import WALK_CAP
from ..search import LOST, UNKNOWN, WON, Outcome
from . import light_and_shade_crowd, light_and_shade_dead, light_and_shade_order

#: moves: 0..3 an Auxiliary's top home; 4 + 4 i + j Rival i onto Auxiliary j; 20 + j
#: the talon's top onto Auxiliary j; 24 + i the talon's top into Rival i; 28 deal
_ONTO: Final = 4
_T_ONTO: Final = 20
_FILL: Final = 24
DEAL: Final = 28
TEXT: Final = (
    *(f"a{j + 1}>f" for j in range(SIDE)),
    *(f"r{i + 1}>a{j + 1}" for i in range(SIDE) for j in range(SIDE)),
    *(f"t>a{j + 1}" for j in range(SIDE)),
    *(f"t>r{i + 1}" for i in range(SIDE)),
    "deal",
)
_CLASSES: Final = 30
_SIDES: Final = tuple(range(SIDE))
#: by class: the class a card goes on at home (one rank lower, the other colour), and the
#: class it builds on in an Auxiliary (one rank higher; 28 and 29 for kings: none)
_ABOVE: Final = tuple((k // 2 - 1) * 2 + (1 - k % 2) if k >= 4 else 0 for k in range(_CLASSES))
_BELOW: Final = tuple((k // 2 + 1) * 2 + (1 - k % 2) for k in range(_CLASSES))
#: a card of each class (the dead test reads cards)
_CARD: Final = {KEY[c]: c for c in range(52)}
_SEP: Final = b"\xff"
_CLOCK_EVERY = 256

State = tuple[tuple[bytes, ...], bytes, bytes, int, bytes, int]
#: a stage's end: its score, the kept position it came from, the moves from there
Candidate = tuple[float, int, tuple[int, ...]]
#: a line as a chain: (the line before, the moves after it), None for the empty line
#: (the line before is typed ``Any``: mypyc crashes on a type alias that names itself)
Line = tuple[Any, tuple[int, ...]] | None


def state_of(game: Game) -> tuple[State, bytes]:
    """The compact position of ``game`` and its stock's classes (bottom first)."""
    p = game.p
    aux = tuple(bytes(KEY[c] for c in p[j]) for j in AUX)
    riv = bytes(KEY[p[i][-1]] if p[i] else 0 for i in RIVALS)
    talon = bytes(KEY[c] for c in p[TALON])
    home = [0] * _CLASSES
    for f in FOUNDATIONS:
        for c in p[f]:
            home[KEY[c]] += 1
    homed = sum(home)
    stock = bytes(KEY[c] for c in p[STOCK])
    return (aux, riv, talon, len(stock), bytes(home), homed), stock


def key(s: State) -> bytes:
    """:meth:`LightAndShadeHooks.key` of the same position, byte for byte."""
    aux, riv, talon, n, _, _ = s
    return _SEP.join((*sorted(aux), bytes(sorted(riv)), talon, bytes((n,))))


def score(s: State) -> float:
    """:meth:`LightAndShadeHooks.score`: three a card home, less one a talon card."""
    return 3.0 * s[5] - len(s[2])


def expand(s: State) -> list[int]:
    """:meth:`LightAndShadeHooks.expand`, in its order: a safe play home alone, else home,
    Rivals onto Auxiliaries, the talon onto Auxiliaries, a Rival into the first empty
    Auxiliary, the talon's top into the first empty Rival, deal."""
    aux, riv, talon, n, home, _ = s
    out: list[int] = []
    above = _ABOVE
    for j in _SIDES:
        a = aux[j]
        if a:
            c = a[-1]
            below = home[above[c]]
            if below > home[c]:
                if below == 4:
                    return [j]  # safe: every card that could be built on it is home
                out.append(j)
    # the Rivals, a class once (a second of it onto the same Auxiliary is the same move)
    rivals: list[tuple[int, int]] = []
    classes: list[int] = []
    for i in _SIDES:
        r = riv[i]
        if r and r not in classes:
            classes.append(r)
            rivals.append((i, r))
    t_onto: list[int] = []
    fills: list[int] = []
    below_of = _BELOW
    top = talon[-1] if talon else 0
    t_on = below_of[top] if top else 0
    first_empty = True
    for j in _SIDES:
        a = aux[j]
        if a:
            want = a[-1]
            for i, r in rivals:
                if below_of[r] == want:
                    out.append(_ONTO + 4 * i + j)
            if t_on == want:
                t_onto.append(_T_ONTO + j)
        elif first_empty:
            first_empty = False
            for i, _ in rivals:
                fills.append(_ONTO + 4 * i + j)
    out += t_onto
    out += fills
    if top:
        for i in _SIDES:
            if not riv[i]:
                out.append(_FILL + i)
                break
    if n:
        out.append(DEAL)
    return out


def play(s: State, move: int, stock: bytes) -> State:
    """The position after ``move`` (one :func:`expand` offers)."""
    aux, riv, talon, n, home, homed = s
    if move < _ONTO:
        a = aux[move]
        c = a[-1]
        new = list(aux)
        new[move] = a[:-1]
        return (
            tuple(new),
            riv,
            talon,
            n,
            home[:c] + bytes((home[c] + 1,)) + home[c + 1 :],
            homed + 1,
        )
    if move < _T_ONTO:
        i, j = divmod(move - _ONTO, 4)
        new = list(aux)
        new[j] = aux[j] + riv[i : i + 1]
        return (tuple(new), riv[:i] + b"\0" + riv[i + 1 :], talon, n, home, homed)
    if move < _FILL:
        j = move - _T_ONTO
        new = list(aux)
        new[j] = aux[j] + talon[-1:]
        return (tuple(new), riv, talon[:-1], n, home, homed)
    if move < DEAL:
        i = move - _FILL
        return (aux, riv[:i] + talon[-1:] + riv[i + 1 :], talon[:-1], n, home, homed)
    return (aux, riv, talon + stock[n - 1 : n], n - 1, home, homed)


def dead(s: State, stock: bytes) -> bool:
    """:meth:`LightAndShadeHooks.dead` of the position: with at most ``DEAD_STOCK`` cards in
    the stock the lock proof or the count of the Rivals, then with at most
    ``ORDER_STOCK`` the count with the stock's order (asked of the cards' classes)."""
    aux, riv, talon, n, home, _ = s
    if n > light_and_shade_order.ORDER_STOCK:
        return False
    piles: list[list[int]] = [[_CARD[k] for k in a] for a in aux]
    piles += [[_CARD[r]] if r else [] for r in riv]
    piles.append([_CARD[k] for k in talon])
    piles.append([_CARD[k] for k in stock[:n]])
    if n <= light_and_shade_dead.DEAD_STOCK and (
        light_and_shade_dead.never_home_of(piles, home)
        or light_and_shade_crowd.never_home(piles, home)
    ):
        return True
    return bool(light_and_shade_order.never_home(piles, home))


def _flatten(line: Line) -> list[str]:
    parts: list[tuple[int, ...]] = []
    while line is not None:
        line, moves = line
        parts.append(moves)
    return [TEXT[m] for moves in reversed(parts) for m in moves]


class _Stop(Exception):
    def __init__(self, why: str) -> None:
        self.why = why


def beam(
    game: Game, width: int, deadline: float | None = None, max_nodes: int | None = None
) -> Outcome:
    """One pass of the beam, ``width`` positions kept a stage, from ``game``'s position now
    (left as it was): :func:`server.solver.beam.beam` with the Light and Shade hooks."""
    started = time.perf_counter()
    root, stock = state_of(game)
    total = game.total
    nodes = 0
    exhaustive = True
    kept: list[tuple[State, Line]] = [(root, None)]

    def walk(
        s0: State, seen: set[bytes], out: dict[bytes, Candidate], source: int
    ) -> list[int] | None:
        """Every position reachable from ``s0`` within the stage, depth first; a winning
        path if one is found, else None (and ``out`` filled with the stage's ends)."""
        nonlocal nodes, exhaustive
        path: list[int] = []
        states: list[State] = []
        stack: list[list[int]] = []
        entered = 0

        def enter(s: State) -> bool:
            nonlocal nodes, entered
            nodes += 1
            entered += 1
            states.append(s)
            k = key(s)
            if k in seen:
                stack.append([])
                return False
            seen.add(k)
            if s[5] == total:
                return True
            inner = expand(s)
            if inner and inner[-1] == DEAL:
                inner.pop()
                # after a deal: one card more on the talon, none more home
                out[k + b"deal"] = (3.0 * s[5] - len(s[2]) - 1, source, (*path, DEAL))
            inner.reverse()
            stack.append(inner)
            return False

        won = enter(s0)
        while not won and stack:
            todo = stack[-1]
            if not todo:
                stack.pop()
                states.pop()
                if path:
                    path.pop()
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
            path.append(move)
            won = enter(play(states[-1], move, stock))
        return path if won else None

    try:
        while kept:
            seen: set[bytes] = set()
            made: dict[bytes, Candidate] = {}
            for source, (s, line) in enumerate(kept):
                won = walk(s, seen, made, source)
                if won is not None:
                    return Outcome(
                        WON, _flatten((line, tuple(won))), nodes, time.perf_counter() - started
                    )
            best = sorted(made.values(), key=lambda c: -c[0])
            sift = exhaustive and len(best) > width
            nxt: list[tuple[State, Line]] = []
            for _, source, moves in best:
                if len(nxt) == width:
                    exhaustive = False
                    break
                s, line = kept[source]
                for move in moves:
                    s = play(s, move, stock)
                if sift:
                    # (the count of the Rivals takes about 25 ms: the budget holds here too)
                    if deadline is not None and time.perf_counter() > deadline:
                        raise _Stop("time")
                    if dead(s, stock):
                        continue
                nxt.append((s, (line, moves)))
            kept = nxt
    except _Stop as stop:
        return Outcome(UNKNOWN, [], nodes, time.perf_counter() - started, stop.why)
    verdict = LOST if exhaustive else UNKNOWN
    return Outcome(verdict, [], nodes, time.perf_counter() - started, "" if exhaustive else "beam")
