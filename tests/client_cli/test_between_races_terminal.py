"""Long races and rematch chains in the real terminal client, against a real server and
Redis, as an outside tester raced and watched them: a racer who left the race seen by a
watcher who came after, who is in the room between races and who hosts it, what the
keys offer one who joined between races, a watcher's results once the room closes, and
a watcher's ``Reconnected.``."""

from __future__ import annotations

import re
import time
from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, flat, start
from .test_rejoin_terminal import racing
from .test_terminal import register


def keys_line(terminal: Terminal) -> str:
    """The line above the input line: the keys."""
    return terminal.screen.display[-2].rstrip()


def resign(terminal: Terminal) -> None:
    terminal.type("resign")
    terminal.wait_for(r"Resign this race\?")
    terminal.type("y", enter=False)


def test_a_watcher_who_comes_after_a_racer_left_sees_them_marked_left(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """bob left the race before dan came to watch it: dan saw ann race alone, then
    results ranking bob, whom he had never seen. bob is in the race still, marked left,
    as a racer seen leaving is."""
    ann, bob, code = racing(server_process, tmp_path, terminals)
    first = ann.wait_for(LEGAL).group(1)
    ann.type(first)  # (ann ahead: bob's place in the panel is below hers)
    bob.type("q")
    bob.wait_for(r"Leave the race\?")
    bob.type("y", enter=False)
    assert bob.exit_code() == 0
    ann.wait_for(r"bob\s+\d+/52\s+0 left")  # (seen leaving)
    dan = start(terminals, server_process, tmp_path / "dan", "race", "watch", code)
    dan.wait_for(r"watching room " + code)
    dan.wait_for(r"ann\s+\d+/52\s+1 ")
    dan.wait_for(r"bob\s+\d+/52\s+0 left")
    dan.type("q")
    assert dan.exit_code() == 0


def test_between_races_the_room_says_who_is_in_it_and_who_hosts(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """After a race the screen showed only its results (bob, who had gone, and not cal,
    who came for the rematch: a passing "cal joined" alone said so); the host leaving
    made cal host without a word; and cal, who joined between races, was offered
    ``c challenge a friend · review`` with no game of his to do it with."""
    ann, bob, code = racing(server_process, tmp_path, terminals)
    for terminal in (bob, ann):
        resign(terminal)
    ann.wait_for(r"m calls a rematch")
    bob.type("q")
    assert bob.exit_code() == 0
    cal = start(terminals, server_process, tmp_path / "cal", "race", "join", code)
    register(cal, "cal")
    cal.wait_for(r"ann may call a rematch")
    for terminal in (ann, cal):
        terminal.wait_for(r"Results of race 1")
        terminal.wait_for(r"In the room for the rematch: ann \(host\), cal\n")
    cal.wait_for(r"the host may call a rematch · q leave")
    cal.settle()
    assert "challenge" not in keys_line(cal) and "review" not in keys_line(cal), cal.text
    assert "c challenge a friend" in keys_line(ann), ann.text  # (her game is over: hers)
    ann.type("q")
    assert ann.exit_code() == 0
    cal.wait_for(r"you host the room now: m calls a rematch")
    cal.wait_for(r"In the room for the rematch: cal \(host\)\n")
    cal.wait_for(r"You host: m calls a rematch")
    cal.wait_for(r"m rematch · q leave")
    cal.type("q")
    assert cal.exit_code() == 0


def test_a_watcher_keeps_the_last_results_once_the_room_closes(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """A watcher's screen was "Room CODE is closed." alone once its last racer left, the
    last race's results gone (the browser keeps the table); and under the results, a
    watcher, who has no replay of their own, was told "Others: ..."."""
    ann, bob, code = racing(server_process, tmp_path, terminals)
    dan = start(terminals, server_process, tmp_path / "dan", "race", "watch", code)
    dan.wait_for(r"watching room " + code)
    for terminal in (ann, bob):
        resign(terminal)
    dan.wait_for(r"Results of race 1")
    dan.wait_for(r"Replays \(ID from the table\):\s+patience-race replay ID --server")
    assert "Others" not in dan.text, dan.text
    for terminal in (ann, bob):
        terminal.wait_for(r"Results of race 1")
        terminal.type("q")
        assert terminal.exit_code() == 0
    dan.wait_for(rf"Room {code} is closed\.")
    dan.settle()
    said = flat(dan.text)
    assert "Results of race 1" in said, dan.text
    assert re.search(r"\bann +resigned\b", said) and re.search(r"\bbob +resigned\b", said), said
    dan.type("q")
    assert dan.exit_code() == 0


def test_a_watchers_reconnected_notice_passes(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``Reconnected.`` stayed on a watcher's message line for minutes (nothing a watcher
    does or sees replaced it): it passes, as a notice does."""
    ann = start(terminals, server_process, tmp_path / "ann", "race", "new", "gate")
    register(ann, "ann")
    code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    dan = start(terminals, server_process, tmp_path / "dan", "race", "watch", code)
    dan.wait_for(r"watching room " + code)
    server_process.stop()  # the server restarts: 1012 to every connection
    dan.wait_for(r"reconnecting in \d")
    server_process.start()
    # drawn (in what the terminal was sent: ann's own return, "ann is back", may take its
    # place on the screen before it is read there)
    deadline = time.monotonic() + 15
    while b"Reconnected." not in dan.output:
        assert time.monotonic() < deadline and dan.pump(), dan.text
    deadline = time.monotonic() + 20  # (it passes after PASSING_MS, 6 s)
    while "Reconnected." in dan.text:
        assert time.monotonic() < deadline, dan.text
        dan.pump()
    dan.wait_for(rf"Room {code}: The Gate")  # (watching still)
    dan.type("q")
    assert dan.exit_code() == 0
