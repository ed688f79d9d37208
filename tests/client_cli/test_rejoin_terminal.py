"""Going back to a room for its rematch after leaving it. The server takes racers into a
room only in its lobby (docs/protocol.md, "Race rooms"): once its first race is dealt,
whoever leaves is out of it and of its rematches for good. The client must say so, and
what to do instead, both as the player leaves and when they try ``race join`` again (it
said only "watch it instead", as to a stranger, and nothing of the rematch). The real
client in pseudo-terminals against the real server."""

from __future__ import annotations

from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, start, unwrapped
from .test_terminal import register

#: what the client adds to the server's refusal of a race join, in every refused state
NO_WAY_BACK = "A room takes racers only in its lobby, before its first race is dealt"


def test_a_racer_who_left_is_told_why_the_room_is_closed_to_them_and_what_to_do(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path / "ann", "race", "new", "gate", "--seed=1")
    register(ann, "ann")
    code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    bob = start(terminals, server_process, tmp_path / "bob", "race", "join", code)
    register(bob, "bob")
    bob.wait_for(r"ann hosts")
    bob.type("r", enter=False)
    ann.wait_for(r"everyone is ready: s to start")
    ann.type("s", enter=False)
    for terminal in (ann, bob):
        terminal.wait_for(LEGAL, timeout=15)

    # bob leaves during the race: the farewell says the rematches go on without him
    bob.type("q")
    bob.wait_for(r"Leave the race\?")
    bob.type("y", enter=False)
    assert bob.exit_code() == 0
    said = unwrapped(bob.text)
    assert unwrapped(f"You left room {code}, and your game is resigned.") in said, bob.text
    assert unwrapped("Its rematches go on without you") in said, bob.text
    assert unwrapped("To race again: patience-race race new gate") in said, bob.text

    def refused(state: str) -> None:
        again = start(terminals, server_process, tmp_path / "bob", "race", "join", code)
        assert again.exit_code() == 1, again.text
        words = unwrapped(again.text)
        said = (
            f"the race in room {code} {state}",  # (the server's)
            NO_WAY_BACK,
            "one of you opens a new room and the others join it: patience-race race new GAME",
            f"patience-race race watch {code}",
        )
        for part in said:
            assert unwrapped(part) in words, again.text

    refused("has started")  # the race goes on
    ann.type("resign")
    ann.wait_for(r"Resign this race\?")
    ann.type("y", enter=False)
    ann.wait_for(r"Results of race 1")
    refused("is over")  # its results are shown: a rematch may come
    ann.type("m", enter=False)
    ann.wait_for(LEGAL, timeout=15)  # the rematch, ann alone in it
    refused("has started")
    ann.type("q")
    ann.wait_for(r"Leave the race\?")
    ann.type("y", enter=False)
    assert ann.exit_code() == 0


def test_leaving_a_finished_room_says_its_rematch_goes_on_without_you(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path / "ann", "race", "new", "gate", "--seed=1")
    register(ann, "ann")
    code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    bob = start(terminals, server_process, tmp_path / "bob", "race", "join", code)
    register(bob, "bob")
    bob.wait_for(r"ann hosts")
    bob.type("r", enter=False)
    ann.wait_for(r"everyone is ready: s to start")
    ann.type("s", enter=False)
    for terminal in (ann, bob):
        terminal.wait_for(LEGAL, timeout=15)
        terminal.type("resign")
        terminal.wait_for(r"Resign this race\?")
        terminal.type("y", enter=False)
    for terminal in (ann, bob):
        terminal.wait_for(r"Results of race 1")
    bob.type("q")
    assert bob.exit_code() == 0
    said = unwrapped(bob.text)
    assert unwrapped("Race over: you came") in said, bob.text
    assert unwrapped(f"You left room {code}: its rematches go on without you") in said, bob.text
    ann.type("q")  # the last in the room: nothing is said of rematches
    assert ann.exit_code() == 0
    assert "rematches" not in unwrapped(ann.text), ann.text
