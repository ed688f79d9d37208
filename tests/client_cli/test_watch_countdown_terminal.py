"""``top GAME --watch`` counts down to the reset by the client's clock, as the game screen
and ``league --watch`` do: the real client in a pseudo-terminal against a real server and
Redis, the board left unchanged."""

from __future__ import annotations

import re
from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import Terminal, start
from .test_terminal import daily_resigned

#: the line under today's board, its countdown caught
COUNTDOWN = r"public after the reset \(00:00 UTC, in (\d+:\d\d(?::\d\d)?)\)\."


def test_a_watched_boards_countdown_to_the_reset_counts_down(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """Probe A2, fault 3: under ``top gate --watch`` "Today's replays are public after the
    reset (00:00 UTC, in 8:55)." stood still until a result redrew the board: on a quiet
    board it was minutes, or hours, off. It counts down each second, nothing asked of
    the server."""
    daily_resigned(server_process.url, "bob")
    watch = start(terminals, server_process, tmp_path, "top", "gate", "--watch")
    first = watch.wait_for(COUNTDOWN).group(1)
    watch.wait_for(rf"UTC, in (?!{re.escape(first)}\))\d[\d:]*\)\.", timeout=5)
    assert re.search(r"\s1\s+bob\s", watch.text), watch.text  # (the same board)
    watch.child.sendintr()
    assert watch.exit_code() == 0
