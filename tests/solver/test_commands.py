"""``patience-race-server solve`` and ``winnability``, run as a user runs them."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.solver import check_line


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.cli", *args], capture_output=True, text=True, check=False
    )


def test_solve_prints_the_verdict_and_a_checked_line() -> None:
    done = run("solve", "nestor", "--seed", "4")
    assert done.returncode == 0, done.stderr
    head, note, line = done.stdout.splitlines()
    assert head.startswith("Nestor, seed 4: won · ")
    assert note.startswith("a winning line, 30 moves")
    check_line("nestor", line.split(), seed=4)
    as_json = json.loads(run("solve", "nestor", "--seed", "0x4", "--json").stdout)
    assert as_json["verdict"] == "won" and as_json["line"] == line.split()
    assert as_json["checked"] is True and as_json["seed"] == 4
    # Nestor's deal 4: 26 pairs and the reserve's four turns, proved the shortest
    done = run("solve", "nestor", "--seed", "4", "--shortest")
    assert done.stdout.splitlines()[1].startswith("the shortest line, 30 moves")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("solve", "nosuch", "--seed", "1"), "solve: no such game: 'nosuch'"),
        (("solve", "gate", "--seed", "-1"), "a seed is an integer from 0 to 2**64-1"),
        (("solve", "gate", "--seed", str(2**64)), "a seed is an integer from 0 to 2**64-1"),
        (("solve", "gate", "--seed", "x"), "not a seed: 'x'"),
        (("solve", "gate", "--seed", "1", "--budget", "0"), "the budget must be more than 0"),
        (("winnability", "gate", "--deals", "0"), "--deals must be at least 1, not 0"),
        (("winnability", "gate", "--deals", "5", "--jobs", "0"), "--jobs must be at least 1"),
        (("winnability", "nosuch", "--deals", "5"), "no such game: 'nosuch'"),
        # (a traceback ended in FileNotFoundError)
        (
            ("winnability", "nestor", "--deals", "2", "--out", "/nonexistent/dir/w.jsonl"),
            "winnability: --out /nonexistent/dir/w.jsonl: No such file or directory",
        ),
    ],
)
def test_bad_arguments_say_why_with_status_2(args: tuple[str, ...], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_winnability_writes_a_line_a_deal_and_resumes(tmp_path: Path) -> None:
    out = tmp_path / "nestor.jsonl"
    first = run("winnability", "nestor", "--deals", "30", "--jobs", "2", "--out", str(out))
    assert first.returncode == 0, first.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["seed"] for r in rows) == list(range(30))
    won = sum(r["verdict"] == "won" for r in rows)
    assert f"won {won} · lost {30 - won} · unknown 0" in first.stdout
    # a run stopped mid-write leaves a cut line; the next run keeps what is whole
    out.write_text(out.read_text() + '{"game": "nestor", "se')
    again = run("winnability", "nestor", "--deals", "40", "--jobs", "1", "--out", str(out))
    assert again.returncode == 0, again.stderr
    assert "30 of the 40 deals already in" in again.stderr
    seeds = [
        json.loads(line)["seed"]
        for line in out.read_text().splitlines()
        if line.endswith("}") and line.startswith("{") and line.count("{") == 1
    ]
    assert sorted(seeds) == list(range(40))
    assert "Nestor, seeds 0 to 39" in again.stdout


def test_the_measured_winnability_is_the_table_of_the_games_page() -> None:
    """What ``games`` and the rules pages say is what docs/games/README.md measured."""
    from pathlib import Path

    from server.solver.winnability import MEASURED

    table = Path(__file__).resolve().parents[2] / "docs" / "games" / "README.md"
    rows = {}
    for line in table.read_text().splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if len(cells) == 10 and cells[0].startswith("`"):
            rows[cells[0].strip("`")] = (int(cells[1]), int(cells[2]), int(cells[3]))
    assert rows == {g: (w.deals, w.won, w.lost) for g, w in MEASURED.items()}
    for game_id, w in MEASURED.items():
        page = " ".join((table.parent / f"{game_id}.md").read_text().split())
        assert f"**Winnability:** {w.text()}" in page, game_id
