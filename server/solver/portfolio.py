"""The searches a solve runs, in turn: depth first with restarts, and the beam.

Depth first (:mod:`server.solver.search`) proves losses: it finishes a lost deal's space
when that space is small enough. The beam (:mod:`server.solver.beam`) finds wins deep in
a long game that depth first, committed to its first choices, does not reach in time.
Neither is the better on every deal, so :func:`run` takes passes of each in turn, every
pass twice the size of the one before (a depth-first pass's cap on positions, a beam's
width), until one decides or the budget runs out. A pass that fails starts again next
time from the deal (nothing carries over): doubling bounds what the passes that failed
cost to about what the last one takes. A beam is not capped: its width bounds it, and a
beam cut short would be wasted.
"""

from __future__ import annotations

import time

from server.engine import Game

from .beam import FIRST_WIDTH, beam
from .hooks import Hooks
from .search import UNKNOWN, Outcome, search

#: the positions the first pass may enter; each pass after it doubles that
FIRST_PASS = 20_000
#: with ``Hooks.BEAM_FIT``, the share of the time left a narrowed beam pass is sized to
#: take (the rest is a margin), how its time grows with its width (as the width to this
#: power), and how much wider than the pass before it must be to be worth running. Light
#: and Shade's compact beam, uncompiled: from width 1,024 to 1.8 to 3.1 times it, 1.3 to
#: 3.6 times the time (eight unknown deals, a shared machine); to twice and four times it
#: (deals 10 and 36), 1.75 to 2.3 and 4.9 to 7.5 times
FIT_SHARE = 0.9
FIT_POWER = 1.25
FIT_GAIN = 1.25
#: the passes of one round, by ``Hooks.SEARCH``
_PASSES = {"depth": ("depth",), "both": ("depth", "beam"), "beam": ("beam",)}


def run(
    game: Game,
    hooks: Hooks,
    budget_s: float | None = None,
    max_nodes: int | None = None,
    first_pass: int = FIRST_PASS,
    first_width: int = FIRST_WIDTH,
) -> Outcome:
    """Search ``game`` (left where it was found) as ``hooks.SEARCH`` says:

    - ``"depth"``: depth first, pass k with order k (round ``hooks.ORDERS``) and at
      most ``first_pass * 2**k`` positions; a pass that ends below its cap searched
      everything, so its ``lost`` is a proof (with one order, a single pass to the
      budget: a restart would only walk the same positions again);
    - ``"both"``: after each depth-first pass, a beam of ``first_width * 2**k`` positions
      a stage, with the same order (its width bounds it: it runs to its end);
    - ``"beam"``: the beam alone, pass k with order k and its width doubling from
      ``first_width`` (an order may change the beam's :meth:`Hooks.score`).

    A hook's ``BEAM_WIDTH`` (when not 0) replaces ``first_width``, and its
    ``BEAM_GROWTH`` replaces the beam's doubling. With ``BEAM_FIT`` and a budget in
    seconds, a beam pass that would outrun the time left, by the last pass's time and
    ``FIT_POWER``, is narrowed to the width that takes ``FIT_SHARE`` of it (a beam cut
    short finds nothing); when that is not ``FIT_GAIN`` times the last pass's width, the
    solve stops there (a pass about as wide would find about what that one did).

    It stops at a win, a proof of ``lost``, or the budget (seconds, or positions).
    """
    started = time.perf_counter()
    deadline = None if budget_s is None else started + budget_s
    nodes = 0
    cap = first_pass
    width = hooks.BEAM_WIDTH or first_width
    k = 0
    #: the last beam pass's seconds and width (0: none yet)
    last_s = 0.0
    last_width = 0

    def done(found: Outcome) -> Outcome:
        found.nodes = nodes
        found.seconds = time.perf_counter() - started
        return found

    try:
        while True:
            hooks.order = k % hooks.ORDERS
            for kind in _PASSES[hooks.SEARCH]:
                if deadline is not None and time.perf_counter() >= deadline:
                    return done(Outcome(UNKNOWN, why="time"))
                left = None if max_nodes is None else max_nodes - nodes
                if left is not None and left <= 0:
                    return done(Outcome(UNKNOWN, why="nodes"))
                if kind == "depth":
                    left_s = None if deadline is None else deadline - time.perf_counter()
                    this_cap: int | None = cap if left is None else min(cap, left)
                    if hooks.SEARCH == "depth" and hooks.ORDERS == 1:
                        # one order and no beam between: a pass with a larger cap would
                        # walk the same positions again first, so one pass, to the budget
                        this_cap = left
                    found = search(game, hooks, budget_s=left_s, max_nodes=this_cap)
                else:
                    # a beam's width bounds it: cut short, it would be wasted
                    if hooks.BEAM_FIT and deadline is not None and last_width:
                        left_s = deadline - time.perf_counter()
                        if last_s * (width / last_width) ** FIT_POWER > left_s:
                            grow = max(0.0, FIT_SHARE * left_s / max(last_s, 1e-6)) ** (
                                1 / FIT_POWER
                            )
                            width = int(last_width * grow)
                            if width < FIT_GAIN * last_width:
                                return done(Outcome(UNKNOWN, why="time"))
                    begun = time.perf_counter()
                    own = hooks.own_beam(game, width, deadline, left)
                    found = own or beam(game, hooks, width, deadline=deadline, max_nodes=left)
                    last_s = time.perf_counter() - begun
                    last_width = width
                nodes += found.nodes
                if found.verdict != UNKNOWN or found.why == "time":
                    return done(found)
            cap *= 2
            width *= hooks.BEAM_GROWTH
            k += 1
    finally:
        hooks.order = 0
