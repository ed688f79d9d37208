"""A real server whose clock reaches a midnight (UTC) a few seconds after it starts
(``clock_offset``): for the tests that cross the daily's reset in a real client, the
terminal's and the browser's."""

from __future__ import annotations

import signal
import time
from collections.abc import Iterator
from pathlib import Path

from server.app.domain.daily import day_of, next_reset_ms

from .conftest import ServerProcess


class Midnight:
    """A server whose clock reaches a midnight ``lead`` seconds after it starts."""

    def __init__(self, redis_url: str, tmp_path: Path, lead: float) -> None:
        now = time.time_ns() // 1_000_000
        # (a midnight a day on: the next may be seconds away on the machine's clock)
        midnight = next_reset_ms(now) + 86_400_000
        offset_ms = midnight - now - round(lead * 1000)
        data = tmp_path / "server"
        data.mkdir()
        self.process = ServerProcess(redis_url, data, PATIENCE_CLOCK_OFFSET=f"{offset_ms / 1000}")
        #: this machine's time (ms) of the server's midnight
        self.at = midnight - offset_ms
        #: the day that ends at it, and the one it begins
        self.old = day_of(midnight - 1)
        self.new = day_of(midnight)

    def before(self) -> None:
        """The test's set-up came before the midnight (else the machine was too slow)."""
        assert time.time() * 1000 < self.at - 1000, "set up after the server's midnight"

    def passed(self, extra: float = 0.5) -> None:
        """Wait until the server's midnight has passed, by ``extra`` seconds."""
        time.sleep(max(0.0, (self.at - time.time() * 1000) / 1000 + extra))


def midnight_served(redis_url: str, tmp_path: Path, lead: float) -> Iterator[Midnight]:
    """A test's :class:`Midnight`, started, and killed after the test (its fixture)."""
    shifted = Midnight(redis_url, tmp_path, lead)
    shifted.process.start()
    yield shifted
    if shifted.process.process is not None:
        shifted.process.stop(signal.SIGKILL)
