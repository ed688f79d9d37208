"""Going back to a room for its rematch after leaving it. A room takes racers in its lobby
and, for the rematch, once its race is over (docs/protocol.md, room_join); while its race
is on it takes no one. The client must say so as the player leaves, say what to do when
``race join`` comes too soon (it said only "watch it instead", as to a stranger), and
take the player back in once the results are shown. The real client in pseudo-terminals
against the real server."""

from __future__ import annotations

import re
from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, start, unwrapped
from .test_terminal import register


def racing(
    server: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> tuple[Terminal, Terminal, str]:
    """ann's room at The Gate, bob in it: their race 1 dealt and on."""
    ann = start(terminals, server, tmp_path / "ann", "race", "new", "gate", "--seed=1")
    register(ann, "ann")
    code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    bob = start(terminals, server, tmp_path / "bob", "race", "join", code)
    register(bob, "bob")
    bob.wait_for(r"ann hosts")
    bob.type("r", enter=False)
    ann.wait_for(r"everyone is ready: s to start")
    ann.type("s", enter=False)
    for terminal in (ann, bob):
        terminal.wait_for(LEGAL, timeout=15)
    return ann, bob, code


def test_a_racer_who_left_the_race_comes_back_for_the_rematch(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann, bob, code = racing(server_process, tmp_path, terminals)
    # bob leaves during the race: the farewell says how to come back for the rematch
    bob.type("q")
    bob.wait_for(r"Leave the race\?")
    bob.type("y", enter=False)
    assert bob.exit_code() == 0
    said = unwrapped(bob.text)
    assert unwrapped(f"You left room {code}, and your game is resigned.") in said, bob.text
    back = "While its results are shown, this takes you back for its rematch:"
    # (the command on a line of its own, whole: it wrapped mid-command at 80 columns)
    assert unwrapped(back) in said, bob.text
    whole = rf"its rematch:\s*\n\s*patience-race race join {code} --server {server_process.url}"
    assert re.search(whole, bob.text), bob.text

    # too soon: the race is on, and the client says when the same command will do
    soon = start(terminals, server_process, tmp_path / "bob", "race", "join", code)
    assert soon.exit_code() == 1, soon.text
    words = unwrapped(soon.text)
    for part in (
        f"the race in room {code} has started",  # (the server's)
        f"To watch it: patience-race race watch {code}",
        "A room takes no one while its race is on. Once it is over, the same command takes "
        f"you in for its rematch: patience-race race join {code}",
    ):
        assert unwrapped(part) in words, soon.text

    ann.type("resign")
    ann.wait_for(r"Resign this race\?")
    ann.type("y", enter=False)
    ann.wait_for(r"Results of race 1")
    again = start(terminals, server_process, tmp_path / "bob", "race", "join", code)
    again.wait_for(r"Results of race 1")  # in the room, its last results shown
    again.wait_for(r"ann may call a rematch")
    ann.wait_for(r"bob joined")
    ann.type("m", enter=False)
    again.wait_for(LEGAL, timeout=15)  # dealt into the rematch
    again.wait_for(r"Race 2")
    for terminal in (ann, again):
        terminal.type("q")
        terminal.wait_for(r"Leave the race\?")
        terminal.type("y", enter=False)
        assert terminal.exit_code() == 0


def test_leaving_a_finished_room_says_how_to_come_back_for_its_rematch(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann, bob, code = racing(server_process, tmp_path, terminals)
    for terminal in (ann, bob):
        terminal.type("resign")
        terminal.wait_for(r"Resign this race\?")
        terminal.type("y", enter=False)
    for terminal in (ann, bob):
        terminal.wait_for(r"Results of race 1")
    bob.type("q")
    assert bob.exit_code() == 0
    said = unwrapped(bob.text)
    assert unwrapped("Race over: you came") in said, bob.text
    back = "While its results are shown, this takes you back for its rematch:"
    assert unwrapped(f"{back} patience-race race join {code}") in said, bob.text
    ann.type("q")  # the last in the room, now closed: no way back is offered
    assert ann.exit_code() == 0
    assert "rematch" not in unwrapped(ann.text).split("Raceover")[-1], ann.text
