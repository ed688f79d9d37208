"""A player racing on one device who opens a room, joins another or asks for a quick
race on another: each leaves the room they race in, which resigns their game there, and
an outside probe saw ``race new wedge`` do it without a word (the rival saw them leave).
The terminal asks first, as ``play`` already told of the race."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from client_cli.config import Account, TokenStore
from tests.app.client import player, racing, signed_in
from tests.app.conftest import ServerProcess

from .terminal import Terminal, start


async def a_race(url: str) -> tuple[str, str]:
    """ann races bob (both then gone for now): ann's token and the room's code."""
    ann, bob = await player(url, "ann"), await player(url, "bob")
    try:
        code = await racing(ann, bob)
        assert ann.token is not None
        return ann.token, code
    finally:
        await ann.close()
        await bob.close()


async def resumed(url: str, token: str) -> dict[str, Any]:
    client = await signed_in(url, token)
    try:
        resume: dict[str, Any] = client.welcome["resume"]  # type: ignore[attr-defined]
        return resume
    finally:
        await client.close()


def test_a_new_room_asks_before_leaving_a_race_played_elsewhere(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    token, code = asyncio.run(a_race(server_process.url))
    config = tmp_path / "ann"
    TokenStore(config / "patience-race").put(server_process.url, Account("ann", token))
    ann = start(terminals, server_process, config, "race", "new", "wedge")
    ann.wait_for(rf"You are racing in room {code}: a new room leaves that room")
    ann.wait_for(r"Leave the race\? \[y/N\]")
    ann.type("n")
    ann.wait_for(rf"Your race goes on. To go back to it:\s+patience-race race join {code}")
    assert ann.exit_code() != 0
    resume = asyncio.run(resumed(server_process.url, token))
    assert resume["room"]["code"] == code and resume["race"]["status"] == "playing"
    # joining another room, said yes to: the race left, its game resigned
    again = start(terminals, server_process, config, "race", "new", "wedge")
    again.wait_for(r"Leave the race\? \[y/N\]")
    again.type("y")
    again.wait_for(r"Room [A-Z0-9]+ is open")
    resume = asyncio.run(resumed(server_process.url, token))
    assert resume["room"]["code"] != code
