"""Stuck positions: whether any sequence of moves on the cards a player sees can get the
game on.

A position is *stuck* when no sequence of legal moves from it plays a card home, or
brings a face-down card into view (a deal, a turn of the reserve, a gap refilled from the
stock): whatever the player does from there only moves the cards in view among positions
they can reach anyway, round and round, or into a dead end. The server tells the player
(the ``stuck`` event) so that the client can offer to resign.

The check sees only what the player sees: it is given the player's view
(:meth:`Game.view`), never the game, and searches the position
:meth:`Game.from_view` builds from it, where each face-down card is a stand-in. A move
that takes a stand-in out would show the player a card they have not seen: the search
counts it as getting on and stops there, so the hidden cards, and their order, cannot
change the verdict.

The search is depth first over the positions reachable by legal moves, each position
once (by its key), and stops at the first move that gets on, with the line of moves
that reaches it (a certificate a test can play through the engine). It is bounded: at
most :data:`MAX_POSITIONS` positions and :data:`MAX_SECONDS` seconds for the whole
check, counted from the call (the view's rebuilding included). Past either bound the
answer is *not stuck* (``bound``): a stuck verdict is always a proof, never a guess.

The time bound holds (``bench/stuck.py``): the clock is looked at before each new
position's moves are listed, and every :data:`CLOCK_EVERY` moves tried, since listing a
position's moves is the dear step (a Blockade endgame has hundreds, up to half a
millisecond's worth) and one look every 64 positions let a 2 s search run to 2.15 s. Letting go of
what a search holds (each position's key, the moves still to try along the line, the
game's undo steps) is part of the check too, about 9 µs a position (0.14 s for 16,000),
so the search stops :data:`RELEASE_S` a position it holds ahead of its deadline. And
Python's cyclic garbage collector is paused while it searches: its passes over the many
keys and lists a search holds took a quarter of its time, up to 0.11 s at once between
two looks at the clock; what the search leaves has no cycles and is freed as it returns.

>>> from server.engine import new_game
>>> verdict = check(new_game("gate", seed=1).view())
>>> verdict.stuck, verdict.why
(False, 'progress')
"""

from __future__ import annotations

import gc
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from server.engine import GAMES, Game

#: the search's bounds: positions looked at, and seconds
MAX_POSITIONS: Final = 20_000
MAX_SECONDS: Final = 2.0
#: moves tried between two looks at the clock, besides the look before each new
#: position is expanded (a move tried whose position was seen costs a play, a key and
#: an undo: some microseconds)
CLOCK_EVERY: Final = 16
#: seconds set aside for each position held, to let go of it once the search returns
#: (measured about 9 µs; twice that leaves room for a slower or busier machine)
RELEASE_S: Final = 20e-6

#: why a verdict is what it is
STUCK: Final = "stuck"  # every reachable position searched: none gets on
PROGRESS: Final = "progress"  # a line of moves gets on (``line``)
BOUND: Final = "bound"  # the search ran past its bounds: not stuck, as far as it knows
OVER: Final = "over"  # every card is home

#: what a player is told, with the ``stuck`` event
REASON: Final = (
    "no way forward: no sequence of moves from here plays a card home or brings a "
    "face-down card into view"
)


@dataclass(frozen=True)
class Verdict:
    """The check's answer: ``stuck`` and why (:data:`STUCK`, :data:`PROGRESS`,
    :data:`BOUND`, :data:`OVER`), the positions searched, and with ``progress`` the line
    of moves that gets on (its last move does it)."""

    stuck: bool
    why: str
    positions: int
    line: tuple[str, ...] = ()


def check(
    view: Mapping[str, Any],
    max_positions: int = MAX_POSITIONS,
    max_seconds: float = MAX_SECONDS,
) -> Verdict:
    """Whether the position a player's ``view`` shows is stuck (see the module's
    docstring). Raises :class:`ValueError` for a view it cannot read."""
    deadline = time.perf_counter() + max_seconds
    info = GAMES.get(str(view.get("game")))
    if info is None:
        raise ValueError(f"a view of no game: {view.get('game')!r}")
    game = info.cls.from_view(view)
    if game.cards_home() == game.total:
        return Verdict(False, OVER, 0)
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _search(game, max_positions, deadline)
    finally:
        if collecting:
            gc.enable()


def _search(game: Game, max_positions: int, deadline: float) -> Verdict:
    home = game.cards_home()
    # the face-down piles and how many stand-ins each holds: a move that leaves fewer
    # took one out (cards a move itself puts face down, as Babette's redeal does, lie
    # above them, and dealing those again shows nothing new)
    floors = [(i, len(game.p[i])) for i in sorted(game.HIDDEN) if game.p[i]]
    seen = {game.key()}
    line: list[str] = []
    # the moves still to try from each position on the current line
    todo = [game.legal_moves()[::-1]]
    tried = 0
    while todo:
        moves = todo[-1]
        if not moves:
            todo.pop()
            if line:
                game.pop()
                line.pop()
            continue
        tried += 1
        if tried % CLOCK_EVERY == 0 and time.perf_counter() + len(seen) * RELEASE_S > deadline:
            return Verdict(False, BOUND, len(seen))
        move = moves.pop()
        game.play(move)
        line.append(move.text)
        if game.cards_home() != home or _took_stand_in(game, floors):
            return Verdict(False, PROGRESS, len(seen), tuple(line))
        key = game.key()
        if key in seen:
            game.pop()
            line.pop()
            continue
        # before the dear step, listing the new position's moves
        if len(seen) >= max_positions or time.perf_counter() + len(seen) * RELEASE_S > deadline:
            return Verdict(False, BOUND, len(seen))
        seen.add(key)
        todo.append(game.legal_moves()[::-1])
    return Verdict(True, STUCK, len(seen))


def _took_stand_in(game: Game, floors: list[tuple[int, int]]) -> bool:
    """Whether the move just played took a stand-in out of a face-down pile: it left
    fewer than the view counted, or (to be sure) the engine marks it as bringing hidden
    cards into view while stand-ins remain."""
    if not floors:
        return False
    p = game.p
    for pile, floor in floors:
        if len(p[pile]) < floor:
            return True
    return not game.can_undo()
