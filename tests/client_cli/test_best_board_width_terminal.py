"""``top best/GAME`` at 60 columns where some entry counts its hints: the time and the
day were cut by a few cells (``1:02:0…``, ``2026-0…``) beside the hints column and the
replay id kept whole. Every time, move count, day and name must be read whole, at 60
columns as at 80; at 60 the replay ids give way to the names (probe Z1, fault 4). The
real client in a pseudo-terminal against the real server, the board's entries written to
its Redis as a won daily writes them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from redis.asyncio import Redis

from server.app.domain.boards import parse_board
from server.app.store.boards import Boards
from tests.app.conftest import ServerProcess

from .terminal import Terminal, start

#: (player, time, moves, hints, day, replay): an hour's time is the widest
ENTRIES = [
    ("ann", 3_723_456, 1234, 12, "2026-01-01", "5c1f0e2a9b7d4463"),
    ("bartholomew_longname", 3_999_999, 999, 0, "2026-11-22", "0123456789abcdef"),
    ("cal", 4_000_000, 88, None, "2025-12-31", "fedcba9876543210"),
]


def fill(redis_url: str) -> None:
    async def go() -> None:
        redis = Redis.from_url(redis_url)
        board = parse_board("best/gate", "2026-11-22", "2026-W47")
        for n, (name, time_ms, moves, hints, day, replay) in enumerate(ENTRIES):
            details = {
                "player": name,
                "won": True,
                "time_ms": time_ms,
                "moves": moves,
                "home": 52,
                "total": 52,
                "hints": hints,
                "replay": replay,
                "day": day,
            }
            await Boards(redis).submit_time(board, f"p{n}", details, 1_000 + n, "best")
        await redis.aclose()

    asyncio.run(go())


@pytest.mark.parametrize("cols", [60, 80])
def test_the_best_times_board_is_whole_with_its_hints(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal], cols: int
) -> None:
    fill(server_process.redis_url)
    shown = start(terminals, server_process, tmp_path, "top", "best/gate", rows=24, cols=cols)
    shown.wait_for(r"best/gate")
    assert shown.exit_code() == 0, shown.text
    text = shown.text
    # (at 60 columns the names keep their room: the replay ids go, said under the table)
    ids = cols >= 80
    assert ("replay ids show in a wider terminal" in " ".join(text.split())) != ids, text
    for name, time_ms, moves, hints, day, replay in ENTRIES:
        row = next((line for line in text.splitlines() if (replay if ids else name) in line), "")
        assert (replay in text) == ids, text
        seconds, tenths = divmod(time_ms // 100, 10)
        hours, rest = divmod(seconds, 3600)
        clock = f"{hours}:{rest // 60:02}:{rest % 60:02}.{tenths}"
        assert clock in text and str(moves) in row, text
        assert day in text, text  # on the row, or with it
        assert name in text, text  # (whole: the replay ids give way first)
        if hints:
            assert f" {hints} " in f"{row} ", text
