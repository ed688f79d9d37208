"""A replay's screen, stepped through, against golden text at 80x24; a replay's log read
as the protocol defines it (no rules); the board of each step, from views fetched."""

from __future__ import annotations

import asyncio
import contextlib
import io
import re
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from client_cli.connection import ConnectionLost, ServerError
from client_cli.lines import Glyphs, plain
from client_cli.printing import _print
from client_cli.replay import Replay, Stepper, render_replay, replay_table, view_line
from client_cli.replay_tui import NO_BOARD, ReplayTui
from server.engine import new_game

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
        "rules_version": 2,
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
    assert shown.splitlines()[0].startswith(" Replay · The Gate, rules v2 · ann")
    assert "race 2 of room STGJHS · resigned at 0:37.2 · 26 moves · 9/52 home · seed 1234" in (
        shown
    )


def test_a_narrow_terminal_keeps_the_player_and_the_whole_summary() -> None:
    """Narrow, the header drops the rules' version before the player's name,
    and the summary goes on a second line rather than losing its middle; the moves keep
    their last letters (their padding was cut to an ellipsis: ``t1>b2  …``)."""
    stepper = Stepper(Replay.from_message(race_replay(), GAMES))
    shown = plain(render_replay(stepper, 44, 24)).splitlines()
    assert shown[0].startswith(" Replay · The Gate · ann "), shown[0]
    assert "step 0 of 31" in shown[0]
    assert shown[1].strip() == "race 2 of room STGJHS ·", shown[1:3]
    assert shown[2].startswith(" resigned at 0:37.2 · 26 moves · 9/52 home"), shown[1:3]
    wide = plain(render_replay(stepper, 60, 24)).splitlines()
    assert " ".join(line.strip() for line in wide[1:3]).endswith("9/52 home · seed 1234")
    assert all(len(line) <= 44 for line in shown)
    rows = [line for line in shown if re.match(r"^ .\s+\d+\s+\d:\d\d\.\d", line)]
    assert rows and not any(line.endswith("…") for line in rows), rows


def test_stepping_keeps_the_current_move_in_view() -> None:
    stepper = Stepper(Replay.from_message(race_replay(), GAMES))
    for _ in range(20):
        stepper.step(1)
    stepper.step(-1)
    stepper.playing = True
    shown = screen(stepper)
    check_golden("replay-middle", shown)
    assert "▸   19    0:22.8   t3>b1" in shown
    assert "step 19 of 31 · playing 2 moves/s" in shown.splitlines()[0]


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


def test_a_replay_counts_the_hints_asked() -> None:
    raw = race_replay(8)
    raw["result"] = {**raw["result"], "hints": 2}
    replay = Replay.from_message(raw, GAMES)
    assert (
        replay.summary()
        == "race 2 of room STGJHS · resigned at 0:10.8 · 4 moves · 9/52 home · 2 hints · seed 1234"
    )
    raw["result"]["hints"] = 1
    assert " · 1 hint · " in Replay.from_message(raw, GAMES).summary()


def test_a_replay_for_a_pipe() -> None:
    console = Console(width=80, file=io.StringIO(), color_system=None)
    _print(console, replay_table(Replay.from_message(race_replay(8), GAMES)), False)
    check_golden("replay-table", console.file.getvalue())  # type: ignore[attr-defined]


def test_a_game_the_clock_ended_reads_in_words() -> None:
    raw = race_replay(8)
    raw["result"] = {**raw["result"], "status": "timeout"}
    assert Replay.from_message(raw, GAMES).outcome() == "time ran out at 0:10.8"


def test_the_header_always_shows_the_speed() -> None:
    """+ and - change the speed of p: the header says it, playing or not (it said it only
    while playing, as "2/s", so a tester pressing + + saw nothing change)."""
    stepper = Stepper(Replay.from_message(race_replay(8), GAMES))

    def head(width: int = 80) -> str:
        return plain(render_replay(stepper, width, 24)).splitlines()[0]

    assert head().endswith("step 0 of 9 · 2 moves/s"), head()
    stepper.faster(2)
    stepper.faster(2)
    assert head().endswith("step 0 of 9 · 8 moves/s"), head()
    # narrow, the speed's unit gives way before the player's name
    assert head(44) == " Replay · The Gate · ann  step 0 of 9 · 8/s", head(44)
    stepper.step(3)
    assert head().endswith("step 3 of 9 · paused · 8 moves/s"), head()
    stepper.faster(0.5**5)
    stepper.playing = True
    assert head().endswith("step 3 of 9 · playing 0.25 moves/s"), head()


def test_speed_stays_in_bounds() -> None:
    stepper = Stepper(Replay.from_message(race_replay(8), GAMES))
    for _ in range(10):
        stepper.faster(2)
    assert stepper.speed == 64
    for _ in range(20):
        stepper.faster(0.5)
    assert stepper.speed == 0.25


# -- the board, from the server's replay_view ---------------------------------------------


def boards_replay(game_id: str, moves: int = 6) -> tuple[Stepper, dict[int, dict[str, Any]]]:
    """A replay of ``moves`` first legal moves, with the board on, and the view after each
    step (what ``replay_view`` answers)."""
    game = new_game(game_id, seed=1234)
    log: list[list[Any]] = []
    views = {0: game.view()}
    for n in range(moves):
        move = game.legal_moves()[0].text
        game.play(move)
        log.append([START + 1_200 * (n + 1), move])
        views[n + 1] = game.view()
    raw = {**race_replay(8), "game": game_id, "moves": log}
    stepper = Stepper(Replay.from_message(raw, GAMES), boards=True)
    stepper.message = "Each step's board as the server replays it."
    return stepper, views


def test_the_board_beside_the_moves() -> None:
    stepper, views = boards_replay("gate")
    assert stepper.wanted() == 0
    for step, view in views.items():
        assert stepper.keep_view(step, view)
    assert stepper.wanted() is None
    stepper.step(3)
    shown = screen(stepper)
    check_golden("replay-board-gate", shown)
    lines = shown.splitlines()
    assert "home 2/52 · moves 3" in lines[2] and "#      time   move" in lines[2]
    assert re.search(r"\[34\] .*▸    3    0:03.6   l>t4", shown), shown
    stepper.step(-3)
    assert screen(stepper) != shown  # the board of the deal


def test_a_wide_board_goes_above_the_moves() -> None:
    stepper, views = boards_replay("blockade")
    for step, view in views.items():
        stepper.keep_view(step, view)
    stepper.step(6)
    shown = screen(stepper, ascii=True)
    assert shown.isascii()
    check_golden("replay-board-blockade-ascii", shown)
    assert "the end: resigned" in shown


def test_while_a_view_is_fetched_the_nearest_is_drawn() -> None:
    stepper, views = boards_replay("gate")
    assert "fetching the board" in screen(stepper)
    stepper.keep_view(0, views[0])
    stepper.keep_view(2, views[2])
    stepper.step(1)
    assert stepper.wanted() == 1
    assert "(the board of step 0: fetching 1…)" in screen(stepper)
    stepper.playing = True
    stepper.keep_view(1, views[1])
    assert stepper.wanted() == 3  # ahead while playing
    assert not stepper.keep_view(3, {"no": "piles"})


def fetching(stepper: Stepper, fetch: Any) -> Stepper:
    """Run the viewer's fetcher until it has nothing left to fetch (or stops)."""

    async def go() -> None:
        with create_app_session(input=create_pipe_input().__enter__(), output=DummyOutput()):
            tui = ReplayTui(stepper, False, fetch)
            task = asyncio.get_running_loop().create_task(tui._fetch_views())
            for _ in range(100):
                await asyncio.sleep(0)
                if task.done() or stepper.wanted() is None:
                    break
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    asyncio.run(go())
    return stepper


def test_the_viewer_fetches_and_keeps_the_views() -> None:
    stepper, views = boards_replay("gate")
    asked: list[int] = []

    async def fetch(step: int) -> dict[str, Any]:
        asked.append(step)
        return views[step]

    fetching(stepper, fetch)
    assert asked == [0, 1, 2] and sorted(stepper.views) == [0, 1, 2]


def test_a_refused_view_leaves_the_moves_only() -> None:
    stepper, _ = boards_replay("gate")

    async def fetch(step: int) -> dict[str, Any]:
        raise ServerError("not_public", "the deal is secret until the day's reset")

    fetching(stepper, fetch)
    assert not stepper.boards and stepper.message == NO_BOARD
    shown = screen(stepper)
    assert "#      time   move" in shown.splitlines()[3]  # the moves-only screen
    assert "fetching" not in shown


def test_the_connection_warning_goes_once_a_board_comes() -> None:
    """The server stopped, then back: "No board for now (not connected): a key tries
    again." stayed through the steps after the boards came again."""
    stepper, views = boards_replay("gate")
    before = (stepper.message, stepper.tone)
    down = True

    async def fetch(step: int) -> dict[str, Any]:
        if down:
            raise ConnectionLost("not connected", sent=False)
        return views[step]

    async def go() -> None:
        nonlocal down
        with create_app_session(input=create_pipe_input().__enter__(), output=DummyOutput()):
            tui = ReplayTui(stepper, False, fetch)
            task = asyncio.get_running_loop().create_task(tui._fetch_views())
            for _ in range(20):
                await asyncio.sleep(0)
            assert stepper.message == "No board for now (not connected): a key tries again."
            down = False
            tui._wake.set()  # (a key: the viewer tries again)
            for _ in range(100):
                await asyncio.sleep(0)
                if stepper.wanted() is None:
                    break
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    asyncio.run(go())
    assert sorted(stepper.views) == [0, 1, 2]
    assert (stepper.message, stepper.tone) == before
    assert "No board for now" not in screen(stepper)


def test_one_move_is_said_in_the_singular() -> None:
    """A game resigned after one move said "1 moves" in the replay's heading."""
    message = race_replay(8)
    message["result"]["moves"] = 1
    shown = screen(Stepper(Replay.from_message(message, GAMES)))
    assert "resigned at 0:10.8 · 1 move · 9/52 home" in shown, shown


def test_the_board_line_of_a_game_of_pairs_counts_pairs() -> None:
    """Under a Nestor replay's board: pairs off, as its header and its game say (it said
    "home 52/52")."""
    view = {"home": 52, "total": 52, "moves": 30, "status": "won"}
    assert view_line(view, Glyphs(False), pairs=True).plain.startswith(" pairs off 26/26 · ")
    assert view_line(view, Glyphs(False)).plain.startswith(" home 52/52 · ")


@pytest.mark.parametrize("game_id", ["gate", "nestor", "babette"])
def test_a_board_over_the_moves_has_the_room_first_at_60_by_20(game_id: str) -> None:
    """At 60x20 the board above the moves was cut ("… 2 more lines: enlarge the
    terminal": The Gate's bars, where the step's move went, never shown) while the list
    under it kept blank lines. The board has what it needs, the list three moves or more,
    and no line is left blank between the list and the message."""
    stepper, views = boards_replay(game_id)
    stepper.views.update(views)
    stepper.at = 5
    stepper.message = "Each step's board as the server replays it. Its page: http://h/replay/x"
    lines = plain(render_replay(stepper, 60, 20)).splitlines()
    assert len(lines) == 20
    assert not any("enlarge the terminal" in line for line in lines), "\n".join(lines)
    message = next(n for n, line in enumerate(lines) if line.startswith("Each step's"))
    assert lines[message - 1].strip(), "\n".join(lines)
    heading = next(n for n, line in enumerate(lines) if line.strip().startswith("#"))
    assert message - heading - 1 >= 3, "\n".join(lines)
    assert any(line.startswith(" ▸") for line in lines[heading:message])
