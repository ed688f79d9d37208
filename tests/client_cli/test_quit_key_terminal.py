"""``q`` on an empty move line of a solo game quits at once, as ``r``, ``s``, ``m`` and
``y`` act (a new user found it alone needed Enter): no move, pile label or word of a solo
screen starts with ``q`` (the games' piles: letters up to ``l``, numbers, ``reserve``).
So does a challenge's, played with the same keys, and a quick race's against the ghosts
(or alone), each a challenge's screen.
In a room it still waits for Enter: leaving gives up a seat (and, hosting, the rematch).
The real client in pseudo-terminals against the real server."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.app.client import signed_in
from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, start
from .test_name_terminal import registered
from .test_terminal import register


def test_q_on_an_empty_line_of_a_solo_game_quits_at_once(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path, "play", "gate", "--seed", "1234")
    register(ann, "ann")
    ann.wait_for(LEGAL)
    ann.type("q", enter=False)
    assert ann.exit_code() == 0
    assert b"Your game is kept on the server" in ann.output


def test_q_in_a_room_waits_for_enter(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path, "race", "new", "gate")
    register(ann, "ann")
    ann.wait_for(r"race join [A-Z0-9]{6}")
    ann.type("q", enter=False)
    ann.wait_for(r"(?m)^> q$")  # (in the line, waiting)
    ann.type("")
    assert ann.exit_code() == 0
    assert b"You left room" in ann.output


def test_q_on_an_empty_line_of_a_challenge_quits_at_once(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """A challenge is "played as a solo game with the same keys": its q waited for Enter,
    in the game and on its result."""
    url = server_process.url
    token = registered(url, tmp_path / "ann", "ann")

    async def made() -> str:
        ann = await signed_in(url, token)
        game = await ann.call("new_game", game="gate", seed=7)
        await ann.call("resign", game=game["game"])
        cid = (await ann.call("challenge_create", replay=game["game"]))["challenge"]["id"]
        await ann.close()
        return str(cid)

    cid = asyncio.run(made())
    registered(url, tmp_path / "bob", "bob")
    bob = start(terminals, server_process, tmp_path / "bob", "challenge", cid)
    bob.wait_for(r"Press Enter to race ann's ghost")
    bob.type("")
    bob.wait_for(LEGAL, timeout=15)
    bob.type("q", enter=False)  # the game: kept, its clock running
    assert bob.exit_code() == 0
    assert b"Your challenge game is kept on the server" in bob.output
    bob = start(terminals, server_process, tmp_path / "bob", "challenge", cid)
    bob.wait_for(LEGAL, timeout=15)
    bob.type("resign")
    bob.wait_for(r"Resign\?")
    bob.type("y", enter=False)
    bob.wait_for(r"ghost beat you|You beat ann's ghost|A tie with ann's ghost")
    bob.type("q", enter=False)  # the result
    assert bob.exit_code() == 0


def test_n_and_esc_answer_a_question_at_once(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``y`` answers a question at once; ``n`` waited for Enter, so a player who then
    typed ``resign`` and Enter had "nresign" taken as the no."""
    ann = start(terminals, server_process, tmp_path, "play", "gate", "--seed", "1234")
    register(ann, "ann")
    ann.wait_for(LEGAL)
    ann.type("resign")
    ann.wait_for(r"Resign this game\? It ends as it stands\.")
    ann.type("n", enter=False)
    ann.wait_for(LEGAL)  # (the question gone: the legal moves again)
    assert "Resign this game?" not in ann.text and "> n" not in ann.text, ann.text
    ann.type("resign")
    ann.wait_for(r"Resign this game\? It ends as it stands\.")
    ann.child.send("\x1b")  # Esc: no, at once
    ann.wait_for(LEGAL)
    assert "Resign this game?" not in ann.text, ann.text
    ann.type("q", enter=False)
    assert ann.exit_code() == 0
    assert b"RESIGNED" not in ann.output
