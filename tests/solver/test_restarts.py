"""Restarts with several move orders (``Hooks.ORDERS``): the same verdicts, lost still a
proof, and the slow deals of The Gate with bars of three found in time."""

from __future__ import annotations

from typing import ClassVar

from server.engine import Game, Move, new_game
from server.solver import Hooks, check_line
from server.solver.games.gate import GateHooks
from server.solver.portfolio import run
from server.solver.search import search


class Reversed(Hooks):
    """Two orders: the engine's, and the engine's backwards."""

    ORDERS: ClassVar[int] = 2
    NAME: ClassVar[str] = "reversed"
    SEARCH: ClassVar[str] = "depth"  # restarts of depth first alone

    def __init__(self) -> None:
        self.orders_used: set[int] = set()

    def expand(self, game: Game) -> list[Move]:
        self.orders_used.add(self.order)
        moves = game.legal_moves()
        return moves[::-1] if self.order == 1 else moves


def test_restarts_give_the_verdicts_of_one_pass() -> None:
    hooks = Reversed()
    seen = set()
    for seed in range(120):
        game = new_game("doubles-and-quits", seed=seed)
        once = search(game, Hooks())
        # a first pass of 5 positions forces several restarts on most deals
        again = run(game, hooks, first_pass=5)
        assert again.verdict == once.verdict, seed
        if again.line:
            check_line("doubles-and-quits", again.line, seed=seed)
        seen.add(again.verdict)
        assert hooks.order == 0  # left as found
    assert seen == {"won", "lost"}
    assert hooks.orders_used == {0, 1}


def test_a_restarted_search_stops_at_its_budget() -> None:
    game = new_game("light-and-shade", seed=3)
    found = run(game, Reversed(), max_nodes=3_000, first_pass=100)
    assert (found.verdict, found.why) == ("unknown", "nodes")
    assert 3_000 <= found.nodes <= 3_000 + 10


def test_the_gate_with_bars_of_three_restarts_into_a_quick_win() -> None:
    # seed 3 takes the first order about 1.75 million positions; the second, a few
    game = new_game("gate-narrow", seed=3)
    assert search(game, GateHooks(), max_nodes=50_000).verdict == "unknown"
    found = run(game, GateHooks())
    assert found.verdict == "won" and found.nodes < 200_000
    check_line("gate-narrow", found.line, seed=3)
