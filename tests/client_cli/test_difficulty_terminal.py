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
            f", {shown['home_pct']}% of the cards home on average"
            if shown["board_wins"] < shown["tries"]
            else ""
        )
        said = (
            f"Difficulty: {shown['grade']} for this game (the hint engine, seeing only the"
            f" board, won {shown['board_wins']} of {shown['tries']} tries{how_far};"
            f" {shown['line_wins']} of {shown['searches']} solver searches found a win)."
        )
        ann.wait_for(r"\s+".join(re.escape(word) for word in said.split()))
        ann.wait_for(r"Press Enter to start your ranked attempt \(q to leave\)")
        ann.type("")
        ann.wait_for(rf"Doubles and Quits · daily \d{{4}}-\d\d-\d\d · {shown['grade']} · ")
        ann.type("q")
        assert ann.exit_code() == 0
    finally:
        server.stop()
