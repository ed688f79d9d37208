"""``patience-race top --friends`` and ``--around-me`` with no BOARD: the board of the
player's last daily on that server, said in the output. The real client against a real
server and Redis, its output a pipe (plain text)."""

from __future__ import annotations

import asyncio
import os
import subprocess
from pathlib import Path

from client_cli.config import Account, TokenStore
from server.app.domain.daily import day_of, previous_day
from tests.app.client import player, signed_in
from tests.app.conftest import ServerProcess

from .terminal import CLIENT


def client(url: str, config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATIENCE_SERVER": url, "XDG_CONFIG_HOME": str(config)}
    return subprocess.run(
        [CLIENT, *args], env=env, capture_output=True, text=True, timeout=60, check=False
    )


def register(url: str, config: Path) -> dict[str, str]:
    """ann and bob, registered over the protocol (ann's token saved for the client): their
    tokens."""

    async def go() -> dict[str, str]:
        tokens = {}
        for name in ("ann", "bob"):
            registered = await player(url, name)
            assert registered.token is not None
            tokens[name] = registered.token
            await registered.close()
        TokenStore(config / "patience-race").put(url, Account("ann", tokens["ann"]))
        return tokens

    return asyncio.run(go())


def play_daily(url: str, tokens: dict[str, str]) -> str:
    """bob then ann play today's nestor daily (resigned), ann follows bob: the day."""

    async def go() -> str:
        for name in ("bob", "ann"):
            client = await signed_in(url, tokens[name])
            await client.call("daily", game="nestor")
            await client.call("resign")
            if name == "ann":
                await client.call("follow", name="bob")
                day = day_of((await client.call("ping"))["time"])
            await client.close()
        return day

    return asyncio.run(go())


def test_friends_and_around_me_default_to_the_last_daily_played(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    url = server_process.url
    config = tmp_path / "config"
    tokens = register(url, config)
    nothing = client(url, config, "top", "--friends")
    assert nothing.returncode == 1
    assert "you have played no daily on this server yet; name a board" in nothing.stderr

    day = play_daily(url, tokens)
    friends = client(url, config, "top", "--friends")
    assert friends.returncode == 0, friends.stderr
    out = friends.stdout
    assert f"No BOARD given: the board of your last daily, daily/nestor/{day}." in out
    assert f"daily/nestor/{day} · 2 players · you and who you follow" in out
    assert "ann" in out and "bob" in out

    around = client(url, config, "top", "--around-me")
    assert around.returncode == 0, around.stderr
    assert f"the board of your last daily, daily/nestor/{day}." in around.stdout

    # --day: that game's board of that day
    yesterday = client(url, config, "top", "--friends", "--day", "yesterday")
    assert yesterday.returncode == 0, yesterday.stderr
    assert f"daily/nestor/{previous_day(day)}" in yesterday.stdout
    assert "Neither you nor anyone you follow is on this board." in yesterday.stdout

    # a board named is that board, and nothing is said of the last daily
    named = client(url, config, "top", "gate", "--friends")
    assert named.returncode == 0, named.stderr
    assert f"daily/gate/{day}" in named.stdout and "No BOARD given" not in named.stdout

    # the browser's address (a page of the same server) names the same server, and the
    # player saved for it: it was refused as "not a valid URI ... Is it running?"
    page = url.replace("ws://", "http://") + "/play"
    browsed = client(page, config, "top", "--friends")
    assert browsed.returncode == 0, browsed.stderr
    assert f"daily/nestor/{day} · 2 players · you and who you follow" in browsed.stdout
