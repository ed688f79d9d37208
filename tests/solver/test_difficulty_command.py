"""``patience-race-server difficulty``, run as a user runs it: a deal graded as the
server grades its dailies, the same figures as the server's, and bad arguments refused
(status 2, no traceback)."""

from __future__ import annotations

import json

import pytest

from server.solver.difficulty import grade_deal

from .test_commands import run


def test_difficulty_grades_a_deal_as_the_server_does() -> None:
    expected = grade_deal("nestor", 4)
    done = run("difficulty", "nestor", "--seed", "4")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(f"Nestor, seed 4: {expected['grade']} (ease ")
    assert (
        f"won {expected['board_wins']} of 6 tries, {expected['home_pct']}% of the cards"
        in done.stdout
    )
    as_json = json.loads(run("difficulty", "nestor", "--seed", "0x4", "--json").stdout)
    assert {k: v for k, v in as_json.items() if k != "seconds"} == {
        k: v for k, v in expected.items() if k != "seconds"
    }


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("difficulty", "nosuch", "--seed", "1"), "difficulty: no such game: 'nosuch'"),
        (("difficulty", "gate", "--seed", "-1"), "a seed is an integer from 0 to 2**64-1"),
        (("difficulty", "gate", "--seed", "x"), "not a seed: 'x'"),
        (("difficulty", "gate"), "the following arguments are required: --seed"),
    ],
)
def test_bad_arguments(args: tuple[str, ...], message: str) -> None:
    done = run(*args)
    assert done.returncode == 2 and message in done.stderr
    assert "Traceback" not in done.stderr
