"""A replay's screen, stepped through, against golden text at 80x24; a replay's log read
as the protocol defines it (no rules)."""

from __future__ import annotations

import io
from typing import Any

from rich.console import Console

from client_cli.replay import Replay, Stepper, render_replay, replay_table
from client_cli.screen import plain

from .conftest import check_golden
from .views import GAME_LIST

START = 1_795_310_121_376
GAMES = {g["id"]: g["name"] for g in GAME_LIST}


def race_replay(moves: int = 30) -> dict[str, Any]:
    log: list[list[Any]] = [
        [START + 1_200 * (n + 1), f"t{n % 4 + 1}>b{n % 3 + 1}"] for n in range(moves)
    ]
    log[5][1] = "!undo"
    log[6][1] = "!undo"
    log.append([START + 1_200 * (moves + 1), "!resign"])
    return {
        "id": "40b016155f3a3795",
        "game": "gate",
        "seed": 1234,
        "kind": "race",
        "start_ms": START,
        "moves": log,
        "result": {"status": "resigned", "time_ms": 1_200 * (moves + 1), "moves": moves - 4,
                   "home": 9, "total": 52},
        "player": "ann",
        "room": "STGJHS",
        "race": 2,
    }  # fmt: skip


def screen(stepper: Stepper, ascii: bool = False) -> str:
    return plain(render_replay(stepper, 80, 24, ascii=ascii))


def test_undo_takes_back_the_move_before() -> None:
    replay = Replay.from_message(race_replay(), GAMES)
    undos = [e for e in replay.entries if e.text == "undo"]
    assert [e.note for e in undos] == ["takes back 5", "takes back 4"]
    assert [e.number for e in replay.entries if e.undone] == [4, 5]
    assert replay.entries[-1].text == "resign"


def test_at_the_deal() -> None:
    stepper = Stepper(Replay.from_message(race_replay(), GAMES))
    stepper.message = "The moves as the server kept them (the client knows no rules, so no board)."
    shown = screen(stepper)
    check_golden("replay-start", shown)
    assert shown.splitlines()[0].startswith(" Replay · The Gate · ann")
    assert "race 2 of room STGJHS · resigned at 0:37.2 · 26 moves · 9/52 home · seed 1234" in (
        shown
    )


def test_stepping_keeps_the_current_move_in_view() -> None:
    stepper = Stepper(Replay.from_message(race_replay(), GAMES))
    for _ in range(20):
        stepper.step(1)
    stepper.step(-1)
    stepper.playing = True
    shown = screen(stepper)
    check_golden("replay-middle", shown)
    assert "▸   19    0:22.8   t3>b1" in shown
    assert "move 19 of 31 playing 2/s" in shown.splitlines()[0]


def test_at_the_end() -> None:
    stepper = Stepper(Replay.from_message(race_replay(), GAMES))
    stepper.step(99)
    assert stepper.at == 31 and not stepper.playing
    shown = screen(stepper, ascii=True)
    assert shown.isascii()
    check_golden("replay-end-ascii", shown)
    assert "the end: resigned at 0:37.2" in shown
    stepper.toggle()  # play again from the deal
    assert stepper.at == 0 and stepper.playing


def test_a_daily_before_its_reset_has_no_seed() -> None:
    raw = {**race_replay(8), "kind": "daily", "seed": None, "day": "2026-11-22"}
    del raw["room"], raw["race"]
    stepper = Stepper(Replay.from_message(raw, GAMES))
    stepper.message = "No seed: a daily replay before its day's reset."
    stepper.tone = "warn"
    shown = screen(stepper)
    check_golden("replay-daily-no-seed", shown)
    assert "daily 2026-11-22 · resigned at 0:10.8 · 4 moves · 9/52 home · no seed yet" in shown


def test_a_replay_for_a_pipe() -> None:
    console = Console(width=80, file=io.StringIO(), color_system=None)
    console.print(replay_table(Replay.from_message(race_replay(8), GAMES)))
    check_golden("replay-table", console.file.getvalue())  # type: ignore[attr-defined]


def test_speed_stays_in_bounds() -> None:
    stepper = Stepper(Replay.from_message(race_replay(8), GAMES))
    for _ in range(10):
        stepper.faster(2)
    assert stepper.speed == 64
    for _ in range(20):
        stepper.faster(0.5)
    assert stepper.speed == 0.25
