"""The budget holds while a beam sifts a stage's positions for dead ones: Light and
Shade's count of the Rivals takes about 25 ms a position and a wide stage holds
thousands, so a sift that did not look at the clock ran a 10 s solve of deal 931 for
530 s (found by the 1,000-deal winnability run). Here the first dead test of a sift
takes the search past its deadline: no other may follow it. (The test's dead test says
every position is lost, so a sift of a one-wide beam goes on to the next position.
Light and Shade's compact beam has the same check, not tested here: its walk asks the
dead test too, so a dead test that says every position is lost ends its search.)"""

from __future__ import annotations

import time

import pytest

from server.engine import Game
from server.solver.beam import beam
from server.solver.games.light_and_shade import LightAndShadeHooks
from tests.solver.test_light_and_shade_dead import near_the_end


@pytest.fixture(scope="module")
def alive() -> list[Game]:
    """Positions near the end of real deals (12 stock cards or fewer) that no proof calls
    lost: the beam sifts their stages, asking each position's dead test."""
    positions = near_the_end()[1]
    assert positions
    return positions


def past(deadline: float) -> None:
    time.sleep(max(0.0, deadline - time.perf_counter()) + 0.01)


def test_the_generic_beam_stops_sifting_at_its_deadline(alive: list[Game]) -> None:
    asked: list[float] = []
    deadline = time.perf_counter() + 3600.0

    class Slow(LightAndShadeHooks):
        def dead(self, game: Game) -> bool:
            asked.append(time.perf_counter())
            past(deadline)  # (a dead test that takes the search past its budget)
            return True  # (so the sift goes on to the next position)

    for position in alive:
        asked.clear()
        deadline = time.perf_counter() + 0.2
        outcome = beam(position, Slow(), 1, deadline=deadline)
        if asked:
            assert len(asked) == 1, f"{len(asked)} dead tests, the last past the budget"
            assert outcome.why == "time", outcome
            return
    pytest.fail("no position's stage was sifted")
