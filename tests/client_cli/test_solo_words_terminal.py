"""What the terminal says to the words and numbers typed at a solo table, end to end: the
real client in a pseudo-terminal against a real server and Redis. Each of these was found
by a player of solo games: a bare number in Nestor read as a pile where the keys line
offered "move or its #", ``1+1`` answered as a sentence the server could not read, and
``resign`` ending a solo game at once where the browser asks."""

from __future__ import annotations

import re
from pathlib import Path

from server.engine import new_game
from tests.app.conftest import ServerProcess

from .terminal import Terminal
from .test_terminal import LEGAL, register, start

#: Nestor's deal 1, its legal line as the terminal numbers it (its piles are numbers)
NESTOR_1 = r"legal: #1 6\+7  #2 6\+8  #3 7\+8"


def nestor_1(terminals: list[Terminal], server: ServerProcess, config: Path) -> Terminal:
    """ann, registered, at Nestor's deal 1 with its legal line drawn."""
    assert [str(m) for m in new_game("nestor", seed=1).legal_moves()] == ["6+7", "6+8", "7+8"]
    ann = start(terminals, server, config, "play", "nestor", "--seed", "1")
    register(ann, "ann")
    ann.wait_for(NESTOR_1)
    return ann


def test_numbered_piles_keys_line_says_what_a_number_is(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Nestor's columns are 1 to 8: ``1`` is column 1 and ``#1`` the legal line's first
    move, and the keys line says so (it said "move or its #", and a player typed 1)."""
    ann = nestor_1(terminals, server_process, tmp_path)
    keys = ann.wait_for(r"\n(.*q quit)").group(1)
    assert keys.startswith("move, pile or #n · Tab · "), keys
    assert "its #" not in ann.text
    ann.type("1")  # column 1, which pairs with nothing now: the line points to #1
    ann.wait_for(r"no legal move starts at pile 1 \(#1 is the legal line's 6\+7\)")
    ann.type("#1")
    ann.wait_for(r"pairs off 1/26 · moves 1\b")
    ann.type("q")
    assert ann.exit_code() == 0

    # where no pile is a number, a bare number is the move's: the keys line as it was
    bob = start(terminals, server_process, tmp_path / "bob", "play", "gate", "--seed", "1234")
    register(bob, "bob")
    bob.wait_for(LEGAL)
    assert bob.wait_for(r"\n(.*q quit)").group(1).startswith("move or its # · Tab · ")
    bob.type("q")
    assert bob.exit_code() == 0


def test_home_and_a_pile_paired_with_itself_in_nestor(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Nestor has no home: ``home`` says why, typed or as ``+``; and ``1+1`` is no move,
    said plainly (the server's "cannot read '1+1' as a move of Nestor. Moves look like
    3+7" told a player their move had the wrong shape)."""
    ann = nestor_1(terminals, server_process, tmp_path)
    pairs = r"Nothing goes home here: pairs come off as you name them"
    ann.type("home")
    ann.wait_for(pairs)
    ann.type("#1")
    ann.wait_for(r"moves 1\b")
    ann.settle()  # (the move's count and the message's going can come in two redraws)
    assert "Nothing goes home" not in ann.text
    ann.type("home")
    ann.wait_for(pairs)
    ann.type("1+1")
    ann.wait_for(r"1\+1 is no move: a pile cannot pair with itself")
    assert "cannot read" not in ann.text
    ann.type("R1 + R1")  # any pile, in any case
    ann.wait_for(r"r1\+r1 is no move: a pile cannot pair with itself")
    assert re.search(r"moves 1\b", ann.text)  # nothing was played
    ann.type("q")
    assert ann.exit_code() == 0


def test_resigning_a_solo_game_asks_first(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``resign`` asks, as the browser does and as a race, a challenge and the ranked
    daily do here; Enter alone (or anything but y) is no."""
    ann = nestor_1(terminals, server_process, tmp_path)
    ann.type("resign")
    ann.wait_for(r"Resign this game\? It ends as it stands\.")
    ann.wait_for(r"y yes · anything else: no")
    assert "RESIGNED" not in ann.text
    ann.type("")  # no
    ann.wait_for(NESTOR_1)
    assert "RESIGNED" not in ann.text and "Resign this game" not in ann.text
    ann.type("resign")
    ann.wait_for(r"Resign this game\?")
    ann.type("n")
    ann.wait_for(NESTOR_1)
    ann.type("resign")
    ann.wait_for(r"Resign this game\?")
    ann.type("y", enter=False)  # a yes acts at once
    ann.wait_for(r"RESIGNED")
    ann.type("q")
    assert ann.exit_code() == 0
