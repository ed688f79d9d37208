"""``league`` and ``league --watch`` across the week's end and close, in a real terminal
against real servers whose clocks are shifted to just before a week's end
(``clock_offset``), as the outside probe crossed it (probe J, faults 1, 2, 5 and 6):

- a watch opened before joining shows the join made elsewhere; at the week's end (by the
  local clock: the server here pushes nothing then) a member's screen says "ended,
  closing" with no today column, and one not joined that the week has ended and the
  next opens after the close, not that they may join; at the close (made by another
  process) the member's screen shows the week's result, closed, and the new week under
  it, and both offer the new week's join;
- in the first minutes of a week, while last week's leagues are being closed, ``league``
  says so, names the week the player is in, and offers no join that would be refused;
- a watch whose server restarted across the close shows the week it watched, closed,
  before the new week."""

from __future__ import annotations

import asyncio
import re
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from server.app.domain import leagues as lg
from server.app.domain.daily import iso_week
from tests.app.client import player, signed_in
from tests.app.conftest import ServerProcess

from .terminal import Terminal, flat, start
from .test_name_terminal import registered, run

#: seconds from a server's start to its week's end: time to register and start watching
LEAD = 25.0


class Shifted:
    """Server processes on one Redis whose clocks are this machine's moved to put the
    end of a week ``LEAD`` seconds after the first is made; ``at`` is this machine's
    time (ms) of that end."""

    def __init__(self, redis_url: str, tmp_path: Path) -> None:
        self.redis_url, self.tmp_path = redis_url, tmp_path
        now = time.time_ns() // 1_000_000
        # (a week's end a week on: this week's may be seconds away on the machine's clock)
        self.end = lg.week_end_ms(iso_week(now)) + lg.WEEK_MS
        self.week = iso_week(self.end - 1)
        self.next = iso_week(self.end)
        self.at = now + round(LEAD * 1000)
        self.made: list[ServerProcess] = []

    def process(self, server_ms: float, sweep: float, name: str) -> ServerProcess:
        """A process whose clock reads ``server_ms`` (after the week's end: + ``end``)
        when this machine's reads ``at``; its housekeeping every ``sweep`` seconds."""
        data = self.tmp_path / name
        data.mkdir(exist_ok=True)
        offset = (self.end + server_ms - self.at) / 1000
        env = {"PATIENCE_CLOCK_OFFSET": f"{offset}", "PATIENCE_SWEEP_INTERVAL": f"{sweep}"}
        env["PATIENCE_SECRET"] = "the-league-close-tests-own-secret"  # (one for all)
        proc = ServerProcess(self.redis_url, data, **env)
        proc.start()
        self.made.append(proc)
        return proc

    def passed(self, extra: float = 0.5) -> None:
        time.sleep(max(0.0, (self.at - time.time() * 1000) / 1000 + extra))


@pytest.fixture
def shifted(redis_url: str, tmp_path: Path) -> Iterator[Shifted]:
    made = Shifted(redis_url, tmp_path)
    yield made
    for proc in made.made:
        if proc.process is not None:
            proc.stop(signal.SIGKILL)


def shows(terminal: Terminal, pattern: str, timeout: float = 10) -> None:
    """Wait until the screen's words, lines joined, show ``pattern`` (a line on top
    wraps at 80 columns)."""
    deadline = time.monotonic() + timeout
    regex = re.compile(pattern)
    while not regex.search(flat(terminal.text)):
        if not terminal.pump() or time.monotonic() > deadline:
            raise AssertionError(f"no {pattern!r} on the screen:\n{terminal.text}")


def join_elsewhere(url: str, token: str) -> None:
    """The player joins from another connection (their phone), not the terminal."""

    async def go() -> None:
        phone = await signed_in(url, token, side=True)
        await phone.call("event_join")
        await phone.close()

    asyncio.run(go())


def joined_by_another(url: str, name: str) -> None:
    async def go() -> None:
        other = await player(url, name)
        await other.call("event_join")
        await other.close()

    asyncio.run(go())


def test_a_watch_across_the_weeks_end_and_its_close(
    shifted: Shifted, tmp_path: Path, terminals: list[Terminal]
) -> None:
    # (housekeeping every hour: the week's end is drawn by the client's clock alone)
    one = shifted.process(0, 3600, "one")
    rob_cfg, sue_cfg = tmp_path / "rob", tmp_path / "sue"
    rob_token = registered(one.url, rob_cfg, "rob")
    registered(one.url, sue_cfg, "sue")
    rob = start(terminals, one, rob_cfg, "league", "--watch", rows=40)
    sue = start(terminals, one, sue_cfg, "league", "--watch", rows=40)
    for terminal in (rob, sue):
        shows(terminal, rf"Week {shifted.week} · you have not joined; you would play in Bronze")

    # fault 1: joined from another connection, the watch shows the league
    join_elsewhere(one.url, rob_token)
    shows(rob, r"Bronze league 1 · you are 1st of 1 with 0 points · ends in")
    joined_by_another(one.url, "dan")
    shows(rob, r"you are \d\w\w of 2")
    shows(rob, r"dailies today")
    assert time.time() * 1000 < shifted.at - 1000, "set up after the week's end"

    # fault 2: the week's end, drawn by the local clock (the server pushes nothing here)
    shifted.passed()
    shows(rob, r"with 0 points · ended, closing", timeout=10)
    rob.settle()
    assert "today" not in rob.text and "ends in" not in rob.text, rob.text
    shows(sue, rf"Week {shifted.week} has ended; you did not race in its league")
    said = flat(sue.text)
    assert "being closed and the tiers settled" in said and "opens after" in said, said
    assert "Join it" not in said and "would play" not in said, said

    # the close, made by another process: the result, then the new week to join
    shifted.process(lg.CLOSE_GRACE_MS + 20_000, 0.5, "two")
    shows(rob, r"with 0 points · closed", timeout=30)
    shows(rob, rf"Week {shifted.next} · you have not joined; you would play in Bronze")
    shows(rob, r"Join it: ")
    said = flat(rob.text)
    assert said.index("· closed") < said.index(f"Week {shifted.next}"), said
    assert "nobody moved" in said and "stayed as it was" in said, said
    shows(sue, rf"Week {shifted.next} · you have not joined; you would play in Bronze")
    shows(sue, r"Join it: ")
    assert "being closed" not in flat(sue.text)


def test_the_weeks_close_from_the_terminal_and_a_watch_across_a_restart(
    shifted: Shifted, tmp_path: Path, terminals: list[Terminal]
) -> None:
    one = shifted.process(-10 * 60_000, 0.5, "one")
    rob_cfg = tmp_path / "rob"
    registered(one.url, rob_cfg, "rob")
    code, screen = run(one.url, rob_cfg, "league", "--join")
    assert code == 0 and "Bronze league 1 · you are 1st of 1" in screen, screen
    rob = start(terminals, one, rob_cfg, "league", "--watch", rows=40)
    shows(rob, r"you are 1st of 1 with 0 points · ends in 1\dm")

    # the process goes down; back a minute after the week's end, before the close
    one.stop(signal.SIGKILL)
    one.env["PATIENCE_CLOCK_OFFSET"] = str((shifted.end + 60_000 - time.time() * 1000) / 1000)
    one.start()
    # fault 5: no join offered that would be refused; the week one is in named
    code, screen = run(one.url, rob_cfg, "league")
    assert code == 0, screen
    assert f"Week {shifted.next} · you have not joined" in screen, screen
    assert "Join it" not in screen, screen
    assert "Last week's leagues are being closed and the tiers settled" in screen, screen
    assert f"Last week: Week {shifted.week} · Bronze league 1 · you are 1st of 1" in screen
    assert "ended, closing" in screen
    # fault 6: the watch, back, shows the week it watched first, then the new one
    shows(rob, r"with 0 points · ended, closing", timeout=30)
    shows(rob, rf"Week {shifted.next} · you have not joined")
    shows(rob, r"being closed and the tiers settled")
    assert "Join it" not in flat(rob.text)

    # down again, and back after the close is due: it closes the week itself
    one.stop(signal.SIGKILL)
    one.env["PATIENCE_CLOCK_OFFSET"] = str(
        (shifted.end + lg.CLOSE_GRACE_MS + 5_000 - time.time() * 1000) / 1000
    )
    one.start()
    shows(rob, r"with 0 points · closed", timeout=40)
    shows(rob, rf"Week {shifted.next} · you have not joined")
    shows(rob, r"Join it: ", timeout=30)
    said = flat(rob.text)
    assert said.index("· closed") < said.index(f"Week {shifted.next}"), said
    # after the close, last week told before the join (an outside tester: the terminal
    # said nothing of it once the close was done, where the browser did)
    code, screen = run(one.url, rob_cfg, "league")
    assert code == 0, screen
    last = f"Last week, {shifted.week}: 1st of 1 in Bronze, stayed in Bronze."
    assert last in flat(screen), screen
    assert flat(screen).index(last) < flat(screen).index("Join it"), screen
