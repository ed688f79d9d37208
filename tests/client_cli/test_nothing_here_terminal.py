"""A line that means nothing where it is typed, in the real terminal client: it is told
the keys its keys line shows. A finished ranked daily (``daily gate``, resigned) was told
"n new deal · ... · review · h help · q quit" under a keys line of "n the same deal again
(practice) · ... · q quit"; a lost Nestor game that could be undone, keys without the
``u undo`` its keys line offered."""

from __future__ import annotations

from pathlib import Path

from tests.app.conftest import ServerProcess

from .terminal import LEGAL, Terminal, flat
from .test_front_door_terminal import NESTOR_16_LOST
from .test_terminal import register, start

SAID = "'foo' means nothing here: "


def told(terminal: Terminal) -> tuple[str, str]:
    """What ``foo`` was told (its lines joined) and the keys line under it."""
    terminal.type("foo")
    terminal.wait_for("means nothing here")
    terminal.settle()
    lines = terminal.text.splitlines()
    prompt = max(n for n, line in enumerate(lines) if line.startswith(">"))
    start = next(n for n, line in enumerate(lines) if line.startswith(SAID))
    return flat(" ".join(lines[start : prompt - 1])).strip(), lines[prompt - 1].strip()


def test_a_finished_ranked_daily_is_told_the_keys_its_keys_line_shows(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path / "ann", "daily", "gate")
    register(ann, "ann")
    ann.wait_for(r"Press Enter to start your ranked attempt")
    ann.type("")
    ann.wait_for(LEGAL)
    ann.type("resign")
    ann.wait_for(r"y yes")
    ann.type("y")
    ann.wait_for(r"Today's daily challenge is done")
    said, keys = told(ann)
    assert keys.startswith("n the same deal again (practice) · "), keys
    assert said == SAID + keys, (said, ann.text)
    ann.type("q")
    assert ann.exit_code() == 0


def test_a_lost_game_is_told_u_undo_as_its_keys_line_offers_it(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal]
) -> None:
    ann = start(terminals, server_process, tmp_path / "ann", "play", "nestor", "--seed", "16")
    register(ann, "ann")
    ann.wait_for(LEGAL)
    ann.type("foo")  # playing: a move, the server's to refuse
    ann.wait_for(r"cannot read 'foo' as a move")
    assert "means nothing" not in ann.text
    for n, move in enumerate(NESTOR_16_LOST, start=1):
        ann.type(move)
        ann.wait_for(rf"moves {n}\b")
    ann.wait_for(r"moves 6 · LOST")
    said, keys = told(ann)
    assert keys.startswith("u undo · n new deal · "), keys
    assert said == SAID + keys, (said, ann.text)
    ann.type("q")
    assert ann.exit_code() == 0
