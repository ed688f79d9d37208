"""The daily across the day's reset (00:00 UTC), in a real terminal against a real server
whose clock is shifted to a few seconds before a midnight (``clock_offset``), as the
outside probe crossed it (probe I, faults 2, 4 and 5):

- a ranked attempt in play when the reset ends it gives way to its result, its clock
  stopped at the recorded time (the screen stayed live, its clock running, and ``q``
  said the attempt was kept and its clock ran on);
- the result screen of an attempt ended before the reset, left open across it, says what
  is true once the day has changed (it said "Today's", "The next deal in 0:00", pointed
  the board command at the new day's board, called the replay the player's alone), and
  ``n`` deals that day's deal again, as it says (it asked to start the new day's ranked
  attempt);
- "Press Enter to start" left open across the reset does not deal the new day's deal
  after describing the old one's: it says the day changed and describes the new one."""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.app.client import Client
from tests.app.midnight import Midnight, midnight_served

from .terminal import LEGAL, Terminal, start
from .test_terminal import register

#: seconds from the server's start to its midnight: time for a client or two to register
#: and start their daily first
LEAD = 20.0


@pytest.fixture
def midnight(redis_url: str, tmp_path: Path) -> Iterator[Midnight]:
    yield from midnight_served(redis_url, tmp_path, LEAD)


def board_entries(url: str, board: str) -> list[dict[str, Any]]:
    async def read() -> list[dict[str, Any]]:
        client = await Client.connect(url)
        await client.call("hello", protocol=1)
        page = await client.call("top", board=board)
        await client.close()
        return list(page["entries"])

    return asyncio.run(read())


def header_clock(terminal: Terminal) -> str:
    terminal.settle()
    first = terminal.text.splitlines()[0]
    found = re.search(r" · (\d+:\d\d)\b", first)
    assert found, first
    return found.group(1)


def legal_line(terminal: Terminal) -> str:
    terminal.settle()
    return next(line for line in terminal.text.splitlines() if line.startswith("legal: "))


def keys_line(terminal: Terminal) -> str:
    """The keys line: the line over the prompt's."""
    terminal.settle()
    lines = terminal.text.splitlines()
    prompt = max(n for n, line in enumerate(lines) if line.startswith(">"))
    return lines[prompt - 1].strip()


def ranked_started(terminal: Terminal, name: str) -> str:
    """``daily gate`` started, registered as ``name``, with one move played: its day."""
    register(terminal, name)
    terminal.wait_for(r"Press Enter to start your ranked attempt")
    terminal.type("")
    terminal.wait_for(LEGAL)
    day = terminal.wait_for(r"The Gate · daily (\d{4}-\d\d-\d\d)").group(1)
    terminal.type("1")
    terminal.wait_for(r"moves 1\b")
    return day


def test_a_ranked_daily_the_reset_ends_gives_way_to_its_result_its_clock_stopped(
    midnight: Midnight, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, midnight.process, tmp_path / "ann", "daily", "gate")
    day = ranked_started(ann, "ann")
    midnight.before()
    ann.type("resign")  # a question open as the reset comes: it goes with the game
    ann.wait_for(r"Resign today's ranked attempt\?")
    midnight.passed()
    # the server's daily_result (timeout) ends the game: the board gives way to the result
    ann.wait_for(rf"The {day} daily challenge is done: time ran out, rank 1", timeout=20)
    ann.wait_for(rf"Your ranked attempt of {day} is over \(time ran out\): rank 1\.")
    text = ann.text
    assert "legal:" not in text and "Resign today's" not in text, text
    assert re.search(r"TIME RAN OUT · streak 0 · next deal out", text), text
    # its clock stopped, at the time the board records (it ran on: 6:40, 6:55, 7:06)
    (entry,) = board_entries(midnight.process.url, f"daily/gate/{day}")
    shown = header_clock(ann)
    minutes, seconds = (int(part) for part in shown.split(":"))
    assert abs(minutes * 60 + seconds - entry["time_ms"] // 1000) <= 1, (shown, entry)
    time.sleep(2.2)
    assert header_clock(ann) == shown
    ann.type("1")  # no move of a game over is sent ("the day is over: a daily ends...")
    ann.settle()
    assert "a daily ends at 00:00 UTC" not in ann.text, ann.text
    ann.type("q")
    assert ann.exit_code() == 0
    # (what is printed once the screen is gone: after the alternate screen's end)
    said = " ".join(ann.output.split(b"\x1b[?1049l")[-1].decode(errors="replace").split())
    assert "Your result, to paste into a chat:" in said, said
    assert "clock runs on" not in said and "is kept on the server" not in said, said


def test_a_daily_result_left_open_across_the_reset_says_the_day_is_over(
    midnight: Midnight, tmp_path: Path, terminals: list[Terminal]
) -> None:
    bob = start(terminals, midnight.process, tmp_path / "bob", "daily", "gate")
    register(bob, "bob")
    bob.wait_for(r"Press Enter to start your ranked attempt")
    bob.type("")
    bob.wait_for(LEGAL)
    dealt = legal_line(bob)  # the deal's legal moves, before any
    day = bob.wait_for(r"The Gate · daily (\d{4}-\d\d-\d\d)").group(1)
    bob.type("resign")
    bob.wait_for(r"y yes")
    bob.type("y")
    bob.wait_for(r"Today's daily challenge is done: resigned, rank 1 on the day's board so far\.")
    bob.wait_for(r"The next deal in \d+:\d\d")
    midnight.before()
    midnight.passed(1.0)
    bob.wait_for(
        rf"The {day} daily challenge is done: resigned, rank 1 on the day's board"
        r"\s+as you\s+finished\."
    )
    bob.settle()
    text = bob.text
    assert "Today's" not in text and "0:00" not in text.splitlines()[1], text
    assert "next deal out" in text.splitlines()[1], text
    assert "The next day's deal is out: new gate plays it (asked first)." in text, text
    board = f"patience-race top gate --day {day} --server {midnight.process.url}"
    assert re.search(rf"The board:\s+{re.escape(board)}\n", text), text
    assert "(anyone's now: the day is over)" in text and "yours alone" not in text, text
    assert re.search(rf"Your ranked attempt of {day} is over \(resigned\)", text), text
    keys = keys_line(bob)
    assert keys.startswith("n that day's deal · new GAME today's daily · "), keys
    # n: that day's deal again, not ranked, dealt from its seed (public now)
    bob.type("n")
    bob.wait_for(rf"The {day} deal of The Gate again, as a solo game: not ranked\.")
    bob.wait_for(r"The Gate · solo · ")
    bob.wait_for(LEGAL)
    assert legal_line(bob) == dealt
    assert "Start today's ranked" not in bob.text
    bob.type("q")
    assert bob.exit_code() == 0


def test_press_enter_left_open_across_the_reset_describes_the_new_deal_first(
    midnight: Midnight, tmp_path: Path, terminals: list[Terminal]
) -> None:
    cat = start(terminals, midnight.process, tmp_path / "cat", "daily", "gate")
    register(cat, "cat")
    cat.wait_for(r"Press Enter to start your ranked attempt")
    midnight.before()
    midnight.passed()
    cat.type("")
    # not dealt: the day changed, and the new day's deal is described before its clock
    said = cat.wait_for(r"The day has changed: it is (\d{4}-\d\d-\d\d), a new deal\.")
    new_day = said.group(1)
    cat.settle()
    after = cat.text[cat.text.index("The day has changed") :]
    assert "The Gate, today's deal: the same for everyone." in " ".join(after.split()), after
    assert after.rstrip().endswith("Press Enter to start your ranked attempt (q to leave)")
    assert "· daily" not in cat.text
    cat.type("")
    cat.wait_for(rf"The Gate · daily {new_day} · ")
    cat.type("q")
    assert cat.exit_code() == 0
