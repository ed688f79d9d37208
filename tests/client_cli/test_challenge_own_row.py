"""A challenge's result screen always shows the player's own row of its table, and says
how many rows it leaves out: at 60x20 the table showed only the ghost's row ("1  oto
resigned ..."), the player's ``▸2 ivy`` and the table's rest gone with no word of them."""

from __future__ import annotations

import re
from typing import Any

import pytest

from client_cli.lines import plain
from client_cli.screen import render_screen

from .test_challenge import RESULT, SHOWN, START, started


def entries(count: int, mine: int) -> list[dict[str, Any]]:
    """A table of ``count`` entries, the ghost's first, the player's (bob's) at ``mine``."""
    out: list[dict[str, Any]] = [{"rank": 1, **SHOWN["result"], "replay": "32f94c186b3aadc9"}]
    for rank in range(2, count + 1):
        name = "bob" if rank == mine else f"p{rank}"
        out.append({"rank": rank, "player": name, "ghost": False, "status": "resigned",
                    "moves": 12, "home": 3, "total": 52, "replay": f"{rank:016x}"})  # fmt: skip
    return out


@pytest.mark.parametrize(("cols", "rows"), [(60, 19), (60, 17), (60, 23), (80, 23), (80, 29)])
@pytest.mark.parametrize(("count", "mine"), [(2, 2), (3, 3), (12, 9), (12, 2)])
def test_the_players_row_shows_and_a_line_says_what_is_left_out(
    cols: int, rows: int, count: int, mine: int
) -> None:
    model = started()
    assert model.game is not None
    model.game.status = "resigned"
    model.apply_challenge_result({**RESULT, "table": entries(count, mine)})
    shown = plain(render_screen(model, cols, rows, START + 70_000))
    assert re.search(rf"▸{mine}\s+bob\b", shown), shown
    assert re.search(r"^\s+1\s+ann\b", shown, re.M), shown
    listed = len(re.findall(r"^\s+▸?\d+\s+(?:bob|p\d+|ann)", shown, re.M))
    if listed < count:
        assert re.search(rf"\+{count - listed} more", shown), shown
