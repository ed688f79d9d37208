"""A player's challenges seen from the terminal, end to end: the real client in
pseudo-terminals against a real server and Redis. Back after friends raced them, the
player is told with a command that pastes whole; ``challenge ID`` that only shows a
challenge (one's own, or one raced to its end) signs in beside the player's game in
another terminal, which goes on, and only racing one signs in in its place."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from client_cli.config import Account, TokenStore
from tests.app.client import Client, player, signed_in
from tests.app.conftest import ServerProcess
from tests.app.test_challenges import made

from .terminal import Terminal, start
from .test_terminal import GATE_1234

#: what a terminal whose connection was taken over says
TAKEN_OVER = ("Signed in again", "has stopped", "signed out")


async def resigned(client: Client) -> str:
    """A solo game of The Gate resigned at its deal: its id (its replay's)."""
    game = await client.call("new_game", game="gate", seed=3)
    await client.call("resign", game=game["game"])
    return str(game["game"])


async def raced(taker: Client, cid: str) -> None:
    """``taker`` races the challenge ``cid`` and resigns at its start."""
    taken = await taker.call("challenge_take", challenge=cid)
    await taker.event("challenge_start")
    await taker.call("resign", game=taken["game"])


async def challenges(url: str) -> tuple[str, str, str]:
    """ann's challenge, raced by bob (a result new to her), and bob's, raced by ann to
    its end: her token and the two challenges' ids."""
    ann, bob = await player(url, "ann"), await player(url, "bob")
    try:
        own = str((await made(ann, await resigned(ann)))["id"])
        theirs = str((await made(bob, await resigned(bob)))["id"])
        await raced(bob, own)
        await raced(ann, theirs)
        assert ann.token is not None
        return ann.token, own, theirs
    finally:
        await ann.close()
        await bob.close()


def as_ann(server: ServerProcess, tmp_path: Path, token: str) -> Path:
    """A config directory holding ann's token for ``server``."""
    config = tmp_path / "ann"
    TokenStore(config / "patience-race").put(server.url, Account("ann", token))
    return config


def test_back_after_friends_raced_ones_challenges_the_command_is_whole(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Probe A2, fault 1: coming back, ``daily nestor`` at 80 columns printed "3 new
    results on your challenges: patience-race challenges --server" and, on the next
    line, "ws://127.0.0.1:9411": the first line copied ran against the default server.
    The command goes whole on a line of its own."""
    token, _, _ = asyncio.run(challenges(server_process.url))
    config = as_ann(server_process, tmp_path, token)
    back = start(terminals, server_process, config, "daily", "gate")
    back.wait_for(r"Press Enter to start your ranked attempt")
    url = re.escape(server_process.url)
    told = rf"^1 new result on your challenges:\npatience-race challenges --server {url}$"
    assert re.search(told, back.text, re.M), back.text
    back.type("q")
    assert back.exit_code() == 0


def test_a_challenge_only_shown_leaves_the_game_in_another_terminal_alone(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Probe A2, fault 2: ``challenge ID`` of one's own challenge, which only shows its
    table and quits, signed in in the place of the player's game in another terminal
    ("Signed in again on this device ... This terminal has stopped"), where piped it
    signed in beside. A challenge only shown (one's own, one raced to its end) is shown
    beside; one taken up again signs in in the game's place, to be raced."""
    url = server_process.url
    token, own, theirs = asyncio.run(challenges(url))
    config = as_ann(server_process, tmp_path, token)
    game = start(terminals, server_process, config, "play", "gate", "--seed", "1234")
    game.wait_for(GATE_1234)

    mine = start(terminals, server_process, config, "challenge", own)
    mine.wait_for(rf"patience-race challenge {own} --server")
    assert mine.exit_code() == 0
    assert re.search(r"1\s+ann \(ghost\)\s+resigned", mine.text), mine.text
    game.type("b4>t3")
    game.wait_for(r"moves 1")
    assert not any(words in game.text for words in TAKEN_OVER), game.text

    looked = start(terminals, server_process, config, "challenge", theirs)
    looked.wait_for(r"You have raced it: your result is in the table above")
    assert looked.exit_code() == 0
    assert re.search(r"\d\s+ann\s+resigned", looked.text), looked.text
    game.type("deal")
    game.wait_for(r"moves 2")
    assert not any(words in game.text for words in TAKEN_OVER), game.text

    # a challenge game in play, taken up: raced here, so signed in in the game's place
    async def taking() -> str:
        cy = await player(url, "cy")
        ann = await signed_in(url, token)
        try:
            cid = str((await made(cy, await resigned(cy)))["id"])
            await ann.call("challenge_take", challenge=cid)
            await ann.event("challenge_start")
            return cid
        finally:
            await ann.close()
            await cy.close()

    cid = asyncio.run(taking())
    back = start(terminals, server_process, config, "challenge", cid)
    back.wait_for(r"Your challenge game, as you left it: its clock ran on\.")
    back.wait_for(r"The Gate · challenge vs cy")
    game.wait_for(r"Signed in again on this device")
