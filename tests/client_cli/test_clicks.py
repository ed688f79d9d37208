"""The terminal's clicks (client_cli/clicks.py) on the cases it shares with the browser
client's clicks.js (tests/fixtures/clicks.json, read by client_web/tests/clicks.test.js
too): the move a click sends, the pile picked after it, the note's common words, and
the piles a picked pile's moves go to (the browser lights them; here: a click on each,
and on no other pile, sends a move the server listed or asks which)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from client_cli.clicks import click

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "clicks.json"
POSITIONS: list[dict[str, Any]] = json.loads(FIXTURE.read_text())["positions"]


def _param(*values: Any, id: str) -> Any:
    # Babette's cell d2 once matched f3>d (the foundations down) and The Wedge's 22 matched
    # w>2 in the terminal: the fixture holds those cases (babette-f3-d2, wedge-w-22)
    return pytest.param(*values, id=id)


CLICKS = [
    _param(position, case, id=f"{position['game']}-{case['picked']}-{case['label']}")
    for position in POSITIONS
    for case in position["clicks"]
]
TARGETS = [
    _param(position, picked, sorted(labels), id=f"{position['game']}-{picked}")
    for position in POSITIONS
    for picked, labels in position["targets"].items()
]


@pytest.mark.parametrize(("position", "case"), CLICKS)
def test_a_click_means_what_both_clients_agree(position: dict[str, Any], case: Any) -> None:
    action, after = click(case["picked"], case["label"], position["legal"], position["kinds"])
    assert (action.arg if action.kind == "move" else None) == case["move"], case["why"]
    assert after == case["after"], case["why"]
    if "says" in case:
        assert case["says"] in action.note, case["why"]


@pytest.mark.parametrize(("position", "picked", "targets"), TARGETS)
def test_the_piles_a_picked_pile_goes_to(
    position: dict[str, Any], picked: str, targets: list[str]
) -> None:
    legal = set(position["legal"])

    def listed(label: str) -> bool:
        """Whether a click on ``label`` sends a move the server listed, or asks which."""
        action, _ = click(picked, label, position["legal"], position["kinds"])
        return action.arg in legal if action.kind == "move" else "which move?" in action.note

    assert (
        sorted(label for label in position["kinds"] if label != picked and listed(label)) == targets
    )
