"""The budget holds while a beam sifts a stage's positions for dead ones: Light and
Shade's count of the Rivals takes about 25 ms a position, and deal 931's stages hold
thousands of them, so a sift that did not look at the clock ran a 10 s solve for minutes
(found by the 1,000-deal winnability run: one worker still searching deal 931 minutes
after its budget)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from server.solver import solve
from server.solver.games import light_and_shade_crowd

#: how long after the deadline a dead test may still start (one was under way, or the
#: machine paused the process between the clock's reading and the call)
SLACK_S = 1.0


def test_no_dead_test_starts_long_after_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    starts: list[float] = []
    counted = light_and_shade_crowd.never_home

    def never_home(*args: Any) -> list[int]:
        starts.append(time.perf_counter())
        return counted(*args)

    monkeypatch.setattr(light_and_shade_crowd, "never_home", never_home)
    budget = 10.0  # (the sift comes late in this deal: a shorter budget ends before it)
    began = time.perf_counter()
    result = solve("light-and-shade", seed=931, budget_s=budget)
    deadline = began + budget
    assert starts, "the deal's search asked no count of the Rivals: pick another deal"
    late = [round(t - deadline, 2) for t in starts if t > deadline + SLACK_S]
    assert late == [], f"{len(late)} counts started past the budget: {late[:5]}"
    assert result.verdict == "unknown"
