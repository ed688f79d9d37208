"""At 60 columns, words the docs say wrap are wrapped, never cut with ``…``: a
challenge's table (its ghost's row read ``ann  resig…`` / ``(ghos…``, the table 60 wide
where its columns two cells apart had room), the daily result's streak line ("... 0 at
any game (best 0…"), and the challenge countdown's line saying what is raced ("...:
resigned, 0/52 home…"). And a rank stays with its number ("...: rank" / "2.")."""

from __future__ import annotations

from client_cli.challenge import result_words, table
from client_cli.lines import lines_of, plain
from client_cli.model import Model
from client_cli.screen import render_screen

from .test_challenge import SHOWN, START, TAKEN, taken
from .test_screen import NOW
from .test_screen_daily import daily_over

ROWS = 19  # (60x20: the input line takes one)
GHOST = {"rank": 1, "player": "ann", "ghost": True, "status": "resigned", "time_ms": None,
         "moves": 0, "home": 0, "total": 52, "replay": "32f94c186b3aadc9"}  # fmt: skip


def test_a_challenges_table_keeps_its_words_at_60_columns() -> None:
    for entries in ([GHOST], [GHOST, {**GHOST, "rank": 2, "player": "bob", "ghost": False}]):
        for width in (58, 60):
            rows = [line.plain for line in lines_of(table(entries, "bob"), width)]
            text = "\n".join(rows)
            assert "…" not in text and "resigned" in text and "(ghost)" in text, text
            assert "32f94c186b3aadc9" in text and all(len(r) <= width for r in rows), text


def test_the_daily_results_streak_line_wraps_at_60_columns() -> None:
    model = daily_over()
    assert model.daily is not None and model.daily_result is not None
    streak = {"game": {"current": 0, "best": 0}, "all": {"current": 0, "best": 10}}
    model.daily_result["streak"] = model.daily["streak"] = streak
    for now in (NOW, NOW + 86_400_000):  # (and its day over)
        shown = plain(render_screen(model, 60, ROWS, now))
        assert "…" not in shown, shown
        assert "0 at any game (best 10)." in " ".join(shown.split()), shown
        # (the message's rank whole on its line: it read "...: rank" / "2.")
        assert any(line.endswith("rank 2.") for line in shown.splitlines()), shown


def test_the_challenge_countdown_says_what_is_raced_whole_at_60_columns() -> None:
    model: Model = taken()
    resigned = {**SHOWN["result"], "status": "resigned", "time_ms": None, "moves": 0, "home": 0}
    long = {**SHOWN, "player": "catherine_of_aragon", "result": resigned}
    model.take_challenge({**TAKEN, "challenge": long}, START - 3_000)
    shown = plain(render_screen(model, 60, ROWS, START - 2_400))
    assert "…" not in shown, shown
    said = f"catherine_of_aragon's game of The Gate (a solo game): {result_words(resigned)}"
    assert said in " ".join(shown.split()), shown
