"""What the client prints to be copied (the commands, with ``--server`` where it is not the
default; the daily result line to paste; a challenge's command) is printed whole, each on
one line, the terminal left to fold a line wider than it: a line break written inside a
command made a shell run half of it (``patience-race challenge ID --server`` / ``ws://...``)
and broke the result line in two (``tmux capture-pane -J`` does not join it). Prose around
them still wraps between words. The real client in a pseudo-terminal at 60 and 80 columns,
its printed bytes read after its screen has closed."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from client_cli.endings import left_room
from client_cli.lines import between_words
from client_cli.model import Game, Model
from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, start
from .test_terminal import register

URL = "ws://127.0.0.1:9460"
#: the screen's alternate buffer left: what follows was printed on leaving
LEFT_SCREEN = "\x1b[?1049l"


def printed(terminal: Terminal, after_screen: bool = True) -> str:
    out = terminal.output.decode("utf-8", "replace")
    return out.rsplit(LEFT_SCREEN, 1)[-1] if after_screen else out


def whole(text: str, out: str) -> None:
    """``text`` printed in one piece: no line break, nor a space put in its place."""
    assert text in out, f"{text!r} not whole in {out!r}"


@pytest.mark.parametrize("width", [40, 60, 80])
def test_every_farewell_of_a_room_keeps_its_commands_whole(width: int) -> None:
    model = Model(server=URL, me="ann", room_code="PX6BST", room={"state": "racing"})
    model.game = Game("e25f0a2b9c3d4e5f", "race", "gate", {}, [], "playing")
    cases = [left_room(model), left_room(model, "finished"), left_room(model, unheard="gone")]
    model.room = {"state": "lobby", "game": "gate", "players": [{"name": "bob"}]}
    cases += [left_room(model), left_room(model, "closed")]
    model.game.status = "won"
    model.room = {"state": "finished", "players": [{"name": "bob"}], "results": [
        {"player": "ann", "place": 1}, {"player": "bob", "place": 2}]}  # fmt: skip
    cases.append(left_room(model))
    out = "\n\n".join(between_words(said, width) for said in cases)
    for words in (
        "replay e25f0a2b9c3d4e5f",
        "race watch PX6BST",
        "race join PX6BST",
        "race new gate",
    ):
        whole(f"patience-race {words} --server {URL}", out)
    for line in out.splitlines():  # (prose still wraps between words)
        assert len(line) <= width or "patience-race" in line, out


@pytest.mark.parametrize("cols", [60, 80])
def test_a_solo_games_replay_and_its_challenge_are_printed_whole(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal], cols: int
) -> None:
    config = tmp_path / "ann"
    ann = start(terminals, server_process, config, "play", "gate", "--seed", "7", cols=cols)
    register(ann, "ann")
    ann.wait_for(LEGAL)
    ann.type("resign")
    ann.wait_for(r"Resign this game\?")
    ann.type("y")
    ann.wait_for(r"c challenge")
    ann.type("c")
    cid = ann.wait_for(r"/c/([a-z2-7]{16})").group(1)
    ann.settle()
    ann.type("q", enter=False)  # the page closes: the board again
    ann.wait_for(r"Your challenge is made")
    ann.type("q")
    assert ann.exit_code() == 0
    out = printed(ann)
    url = server_process.url
    whole(f"patience-race challenge {cid} --server {url}", out)
    assert re.search(rf"patience-race replay [0-9a-f]+ --server {re.escape(url)}", out), out
    # and as the one-shot command prints one's own challenge
    again = start(terminals, server_process, config, "challenge", cid, cols=cols)
    assert again.exit_code() == 0
    whole(f"patience-race challenge {cid} --server {url}", printed(again, False))


@pytest.mark.parametrize("cols", [60, 80])
def test_the_daily_result_line_is_printed_whole(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal], cols: int
) -> None:
    ann = start(terminals, server_process, tmp_path / "ann", "daily", "gate", cols=cols)
    register(ann, "ann")
    ann.wait_for(r"Press Enter to start")
    ann.type("")
    ann.wait_for(LEGAL)
    ann.type("resign")
    ann.wait_for(r"Resign today's ranked attempt\?")
    ann.type("y")
    ann.wait_for(r"Your result, to paste into a chat")
    ann.settle()
    ann.type("q")
    assert ann.exit_code() == 0
    out = printed(ann)
    line = re.search(r"Patience Race · The Gate · \S+ · not won[^\r\n]*", out)
    assert line is not None and re.search(r"(home|pairs off|par \d+|hints?)$", line[0]), out


@pytest.mark.parametrize("cols", [60, 80])
def test_leaving_a_lobby_prints_the_way_back_whole(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal], cols: int
) -> None:
    ann = start(terminals, server_process, tmp_path / "ann", "race", "new", "gate", cols=cols)
    register(ann, "ann")
    code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    bob = start(terminals, server_process, tmp_path / "bob", "race", "join", code, cols=cols)
    register(bob, "bob")
    bob.wait_for(r"ann hosts")
    bob.type("q")
    assert bob.exit_code() == 0
    url = server_process.url
    whole(f"patience-race race join {code} --server {url}", printed(bob))
    ann.wait_for(r"bob left|1 player|alone", timeout=10)
    ann.type("q")
    assert ann.exit_code() == 0
    whole(f"patience-race race new gate --server {url}", printed(ann))
