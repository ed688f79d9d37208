"""What the search may know of one game: how to key a position compactly, and which moves
to try in which order (and which to skip because another is always as good).

A game's own knowledge lives in its module in :mod:`server.solver.games`, named after the
game (``gate-narrow`` -> ``gate_narrow``), which sets ``HOOKS``; a game without one is
searched with the plain :class:`Hooks`: every legal move, in the engine's order.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, ClassVar

from server.engine import GAMES, Game, Move
from server.engine.cards import RANK
from server.engine.keys import packed_key

if TYPE_CHECKING:
    from .search import Outcome


class Hooks:
    """The plain search: every legal move, in the engine's order, and the default key.

    A subclass changes :meth:`expand` to order moves or to make a *dominance*: a move
    that is always at least as good as any other there, played without trying the rest.
    Every dominance must be safe (it never turns a winnable position into a lost one):
    say why in its docstring, and test it against the plain search on small cases, since
    an unsafe one turns the solver's ``lost`` from a proof into a guess.
    """

    #: a dominance, named in results, so a verdict says what it assumed
    NAME: ClassVar[str] = "plain"
    #: how many move orders :meth:`expand` offers (``order`` picks one): with more than
    #: one, the search restarts with the next order and a doubled cap
    #: (:func:`server.solver.portfolio.run`)
    ORDERS: ClassVar[int] = 1
    #: the move order in use now, 0 to ``ORDERS - 1``
    order: int = 0
    #: the most cards one move (and the automatic steps after it) sends home, leaving
    #: out ranks the rules send home by themselves (``AUTO_HOME``); 0 when not known
    HOME_PER_MOVE: ClassVar[int] = 0
    AUTO_HOME: ClassVar[frozenset[int]] = frozenset()
    #: the searches :func:`server.solver.solve` runs (:func:`server.solver.portfolio.run`):
    #: ``"both"`` depth first and the beam in turn, ``"depth"`` or ``"beam"`` alone
    SEARCH: ClassVar[str] = "both"
    #: the first beam's width (0: the portfolio's own, 16) and what each beam pass after
    #: it multiplies it by (:func:`server.solver.portfolio.run`)
    BEAM_WIDTH: ClassVar[int] = 0
    BEAM_GROWTH: ClassVar[int] = 2
    #: whether a beam pass that would not finish in the time left is narrowed to one that
    #: may (:func:`server.solver.portfolio.run`): a pass cut short finds nothing
    BEAM_FIT: ClassVar[bool] = False

    def key(self, game: Game) -> bytes:
        """The position as bytes (:func:`server.engine.keys.packed_key`): every pile but
        the foundations card by card (the stock too: a redeal can reorder it), each
        foundation by its height (its cards follow from it), and the counters. Moves made
        and the undo journal are not part of it."""
        return packed_key(game)

    def expand(self, game: Game) -> list[Move]:
        """The moves to try from here, the most promising first."""
        return game.legal_moves()

    def most_home(self) -> Hooks:
        """The hooks to search a position they prove lost with, for the line that gets
        the most cards home (a hint there: :mod:`server.solver.hints`): these, unless
        :meth:`expand` offers nothing from a position proved lost (The Labyrinth's)."""
        return self

    def is_stage(self, move: Move) -> bool:
        """Whether ``move`` ends a stage of the beam (:mod:`server.solver.beam`): a move
        that cannot be taken back, after which the game goes on from new cards."""
        return move.text in _STAGE_MOVES

    def lower_bound(self, game: Game) -> int:
        """At least how many moves are still needed to win from here (never more than the
        truth: :func:`server.solver.shortest.best_first` relies on it). With
        ``HOME_PER_MOVE`` set, the cards not home that the rules do not send home by
        themselves (ranks in ``AUTO_HOME``), that many to a move; else 0."""
        per = self.HOME_PER_MOVE
        if not per:
            return 0
        home = game.HOME
        auto = self.AUTO_HOME
        left = 0
        for i, pile in enumerate(game.p):
            if i not in home:
                for card in pile:
                    if RANK[card % 52] not in auto:
                        left += 1
        return -(-left // per)

    def stage_score(self, game: Game, move: Move) -> float | None:
        """The :meth:`score` of the position after the stage move ``move``, told without
        playing it, or None (the beam then plays it, keys and scores the position). Hooks
        that tell it promise that two positions with different keys stay different after
        ``move``, so the beam may know the position after it by the key before."""
        return None

    def dead(self, game: Game) -> bool:
        """Whether the position is proved lost (no line from it wins), by a cheap argument
        of the game's own; False when it cannot tell. The beam leaves out the positions it
        keeps that are dead without counting them as dropped, so every True must be a
        proof (say why in the docstring, and test it)."""
        return False

    def score(self, game: Game) -> float:
        """How promising the position is, higher better, for the beam to keep the best:
        here, the cards home."""
        return float(game.cards_home())

    def own_beam(
        self, game: Game, width: int, deadline: float | None, max_nodes: int | None
    ) -> Outcome | None:
        """One beam pass of the game's own, faster than :func:`server.solver.beam.beam`
        with these hooks and keeping the same positions (so the same verdict), or None
        (the default) for that generic beam."""
        return None


_STAGE_MOVES = frozenset(("deal", "redeal"))


def _module_name(game_id: str) -> str:
    return game_id.replace("-", "_")


def hooks_for(game_id: str) -> Hooks:
    """The hooks of ``game_id``: its module's ``HOOKS``, or the plain search."""
    if game_id not in GAMES:
        raise ValueError(f"no such game: {game_id!r} (games: {', '.join(GAMES)})")
    try:
        module = importlib.import_module(f"server.solver.games.{_module_name(game_id)}")
    except ModuleNotFoundError as exc:
        if exc.name != f"server.solver.games.{_module_name(game_id)}":
            raise
        return Hooks()
    hooks = module.HOOKS
    assert isinstance(hooks, Hooks)
    return hooks
