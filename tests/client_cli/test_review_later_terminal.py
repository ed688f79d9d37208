"""``patience-race review ID`` of a game of today's daily deal, in a real terminal of 80
and of 60 columns: the refusal is wrapped between its words, and the command to type after
the reset works as pasted. It said "...: then, patience-race review ID", without the
``--server URL`` of a client run against another server than the default."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal
from .test_terminal import register, start

LATER = (
    "patience-race: a game of a daily deal is reviewed after the day's reset (00:00 UTC, in"
    " H h MM min): a review tells the order of the stock."
)


def words(text: str) -> str:
    """The screen's words, one space between: a word the terminal folded at its edge
    (printed whole in one line too long) comes out in two."""
    return " ".join(text.split())


@pytest.mark.parametrize("cols", [80, 60])
def test_a_daily_games_review_says_when_and_the_command_with_its_server(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal], cols: int
) -> None:
    config = tmp_path / "config"
    ann = start(terminals, server_process, config, "daily", "gate")
    register(ann, "ann")
    ann.wait_for(r"Press Enter to start your ranked attempt")
    ann.type("")
    ann.wait_for(LEGAL)
    ann.type("resign")
    ann.wait_for(r"y yes")
    ann.type("y")
    found = ann.wait_for(r"Replay: +patience-race replay ([0-9a-f]{16})")
    gid = found.group(1)
    ann.type("q")
    assert ann.exit_code() == 0

    review = start(terminals, server_process, config, "review", gid, cols=cols)
    assert review.exit_code() == 1
    shown = words(review.text)
    again = f"patience-race review {gid} --server {server_process.url}"
    # (when it comes, too: "after the reset" alone left the player to guess)
    told = re.sub(r"in (\d+ h \d\d|[1-5]?\d) min", "in H h MM min", shown)
    assert f"{LATER} After the reset:" in told, review.text
    # printed between words: every line of it within the terminal's width but the
    # command's, printed whole on a line of its own (the terminal folds it: copied whole)
    printed = review.output.decode().replace("\r\n", "\n")
    assert re.search(rf"\n *{re.escape(again)}\n", printed), printed
    lines = [line for line in printed.splitlines() if line.strip()]
    at = next(n for n, line in enumerate(lines) if line.startswith("patience-race: "))
    assert all(len(line) < cols for line in lines[at:] if again not in line), printed
    assert re.search(rf"^ *patience-race review {gid}\b", review.text, re.M), review.text


def test_an_id_that_is_no_games_is_refused_before_anything_is_asked(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """``review zzz`` said "Reviewing game zzz: the server searches it (up to ten
    seconds)..." before the server said there was no such game."""
    refused = start(terminals, server_process, tmp_path, "review", "zzz")
    refused.wait_for(r"no game 'zzz': a game's id is 16 letters and digits")
    assert refused.exit_code() == 2  # (a wrong command line, known before asking)
    assert "Reviewing" not in refused.text, refused.text
