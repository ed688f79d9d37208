"""``patience-race name [NEW]`` in a pseudo-terminal against a real server and Redis: a
change of name said on the screen and kept in the tokens file; refusals said, the file
unchanged; a name changed on another device taken into the file."""

from __future__ import annotations

import asyncio
from pathlib import Path

from client_cli.config import Account, TokenStore
from tests.app.client import player, signed_in
from tests.app.conftest import ServerProcess

from .terminal import Terminal


def registered(url: str, config: Path, name: str) -> str:
    """A player registered over the protocol, their token saved for the client."""

    async def go() -> str:
        client = await player(url, name)
        assert client.token is not None
        await client.close()
        return client.token

    token = asyncio.run(go())
    TokenStore(config / "patience-race").put(url, Account(name, token))
    return token


def run(url: str, config: Path, *args: str) -> tuple[int, str]:
    terminal = Terminal(list(args), server=url, config=config)
    try:
        code = terminal.exit_code(timeout=30)
        # its words as written: wrapped between words at 80 columns
        return code, " ".join(terminal.text.split())
    finally:
        terminal.close()


def saved(url: str, config: Path) -> str | None:
    account = TokenStore(config / "patience-race").get(url)
    return account.name if account else None


def test_a_change_of_name_from_the_terminal(server_process: ServerProcess, tmp_path: Path) -> None:
    url = server_process.url
    ann, bob = tmp_path / "ann", tmp_path / "bob"
    registered(url, ann, "ann")
    code, screen = run(url, ann, "name", "Annika")
    assert code == 0, screen  # (run on the code before the command: "invalid choice")
    assert "You race as Annika now (was ann)." in screen
    assert saved(url, ann) == "Annika"
    # refused: said, and nothing kept
    code, screen = run(url, ann, "rename", "x")
    said = " ".join(screen.split())
    assert code == 1, screen
    assert "a name is 2 to 20 letters (A to Z), digits, '_' or '-', the first a letter" in said
    code, screen = run(url, ann, "name", "Zed")
    assert code == 1, screen
    assert "you may change your name once in 30 days: the next change is allowed" in screen
    assert saved(url, ann) == "Annika"
    # bob changes his name through another client: this one learns it when it signs in
    bob_token = registered(url, bob, "bob")

    async def elsewhere() -> None:
        client = await signed_in(url, bob_token)
        await client.call("rename", name="Bobby")
        await client.close()

    asyncio.run(elsewhere())
    assert saved(url, bob) == "bob"
    code, screen = run(url, bob, "name")
    assert code == 0 and "You race as Bobby on " in screen
    assert saved(url, bob) == "Bobby"


def test_ones_own_name_taken_at_the_prompt_points_to_a_link_code(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    """A player on a new terminal (or one signed out) types their own name at the first
    run's prompt: it is taken, and the prompt says how to play as themselves (it said
    only that the name was taken)."""
    url = server_process.url
    registered(url, tmp_path / "ann", "ann")
    terminal = Terminal(["play", "gate"], server=url, config=tmp_path / "new")
    try:
        terminal.wait_for("name:")
        terminal.type("ann")
        terminal.wait_for(r"the name 'ann' is taken")
        # (the command last on its line: "..., with a code" after it went with it)
        terminal.wait_for(r"shows one\):\s+patience-race link CODE --server ws://[\d.:]+\n")
        terminal.type("")
        assert terminal.exit_code(timeout=30) == 0
    finally:
        terminal.close()


def test_a_change_of_name_from_another_device_reaches_a_terminal_playing(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    """A terminal in a game hears of a name changed from another device (the browser's
    home screen, a second terminal's ``name``), says it and shows it in its bar; it went
    on showing the old name until it was started again."""
    url = server_process.url
    token = registered(url, tmp_path, "cyd")
    playing = Terminal(["play", "gate", "--seed", "1"], server=url, config=tmp_path)
    try:
        playing.wait_for(r"(?m)\A[^\n]* cyd$")  # the bar's right: the name it plays as

        async def elsewhere() -> None:
            side = await signed_in(url, token, side=True)
            await side.call("rename", name="Cydney")
            await side.close()

        asyncio.run(elsewhere())
        playing.wait_for(r"You race as Cydney now \(was cyd\): changed on another\s+device\.")
        playing.wait_for(r"(?m)\A[^\n]* Cydney$")
    finally:
        playing.close()
