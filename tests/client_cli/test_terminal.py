"""End to end: the real client in a pseudo-terminal, against a real server and Redis."""

from __future__ import annotations

import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.app.conftest import ServerProcess

from .terminal import Terminal

#: the first legal move, once the line under it (the keys) is drawn too
LEGAL = r"legal: (\S+).*\n.*q (?:quit|leave)"


@pytest.fixture
def terminals() -> Iterator[list[Terminal]]:
    opened: list[Terminal] = []
    yield opened
    for terminal in opened:
        terminal.close()


def start(terminals: list[Terminal], server: ServerProcess, config: Path, *args: str) -> Terminal:
    terminal = Terminal(list(args), server=server.url, config=config)
    terminals.append(terminal)
    return terminal


def register(terminal: Terminal, name: str) -> None:
    terminal.wait_for("name:")
    terminal.type(name)


def test_first_run_registers_then_a_solo_game(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    config = tmp_path / "config"
    ann = start(terminals, server_process, config, "play", "gate", "--seed", "1234")
    ann.wait_for("Choose a name")
    register(ann, "x")  # too short: the server's reason, and the question again
    ann.wait_for("a name is 2 to 20 letters")
    ann.type("ann")
    ann.wait_for(r"The Gate · solo")
    tokens = config / "patience-race" / "tokens.json"
    assert stat.S_IMODE(tokens.stat().st_mode) == 0o600
    assert '"name": "ann"' in tokens.read_text()
    ann.wait_for(r"\nl   t1  t2  t3  t4  r   s     w\n")
    ann.wait_for(r"legal: b4>t3 b1>b2 l>t4 r>t4 deal")

    # a refused move: the server's reason, and the board stays
    ann.type("l>t1")
    ann.wait_for(r"illegal move 'l>t1': 8D cannot go on KD")
    assert "l   t1  t2" in ann.text and "moves 0" in ann.text
    # a short form: b4 alone is b4>t3, the only move from there
    ann.type("b4")
    ann.wait_for(r"moves 1")
    # Tab completes the only legal move that starts with b1
    ann.type("b1", enter=False)
    ann.child.send("\t")
    ann.wait_for(r"> b1>b2")
    ann.type("")
    ann.wait_for(r"moves 2")
    ann.type("u")
    ann.wait_for(r"took back b1>b2")
    assert "moves 1" in ann.text
    ann.type("q")
    assert ann.exit_code() == 0
    assert b"Your game is kept on the server" in ann.output

    # the next run signs in with the kept token and takes the game up
    again = start(terminals, server_process, config, "play")
    again.wait_for(r"Your game, as you left it")
    assert "moves 1" in again.text and "name:" not in again.text
    again.type("q")
    assert again.exit_code() == 0


def test_two_players_race_to_the_results(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(
        terminals, server_process, tmp_path / "ann", "race", "new", "doubles-and-quits", "--seed=1"
    )
    register(ann, "ann")
    code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    bob = start(terminals, server_process, tmp_path / "bob", "race", "join", code.lower())
    register(bob, "bob")
    bob.wait_for(r"ann hosts")
    ann.wait_for(r"bob\s+not ready")
    watcher = start(terminals, server_process, tmp_path / "dan", "race", "watch", code)
    watcher.wait_for(r"watching room " + code)  # no name needed to watch

    ann.type("s")  # bob is not ready yet
    ann.wait_for(r"not ready yet: bob")
    bob.type("r")
    ann.wait_for(r"bob\s+ready")
    ann.type("s")
    ann.wait_for(r"Race 1", timeout=15)
    bob.wait_for(r"Go!")
    first = ann.wait_for(LEGAL).group(1)
    ann.type(first)
    bob.wait_for(r"ann\s+2/52")  # her progress, live beside his board
    watcher.wait_for(r"ann\s+2/52\s+1 moves")

    bob.type("resign")
    bob.wait_for(r"Resign this race\?")
    bob.type("y")
    bob.wait_for(r"waiting for the others")
    ann.wait_for(r"bob\s+0/52\s+resigned")
    ann.type("q")  # quitting a race asks first
    ann.wait_for(r"Leave the race\?")
    ann.type("n")
    ann.wait_for(r"legal: ")
    ann.type("resign")
    ann.wait_for(r"Resign this race\?")
    ann.type("y")
    for terminal in (ann, bob, watcher):
        terminal.wait_for(r"Results of race 1")
        terminal.wait_for(r"1\s+ann\s+resigned\s+\S+\s+1\s+2/52")
        terminal.wait_for(r"2\s+bob\s+resigned\s+\S+\s+0\s+0/52")
    ann.wait_for(r"m calls a rematch")
    for terminal in (ann, bob, watcher):
        terminal.type("q")
        assert terminal.exit_code() == 0


def test_the_client_reconnects_by_itself(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path, "--ascii", "play", "nestor", "--seed", "2")
    register(ann, "ann")
    ann.wait_for(r"Nestor \| solo")
    first = ann.wait_for(LEGAL).group(1)
    server_process.stop()  # the server restarts: 1012 to every connection
    ann.wait_for(r"reconnecting in \d")
    ann.type(first)
    ann.wait_for(r"not connected: nothing was sent")
    server_process.start()
    ann.wait_for(r"Reconnected\.", timeout=15)
    assert "moves 0" in ann.text
    ann.type(first)
    ann.wait_for(r"moves 1")
    assert ann.text.isascii()
    ann.type("q")
    assert ann.exit_code() == 0
