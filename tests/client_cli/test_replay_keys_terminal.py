"""The replay viewer's keys line at 60 columns, in a pseudo-terminal against a real
server and Redis: whole (in fewer words), its way out kept, for one's own replay and for
another's (which adds r, race its ghost); it was cut with an ellipsis, q quit lost."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from client_cli.config import Account, TokenStore
from tests.app.client import player
from tests.app.conftest import ServerProcess

from .terminal import Terminal


def solo_game(url: str, config: Path) -> str:
    """ann's solo game of The Gate, a card dealt and resigned (her token in ``config``):
    its id, its replay's."""

    async def play() -> str:
        ann = await player(url, "ann")
        game = await ann.call("new_game", game="gate", seed=5)
        await ann.call("move", move="deal")
        await ann.call("resign")
        await ann.close()
        assert ann.token is not None
        TokenStore(config / "patience-race").put(url, Account("ann", ann.token))
        return str(game["game"])

    return asyncio.run(play())


@pytest.mark.parametrize("whose", ["own", "another's"])
def test_the_replay_keys_fit_60_columns(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal], whose: str
) -> None:
    gid = solo_game(server_process.url, tmp_path / "ann")
    config = tmp_path / ("ann" if whose == "own" else "bob")
    viewer = Terminal(["replay", gid], server=server_process.url, config=config, cols=60)
    terminals.append(viewer)
    viewer.wait_for(r"step \d+ of \d+")
    viewer.settle()
    keys = viewer.text.splitlines()[-1]
    assert "…" not in keys and keys.endswith("q quit"), viewer.text
    assert "space next" in keys and "b back" in keys and "p play" in keys, keys
    assert ("r race" in keys) == (whose != "own"), keys
    viewer.type("q", enter=False)
    assert viewer.exit_code() == 0
