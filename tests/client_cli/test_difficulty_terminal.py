"""A daily deal's difficulty in the real terminal client (docs/client.md): today's deal
graded, ``patience-race daily GAME`` says how hard it is before the ranked clock starts,
and the title line names the grade while it is played."""

from __future__ import annotations

import re
from pathlib import Path

from tests.app.conftest import ServerProcess
from tests.app.test_difficulty import graded_today

from .terminal import Terminal
from .test_terminal import register, start

GAME = "doubles-and-quits"


def test_the_daily_says_how_hard_its_deal_is(
    redis_url: str, tmp_path: Path, terminals: list[Terminal]
) -> None:
    secret = "difficulty-secret"
    shown = graded_today(redis_url, secret, GAME)
    server = ServerProcess(redis_url, tmp_path, PATIENCE_SECRET=secret)
    server.start()
    try:
        ann = start(terminals, server, tmp_path / "ann", "daily", GAME)
        register(ann, "ann")
        how_far = (
            # (Doubles and Quits takes cards off in pairs: nothing goes home there)
            f", {shown['home_pct']}% of the cards paired off on average"
            if shown["board_wins"] < shown["tries"]
            else ""
        )
        said = (
            f"Difficulty: {shown['grade']} for this game (the hint engine, seeing only the"
            f" board, won {shown['board_wins']} of {shown['tries']} tries{how_far};"
            f" {shown['line_wins']} of {shown['searches']} short solver searches found a win)."
        )
        ann.wait_for(r"\s+".join(re.escape(word) for word in said.split()))
        ann.wait_for(r"Press Enter to start your ranked attempt \(q to leave\)")
        ann.type("")
        ann.wait_for(rf"Doubles and Quits · daily \d{{4}}-\d\d-\d\d · {shown['grade']} · ")
        ann.type("q")
        assert ann.exit_code() == 0
    finally:
        server.stop()


def test_new_game_asks_its_whole_question_over_a_daily_at_80x24(
    redis_url: str, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``new GAME`` over another game's daily (its practice over) asks before the ranked
    clock starts, with the difficulty (docs/client.md): at 80x24 the question was cut to
    two lines ending "[...]" over the board, and the difficulty never seen before Enter."""
    secret = "difficulty-secret"
    shown = graded_today(redis_url, secret, GAME)
    server = ServerProcess(redis_url, tmp_path, PATIENCE_SECRET=secret)
    server.start()
    try:
        ann = start(terminals, server, tmp_path / "ann", "daily", "gate")
        register(ann, "ann")
        ann.wait_for(r"Press Enter to start your ranked attempt \(q to leave\)")
        ann.type("")
        ann.wait_for(r"The Gate · daily ")
        ann.type("resign")
        ann.wait_for(r"Resign today's ranked attempt\?")
        ann.type("y")
        ann.wait_for(r"n the same deal again \(practice\)")
        ann.type("n")
        ann.wait_for(r"The Gate · practice ")
        ann.type("resign")  # the practice over too, as the tester had it
        ann.wait_for(r"Resign this practice\?")
        ann.type("y")
        ann.wait_for(r"RESIGNED")
        ann.type(f"new {GAME}")
        said = (
            "Start today's ranked Doubles and Quits? One attempt: its clock starts at the"
            " deal and runs on the server until the game ends, and it goes on the day's"
            f" board. Difficulty: {shown['grade']} for this game (the hint engine, seeing"
            f" only the board, won {shown['board_wins']} of {shown['tries']} tries"
        )
        ann.wait_for(r"Enter or y: start the ranked attempt")
        text = " ".join(ann.text.split())
        assert said in text and "solver searches found a win)." in text, ann.text
        assert "[...]" not in ann.text
        ann.type("n")  # not now: the practice's board again
        ann.wait_for(r"The Gate · practice ")
        ann.type("q")
        assert ann.exit_code() == 0
    finally:
        server.stop()
