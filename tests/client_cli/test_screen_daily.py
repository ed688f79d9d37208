"""Whole screens of the daily challenge against golden text at 80x24: ranked and
practice, the greeting, the clock from the server's start, the result line and its
commitment, par, the question before another game's ranked clock starts, and why a
ranked attempt was lost."""

from __future__ import annotations

import re
from typing import Any

import pytest

from client_cli.clicks import Hit
from client_cli.daily_screen import par_line
from client_cli.difficulty import difficulty_of
from client_cli.endings import daily_greeting, daily_question, end_note
from client_cli.lines import plain
from client_cli.model import Game, Lost, Model
from client_cli.screen import game_line, render_screen
from server.engine import new_game

from .conftest import check_golden
from .test_screen import NOW, ROWS, WIDTH, screen
from .views import GAME_IDS, GAME_LIST, played, snapshot

# -- the daily challenge -----------------------------------------------------------------

DAY_RESET = NOW + 13 * 3_600_000 + 2 * 60_000 + 11_000


def daily(game: Any, *, ranked: bool = True, ascii: bool = False) -> Model:
    """A daily challenge's game, as the ``daily`` reply opens it."""
    model = Model(server="ws://127.0.0.1:8765", me="ann", ascii=ascii)
    model.set_games(GAME_LIST)
    kind = "daily" if ranked else "practice"
    model.set_daily(
        {
            **snapshot(game, kind=kind),
            "day": "2026-11-22",
            "ranked": ranked,
            "note": None
            if ranked
            else "practice: your ranked attempt today has ended; this one is not ranked",
            "reset_at": DAY_RESET,
            "reset_in_ms": DAY_RESET - NOW,
            "streak": {"game": {"current": 2, "best": 5}, "all": {"current": 3, "best": 7}},
        },
        NOW - 75_000,
    )
    return model


def test_daily_ranked() -> None:
    model = daily(played("gate", seed=5, moves=25))
    model.say("Today's deal, your one ranked attempt: its clock runs on the server.", "info")
    shown = screen(model)
    check_golden("screen-daily-gate", shown)
    first, second = shown.splitlines()[:2]
    assert "The Gate · daily 2026-11-22 · 1:15" in first
    assert second.endswith("streak 2 · next deal in 13:02:11")


def test_the_daily_greeting_is_whole_where_the_board_leaves_no_line_free() -> None:
    """Light and Shade's board, anchored top to bottom, leaves no line under it at 80x24:
    the greeting, two lines long, takes the legend's line (back with the next message).
    It was cut to one line, "...until [...]" (the streaks lost), or, with the mouse's
    hits asked for as the terminal asks, drawn whole with the legal moves cut off."""
    model = daily(new_game("light-and-shade", seed=2))
    model.say(*daily_greeting(model))
    said = (
        "Today's deal, your one ranked attempt: its clock runs on the server until it ends. "
        "Streak 2 (best 5), any game 3 (best 7)."
    )
    asked: list[list[Hit] | None] = [None, []]
    for hits in asked:
        lines = render_screen(model, WIDTH, ROWS, NOW, hits)
        shown = plain(lines)
        assert said in " ".join(shown.split()), shown
        assert len(lines) <= ROWS and shown.splitlines()[-2].startswith("legal: "), shown
        assert "auxiliaries" not in shown  # (the legend gave its line)
    # a short message leaves the legend where it was
    model.say("Practice, not ranked.", "warn")
    assert "a1-a4 auxiliaries" in screen(model)


def test_daily_practice_says_so() -> None:
    model = daily(new_game("nestor", seed=2), ranked=False)
    model.say("Practice: your ranked attempt today has ended; this one is not ranked.", "warn")
    shown = screen(model)
    check_golden("screen-daily-practice", shown)
    assert "Nestor · practice 2026-11-22" in shown.splitlines()[0]


def test_practice_shows_the_ranked_result() -> None:
    model = daily(new_game("nestor", seed=2), ranked=False)
    assert model.daily is not None
    model.set_daily({**snapshot(new_game("nestor", seed=2), kind="practice"),
                     "day": "2026-11-22", "ranked": False, "reset_at": DAY_RESET,
                     "ranked_result": LINE}, NOW - 75_000)  # fmt: skip
    shown = screen(model)
    check_golden("screen-daily-practice-ranked", shown)
    lines = shown.splitlines()
    ranked = " ranked: Patience Race · Doubles and Quits · 2026-11-22 · not won · 3 moves ·"
    assert lines[2] == ranked
    assert lines[3].strip() == "2/52 home"
    # a ranked attempt has no such line
    assert " ranked: " not in screen(daily(new_game("nestor", seed=2)))


def test_the_clock_counts_from_the_server_start() -> None:
    model = Model(server="ws://127.0.0.1:8765", me="ann")
    model.set_games(GAME_LIST)
    model.offset_ms = 5_000  # the server is 5 s ahead of us
    # started 2:05 ago: in server ms, 5 s ahead of ours
    model.set_solo({**snapshot(new_game("gate", seed=1)), "started_at": NOW + 5_000 - 125_000},
                   NOW)  # fmt: skip
    assert model.clock_from == NOW - 125_000
    assert "The Gate · solo · 2:05" in screen(model).splitlines()[0]
    model.set_solo({**snapshot(new_game("gate", seed=1)), "started_at": NOW + 60_000}, NOW)
    assert model.clock_from == NOW  # never in the future
    model.set_solo(snapshot(new_game("gate", seed=1)), NOW)  # an older server: from now
    assert model.clock_from == NOW


def test_a_game_over_shows_the_time_the_server_measured() -> None:
    """A game that ended before it was taken up shows the time from its start to its end
    as the server took them (it counted on to the moment it was looked at); a game ended
    here stops at the reply's ``finished_at``; an undone loss runs on."""
    model = Model(server="ws://127.0.0.1:8765", me="ann")
    model.set_games(GAME_LIST)
    model.offset_ms = 5_000
    game = new_game("gate", seed=1)
    over = {**snapshot(game), "status": "resigned", "legal": [],
            "started_at": NOW + 5_000 - 600_000, "finished_at": NOW + 5_000 - 502_000}  # fmt: skip
    model.set_solo(over, NOW)
    assert model.clock_to == NOW - 502_000
    assert "The Gate · solo · 1:38" in screen(model).splitlines()[0]
    model.set_solo({**snapshot(game), "started_at": NOW + 5_000 - 60_000}, NOW)
    model.apply_resigned({"game": model.game.gid if model.game else "", "status": "resigned",
                          "finished_at": NOW + 5_000 - 1_000}, NOW)  # fmt: skip
    assert model.clock_to == NOW - 1_000


LINE = "Patience Race · Doubles and Quits · 2026-11-22 · not won · 3 moves · 2/52 home"


def daily_over(ascii: bool = False) -> Model:
    model = daily(played("doubles-and-quits", seed=1, moves=3), ascii=ascii)
    assert model.game is not None
    model.apply_daily_result(
        {
            "type": "daily_result",
            "day": "2026-11-22",
            "game": model.game.gid,
            "rules": "doubles-and-quits",
            "status": "resigned",
            "rank": 2,
            "board": "daily/doubles-and-quits/2026-11-22",
            "streak": {"game": {"current": 0, "best": 5}, "all": {"current": 1, "best": 7}},
            "line": LINE,
        }
    )
    model.apply_resigned({"game": model.game.gid, "status": "resigned"}, NOW - 1_000)
    model.say("Your ranked attempt of 2026-11-22 is over (resigned): rank 2.", "good")
    return model


def test_daily_result_line() -> None:
    shown = screen(daily_over())
    check_golden("screen-daily-result", shown)
    # too long for one line of 80: broken after a separator, each piece whole
    assert "  Patience Race · Doubles and Quits · 2026-11-22 · not won · 3 moves ·\n" in shown
    assert "\n  2/52 home\n" in shown
    text = screen(daily_over(ascii=True))
    assert text.isascii() and "Patience Race . Doubles and Quits" in text


def test_a_daily_the_reset_ended_says_its_time_ran_out() -> None:
    """A ranked attempt still open at the day's reset ends as ``timeout``: the screen and
    its message say it in words (the game line read "TIMEOUT")."""
    model = daily(played("gate", seed=5, moves=25))
    assert model.game is not None
    model.game.status = "timeout"
    assert "TIME RAN OUT" in screen(model).splitlines()[1]
    assert end_note(model) == ("The game is over: time ran out, 0/52 home. n deals again.", "info")
    model.apply_daily_result(
        {"day": "2026-11-22", "game": model.game.gid, "status": "timeout", "rank": 7,
         "line": LINE}
    )  # fmt: skip
    # (the reset timed it out: the day is over, and named)
    assert "The 2026-11-22 daily challenge is done: time ran out, rank 7" in screen(model)
    said = ("Your ranked attempt of 2026-11-22 is over (time ran out): rank 7.", "good")
    assert end_note(model) == said
    assert "timeout" not in screen(model).lower()


def test_the_daily_result_shows_the_deals_commitment() -> None:
    """Short, with where the commitments are published (docs/commitments.md)."""
    model = daily_over()
    assert model.daily is not None
    model.daily["commitment"] = "3f2a9c0e1b7d" + "0" * 52
    model.server = "wss://race.example.org"
    shown = screen(model)
    lines = shown.splitlines()
    at = lines.index("  The deal:  committed ahead, 3f2a9c0e1b7d")
    assert lines[at + 1] == "             https://race.example.org/daily/commitments"
    # in the column of the lines above it (it stood two further right)
    board = next(line for line in lines if line.startswith("  The board: "))
    assert board.index("patience-race") == lines[at].index("committed")


def test_a_result_for_another_game_is_not_shown() -> None:
    model = daily(new_game("gate", seed=1))
    model.apply_daily_result({"type": "daily_result", "game": "ffffffffffffffff", "line": LINE})
    assert model.daily_result is None


def test_a_daily_won_says_its_moves_against_par() -> None:
    """A ranked daily won in fewer moves than par says it beat par (a par only found, not
    proved: the player found a shorter line than the solver); it said par alone."""
    game = Game.from_message(snapshot(new_game("gate", seed=1)))
    game.status = "won"
    game.view = {**game.view, "moves": 102}
    result = {"par": 110, "par_shortest": False}
    assert plain(par_line(result, game)).splitlines() == [
        "  The day's par 110 (shortest found).",
        "  You beat par by 8 moves: a shorter line than the solver found.",
    ]
    game.view = {**game.view, "moves": 112}
    assert plain(par_line(result, game)).splitlines()[1] == "  2 moves over par."
    game.status = "resigned"
    assert plain(par_line(result, game)) == "  The day's par 110 (shortest found)."


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_new_games_question_over_a_daily_is_whole_at_80x24(game_id: str) -> None:
    """``new GAME`` over a daily asks before another game's ranked clock starts, with
    the day's difficulty (docs/client.md): five lines at 80 columns, it was cut to two
    ("...on the day's [...]"). It takes the legend's line and the board's last, and the
    board has them back with the answer."""
    model = daily(played(game_id, seed=3, moves=6), ranked=False)
    graded = difficulty_of({"grade": "expert", "board_wins": 10, "tries": 12,
                            "line_wins": 12, "searches": 12, "home_pct": 100})  # fmt: skip
    question = daily_question("The Blockade (rows of ten)", graded)
    before = screen(model)
    model.confirm = "daily"
    model.say(question, "warn")
    asked_for: list[list[Hit] | None] = [None, []]
    for hits in asked_for:
        lines = render_screen(model, WIDTH, ROWS, NOW, hits)
        shown = plain(lines)
        assert question in " ".join(shown.split()), shown
        assert len(lines) == ROWS and "Enter or y: start" in shown.splitlines()[-1], shown
        asked = next(n for n, line in enumerate(shown.splitlines()) if "Start today's" in line)
        assert all(hit.line < asked for hit in hits or []), shown  # (no click on words)
    model.confirm = None
    model.say("", "info")
    assert screen(model) == before


def test_a_lost_ranked_daily_says_why_it_was_lost() -> None:
    """The ranked attempt's end named its rank but not why the game was lost (the
    browser's says: "No pair is left to take off ...")."""
    model = daily(played("gate", seed=5, moves=25))
    assert model.game is not None
    model.game.status = "lost"
    model.game.lost = Lost("No move is left and the stock is out.", 9, 52, "cards", False)
    model.apply_daily_result(
        {"day": "2026-11-22", "game": model.game.gid, "status": "lost", "rank": 4,
         "line": LINE}
    )  # fmt: skip
    assert end_note(model) == (
        "Your ranked attempt of 2026-11-22 is over (lost: no move is left and the stock is "
        "out): rank 4.",
        "good",
    )


@pytest.mark.parametrize("over", [False, True])
def test_the_game_lines_countdown_is_never_cut_at_60_columns(over: bool) -> None:
    """Probe A2, fault 5: at 60 columns a won Nestor daily's game line read ``... | WON |
    streak 1 | next deal in.``, the time itself cut off (and a game still played lost
    its seconds). The countdown shows whole, in fewer words where that fits, or not at
    all (the result under a game over gives it), never cut."""
    game = new_game("nestor", seed=2)
    model = daily(game, ascii=True)
    assert model.game is not None
    model.game.view = {**model.game.view, "home": 52 if over else 24, "moves": 30}
    if over:
        model.game.status = "won"
    line = game_line(model, 60, NOW).plain
    assert len(line) <= 60, line
    assert "streak 2" in line, line
    if not over:  # (room for the time, in fewer words)
        assert line.endswith(" 13:02:11"), line
    assert re.search(r"(next )?deal in 13:02:11$", line) or "deal" not in line, line
