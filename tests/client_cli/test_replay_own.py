"""``patience-race replay ID`` of the player's own ranked daily before the day's reset:
the real client in a pseudo-terminal, against a real server and Redis, draws each step's
board (the positions the player saw), and still says the seed is kept."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import time
from pathlib import Path

from client_cli.config import Account, TokenStore
from tests.app.client import player
from tests.app.conftest import ServerProcess

from .terminal import CLIENT, Terminal


def own_daily(url: str, config: Path) -> str:
    """ann, registered over the protocol with her token saved where the client looks,
    dealt three times in today's gate daily and resigned: the game's id."""

    async def play() -> str:
        ann = await player(url, "ann")
        reply = await ann.call("daily", game="gate")
        for _ in range(3):
            await ann.call("move", move="deal", game=reply["game"])
        await ann.call("resign", game=reply["game"])
        await ann.close()
        assert ann.token is not None
        TokenStore(config / "patience-race").put(url, Account("ann", ann.token))
        return str(reply["game"])

    return asyncio.run(play())


def stock_after(viewer: Terminal, before: int | None) -> int:
    """The stock's count on the board (``[n]``), once the step's board has replaced the
    last one: a deal takes a card from the stock, so a count under ``before`` is the new
    board (the status line can be drawn a moment before it); still ``before`` after 10 s,
    it is returned all the same, for the test to say so."""
    deadline = time.monotonic() + 10
    while True:
        count = int(viewer.wait_for(r"\[(\d+)\]").group(1))
        if before is None or count < before or time.monotonic() > deadline:
            return count
        viewer.pump()


def settled(viewer: Terminal) -> None:
    """Wait until no board is on its way (the nearest one is drawn, marked "fetching")."""
    deadline = time.monotonic() + 10
    while "fetching" in viewer.text:
        assert time.monotonic() < deadline, f"the board never came:\n{viewer.text}"
        viewer.pump()


def test_the_own_daily_replay_has_its_boards_before_the_reset(
    server_process: ServerProcess, tmp_path: Path
) -> None:
    config = tmp_path / "config"
    gid = own_daily(server_process.url, config)
    viewer = Terminal(["replay", gid], server=server_process.url, config=config)
    try:
        viewer.wait_for(r"resigned at \S+ · 3 moves · \d+/52 home · no seed yet")
        viewer.wait_for(r"No seed: a daily replay before its day's reset")
        viewer.wait_for(r"home \d+/52 · moves 0 +#\s+time\s+move")
        stocks: list[int] = []
        for at in range(4):
            if at:
                viewer.type("", enter=True)
                viewer.wait_for(rf"step {at} of 4")
            viewer.wait_for(rf"home \d+/52 · moves {at} ")
            settled(viewer)
            stocks.append(stock_after(viewer, stocks[-1] if stocks else None))
        assert stocks[0] > stocks[1] > stocks[2] > stocks[3], stocks
        assert "No board" not in viewer.text
        assert re.search(r"seed \d", viewer.text) is None
        viewer.type("q", enter=False)
        assert viewer.exit_code() == 0
    finally:
        viewer.close()


def test_a_replay_of_pairs_counts_pairs_off(server_process: ServerProcess, tmp_path: Path) -> None:
    """A Nestor replay's summary said "2/52 home" where the game said "1/26 pairs off"."""
    url = server_process.url

    async def play() -> str:
        ann = await player(url, "ann")
        game = await ann.call("new_game", game="nestor", seed=16)
        await ann.call("move", move="1+5")
        await ann.call("resign")
        await ann.close()
        assert ann.token is not None
        TokenStore(tmp_path / "patience-race").put(url, Account("ann", ann.token))
        return str(game["game"])

    gid = asyncio.run(play())
    out = subprocess.run(
        [CLIENT, "--server", url, "replay", gid],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        env={**os.environ, "XDG_CONFIG_HOME": str(tmp_path)},
        timeout=30,
    )
    assert out.returncode == 0, out
    assert " · 1 move · 1/26 pairs off · seed 16" in out.stdout, out.stdout
