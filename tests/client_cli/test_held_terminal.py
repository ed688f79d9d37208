"""A ranked daily the pace policy held (docs/leaderboards.md, "Fair play: the pace
policy"), in the real terminal client: a script plays today's Gate daily over the
protocol as fast as the websocket lets it, with the token the client then signs in with;
``patience-race daily gate`` says, in words, that the ranked result is held for review,
and the client's view of the day's board does not have it."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

from client_cli.config import Account, TokenStore
from server.app.domain.daily import day_of
from tests.app.client import player
from tests.app.conftest import ServerProcess
from tests.app.test_pace import scripted, secret_the_script_wins

from .terminal import Terminal
from .test_terminal import start


def test_a_held_daily_says_so_in_the_terminal(
    redis_url: str, tmp_path: Path, terminals: list[Terminal]
) -> None:
    secret, line = secret_the_script_wins(day_of(int(time.time() * 1000)))
    # (as fast as the websocket lets it: the in-process servers' rate, not 30 a second)
    server = ServerProcess(
        redis_url, tmp_path, PATIENCE_SECRET=secret, PATIENCE_RATE="1000", PATIENCE_BURST="1000"
    )
    server.start()
    config = tmp_path / "ann"

    async def script() -> None:
        ann = await player(server.url, "ann")
        assert (await scripted(ann, line))["review"]["state"] == "held"
        assert ann.token is not None
        TokenStore(config / "patience-race").put(server.url, Account("ann", ann.token))
        await ann.close()

    try:
        asyncio.run(script())
        ann = start(terminals, server, config, "daily", "gate")
        ann.wait_for(r"Your ranked attempt today: held for review: played faster than")
        ann.wait_for(r"The Gate · practice")
        ann.type("q")
        top = start(terminals, server, config, "top", "gate")
        assert top.exit_code() == 0
        assert "daily/gate/" in top.text and " 0 players" in top.text, top.text
    finally:
        server.stop()
