"""Over-long typed text is refused by the client itself, in plain words, and never sent:
the server refuses a frame holding a text of more than 512 bytes (``bad_request``, as any
frame it cannot decode), and answers a field of 65 to 512 characters with its developer's
wording (``move: field 'move' is longer than 64``, docs/protocol.md "Decoding bounds"):
neither is for a player to read, so the client refuses such text before sending it. The
real client in a pseudo-terminal against the real server."""

from __future__ import annotations

from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, flat, start


def test_an_over_long_line_in_a_game_is_refused_and_the_player_stays_connected(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path, "play", "gate", "--seed", "1234")
    ann.wait_for("name:")
    ann.type("ann")
    first = ann.wait_for(LEGAL).group(1)
    for length in (520, 100):  # past the decoding bounds; past a move's 64 characters
        ann.type("x" * length)
        ann.wait_for(rf"no move or command is that long \({length} characters\)")
        assert "longer than" not in ann.text and "reconnecting" not in ann.text, ann.text
    ann.type(first)  # the connection is still up: the move plays
    ann.wait_for(r"moves 1")
    assert "reconnecting" not in ann.text and "Reconnected" not in ann.text, ann.text
    ann.type("q")
    assert ann.exit_code() == 0


def test_over_long_words_on_the_command_line_are_refused_before_they_are_sent(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    config = tmp_path / "ann"
    ann = start(terminals, server_process, config, "play", "gate")
    ann.wait_for("name:")
    ann.type("y" * 600)  # a name pasted by mistake: said plainly, and asked again
    ann.wait_for(r"name:.*\n(.*\n)*.*at most 20 characters")
    assert "bounds" not in ann.text and "longer than" not in ann.text, ann.text
    ann.type("ann")
    ann.wait_for(r"The Gate · solo")
    ann.type("q")
    assert ann.exit_code() == 0

    # (a replay's id too long is no replay's id: refused before asking, see
    # test_replay_refusals.py)
    for args in (("race", "join", "Z" * 600), ("follow", "b" * 300)):
        said = start(terminals, server_process, config, *args)
        assert said.exit_code() == 1, said.text
        words = flat(said.text)
        assert "too long" in words, said.text
        for developer in ("bounds", "longer than", "1003", "connection"):
            assert developer not in words, said.text
