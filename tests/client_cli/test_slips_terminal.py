"""Slips an outside tester found: a question on leaving left in the countdown's words
once the race was on; a terminal signed out by another of the player's that quit with
nothing said; ``top BOARD --group GROUP`` refusing a group "called 'GROUP BOARD'". The
real client in pseudo-terminals against the real server."""

from __future__ import annotations

import signal
from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, flat, start
from .test_copied_whole_terminal import printed
from .test_name_terminal import registered
from .test_top_last_daily import client

#: a terminal taken over by another of the player's (wrapped at 80 columns)
STOPPED = r"This\s+terminal\s+has\s+stopped;\s+q\s+quits"


def test_the_question_on_leaving_follows_the_countdown_into_the_race(
    redis_url: str, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Ctrl-C in the countdown asks "Leave the room? The race about to start goes on
    without you."; the race started, the same words stayed, and y resigned a game they
    never mentioned. The question is asked again as the race is on."""
    slow = ServerProcess(redis_url, tmp_path, PATIENCE_COUNTDOWN="4")
    slow.start()
    try:
        ann = start(terminals, slow, tmp_path / "ann", "race", "new", "gate", "--seed=7")
        ann.wait_for("name:")
        ann.type("ann")
        code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
        ann.type("s")  # a race of one
        ann.wait_for(r"Starting in")
        ann.child.sendintr()
        ann.wait_for(r"Leave the room\? The race about to start goes on without you\.")
        # the race on: its question is another
        ann.wait_for(r"Leave the race\? Your game will be resigned\.", timeout=15)
        assert "home 0/52 · moves 0" in ann.text, ann.text
        assert "about to start" not in ann.text, ann.text
        ann.type("y", enter=False)
        assert ann.exit_code() == 0
        assert f"You left room {code}, and your game is resigned" in flat(printed(ann))
    finally:
        slow.stop(signal.SIGKILL)


def test_a_terminal_signed_out_by_another_says_where_its_game_goes_on(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Taken over by a second terminal of the same player, the first quit on q with
    nothing printed: it says, as on leaving, what goes on and how to take it up."""
    url = server_process.url
    registered(url, tmp_path, "ann")
    first = start(terminals, server_process, tmp_path, "play", "gate", "--seed", "7")
    first.wait_for(LEGAL)
    second = start(terminals, server_process, tmp_path, "play")
    second.wait_for(r"Your game, as you left it")
    first.wait_for(STOPPED)
    first.type("q")
    assert first.exit_code() == 0
    said = flat(printed(first))
    kept = f"Your game is kept on the server. To take it up: patience-race play --server {url}"
    assert kept in said, said

    # in a room: still in it (the other terminal holds it), and the way back
    host = start(terminals, server_process, tmp_path, "race", "new", "gate")
    code = host.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    again = start(terminals, server_process, tmp_path, "race", "join", code)
    again.wait_for(rf"Back in room {code}")
    host.wait_for(STOPPED)
    host.type("q")
    assert host.exit_code() == 0
    said = flat(printed(host))
    assert f"you are still in room {code}" in said, said
    assert f"To go back: patience-race race join {code} --server {url}" in said, said


def test_top_group_names_the_group_alone_when_it_finds_none(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    registered(server_process.url, tmp_path, "ann")
    done = client(server_process.url, tmp_path, "top", "gate", "--group", "nogroup")
    assert done.returncode == 1, done.stderr
    said = " ".join(done.stderr.split())
    assert "no group of yours is called 'nogroup':" in said, said
