"""The terminal's frictions, end to end: the real client in a pseudo-terminal against a
real server and Redis. The lobby's single keys and its browser link (which race join
takes, server and all), no hint offered in a
room made without them, a lost solo game told plainly and undone, and no Home where
cards leave in pairs."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import Terminal, unwrapped
from .test_terminal import LEGAL, register, start

#: Nestor's deal 16 lost in six moves (the reserve turned out, no pair left): the
#: protocol's own example of an undo after a loss
NESTOR_16_LOST = ["1+5", "reserve", "reserve", "reserve", "reserve", "8+r4"]


def test_the_lobby_s_single_keys_browser_link_and_no_hint_offered(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path / "ann", "race", "new", "gate", "--seed=1")
    register(ann, "ann")
    code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    # the browser link beside the command, from the server the client connected to
    link = ann.wait_for(r"or in a browser: (http://127\.0\.0\.1:\d+/r/[A-Z0-9]{6})").group(1)
    assert link == f"http://127.0.0.1:{server_process.port}/r/{code}"
    with urllib.request.urlopen(link, timeout=10) as page:  # it is the room's invite page
        assert page.status == 200
    # the link pasted into race join names its server too: $PATIENCE_SERVER (here a port
    # nothing listens on) gives way to it
    bob = Terminal(["race", "join", link], server="ws://127.0.0.1:9", config=tmp_path / "bob")
    terminals.append(bob)
    register(bob, "bob")
    bob.wait_for(r"ann hosts")
    ann.wait_for(r"bob\s+not ready")

    # r and s act at once, no Enter
    bob.type("r", enter=False)
    ann.wait_for(r"bob\s+ready")
    bob.wait_for(r"You are ready\.")
    assert bob.text.rstrip().splitlines()[-1] == ">"  # nothing was left in the line
    bob.wait_for(r"ann hosts and starts the race: you are ready \(r again: not ready\)\.")
    assert "say r when ready" not in bob.text
    ann.type("s", enter=False)
    bob.wait_for(r"Go!", timeout=15)
    ann.wait_for(LEGAL, timeout=15)

    # a room made without hints offers none, and ? says why without asking the server
    assert "? hint" not in ann.text
    assert "+ home" in ann.text
    ann.type("?", enter=False)
    ann.wait_for(r"This race room was made without hints\.")
    for terminal in (ann, bob):
        terminal.type("q")
        terminal.wait_for(r"Leave the race\?")
        terminal.type("y", enter=False)  # a yes acts at once, as the lobby's keys do
        assert terminal.exit_code() == 0
    # once the screen is gone, the shell says what became of the race each left running:
    # ann's goes on, and bob, the last still playing, ended it by leaving (it once said
    # the race went on)
    server = f"--server ws://127.0.0.1:{server_process.port}"
    assert unwrapped(
        f"You left room {code}, and your game is resigned. The race goes on; to watch "
        f"it: patience-race race watch {code} {server}"
    ) in unwrapped(ann.text), ann.text
    assert re.search(
        unwrapped(
            f"You left room {code}, and your game is resigned: that ended the race. Its "
            f"results: patience-race race watch {code} {server}"
        )
        + r"Yourreplay:patience-racereplay[0-9a-f]+"
        + re.escape(unwrapped(server)),
        unwrapped(bob.text),
    ), bob.text


def test_after_a_race_m_calls_the_rematch_at_once_and_q_waits_for_enter(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """The keys of a room act alike: m (rematch) at once, as r and s do in the lobby (it
    waited for Enter, under a key bar listing it as r is listed); q, which leaves the room
    and its rematch, still waits for Enter."""
    ann = start(terminals, server_process, tmp_path / "ann", "race", "new", "gate", "--seed=1")
    register(ann, "ann")
    ann.wait_for(r"race join ([A-Z0-9]{6})")
    ann.type("s", enter=False)  # a race of one
    ann.wait_for(LEGAL, timeout=15)
    ann.type("resign")
    ann.wait_for(r"Resign this race\?")
    ann.type("y", enter=False)
    ann.wait_for(r"Results of race 1")
    ann.wait_for(r"m rematch · c challenge a friend")
    ann.type("q", enter=False)
    ann.wait_for(r"\n> q$")  # in the line, waiting for Enter: the room is not left
    ann.settle()
    assert "Results of race 1" in ann.text
    ann.type("\x7f", enter=False)  # (Backspace)
    ann.wait_for(r"\n>$")
    ann.type("m", enter=False)
    ann.wait_for(LEGAL, timeout=15)  # the rematch: its countdown, then its deal
    ann.wait_for(r"Race 2 ")
    assert ann.text.rstrip().splitlines()[-1] == ">"  # nothing was left in the line
    ann.type("q")
    ann.wait_for(r"Leave the race\?")
    ann.type("y", enter=False)
    assert ann.exit_code() == 0


def test_a_lost_solo_game_says_why_and_u_undoes_it(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path, "play", "nestor", "--seed", "16")
    register(ann, "ann")
    ann.wait_for(LEGAL)
    # Nestor takes pairs off: progress counts pairs, and nothing goes home
    ann.wait_for(r"pairs off 0/26 · moves 0")
    assert "+ home" not in ann.text and "? hint" in ann.text
    ann.type("+", enter=False)
    ann.wait_for(r"Nothing goes home here: pairs come off as you name them")
    for n, move in enumerate(NESTOR_16_LOST, start=1):
        ann.type(move)
        ann.wait_for(rf"moves {n}\b")
    ann.wait_for(r"pairs off 2/26 · moves 6 · LOST")
    said = "Lost: no pair is left to take off and the reserve is out. 2 of 26 pairs off. "
    said += "u undoes the last move. n deals again."
    ann.wait_for(r"\s+".join(re.escape(word) for word in said.split()))
    ann.wait_for(r"u undo · n new deal · new GAME · c challenge a friend · review · q quit")
    ann.type("u")
    ann.wait_for(r"took back 8\+r4: the game is on again")
    ann.wait_for(r"pairs off 1/26 · moves 5\s")
    ann.wait_for(LEGAL)
    assert "LOST" not in ann.text
    # the same loss again, and the game is still a solo game that undo takes back
    ann.type("8+r4")
    ann.wait_for(r"moves 6 · LOST")
    ann.type("q")
    assert ann.exit_code() == 0


def test_a_code_no_room_has_says_what_to_check(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    # a mistyped code said "no room ZZZZZZ" and nothing of what to do next
    ann = start(terminals, server_process, tmp_path / "ann", "race", "join", "ZZZZZZ")
    register(ann, "ann")
    assert ann.exit_code() == 1
    assert "no room ZZZZZZ" in ann.text
    assert unwrapped(
        "Check the code with whoever sent it, and that they race on this server "
        f"(ws://127.0.0.1:{server_process.port}): a room closes once everyone has left it. "
        f"To open one of your own: patience-race race new GAME --server {server_process.url}"
    ) in unwrapped(ann.text), ann.text

    # a room left by the last in it is closed: no way back is offered into it
    ann = start(terminals, server_process, tmp_path / "ann", "race", "new", "wedge")
    code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    ann.type("q")
    assert ann.exit_code() == 0
    assert unwrapped(
        f"You left room {code}, the last in it, so it is closed. To open another: "
        f"patience-race race new wedge --server ws://127.0.0.1:{server_process.port}"
    ) in unwrapped(ann.text), ann.text
    assert "race join" not in ann.text.split("You left room")[-1]
