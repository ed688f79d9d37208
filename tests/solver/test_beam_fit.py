"""A beam pass sized to the time left (``Hooks.BEAM_FIT``): a pass that would outrun the
budget is narrowed to one that may finish, and the solve stops when that is no wider than
the pass before; without the flag the passes grow as before. The passes here are fakes
whose cost, on a fake clock, grows with their width."""

from __future__ import annotations

from typing import ClassVar

import pytest

from server.engine import Game, new_game
from server.solver import Hooks, portfolio
from server.solver.games.light_and_shade import LightAndShadeHooks
from server.solver.search import UNKNOWN, WON, Outcome


class Clock:
    """A clock that moves only when a fake pass runs."""

    def __init__(self) -> None:
        self.now = 100.0

    def perf_counter(self) -> float:
        return self.now


class Passes(Hooks):
    """Beam passes that find nothing and cost ``COST`` seconds a unit of width (a pass
    past the deadline stops there, as a beam does), or win at ``WINS`` or wider."""

    SEARCH: ClassVar[str] = "beam"
    BEAM_WIDTH: ClassVar[int] = 64
    BEAM_GROWTH: ClassVar[int] = 4
    BEAM_FIT: ClassVar[bool] = True
    COST: ClassVar[float] = 0.002
    WINS: ClassVar[int] = 1 << 30

    def __init__(self, clock: Clock) -> None:
        super().__init__()
        self.clock = clock
        self.widths: list[int] = []

    def own_beam(
        self, game: Game, width: int, deadline: float | None, max_nodes: int | None
    ) -> Outcome | None:
        self.widths.append(width)
        self.clock.now += self.COST * width
        if deadline is not None and self.clock.now > deadline:
            self.clock.now = deadline
            return Outcome(UNKNOWN, [], 1, 0.0, "time")
        if width >= self.WINS:
            return Outcome(WON, ["deal"], 1, 0.0)
        return Outcome(UNKNOWN, [], 1, 0.0, "beam")


class Unfitted(Passes):
    BEAM_FIT: ClassVar[bool] = False


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(portfolio, "time", fake)
    return fake


def test_a_pass_that_would_outrun_the_budget_is_narrowed(clock: Clock) -> None:
    game = new_game("light-and-shade", seed=0)
    hooks = Passes(clock)
    found = portfolio.run(game, hooks, budget_s=10)
    # 64, 256 and 1,024 take 2.7 s; 4,096 would take about 11.6 s by the last pass's time
    # (to the power 1.25): narrowed to what takes 90% of the 7.3 s left
    assert hooks.widths[:3] == [64, 256, 1024]
    assert len(hooks.widths) == 4
    assert 1024 < hooks.widths[3] < 4096
    assert hooks.widths[3] * hooks.COST < 10 - 2.7
    # the next would not be 1.25 times as wide as that one: the solve stops before its
    # budget
    assert found.verdict == UNKNOWN and found.why == "time"
    assert clock.now < 100 + 10


def test_a_narrowed_pass_that_wins_is_a_win(clock: Clock) -> None:
    class Wins(Passes):
        WINS: ClassVar[int] = 2048

    hooks = Wins(clock)
    found = portfolio.run(new_game("light-and-shade", seed=0), hooks, budget_s=10)
    assert found.verdict == WON
    assert hooks.widths[-1] >= 2048


def test_without_the_flag_the_passes_grow_as_before(clock: Clock) -> None:
    hooks = Unfitted(clock)
    found = portfolio.run(new_game("light-and-shade", seed=0), hooks, budget_s=10)
    assert hooks.widths == [64, 256, 1024, 4096]
    assert found.verdict == UNKNOWN and found.why == "time"


def test_a_pass_that_fits_is_not_narrowed(clock: Clock) -> None:
    class Cheap(Passes):
        COST: ClassVar[float] = 0.0001

    hooks = Cheap(clock)
    portfolio.run(new_game("light-and-shade", seed=0), hooks, budget_s=10)
    # 64 to 16,384 fit whole (16,384 takes 1.6 s); 65,536 would not
    assert hooks.widths[:5] == [64, 256, 1024, 4096, 16384]
    assert 16384 < hooks.widths[5] < 65536


def test_light_and_shade_fits_its_passes() -> None:
    assert LightAndShadeHooks.BEAM_FIT
    assert not Hooks.BEAM_FIT
