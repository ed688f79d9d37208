"""A timed race in the real terminal client, against a real server and Redis, run until
its time runs out: what the results say of the player's own game, which ended by the
clock, with no move or reply of theirs."""

from __future__ import annotations

import re
from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import Terminal
from .test_terminal import LEGAL, register, start


def test_a_race_whose_time_ran_out_gives_the_players_own_replay(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    """After two timed races an outside tester found only "Others: patience-race replay
    ID ..." under the results, though their own replay was there to be played: the
    client still took their game for one being played."""
    ann = start(
        terminals, server_process, tmp_path / "ann", "race", "new", "gate", "--time-limit=10"
    )
    register(ann, "ann")
    ann.wait_for(r"race join ([A-Z0-9]{6})")
    ann.type("s")  # a race of one, left to run out (10 s, the least limit)
    first = ann.wait_for(LEGAL, timeout=15).group(1)
    ann.type(first)
    ann.wait_for(r"moves 1")
    ann.wait_for(r"Results of race 1", timeout=20)
    gid = ann.wait_for(r"Replay: patience-race replay ([0-9a-f]{16}) --server ws://").group(1)
    # the table's id: the same; the result in words, not the protocol's "timeout"
    assert re.search(rf"1 +ann +time ran out +— +1 +\S+ +{gid}", ann.text), ann.text
    ann.type("q")
    assert ann.exit_code() == 0
    assert re.search(rf"Your replay: patience-race replay {gid}\b", ann.text), ann.text
