"""A newcomer's first command, in a pseudo-terminal against a real server and Redis: one
who acts (joins a group from a friend's link, makes a group, joins the league, follows a
friend) is asked for a name on the spot and registered, as ``play`` and ``race join``
ask; one who only asks to see their own things is told how to register; and with no
terminal to ask at, the refusal stands."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

from client_cli.challenge import http_url
from client_cli.config import Account, TokenStore
from tests.app.client import player
from tests.app.conftest import ServerProcess

from .terminal import CLIENT, Terminal, flat


def ann_with_a_group(url: str, config: Path) -> str:
    """ann registered (her token in ``config``), owner of a group: its link."""

    async def go() -> str:
        client = await player(url, "ann")
        reply = await client.call("group_create", name="Friday Club")
        assert client.token is not None
        TokenStore(config / "patience-race").put(url, Account("ann", client.token))
        await client.close()
        return http_url(url, str(reply["group"]["link"]))

    return asyncio.run(go())


def saved(url: str, config: Path) -> str | None:
    account = TokenStore(config / "patience-race").get(url)
    return account.name if account else None


def run(terminals: list[Terminal], url: str, config: Path, *args: str) -> Terminal:
    terminal = Terminal(list(args), server=url, config=config, cols=100, rows=40)
    terminals.append(terminal)
    return terminal


def newcomer(
    terminals: list[Terminal], url: str, tmp_path: Path, name: str, *args: str
) -> Terminal:
    """The terminal of a player with no token yet running ``args``, who gives ``name``
    when asked for one."""
    terminal = run(terminals, url, tmp_path / name, *args)
    terminal.wait_for("Choose a name")
    terminal.type(name)
    return terminal


def test_a_newcomer_joins_a_group_from_its_link_naming_themselves_on_the_spot(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    url = server_process.url
    link = ann_with_a_group(url, tmp_path / "ann")
    dan = newcomer(terminals, url, tmp_path, "dan", "group", "join", link)
    dan.wait_for(r"Registered as dan")
    dan.wait_for(r"Friday Club · 2 members")
    assert dan.exit_code() == 0
    assert "no token is saved" not in dan.text
    assert saved(url, tmp_path / "dan") == "dan"


def test_a_newcomer_makes_a_group_joins_the_league_and_follows_a_friend(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    url = server_process.url
    ann_with_a_group(url, tmp_path / "ann")
    made = newcomer(terminals, url, tmp_path, "eve", "group", "new", "Chess", "Club")
    made.wait_for(r"Chess Club · 1 member")
    assert made.exit_code() == 0

    league = newcomer(terminals, url, tmp_path, "fay", "league", "--join")
    league.wait_for(r"You have joined this week's event\.")
    assert league.exit_code() == 0

    follow = newcomer(terminals, url, tmp_path, "gus", "follow", "ann")
    follow.wait_for(r"You follow ann")
    assert follow.exit_code() == 0
    assert [saved(url, tmp_path / n) for n in ("eve", "fay", "gus")] == ["eve", "fay", "gus"]


def test_no_name_given_registers_nobody(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    url = server_process.url
    link = ann_with_a_group(url, tmp_path / "ann")
    dan = run(terminals, url, tmp_path / "dan", "group", "join", link)
    dan.wait_for("name:")
    dan.type("")
    dan.wait_for(r"No name chosen: nothing is registered\.")
    assert dan.exit_code() == 1
    assert "Traceback" not in dan.text and "no token is saved" not in dan.text
    assert saved(url, tmp_path / "dan") is None


def test_ones_own_things_shown_to_a_newcomer_say_how_to_register(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``challenges``, ``devices``, ``group`` (the list): nothing to show, no name asked;
    and a join with no terminal to ask at (a script) is refused in words."""
    url = server_process.url
    link = ann_with_a_group(url, tmp_path / "ann")
    shown = run(terminals, url, tmp_path / "hal", "challenges")
    assert shown.exit_code() == 1
    assert "play once to register" in flat(shown.text) and "name:" not in shown.text
    piped = subprocess.run(
        [CLIENT, "--server", url, "group", "join", link],
        env={"XDG_CONFIG_HOME": str(tmp_path / "ida"), "PATH": str(Path(sys.executable).parent)},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert piped.returncode == 1
    assert "no token is saved" in piped.stderr
