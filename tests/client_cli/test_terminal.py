"""End to end: the real client in a pseudo-terminal, against a real server and Redis."""

from __future__ import annotations

import asyncio
import os
import queue
import re
import signal
import stat
import subprocess
import threading
import time
from pathlib import Path

from server.engine import new_game
from tests.app.client import player
from tests.app.conftest import ServerProcess
from tests.solver.positions import HOME, STUCK, homed

from .terminal import CLIENT, LEGAL, Terminal, as_in_a_shell, start

#: The Gate's deal 1234, as its legal line numbers the moves
GATE_1234 = r"legal: 1 b4>t3  2 b1>b2  3 l>t4  4 r>t4  5 deal"
#: function keys, as an xterm sends them
F1, F2, F3, F4 = "\x1bOP", "\x1bOQ", "\x1bOR", "\x1bOS"


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
    ann.wait_for(GATE_1234)

    # a refused move: the server's reason, and the board stays
    ann.type("l>t1")
    ann.wait_for(r"illegal move 'l>t1': 8♦ cannot go on K♦")
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


def test_home_then_a_stuck_game_offered_to_resign(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    home = HOME["gate"]
    ann = start(terminals, server_process, tmp_path, "play", "gate", "--seed", str(home.seed))
    register(ann, "ann")
    ann.wait_for(LEGAL)
    dealt = new_game("gate", seed=home.seed).cards_home()
    ann.type("home")
    ann.wait_for(r"home: " + " ".join(homed(new_game("gate", seed=home.seed))))
    ann.wait_for(rf"home {dealt + 2}/52")
    ann.type("home")
    ann.wait_for(r"no card can go home now")
    ann.type("q")
    assert ann.exit_code() == 0

    # a Wedge whose stock runs out into a position with no way forward
    stuck = STUCK["wedge"]
    ann = start(terminals, server_process, tmp_path, "play", "wedge", "--seed", str(stuck.seed))
    ann.wait_for(r"Deal a new game of The Wedge\? \[y/N\]")  # (The Gate's game given up)
    ann.type("y")
    ann.wait_for(LEGAL)
    for n, move in enumerate(stuck.line, start=1):
        ann.type(move)
        ann.wait_for(rf"moves {n} ")
    ann.wait_for(r"No way forward from here\. Resign\? y resigns;", timeout=30)
    ann.type("y")  # the offer is the question: no second one
    ann.wait_for(r"RESIGNED")
    ann.settle()  # (a screen read whole: under load it may be half repainted)
    assert "No way forward" not in ann.text
    ann.type("q")
    assert ann.exit_code() == 0


def test_a_hint_at_the_table(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path / "config", "play", "gate", "--seed", "1234")
    register(ann, "ann")
    ann.wait_for(GATE_1234)
    ann.type("hint")
    # (the server's first hint starts its worker pool: slow on a loaded machine)
    found = ann.wait_for(r"hint: (\S+) \(([^)]+)\) · hints this game: 1", timeout=30)
    move = found.group(1)
    assert move in ("b4>t3", "b1>b2", "l>t4", "r>t4", "deal")
    ann.type(move)  # the hint plays
    ann.wait_for(r"moves 1")
    ann.type("q")
    assert ann.exit_code() == 0


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

    ann.wait_for(r"bob joined")  # a notice
    ann.type("s")  # bob is not ready yet
    ann.wait_for(r"not ready yet: bob")
    bob.wait_for(r"r ready \(the host starts\)")  # bob does not host
    bob.type("r")
    ann.wait_for(r"bob\s+ready")
    ann.wait_for(r"bob is ready; everyone is ready: s to start")
    ann.type("s")
    bob.wait_for(r"██████\n", timeout=15)  # the countdown, in digits five lines tall
    ann.wait_for(r"Race 1", timeout=15)
    bob.wait_for(r"Go!")
    watcher.wait_for(r"Race 1 is on\.")  # (its line kept "bob is ready" through the race)
    first = ann.wait_for(LEGAL).group(1)
    ann.type(first)
    bob.wait_for(r"ann\s+1/26\s+1 ")  # her progress, pairs off and moves, beside his board
    watcher.wait_for(r"ann\s+1/26\s+1 ")
    assert "1 moves" not in watcher.text

    bob.type("resign")
    bob.wait_for(r"Resign this race\?")
    bob.type("y")
    bob.wait_for(r"waiting for the others")
    ann.wait_for(r"bob\s+0/26\s+0 resigned")
    ann.wait_for(r"bob resigned")
    ann.type("q")  # quitting a race asks first
    ann.wait_for(r"Leave the race\?")
    ann.type("n")
    ann.wait_for(r"legal: ")
    ann.type("resign")
    ann.wait_for(r"Resign this race\?")
    ann.type("y")
    for terminal in (ann, bob, watcher):
        terminal.wait_for(r"Results of race 1")
        # Doubles and Quits takes cards off in pairs: its progress counts pairs
        terminal.wait_for(r"1\s+ann\s+resigned\s+\S+\s+1\s+1/26")
        terminal.wait_for(r"2\s+bob\s+resigned\s+\S+\s+0\s+0/26")
    ann.wait_for(r"m calls a rematch")
    ann.wait_for(r"Race over: you came 1st of 2")  # not "waiting for the others": it is over
    bob.wait_for(r"the host may call a rematch · q leave")
    # the tests' countdown is 0.3 s: a ring at 1 and at the start (3, 2, 1 and go in 5 s)
    assert bell(bob.output) >= 1
    # the room is open while its racers are in it: one who came late joins it now, for
    # the rematch (it was refused as over), and sees the last race's results
    cal = start(terminals, server_process, tmp_path / "cal", "race", "join", code)
    register(cal, "cal")
    cal.wait_for(r"Results of race 1")
    cal.wait_for(r"ann may call a rematch")
    ann.wait_for(r"cal joined")
    cal.type("q")
    assert cal.exit_code() == 0
    # a watcher's q stops at once, as its keys line says (no seat to give up: it had
    # waited for Enter, an outside tester's "q" typed into the line)
    watcher.type("q", enter=False)
    assert watcher.exit_code() == 0
    for terminal in (ann, bob):
        assert "waiting for the others" not in terminal.text
        terminal.type("q")
        assert terminal.exit_code() == 0
    # the shell keeps the result and the replay's command once the screen is gone
    for terminal, place in ((ann, "1st"), (bob, "2nd")):
        said = rf"Race over: you came {place} of 2\.\s+Your replay: patience-race replay \w+ --"
        assert re.search(said, terminal.text), terminal.text
    assert "You left" not in watcher.text


def bell(output: bytes) -> int:
    """How many times the terminal rang: BEL bytes, not those ending an escape sequence."""
    return re.sub(rb"\x1b\][^\x07\x1b]*\x07", b"", output).count(b"\x07")


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


# -- the daily challenge, the boards, friends, replays ----------------------------------


def daily_resigned(url: str, name: str) -> str:
    """Another player, registered over the protocol, who played today's gate daily one
    move and resigned: the game's id (its replay's)."""

    async def play() -> str:
        client = await player(url, name)
        reply = await client.call("daily", game="gate")
        await client.call("move", move="deal", game=reply["game"])
        await client.call("resign", game=reply["game"])
        await client.close()
        return str(reply["game"])

    return asyncio.run(play())


def test_the_daily_then_its_board_friends_and_replay(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    config = tmp_path / "ann"
    ann = start(terminals, server_process, config, "daily", "gate")
    register(ann, "ann")
    # nothing is dealt, no clock runs, before the player says so
    ann.wait_for(r"Your ranked attempt is the\s+one\s+that\s+counts")
    ann.wait_for(r"Press Enter to start your ranked attempt \(q to leave\)")
    time.sleep(2.2)
    ann.type("")
    day = ann.wait_for(r"The Gate · daily (\d{4}-\d\d-\d\d) · 0:0[01]").group(1)
    ann.wait_for(r"streak 0 · next deal in \d+:\d\d")
    ann.wait_for(r"your one ranked attempt")
    for n in range(1, 4):
        ann.type("deal")
        ann.wait_for(rf"moves {n}")
    ann.type("q")
    assert ann.exit_code() == 0
    # play with no game takes the day's game up as daily does: its date, its streak
    # (it showed "The Gate · daily · 0:10", and no streak nor the next deal's time)
    ann = start(terminals, server_process, config, "play")
    ann.wait_for(rf"The Gate · daily {day} · ")
    ann.wait_for(r"streak 0 · next deal in \d+:\d\d")
    ann.wait_for(r"moves 3")
    ann.type("resign")  # the ranked attempt asks first
    ann.wait_for(r"Resign today's ranked attempt\?")
    ann.type("y")
    ann.wait_for(r"Your result, to paste into a chat")
    ann.wait_for(rf"Patience Race · The Gate · {day} · not won · 3 moves")
    ann.wait_for(r"rank 1 on the day's board")
    mine = ann.wait_for(r"patience-race replay ([0-9a-f]{16})").group(1)
    ann.type("new wedge")  # another game's daily: asked first, here too
    ann.wait_for(r"Start today's ranked The Wedge\? One attempt")
    ann.wait_for(r"Enter or y: start the ranked attempt · anything else: not now")
    ann.type("n")
    ann.wait_for(r"n the same deal again \(practice\)")
    assert "The Wedge" not in ann.text
    ann.type("q")
    assert ann.exit_code() == 0
    assert f"Patience Race · The Gate · {day} · not won".encode() in ann.output

    # again the same day: practice, and it says so
    again = start(terminals, server_process, config, "daily", "gate")
    again.wait_for(r"The Gate · practice " + day)
    again.wait_for(r"Practice: your ranked attempt today has ended; this one is not ranked")
    # the ranked attempt's result line, from the daily reply's ranked_result
    again.wait_for(rf"ranked: Patience Race · The Gate · {day} · not won")
    again.type("q")
    assert again.exit_code() == 0
    assert b"Today's ranked result, to paste into a chat:" in again.output

    # a board watcher sees bob's result come, then cat's
    watch = start(terminals, server_process, config, "top", "gate", "--watch")
    watch.wait_for(r"· 1 player\n")
    bob = daily_resigned(server_process.url, "bob")
    watch.wait_for(r"\n\s*\d\s+bob\s+\d+/52\s+\S+\s+1\s+0\s")  # result, time, moves, hints
    watch.child.sendintr()
    assert watch.exit_code() == 0
    daily_resigned(server_process.url, "cat")

    top = start(terminals, server_process, config, "top", "gate")
    assert top.exit_code() == 0
    assert f"daily/gate/{day} · 3 players" in top.text
    assert re.search(r"\n\s*▸\d\s+ann\s+\d+/52\s+\S+\s+3\s+0\s", top.text), top.text
    assert re.search(r"\n\s*\d\s+cat\s+\d+/52\s", top.text), top.text
    assert re.search(r"To beat: (bob|cat) \(the leader\)|You lead this board", top.text)

    follow = start(terminals, server_process, config, "follow", "BOB")
    follow.wait_for(r"You follow bob")
    assert follow.exit_code() == 0
    # following oneself is refused as a follow of nobody is, by its exit status too (it
    # exited 0)
    itself = start(terminals, server_process, config, "follow", "Ann")
    assert itself.exit_code() == 1
    assert "patience-race: that is you: follow another player" in itself.text
    assert "You follow bob" in itself.text
    friends = start(terminals, server_process, config, "top", "gate", "--friends")
    assert friends.exit_code() == 0
    assert "you and who you follow" in friends.text
    assert "bob" in friends.text and "ann" in friends.text and "cat" not in friends.text

    # bob's daily is not public before the reset; ann's own is, to her, without its seed
    other = start(terminals, server_process, config, "replay", bob)
    other.wait_for(r"public after the day's reset")
    assert other.exit_code() == 1
    own = start(terminals, server_process, config, "replay", mine)
    own.wait_for(rf"daily {day} · resigned at \S+ · 3 moves · \d+/52 home · no seed yet")
    own.wait_for(r"No seed: a daily replay before its day's reset")
    own.type("", enter=True)
    own.wait_for(r"step 1 of 4")
    own.type("q", enter=False)
    assert own.exit_code() == 0


def test_a_race_replay_stepped_through(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path / "ann", "race", "new", "gate", "--seed=7")
    register(ann, "ann")
    code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    ann.type("s")  # a race of one
    ann.wait_for(LEGAL, timeout=15)
    for n in range(1, 4):
        ann.type("deal")
        ann.wait_for(rf"moves {n}")
    ann.type("resign")
    ann.wait_for(r"Resign this race\?")
    ann.type("y")
    ann.wait_for(r"Results of race 1")
    gid = ann.wait_for(r"Replay: patience-race replay ([0-9a-f]{16}) --server ws://").group(1)
    ann.type("q")
    assert ann.exit_code() == 0

    # anyone may watch it (no name needed), as soon as the race is over
    viewer = start(terminals, server_process, tmp_path / "dan", "replay", gid, "--speed", "20")
    viewer.wait_for(rf"race 1 of room {code} · resigned at \S+ · 3 moves · 0/52 home · seed 7")
    viewer.wait_for(r"step 0 of 4 · 20 moves/s")  # the speed p plays at, + and - change it
    viewer.type("+", enter=False)
    viewer.wait_for(r"step 0 of 4 · 40 moves/s")
    viewer.type("-", enter=False)
    viewer.wait_for(r"step 0 of 4 · 20 moves/s")
    assert "name:" not in viewer.text
    # the board of each step, fetched from the server (replay_view), beside the moves
    viewer.wait_for(r"home 0/52 · moves 0 +#\s+time\s+move")
    viewer.wait_for(r"Each step's board as the server replays it")

    def board() -> str:  # the board's columns, left of the moves
        return "\n".join(line[:44] for line in viewer.text.splitlines()[2:16])

    def stock() -> int:
        # the screen may be mid-repaint: wait until the stock's count is drawn
        deadline = time.monotonic() + 10
        while not (found := re.findall(r"\[(\d+)\]", board())):
            assert time.monotonic() < deadline, f"no stock on the board:\n{viewer.text}"
            viewer.pump()
        return int(found[0])

    def settled() -> None:
        # while a step's board is on its way the nearest one is drawn, marked "fetching"
        deadline = time.monotonic() + 10
        while "fetching" in viewer.text:
            assert time.monotonic() < deadline, f"the board never came:\n{viewer.text}"
            viewer.pump()
        viewer.settle()  # and the screen wholly repainted, not read half way

    settled()
    boards = [board()]
    stocks = [stock()]
    for key, at in (("\r", 1), (" ", 2), ("\r", 3), ("b", 2)):
        viewer.type(key, enter=False)
        viewer.wait_for(rf"step {at} of 4")
        viewer.wait_for(rf"home 0/52 · moves {at} ")
        settled()
        boards.append(board())
        stocks.append(stock())
    viewer.wait_for(r"▸\s+2\s+\d:\d\d\.\d\s+deal")
    # each deal takes cards from the stock; back one step, the board of that step again
    assert stocks[0] > stocks[1] > stocks[2] > stocks[3], stocks
    assert len(set(boards[:4])) == 4 and boards[4] == boards[2]
    viewer.type("p", enter=False)
    viewer.wait_for(r"the end: resigned at")
    viewer.wait_for(r"step 4 of 4")
    viewer.type("q", enter=False)
    assert viewer.exit_code() == 0


def test_a_board_watched_through_a_pipe_writes_each_version_as_it_comes(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    """``top --watch | cat`` writes the board, then the board again at each change, as
    they come (a pipe or a file got nothing until Ctrl-C, then only the last)."""
    daily_resigned(server_process.url, "dee")
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path), "COLUMNS": "80"}
    watch = subprocess.Popen(
        [CLIENT, "--server", server_process.url, "top", "gate", "--watch"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=env,
        preexec_fn=as_in_a_shell,  # (its Ctrl-C heard where the tests' own is ignored)
    )
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:  # (a blocked read would hang the test: a thread reads)
        assert watch.stdout is not None
        for line in watch.stdout:
            lines.put(line.decode())

    threading.Thread(target=read, daemon=True).start()

    def until(text: str) -> str:
        seen = ""
        deadline = time.monotonic() + 20
        while text not in seen:
            try:
                seen += lines.get(timeout=max(deadline - time.monotonic(), 0.01))
            except queue.Empty:
                raise AssertionError(f"no {text!r} written: {seen!r}") from None
        return seen

    try:
        until("· 1 player")
        daily_resigned(server_process.url, "eve")
        seen = until("· 2 players")
        seen += until("eve")
        assert re.search(r"\n\s*\d\s+eve\s+\d+/52", seen), seen
    finally:
        watch.send_signal(signal.SIGINT)
        watch.wait(10)
