"""``league --watch``'s line on top counts down by the client's own clock, not only as
the server sends the standings again (probe W, fault 1: 38 s before the end the watch
still said "ends in 22m", drawn from its first reply)."""

from __future__ import annotations

from typing import Any

from rich.text import Text

from client_cli.league_watch import Watched, watch_view
from client_cli.printing import _render


def week(ends_in_ms: int) -> dict[str, Any]:
    reply: dict[str, Any] = {"week": "2026-W48", "joined": True, "current": True}
    reply |= {"closed": False, "tier": "bronze", "league": "bronze-1", "rank": 1}
    reply |= {"players": 1, "points": 0, "ends_in_ms": ends_in_ms, "movers": 0}
    reply |= {"rules": {"movers": 5}}
    reply["standings"] = [{"rank": 1, "name": "ann", "points": 0, "you": True}]
    return reply


def wake(watched: Watched, at: float) -> float:
    woken = watched.wake(at)
    assert woken is not None
    return woken


def top(watched: Watched, at: float) -> str:
    view = watch_view(watched, at, False, "patience-race league --join", Text("watching"))
    return _render(view, False, 120).plain.splitlines()[0]


def test_the_countdown_runs_by_the_local_clock_with_nothing_pushed() -> None:
    watched = Watched.first(week(22 * 60_000 + 20_000), at=100.0)
    assert top(watched, 100.0).endswith("· ends in 22m")
    assert top(watched, 100.0 + 21.0).endswith("· ends in 21m")
    # 38 s before the end (the one-shot ``league`` said so; the watch said "22m")
    assert top(watched, 100.0 + 22 * 60 + 20 - 38).endswith("· ends in under a minute")
    # woken when the words would change (the next minute), not only at the week's end
    assert 20.0 < wake(watched, 100.0) <= 20.1
    assert 59.9 < wake(watched, 100.0 + 20.1) <= 60.0
    # days and hours change by the hour: woken by the hour, not each minute
    far = Watched.first(week(2 * 86_400_000 + 3_600_000 + 90_000), at=0.0)
    assert top(far, 0.0).endswith("· ends in 2d 1h")
    assert 90.0 < wake(far, 0.0) <= 90.1
    assert top(far, 90.05).endswith("· ends in 2d 0h")
    # under a minute the words stay till the end: woken at the end
    near = Watched.first(week(50_000), at=0.0)
    assert wake(near, 0.0) == 50.0
    # a reply heard later sets the clock again
    watched.heard(week(10 * 60_000), 200.0)
    assert top(watched, 200.0).endswith("· ends in 10m")
    assert top(watched, 261.0).endswith("· ends in 8m")
