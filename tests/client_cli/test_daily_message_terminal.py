"""The daily's message line at 80 columns in the real terminal client: the ranked
attempt's greeting is two lines at 80 columns, and a board with no line free under it
(Light and Shade's, anchored top to bottom) had it cut to one, "...until [...]", or drawn
two lines long with the legal moves pushed off the screen."""

from __future__ import annotations

from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import Terminal
from .test_terminal import register, start


def test_the_daily_greeting_is_whole_at_80_columns_beside_a_board_that_fills_the_screen(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path / "ann", "daily", "light-and-shade")
    register(ann, "ann")
    ann.wait_for(r"Press Enter to start your ranked attempt \(q to leave\)")
    ann.type("")
    ann.wait_for(r"Light and Shade · daily \d{4}-\d\d-\d\d")
    ann.settle()
    shown = " ".join(ann.text.split())
    said = (
        "Today's deal, your one ranked attempt: its clock runs on the server until it ends. "
        "Streak 0 (best 0), any game 0 (best 0)."
    )
    assert said in shown, ann.text
    assert "[...]" not in shown
    assert "legal: " in ann.text, ann.text
    ann.type("q")
    assert ann.exit_code() == 0


def test_q_at_the_ranked_attempts_prompt_leaves_at_once(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """ "Press Enter to start your ranked attempt (q to leave)": q leaves at once, as q
    acts elsewhere (an outside tester's q waited for Enter, echoed in the line)."""
    ann = start(terminals, server_process, tmp_path / "ann", "daily", "gate")
    register(ann, "ann")
    ann.wait_for(r"Press Enter to start your ranked attempt \(q to leave\)")
    ann.type("q", enter=False)
    ann.wait_for(r"Nothing was started: your ranked attempt at The Gate is still yours today")
    assert ann.exit_code() == 0
