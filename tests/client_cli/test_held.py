"""A result the pace policy held (docs/leaderboards.md, "Fair play: the pace policy"),
as the terminal says it: the daily's result screen and a race's results, in words."""

from __future__ import annotations

from client_cli.lines import plain
from client_cli.results import results_table

from .test_screen import NOW, screen
from .test_screen_daily import LINE, daily
from .views import played

NOTE = (
    "held for review: played faster than people play (26 moves in a row each under 0.25 s "
    "(0.10 s in all)). The result stands for you, and goes on the public boards if an "
    "operator clears it"
)


def test_a_held_daily_result_says_so_and_gives_no_rank() -> None:
    model = daily(played("doubles-and-quits", seed=1, moves=3))
    assert model.game is not None
    model.apply_daily_result(
        {
            "type": "daily_result",
            "day": "2026-11-22",
            "game": model.game.gid,
            "rules": "doubles-and-quits",
            "status": "resigned",
            "rank": None,
            "board": "daily/doubles-and-quits/2026-11-22",
            "streak": {"game": {"current": 1, "best": 5}, "all": {"current": 1, "best": 7}},
            "review": {"state": "held", "note": NOTE},
            "line": LINE,
        }
    )
    model.apply_resigned({"game": model.game.gid, "status": "resigned"}, NOW - 1_000)
    shown = " ".join(screen(model).split())
    assert "Today's daily challenge is done: resigned, held for review." in shown
    assert "played faster than people play" in shown and "operator clears it" in shown
    assert "rank 0" not in shown


def test_a_held_race_win_says_so_in_the_results() -> None:
    model = daily(played("gate", seed=1, moves=3))
    model.room = {
        "race": 1,
        "results": [
            {"rank": 1, "player": "ann", "status": "won", "time_ms": 21_000, "moves": 110,
             "home": 52, "total": 52, "replay": "5c1f0e2a9b7d4463", "review": "held"},
            {"rank": 2, "player": "bob", "status": "resigned", "time_ms": None, "moves": 1,
             "home": 1, "total": 52, "replay": "0b1730c8b0bc93de"},
        ],
    }  # fmt: skip
    shown = plain(results_table(model, 100))
    assert "won (held for review)" in shown
    assert shown.count("held for review") == 1
