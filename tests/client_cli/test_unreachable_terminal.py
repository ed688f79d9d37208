"""What the client says when the server cannot hear it: a request that never went says
so, one that went but was not answered may have been carried out, and leaving a room the
server did not hear about leaves the player in it (the farewell must not say the game was
resigned). The real client in a pseudo-terminal, against the real server as a child
process, which the tests kill (-9: no closing handshake, as a machine that dies)."""

from __future__ import annotations

import signal
from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, flat, start


def test_leaving_a_race_the_server_cannot_hear_says_you_are_still_in_it(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path / "ann", "race", "new", "gate", "--seed=7")
    ann.wait_for("name:")
    ann.type("ann")
    code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    ann.type("s")  # a race of one
    ann.wait_for(LEGAL, timeout=15)
    assert server_process.process is not None
    server_process.stop(signal.SIGKILL)
    ann.wait_for(r"reconnecting in \d")
    ann.child.sendintr()
    ann.wait_for(r"Leave the race\?")
    ann.type("y")
    assert ann.exit_code() == 0
    said = flat(ann.text)
    assert "resigned" not in said, ann.text
    assert f"still in room {code}" in said, ann.text
    assert f"race join {code}" in said, ann.text

    # and so it is: back on the server, the same command takes the race up
    server_process.start()
    again = start(terminals, server_process, tmp_path / "ann", "race", "join", code)
    again.wait_for(rf"Back in room {code}\.", timeout=15)
    again.wait_for(LEGAL)


def test_a_move_sent_but_not_answered_may_have_been_played(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """A move that went out before the connection dropped, with no answer, may have been
    applied: the client must not say nothing was sent (it did, for every link error)."""
    ann = start(terminals, server_process, tmp_path, "play", "gate", "--seed", "1234")
    ann.wait_for("name:")
    ann.type("ann")
    first = ann.wait_for(LEGAL).group(1)
    assert server_process.process is not None
    server_process.process.send_signal(signal.SIGSTOP)  # it reads nothing more, unanswering
    try:
        ann.type(first)
        ann.wait_for(r"> *$")  # the line is taken: the move is on its way
        ann.settle()
    finally:
        server_process.stop(signal.SIGKILL)  # (a stopped process dies of SIGKILL too)
    said = flat(ann.wait_for(r"it may have been done[^\n]*(\n[^\n]*){0,2}").group(0))
    assert "nothing was sent" not in flat(ann.text), ann.text
    assert "once reconnected, the screen shows the game as it stands" in said, ann.text

    # a move typed while no connection is up was not sent, and says so
    ann.wait_for(r"reconnecting in \d")
    ann.type(first)
    ann.wait_for(r"not connected: nothing was sent")
    server_process.start()
    ann.wait_for(r"Reconnected\.", timeout=15)
    ann.wait_for(r"moves 0")  # (the server, stopped, never read it)
    ann.type("q")
    assert ann.exit_code() == 0


def test_ctrl_c_in_a_rematchs_countdown_asks_first(
    redis_url: str, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Ctrl-C in a countdown asks, as in the race: leaving there gives up the race about
    to start (it left at once, with no question, during a rematch's countdown)."""
    slow = ServerProcess(redis_url, tmp_path, PATIENCE_COUNTDOWN="4")
    slow.start()
    try:
        ann = start(terminals, slow, tmp_path / "ann", "race", "new", "gate", "--seed=7")
        ann.wait_for("name:")
        ann.type("ann")
        ann.wait_for(r"race join ([A-Z0-9]{6})")
        ann.type("s")  # a race of one
        ann.wait_for(LEGAL, timeout=15)
        ann.type("resign")
        ann.wait_for(r"Resign this race\?")
        ann.type("y")
        ann.wait_for(r"Results of race 1")
        ann.type("m", enter=False)
        ann.wait_for(r"Race 2 is dealt")
        ann.child.sendintr()
        ann.wait_for(r"Leave the room\?")
        ann.type("n")
        ann.wait_for(r"Go!", timeout=15)
        ann.wait_for(LEGAL)
        assert ann.child.isalive()
    finally:
        slow.stop(signal.SIGKILL)
