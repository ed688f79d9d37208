"""The pace check: whether a game was played faster than people play.

A ranked result (a daily's, a race win's) is judged from its move log, each entry
stamped with the server's ms as it landed (``"{ms} {move}"``). The check counts the
player's **actions** (each a move or an undo they made) and the gap before each (the
first from the game's start), and says "faster than people play" when either:

- a **fast run**: :data:`RUN_LENGTH` actions in a row, each under :data:`FLOOR_MS` after
  the one before; or
- a **fast game**: over at least :data:`MEDIAN_MIN_ACTIONS` actions, the median gap
  is under :data:`MEDIAN_FLOOR_MS`; or
- a **fast stretch**: :data:`STRETCH` actions in a row (or, in a game of fewer whose
  ``home`` chains made as many moves, all of them from its start) taking less than
  :data:`FLOOR_MS` each on average. Gaps shared out
  unevenly (twelve of 5 ms among fourteen of 305, never ten fast in a row, the median
  305 ms) kept clear of the other two rules at 168 ms a move; and one ``home`` that won
  a Doubles and Quits daily 58 ms after its deal was one action, too few for either.

What is one action, not several:

- the moves one ``home`` request plays (the server plays each card home as a move of its
  own, stamped a few ms apart): the handler records each such chain (its first log
  index and how many moves; ``chains``), and the chain counts as its first move;
- an entry the same as the one before, under the floor after it: the same place
  clicked again (the stock) or a key held down (``u``, undo), which needs no new aim;
  never a pair (``4+5`` again is new cards: the table closed up under it);
- the rules' automatic steps (aces going out, a conveyor stepping) are no entries at all.

Hints, resignations and time-outs are no moves: they are not counted, and the gap to the
next action runs from the action before them.

Why these figures (``docs/leaderboards.md``, "Fair play: the pace policy"): a move in
the browser is a point and a click at least (the keystroke-level model's point is 1.1 s
on average, Fitts's law gives about 0.4 s at the fastest for a card a few card-widths
away, a click 0.1-0.2 s); in the terminal it is at least two keys (``1`` then Enter; the
fastest typists take 0.12 s a key) after reading which number; so no move that needs a
new aim comes under a quarter of a second. People make a quick move or two after a
pause, not ten in a row; ten under the floor is 2.5 s of play faster than two keystrokes
a move. A median gap under 0.3 s means most of a game's moves came faster than one
aimed click. The issue's script made 110 Gate moves in 21 s, 0.19 s a move; the person
below it took 58 s.

>>> fast = check([(100 * n, f"m{n}") for n in range(1, 31)], 0)
>>> fast.fast, fast.figures["run"], fast.figures["actions"]
(True, 30, 30)
>>> slow = check([(800 * n, f"m{n}") for n in range(1, 31)], 0)
>>> slow.fast, slow.figures["median_gap_ms"], slow.why
(False, 800, [])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .games import HINT, RESIGN, TIMEOUT_ENTRY

#: an action this soon after the one before is faster than an aimed move (ms)
FLOOR_MS = 250
#: this many actions in a row under the floor: a fast run
RUN_LENGTH = 10
#: a median gap under this over a whole game (ms) ...
MEDIAN_FLOOR_MS = 300
#: ... of at least this many actions: a fast game
MEDIAN_MIN_ACTIONS = 20
#: the stretch whose speed the figures give (actions a second at the fastest)
STRETCH = 10

#: log entries that are no move of the player's
NO_MOVES = frozenset((HINT, RESIGN, TIMEOUT_ENTRY))


@dataclass(frozen=True)
class Pace:
    """What the check saw (``figures``, kept with a held result) and its verdict."""

    fast: bool
    figures: dict[str, Any] = field(default_factory=dict)
    #: the verdict in words (empty when not fast)
    why: list[str] = field(default_factory=list)

    def record(self) -> dict[str, Any]:
        """The check as a held result's record keeps it."""
        return {"fast": self.fast, "figures": self.figures, "why": self.why}


def gaps(
    log: Sequence[tuple[int, str]] | Sequence[list[Any]],
    start_ms: int,
    chains: Iterable[tuple[int, int]] = (),
) -> list[int]:
    """The gap before each of the player's actions, in ms (see the module's docstring).

    >>> gaps([(1000, "deal"), (1100, "deal"), (1150, "deal"), (2000, "t1>b2")], 0)
    [1000, 850]
    >>> gaps([(900, "l>f"), (905, "r>f"), (910, "t1>f"), (1900, "deal")], 0, [(0, 3)])
    [900, 990]
    >>> gaps([(500, "t1>b2"), (600, "!hint"), (1500, "deal")], 0)
    [500, 1000]
    """
    continued: set[int] = set()
    for first, count in chains:
        continued.update(range(first + 1, first + count))
    out: list[int] = []
    last_ms = start_ms
    last_entry: str | None = None
    for index, (at, entry) in enumerate(log):
        at = int(at)
        if entry in NO_MOVES:
            continue
        repeat = entry == last_entry and at - last_ms < FLOOR_MS and "+" not in entry
        if not (index in continued or repeat):
            out.append(max(0, at - last_ms))
        last_ms, last_entry = at, entry
    return out


def check(
    log: Sequence[tuple[int, str]] | Sequence[list[Any]],
    start_ms: int,
    chains: Iterable[tuple[int, int]] = (),
) -> Pace:
    """Judge a game's pace from its log (``(ms, entry)`` pairs, in order), its start
    (server ms) and its ``home`` chains (``(first log index, moves)``)."""
    spaced = gaps(log, start_ms, chains)
    run = best_run = run_ms = best_run_ms = 0
    for gap in spaced:
        if gap < FLOOR_MS:
            run += 1
            run_ms += gap
            if run > best_run:
                best_run, best_run_ms = run, run_ms
        else:
            run = run_ms = 0
    median = _median(spaced)
    stretch = None
    if len(spaced) >= STRETCH:
        stretch = min(sum(spaced[n : n + STRETCH]) for n in range(len(spaced) - STRETCH + 1))
    figures: dict[str, Any] = {
        "entries": sum(1 for _, entry in log if entry not in NO_MOVES),
        "actions": len(spaced),
        "time_ms": sum(spaced),
        "median_gap_ms": median,
        "run": best_run,
        "run_ms": best_run_ms,
        "fastest_stretch_ms": stretch,
        "fastest_per_s": None if stretch is None else round(STRETCH * 1000 / max(stretch, 1), 1),
        "floor_ms": FLOOR_MS,
        "run_length": RUN_LENGTH,
        "median_floor_ms": MEDIAN_FLOOR_MS,
    }
    why = []
    if best_run >= RUN_LENGTH:
        why.append(
            f"{best_run} actions in a row each under {FLOOR_MS / 1000:g} s "
            f"({best_run_ms / 1000:.2f} s in all)"
        )
    if median is not None and len(spaced) >= MEDIAN_MIN_ACTIONS and median < MEDIAN_FLOOR_MS:
        why.append(
            f"half the actions {median} ms or less each, over {len(spaced)} actions "
            f"(people: {MEDIAN_FLOOR_MS / 1000:g} s at the very least)"
        )
    # the fastest stretch of STRETCH actions, or a shorter game whole whose actions played
    # as many moves (``home`` chains), under the floor on average (however its gaps are
    # shared out)
    actions, fastest = (STRETCH, stretch) if stretch is not None else (len(spaced), sum(spaced))
    enough = stretch is not None or figures["entries"] >= STRETCH
    if enough and actions and fastest < actions * FLOOR_MS and best_run < RUN_LENGTH:
        why.append(
            f"{actions} action{'' if actions == 1 else 's'} in {fastest / 1000:.2f} s "
            f"(people: {actions * FLOOR_MS / 1000:g} s at the very least)"
        )
    return Pace(bool(why), figures, why)


def _median(values: list[int]) -> int | None:
    """The median; of an even count, the lower of the two middle values, so that at least
    half the values are at most it (None: no values). (The mean of the two let a game of
    gaps of 40 and 600 ms in turn pass at 320 ms, half its actions at 40 ms.)

    >>> _median([5, 1, 3]), _median([4, 1, 3, 2]), _median([40, 600] * 52), _median([])
    (3, 2, 40, None)
    """
    if not values:
        return None
    ordered = sorted(values)
    return ordered[(len(ordered) - 1) // 2]


#: what the player is told of a result held for review
HELD = "held for review"


def held_note(why: list[str]) -> str:
    """The player's note on a held result.

    >>> held_note(["12 actions in a row each under 0.25 s (1.10 s in all)"])[:56]
    'held for review: played faster than people play (12 acti'
    """
    return (
        f"{HELD}: played faster than people play ({'; '.join(why)}). The result stands "
        "for you, and goes on the public boards if an operator clears it."
    )
