"""A challenge's verdict in a pseudo-terminal of 80 and of 60 columns, against a real
server and Redis: the lines under the race (the verdict, both results, the replays'
commands) wrap between words and show whole, where they were cut with an ellipsis at the
screen's edge (a challenger of a long name ran the results line past 80 columns)."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.engine import new_game
from tests.app.conftest import ServerProcess
from tests.solver.positions import HOME

from .terminal import LEGAL, Terminal, flat
from .test_challenge_terminal import LINK
from .test_terminal import register, start

#: a name of the longest a name may be, 20
LONG = "Annabel_Fairweather1"


def made(terminals: list[Terminal], server: ServerProcess, config: Path) -> str:
    """LONG plays a Gate deal where ``home`` plays two cards, resigns, and makes it a
    challenge: its id."""
    home = HOME["gate"]
    ann = start(terminals, server, config, "play", "gate", "--seed", str(home.seed))
    register(ann, LONG)
    ann.wait_for(LEGAL)
    ann.type("home")
    ann.wait_for(r"moves 2")
    ann.type("resign")
    ann.wait_for(r"Resign this game\?")
    ann.type("y")
    ann.wait_for(r"c challenge a friend")
    ann.type("c")
    cid = ann.wait_for(LINK.format(port=server.port)).group(1)
    ann.type("q", enter=False)
    return cid


@pytest.mark.parametrize("cols", [80, 60])
def test_the_verdict_lines_wrap_between_words(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal], cols: int
) -> None:
    cid = made(terminals, server_process, tmp_path / "ann")
    dealt = new_game("gate", seed=HOME["gate"].seed).cards_home()
    bob = start(terminals, server_process, tmp_path / "bob", "challenge", cid, cols=cols)
    register(bob, "bob")
    bob.wait_for(r"Press Enter to race")
    bob.type("")
    bob.wait_for(LEGAL, timeout=15)
    bob.type("resign")
    bob.wait_for(r"Resign\?")
    bob.type("y")
    bob.wait_for(r"The table of")
    bob.settle()
    shown = bob.text
    lines = shown.splitlines()
    top = lines[: next(n for n, line in enumerate(lines) if "The table of" in line)]
    assert not any("…" in line for line in top), shown
    words = flat(shown)
    assert f"{LONG}'s ghost beat you by 2 cards home." in words, shown
    said = (
        f"You: resigned, {dealt}/52 home, 0 moves. {LONG}: resigned, {dealt + 2}/52 home, 2 moves."
    )
    assert said in words, shown
    assert "Ghost's: patience-race replay " in words
    assert f"--server {server_process.url}" in words, shown
