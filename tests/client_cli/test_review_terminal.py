"""A game's review in the terminal client: the real client in a pseudo-terminal, against
a real server and Redis. A lost Nestor game, then ``review``: where it was lost, the
move played, the move that kept the win, and the board there."""

from __future__ import annotations

from pathlib import Path

from tests.app.conftest import ServerProcess
from tests.app.test_review import LOST_LINE, SEED

from .terminal import Terminal
from .test_terminal import LEGAL, register, start


def test_review_after_a_lost_game(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(
        terminals, server_process, tmp_path / "config", "play", "nestor", "--seed", str(SEED)
    )
    register(ann, "ann")
    ann.wait_for(LEGAL)
    ann.type("review")  # not over yet: the word is a move the server refuses
    ann.wait_for(r"cannot read 'review' as a move")
    for move in LOST_LINE:
        ann.type(move)
    ann.wait_for(r"moves 15")
    for n in range(16, 19):  # the reserve turned three times: no move is left
        ann.type("reserve")
        ann.wait_for(rf"moves {n}")
    ann.wait_for(r"c challenge a friend")
    ann.type("review")
    ann.wait_for(r"Where the game was lost")
    ann.wait_for(r"until\s+move 6: you\s+played 1\+7")
    ann.wait_for(r"The board before move 6")
    ann.wait_for(r"1\+5 there kept the win")
    ann.type("q")
