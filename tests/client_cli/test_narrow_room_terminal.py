"""A race room at 60 columns by 20 rows, as at 80x24: the lobby's commands to copy are
whole (``--server ws://...`` was cut at the right edge), the keys line of every room state
and role ends with its ``q`` (a racer who is not the host lost ``q leave`` once the race
was over), and the results of eight racers can all be read (each racer took two lines at
60 columns and the table ran off the bottom). The real client in pseudo-terminals, with
racers over the protocol beside them, against the real server and Redis."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app.client import Client, player
from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, continued, flat, start
from .test_terminal import register

SIZES = [(60, 20), (80, 24)]
#: a name of the most letters a name has
LONG = "bartholomew_longname"


class Racers:
    """Racers over the protocol, on an event loop of their own (a thread) beside the
    terminals, which are read without one."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.clients: list[Client] = []
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, work: Coroutine[Any, Any, Any]) -> Any:
        return asyncio.run_coroutine_threadsafe(work, self.loop).result(30)

    def join(self, names: list[str], code: str) -> None:
        """Each of ``names`` registers, joins the room of ``code`` and is ready."""

        async def go() -> None:
            for name in names:
                client = await player(self.url, name)
                await client.call("room_join", code=code)
                await client.call("ready")
                self.clients.append(client)

        self.run(go())

    def resign(self) -> None:
        """Each of them, once the race is dealt, resigns it."""

        async def go() -> None:
            for client in self.clients:
                await client.event("race_start", timeout=15)
                await client.call("resign")

        self.run(go())

    def close(self) -> None:
        async def go() -> None:
            for client in self.clients:
                await client.close()

        self.run(go())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(10)
        self.loop.close()


@pytest.fixture
def racers(server_process: ServerProcess) -> Iterator[Racers]:
    made = Racers(server_process.url)
    yield made
    made.close()


def keys_line(terminal: Terminal) -> str:
    """The line above the input line: the keys."""
    return terminal.screen.display[-2].rstrip()


def room(
    terminals: list[Terminal],
    server: ServerProcess,
    root: Path,
    cols: int,
    rows: int,
    host: str = "ann",
) -> tuple[Terminal, Terminal, str]:
    """``host`` opens a room of The Gate (rated: no seed) and bob joins it, each in a
    terminal of ``cols`` by ``rows``: the two terminals and the room's code."""

    def begin(name: str, *args: str) -> Terminal:
        terminal = start(terminals, server, root / name, *args, rows=rows, cols=cols)
        register(terminal, name)
        return terminal

    ann = begin(host, "race", "new", "gate")
    code = ann.wait_for(r"race join ([A-Z0-9]{6})").group(1)
    bob = begin("bob", "race", "join", code)
    bob.wait_for(r"hosts and starts")
    return ann, bob, code


@pytest.mark.parametrize("cols, rows", SIZES)
def test_the_lobbys_commands_to_copy_are_whole(
    server_process: ServerProcess,
    tmp_path: Path,
    terminals: list[Terminal],
    cols: int,
    rows: int,
) -> None:
    host, bob, code = room(terminals, server_process, tmp_path, cols, rows, host=LONG)
    url = server_process.url
    host.wait_for(r"bob")
    for terminal in (host, bob):
        terminal.settle()
        assert "…" not in terminal.text, terminal.text
    said = flat(continued(host.text))
    # wrapped between words, never inside one: each word as it is typed; the command to
    # copy, wider than the screen, broken only by a shell's " \" (pasted, it runs whole)
    assert f"patience-race race join {code} --server {url}" in said, host.text
    assert f"{url.replace('ws://', 'http://')}/r/{code}" in said, host.text
    assert f"{LONG} hosts and starts the race; say r when ready." in flat(bob.text), bob.text
    bob.type("r", enter=False)
    bob.wait_for(r"you are\s+ready")
    bob.settle()
    assert f"{LONG} hosts and starts the race: you are ready (r again: not ready)." in flat(
        bob.text
    ), bob.text


@pytest.mark.parametrize("cols, rows", SIZES)
def test_the_keys_line_fits_in_every_room_state_and_role(
    server_process: ServerProcess,
    tmp_path: Path,
    terminals: list[Terminal],
    cols: int,
    rows: int,
) -> None:
    ann, bob, _ = room(terminals, server_process, tmp_path, cols, rows)

    def both_end_with(host_ends: str, guest_ends: str) -> None:
        for terminal, ends in ((ann, host_ends), (bob, guest_ends)):
            terminal.settle()
            keys = keys_line(terminal)
            assert keys.endswith(ends) and "…" not in keys, terminal.text

    both_end_with("q leave", "q leave")  # the lobby
    bob.type("r", enter=False)
    ann.wait_for(r"everyone is ready: s to start")
    ann.type("s", enter=False)
    for terminal in (ann, bob):
        terminal.wait_for(LEGAL, timeout=15)
    both_end_with("q quit", "q quit")  # racing: q asks whether to leave the race
    bob.type("resign")
    bob.wait_for(r"Resign this race\?")
    bob.type("y", enter=False)
    bob.wait_for(r"waiting for the others")
    both_end_with("q quit", "q leave")  # bob's race is over, ann's is not
    ann.type("resign")
    ann.wait_for(r"Resign this race\?")
    ann.type("y", enter=False)
    ann.wait_for(r"m calls a rematch")
    bob.wait_for(r"may call a rematch")
    both_end_with("q leave", "q leave")  # the results
    assert "m rematch" in keys_line(ann), ann.text
    assert "rematch" in keys_line(bob), bob.text


@pytest.mark.parametrize("cols, rows", SIZES)
def test_the_results_of_eight_racers_can_all_be_read(
    server_process: ServerProcess,
    tmp_path: Path,
    terminals: list[Terminal],
    racers: Racers,
    cols: int,
    rows: int,
) -> None:
    ann, bob, code = room(terminals, server_process, tmp_path, cols, rows)
    others = ["cal", "dot", "eve", "fay", "gus", "hal"]
    racers.join(others, code)
    bob.type("r", enter=False)
    ann.wait_for(r"everyone is ready: s to start")
    ann.type("s", enter=False)
    racers.resign()
    for terminal in (ann, bob):
        terminal.wait_for(LEGAL, timeout=15)
        terminal.type("resign")
        terminal.wait_for(r"Resign this race\?")
        terminal.type("y", enter=False)
    names = ["ann", "bob", *others]
    for terminal, rematch in ((ann, r"m calls a rematch"), (bob, r"ann may call a rematch")):
        terminal.wait_for(r"Results of race 1")
        terminal.wait_for(rematch)  # the last line, on the screen
        terminal.settle()
        screen = terminal.text
        table = screen[screen.index("Results of race 1") :]
        for name in names:  # every racer, and where they came
            assert re.search(rf"^\s*=?\d+\s+\S?\s*{name}\b.*resigned", table, re.M), screen
        assert len(terminal.screen.display) == rows
        # each racer's replay id, on the screen or a key away
        ids = set(re.findall(r"\b[0-9a-f]{16}\b", table))
        if len(ids) < len(names):
            assert "PgDn" in screen, screen
            terminal.child.send("\x1b[6~")  # Page Down
            terminal.wait_for(r"lines 1-\d+ of \d+")  # a page, its keys
            seen = ""
            for _ in range(6):
                terminal.settle()
                seen += terminal.text
                terminal.type(" ", enter=False)
            ids = set(re.findall(r"\b[0-9a-f]{16}\b", seen))
            assert re.search(r"-?\d+ \([+-]\d+\)", seen), seen  # the ratings, their changes
            terminal.type("q", enter=False)
            terminal.wait_for(rematch)
        assert len(ids) == len(names), terminal.text
