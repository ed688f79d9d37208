"""Long notes and refusals the terminal prints wrap between words at 80 and at 60 columns,
in a pseudo-terminal against a real server and Redis: printed whole on one line, the
terminal broke them at its edge, in the middle of a word ("...race on t / his server",
"...from a devic / e signed in")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.app.conftest import ServerProcess

from .terminal import Terminal, flat
from .test_terminal import register, start


def whole_words(terminal: Terminal, sentence: str) -> None:
    """``sentence`` on the screen with each of its words whole: the screen's lines joined
    by a space read it as it is."""
    assert flat(sentence) in flat(terminal.text), terminal.text


@pytest.mark.parametrize("cols", [80, 60])
def test_a_refusal_to_join_wraps_between_words(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal], cols: int
) -> None:
    ann = start(terminals, server_process, tmp_path / "ann", "race", "join", "ZZZZZZ", cols=cols)
    register(ann, "ann")
    assert ann.exit_code() == 1
    whole_words(
        ann,
        "Check the code with whoever sent it, and that they race on this server "
        f"({server_process.url}): a room closes once everyone has left it. To open one of "
        f"your own: patience-race race new GAME --server {server_process.url}",
    )


@pytest.mark.parametrize("cols", [80, 60])
def test_a_one_shot_commands_refusal_wraps_between_words(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal], cols: int
) -> None:
    listed = start(terminals, server_process, tmp_path / "new", "challenges", cols=cols)
    assert listed.exit_code() == 1
    whole_words(
        listed,
        f"patience-race: this needs your name on {server_process.url}, and no token is saved "
        "for it. To play as yourself, enter a link code from a device signed in: "
        f"patience-race link CODE --server {server_process.url}",
    )
    whole_words(
        listed,
        f"Or play once to register (or daily): patience-race play --server {server_process.url}",
    )
