"""The quick race in the terminal, end to end: the real client in a pseudo-terminal
against a real server (a child process: its quick race figures shortened by setting, as
a test cannot move a child's clock) and Redis. Matched with a player over the protocol
and leaving the race (resigning); alone, racing the ghosts of a recorded race."""

from __future__ import annotations

import asyncio
import re
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from client_cli.config import Account, TokenStore
from tests.app.client import Client, player, racing
from tests.app.conftest import ServerProcess

from .terminal import Terminal, flat
from .test_terminal import LEGAL, start


@pytest.fixture
def quick_server(
    request: pytest.FixtureRequest, redis_url: str, tmp_path: Path
) -> Iterator[ServerProcess]:
    """The server; ghosts after ``request.param`` seconds (the matched test waits long:
    the other player's arrival is not raced against the clock)."""
    proc = ServerProcess(
        redis_url,
        tmp_path,
        PATIENCE_QUICK_TICK="0.1",
        PATIENCE_QUICK_GATHER="0",
        PATIENCE_QUICK_GHOSTS_AFTER=str(request.param),
    )
    proc.start()
    yield proc
    if proc.process is not None:
        proc.stop(signal.SIGKILL)


def saved(url: str, config: Path, name: str) -> None:
    """``name`` registered over the protocol, their token kept for the terminal."""

    async def go() -> None:
        client = await player(url, name)
        assert client.token is not None
        TokenStore(config / "patience-race").put(url, Account(name, client.token))
        await client.close()

    asyncio.run(go())


@pytest.mark.parametrize("quick_server", [600], indirect=True)
def test_matched_with_another_player_and_leaving_is_resigning(
    quick_server: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    config = tmp_path / "ann"
    saved(quick_server.url, config, "ann")
    ann = start(terminals, quick_server, config, "quick", "gate")
    ann.wait_for(r"Quick race of The Gate: waiting · your rating 0 · looking ±3 · ghosts in \d+ s")

    async def bob_races() -> None:
        bob = await player(quick_server.url, "bob")
        waiting = await bob.call("quick", game="gate")
        assert waiting["window"] == 3.0
        matched = await bob.event("quick_matched")
        assert sorted(matched["players"]) == ["ann", "bob"]
        await bob.event("race_start")
        await asyncio.to_thread(ann.wait_for, LEGAL)
        # (said at the prompt, before the race's screen replaced it: on a loaded machine
        # the screen had moved on to the race by the time it was looked for)
        assert b"Matched with bob" in ann.output, ann.text
        ann.type("q")
        await asyncio.to_thread(ann.wait_for, r"Leave the race\? Your game will be resigned")
        ann.type("y")
        gone = await bob.event("progress", lambda e: e["player"] == "ann", timeout=20)
        assert gone["status"] == "resigned"
        await bob.close()

    asyncio.run(bob_races())
    assert ann.exit_code() == 0


@pytest.mark.parametrize("quick_server", [3], indirect=True)
def test_alone_races_the_ghosts_of_a_recorded_race(
    quick_server: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    async def recorded() -> None:
        ann, bob = await player(quick_server.url, "ann"), await player(quick_server.url, "bob")
        await racing(ann, bob)
        for who in (ann, bob):
            await who.call("resign")
        await ann.event("results")
        for who in (ann, bob):
            await Client.close(who)

    asyncio.run(recorded())
    config = tmp_path / "cat"
    saved(quick_server.url, config, "cat")
    cat = start(terminals, quick_server, config, "quick", "gate")
    cat.wait_for(r"The Gate · quick race vs 2 ghosts", timeout=20)
    cat.wait_for(LEGAL)
    cat.settle()
    assert "ann (ghost)" in cat.text and "bob (ghost)" in cat.text, cat.text
    said = rb"racing the ghosts of\s+(ann\s+and\s+bob|bob\s+and\s+ann),\s+on\s+their"
    assert re.search(said, cat.output), cat.text
    assert b"Quick race of The Gate: waiting" in cat.output  # (at the prompt, before)
    cat.type("resign")
    cat.wait_for(r"Resign\? Your game ends as it stands\.")  # (no challenge's table)
    cat.type("y")
    cat.wait_for(r"You finished (joint )?\d(st|nd|rd) of 3 against the ghosts")
    cat.wait_for(rf"Another quick race: patience-race quick gate --server {quick_server.url}")
    cat.type("q")
    assert cat.exit_code() == 0

    # again: the one recorded race is raced, so nobody is left to race. A fresh deal,
    # alone, says so everywhere (it said "vs 0 ghosts", "the ghost moves as its game was
    # played", "Go! The ghosts are off too", "1st of 1 against the ghosts")
    cat = start(terminals, quick_server, config, "quick", "gate")
    cat.wait_for(r"The Gate · quick race, alone", timeout=20)
    cat.wait_for(LEGAL)
    assert b"no recorded race is left for you to race" in cat.output, cat.text
    assert b"Nobody to race this time" in cat.output, cat.text
    assert b"ghost" not in cat.output.replace(b"ghosts in", b""), cat.text
    cat.type("resign")
    cat.wait_for(r"Resign\? Your game ends as it stands\.")
    cat.type("y")
    cat.wait_for(r"Your game: resigned")
    assert "against the ghosts" not in cat.text
    cat.type("q")
    assert cat.exit_code() == 0


@pytest.mark.parametrize("quick_server", [2], indirect=True)
def test_a_ghost_race_is_taken_up_again_in_another_terminal(
    quick_server: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """A terminal racing ghosts is taken over by another (the same player): the second's
    ``quick`` takes the race up where it stands, not a new wait in the queue."""
    config = tmp_path / "dot"
    saved(quick_server.url, config, "dot")
    first = start(terminals, quick_server, config, "quick", "gate")
    first.wait_for(r"quick race, alone", timeout=20)  # (no race recorded here)
    first.wait_for(LEGAL)
    second = start(terminals, quick_server, config, "quick", "gate")
    second.wait_for(r"as you left it", timeout=20)
    second.wait_for(LEGAL)
    assert b"waiting" not in second.output, second.text
    second.settle()
    assert "quick race, alone" in second.text, second.text
    second.type("resign")
    second.wait_for(r"Resign\?")
    second.type("y")
    second.wait_for(r"Your game: resigned")
    second.type("q")
    assert second.exit_code() == 0


@pytest.mark.parametrize("quick_server", [1], indirect=True)
def test_leaving_a_quick_race_alone_says_nothing_of_ghosts(
    quick_server: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Alone (nobody matched, no recorded race), ``q`` said: "Your quick race against the
    ghosts is kept on the server" (the docs: no ghost said anywhere)."""
    config = tmp_path / "eve"
    saved(quick_server.url, config, "eve")
    eve = start(terminals, quick_server, config, "quick", "nestor")
    eve.wait_for(r"quick race, alone", timeout=20)
    eve.wait_for(LEGAL)
    eve.type("q", enter=False)  # (at once, as a solo game's: it waited for Enter)
    assert eve.exit_code() == 0
    again = f"patience-race quick nestor --server {quick_server.url}"
    assert f"its clock runs on. To take it up: {again}" in flat(eve.text), eve.text
    assert b"ghost" not in eve.output.replace(b"ghosts in", b""), eve.text
