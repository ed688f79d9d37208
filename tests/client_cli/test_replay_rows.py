"""The replay viewer's rows and the line over its board, in a pseudo-terminal against a
real server and Redis, and ``replay`` given the replay's link.

At 80x24 a Nestor game's undo rows lost their time beside the board (``5   1+7   undone``
put the move in the time column, ``6   undo   takes b…`` cut the note); The Wedge's line
over the board was cut to its left column (``home 1/52 · moves 0 · sta…``) even at 120
columns; and ``replay http://HOST/replay/ID``, the very link the viewer shows, was
refused (``no replay 'http://…'``)."""

from __future__ import annotations

import asyncio
import itertools
import re
from pathlib import Path
from typing import Any

import pytest

from client_cli.replay import Replay, Stepper, render_replay
from server.engine import new_game
from tests.app.client import player
from tests.app.conftest import ServerProcess

from .terminal import Terminal

#: a row of the moves list: its number, its time and its move (a time is never lost)
ROW = r"(?m)^.{0,60}?\b(\d+) +(\d+:\d\d\.\d) +(\S+)(?: +(.*?))? *$"


def nestor_with_undos(url: str) -> str:
    """ann's solo game of Nestor: pairs made, the first two each taken back and made
    again, then resigned; its id (its replay's)."""

    async def play() -> str:
        ann = await player(url, "ann")
        reply = await ann.call("new_game", game="nestor", seed=7)
        gid = str(reply["game"])
        undos = 0
        for _ in range(12):
            pairs = [m for m in reply["legal"] if "+" in m]
            if not pairs:  # (a card from the reserve, where none pairs)
                if "reserve" not in reply["legal"]:
                    break
                reply = await ann.call("move", move="reserve")
                continue
            reply = await ann.call("move", move=pairs[0])
            if undos < 2 and reply["view"]["can_undo"]:  # (taken back, and made again)
                await ann.call("undo")
                undos += 1
                reply = await ann.call("move", move=pairs[0])
        assert undos == 2, "the deal had too few pairs to take back"
        await ann.call("resign")
        await ann.close()
        return gid

    return asyncio.run(play())


def wedge_game(url: str) -> tuple[str, dict[str, Any]]:
    """ann's solo game of The Wedge, resigned at once: its id and its first view."""

    async def play() -> tuple[str, dict[str, Any]]:
        ann = await player(url, "ann")
        reply = await ann.call("new_game", game="wedge", seed=3)
        await ann.call("resign")
        await ann.close()
        return str(reply["game"]), dict(reply["view"])

    return asyncio.run(play())


def rows(text: str) -> list[tuple[str, ...]]:
    """The moves list's rows on the screen: number, time, move, note."""
    return [m.groups("") for m in re.finditer(ROW, text)]


def steps_whole(text: str) -> bool:
    """The moves list's rows on ``text`` are a run of steps, each with its time, with the
    current step (the header's) among them."""
    numbers = [int(number) for number, *_ in rows(text)]
    at = int(re.search(r"step (\d+) of", text).group(1))  # type: ignore[union-attr]
    run = list(range(numbers[0], numbers[-1] + 1)) if numbers else []
    return bool(numbers) and numbers == run and at in numbers


def notes(text: str) -> dict[int, str]:
    """The moves list's notes by step: beside the move, or on the line under it."""
    found = {}
    for line, after in itertools.pairwise([*text.splitlines(), ""]):
        row = re.search(ROW, line)
        if row is not None:
            under = re.search(r"(takes back \d+|undone)$", after)
            if under is not None and re.search(ROW, after) is None:
                found[int(row.group(1))] = under.group(1)
            else:
                found[int(row.group(1))] = row.group(4) or ""
    return found


@pytest.mark.parametrize("cols, lines", [(80, 24), (120, 40)])
def test_undo_rows_keep_their_columns(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal], cols: int, lines: int
) -> None:
    gid = nestor_with_undos(server_process.url)
    viewer = Terminal(
        ["replay", gid], server=server_process.url, config=tmp_path, cols=cols, rows=lines
    )
    terminals.append(viewer)
    viewer.wait_for(r"step 0 of \d+")
    viewer.wait_for(r"pairs off 0/26")  # the board is drawn beside the moves
    seen_undone = seen_undo = False
    for _ in range(8):  # through the first undos, each row on the screen read
        viewer.type(" ", enter=False)
        viewer.settle()
        text = viewer.text
        assert "…" not in "".join(note for *_, note in rows(text)), text
        for number, _time, move, note in rows(text):
            if move == "undo":
                seen_undo = True
                assert note == f"takes back {int(number) - 1}", text
            if note == "undone":
                seen_undone = True
        # every entry listed is a row with its time: a run of steps with no gap, the
        # current one among them (a row that lost its time left a gap)
        assert steps_whole(text), text
    assert seen_undo and seen_undone, viewer.text
    viewer.type("q", enter=False)
    assert viewer.exit_code() == 0


@pytest.mark.parametrize("cols, lines", [(80, 24), (120, 40)])
def test_the_wedge_line_over_the_board_is_whole(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal], cols: int, lines: int
) -> None:
    gid, view = wedge_game(server_process.url)
    assert "stage" in view and "wedge" in view, view
    stage, wedge = str(view["stage"]), str(view["wedge"])
    viewer = Terminal(
        ["replay", gid], server=server_process.url, config=tmp_path, cols=cols, rows=lines
    )
    terminals.append(viewer)
    viewer.wait_for(r"step 0 of \d+")
    viewer.wait_for(r"moves 0")
    viewer.settle()
    text = viewer.text
    # whole, on a line of its own: room for it all at 80 columns too
    line = f" home 1/52 · moves 0 · stage {stage} · the Wedge at {wedge}"
    assert line in text.splitlines(), text
    viewer.type("q", enter=False)
    assert viewer.exit_code() == 0


@pytest.mark.parametrize("link", ["http://{host}/replay/{id}", "http://{host}/play#replay={id}"])
def test_replay_takes_its_link(
    server_process: ServerProcess, tmp_path: Path, terminals: list[Terminal], link: str
) -> None:
    gid, _view = wedge_game(server_process.url)
    host = server_process.url.removeprefix("ws://")
    # (the link names the server: $PATIENCE_SERVER, pointing nowhere, is not used)
    viewer = Terminal(
        ["replay", link.format(host=host, id=gid)], server="ws://127.0.0.1:9", config=tmp_path
    )
    terminals.append(viewer)
    viewer.wait_for(r"step 0 of \d+")
    viewer.wait_for(rf"/replay/{gid}")
    assert "no replay" not in viewer.text
    viewer.type("q", enter=False)
    assert viewer.exit_code() == 0


def test_replay_id_of_a_link() -> None:
    from client_cli.ids import replay_id  # (the function this test asks for)

    assert replay_id("6a7b580f7008c0f8") == "6a7b580f7008c0f8"
    assert replay_id(" http://127.0.0.1:9320/replay/6a7b580f7008c0f8 ") == "6a7b580f7008c0f8"
    assert replay_id("https://race.example.org/replay/6a7b580f7008c0f8/") == "6a7b580f7008c0f8"
    assert replay_id("https://race.example.org/replay/6a7b580f7008c0f8.json") == (
        "6a7b580f7008c0f8"
    )
    assert replay_id("http://h:8765/play#replay=6a7b580f7008c0f8") == "6a7b580f7008c0f8"
    assert replay_id("http://h:8765/play#board=x&replay=6a7b580f7008c0f8") == "6a7b580f7008c0f8"
    assert replay_id("http://h:8765/play#board=x&replay=ab12") is None  # (no replay's id)


def _screen(game: str, width: int, log: list[tuple[int, str]], at: int) -> str:
    """The replay screen of ``log`` (a game of ``game``) at step ``at``, its board drawn."""
    replay = Replay.from_message(
        {"id": "ab", "game": game, "start_ms": 0, "moves": [list(e) for e in log]}
    )
    stepper = Stepper(replay, at=at, boards=True)
    stepper.keep_view(at, new_game(game, seed=3).view())
    return "\n".join(line.plain.rstrip() for line in render_replay(stepper, width, 24))


@pytest.mark.parametrize("width", [60, 76, 80, 100])
def test_rows_keep_their_times_at_any_width(width: int) -> None:
    """Pure: beside the board (76 columns: a list 26 cells wide, the narrowest beside
    Nestor's board), under it (60) or wide, every row keeps its time; a note with no room
    beside its move goes whole on the line under it."""
    log = [(300, "4+7"), (400, "1+7"), (500, "!undo"), (600, "1+7"), (700, "!undo")]
    log += [(800 + n * 100, "reserve" if n % 3 else "2+9") for n in range(8)]
    said = {2: "undone", 3: "takes back 2", 4: "undone", 5: "takes back 4"}
    for at in (3, 5, 13):
        text = _screen("nestor", width, log, at)
        assert steps_whole(text), text
        assert "…" not in text.split("#", 1)[1], text
        shown = notes(text)
        assert {n: shown[n] for n in said if n in shown} == {
            n: note for n, note in said.items() if n in shown
        }, text
        assert all(not note for n, note in shown.items() if n not in said and n), text
        if at <= 5:
            assert set(said) <= set(shown), text


@pytest.mark.parametrize("width", [40, 80, 120])
def test_the_wedge_line_is_whole_at_any_width(width: int) -> None:
    """Pure: The Wedge's line over its board (its stage and where the Wedge is) is whole,
    on one line where the screen has room for it, else wrapped between its parts."""
    text = _screen("wedge", width, [(300, "resign")], 0)
    over = text.splitlines()[2 : 3 if width >= 80 else 4]  # (under the header, the summary)
    assert " ".join(" ".join(over).split()) == (
        "home 1/52 · moves 0 · stage 1 · the Wedge at 14"
    ), text
    if width >= 80:
        assert " home 1/52 · moves 0 · stage 1 · the Wedge at 14" in text.splitlines(), text
