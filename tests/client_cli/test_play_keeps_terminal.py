"""``play GAME`` with a solo game in play: a new deal gives that game up on the server
(``new_game``), so the client takes the game in play up where it is of the same game,
and asks first where it is of another (it had dealt the new one and given the old up
without a word; the browser asked)."""

from __future__ import annotations

from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, start
from .test_terminal import GATE_1234, register


def test_play_keeps_the_game_in_play_unless_told(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    config = tmp_path / "ann"
    ann = start(terminals, server_process, config, "play", "gate", "--seed", "1234")
    register(ann, "ann")
    ann.wait_for(GATE_1234)
    ann.type("b4>t3")
    ann.wait_for(r"moves 1")
    ann.type("q")
    assert ann.exit_code() == 0

    # another game: asked, and no keeps the one in play
    wedge = start(terminals, server_process, config, "play", "wedge")
    wedge.wait_for(r"Your game of The Gate in play \(1 move\) is given up by a new deal\.")
    wedge.wait_for(r"Deal a new game of The Wedge\? \[y/N\]")
    wedge.type("")
    wedge.wait_for(r"Your game, as you left it")
    wedge.wait_for(r"moves 1")
    assert "The Wedge" not in wedge.text
    wedge.type("q")
    assert wedge.exit_code() == 0

    # the same game: taken up, nothing asked
    gate = start(terminals, server_process, config, "play", "gate")
    gate.wait_for(r"Your game, as you left it")
    gate.wait_for(r"moves 1")
    assert "Deal a new game" not in gate.text
    gate.type("q")
    assert gate.exit_code() == 0

    # told: the new deal
    dealt = start(terminals, server_process, config, "play", "wedge")
    dealt.wait_for(r"Deal a new game of The Wedge\? \[y/N\]")
    dealt.type("y")
    dealt.wait_for(LEGAL)
    dealt.wait_for(r"The Wedge")
    dealt.wait_for(r"moves 0")
