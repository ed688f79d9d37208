"""The beam (``server/solver/beam.py``) and the searches a solve runs in turn
(``server/solver/portfolio.py``): wins checked, ``lost`` only when nothing was dropped,
the game left as found."""

from __future__ import annotations

from typing import ClassVar

from server.engine import Game, new_game
from server.solver import check_line, hooks_for
from server.solver.beam import beam
from server.solver.hooks import Hooks
from server.solver.portfolio import run
from server.solver.search import search

#: Wedge deals the depth-first search proves lost in under 100 positions: so small a
#: space that a beam can keep all of it
WEDGE_LOST = (3, 160, 476, 485, 586, 809, 846, 956)


class WorstFirst(Hooks):
    """Keeps the positions with the fewest cards home: a beam that drops the good lines."""

    NAME: ClassVar[str] = "worst first"

    def score(self, game: Game) -> float:
        return -float(game.cards_home())


def test_a_beam_says_lost_only_when_it_dropped_nothing() -> None:
    hooks = hooks_for("wedge")
    dropped = 0
    for seed in WEDGE_LOST:
        game = new_game("wedge", seed=seed)
        assert search(game, hooks).verdict == "lost", seed
        # wide enough to keep everything: the beam searched the whole space, a proof
        assert beam(game, hooks, width=10**9).verdict == "lost", seed
        # one position a stage, and the worst: whatever it dropped might have won
        narrow = beam(game, WorstFirst(), width=1)
        assert narrow.verdict in ("lost", "unknown"), seed
        if narrow.verdict == "unknown":
            assert narrow.why == "beam"
            dropped += 1
    assert dropped >= 4


def test_the_beam_wins_light_and_shade_where_depth_first_does_not() -> None:
    game = new_game("light-and-shade", seed=2)
    hooks = hooks_for("light-and-shade")
    before = (game.key(), game.moves)
    assert search(game, hooks, max_nodes=100_000).verdict == "unknown"
    found = beam(game, hooks, width=16)
    assert found.verdict == "won"
    check_line("light-and-shade", found.line, seed=2)
    assert (game.key(), game.moves) == before  # left as found


def test_the_beam_stops_at_its_budget() -> None:
    game = new_game("light-and-shade", seed=6)
    found = beam(game, hooks_for("light-and-shade"), width=64, max_nodes=5_000)
    assert (found.verdict, found.why) == ("unknown", "nodes")
    assert 5_000 <= found.nodes <= 5_000 + 256
    found = beam(game, hooks_for("light-and-shade"), width=64, deadline=0.0)
    assert (found.verdict, found.why) == ("unknown", "time")


def test_a_solve_takes_the_beam_after_depth_first_on_babette() -> None:
    # Babette's deal 64: depth first's first pass of 20,000 positions does not win it,
    # the beam after it does
    game = new_game("babette", seed=64)
    hooks = hooks_for("babette")
    assert search(game, hooks, max_nodes=20_000).verdict == "unknown"
    found = run(game, hooks, budget_s=60)
    assert found.verdict == "won" and found.nodes < 100_000
    check_line("babette", found.line, seed=64)


def test_depth_alone_never_runs_the_beam() -> None:
    class DepthOnly(Hooks):
        SEARCH: ClassVar[str] = "depth"
        scored = 0

        def score(self, game: Game) -> float:
            DepthOnly.scored += 1
            return 0.0

    game = new_game("light-and-shade", seed=6)
    found = run(game, DepthOnly(), max_nodes=50_000, first_pass=1_000)
    assert (found.verdict, found.why) == ("unknown", "nodes")
    assert DepthOnly.scored == 0
    both = type("Both", (DepthOnly,), {"SEARCH": "both"})
    run(game, both(), max_nodes=50_000, first_pass=1_000)
    assert DepthOnly.scored > 0
