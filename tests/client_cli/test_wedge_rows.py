"""The Wedge's rows, one grid step apart, each a different length: a pile at the end of a
row (15 past row 4's end, 20 past row 5's) fanned down over the lines the next row
starts on drew its cards beside that row's labels (``21  22  23  24  8♣`` with 24 drawn
``·``: the 8♣ was on 20, read as beside 24). A row starts below every pile fanned from
the row just above it, whatever its column; the board is cut to its room as any is."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from client_cli.render import draw_board, render
from server.engine import new_game

from .views import playouts


def rows_apart(view: Mapping[str, Any], height: int | None, width: int = 80) -> list[str]:
    """Where a pile's drawn lines reach the label line of the row one grid step below it
    (or further): one line each, empty when none does."""
    board = draw_board(view, width, height)
    row_of = {p["label"]: p["y"] for p in view["piles"]}
    spots = [s for s in board.spots if s.label in row_of]
    faults = []
    for above in spots:
        for below in spots:
            if row_of[below.label] == row_of[above.label] + 1 and above.bottom >= below.top:
                faults.append(f"{above.label} (to line {above.bottom}) over {below.label}")
    return faults


def test_a_card_on_20_is_not_drawn_beside_24() -> None:
    game = new_game("wedge", seed=5)
    game.play("24>20")
    view = game.view()
    for height in (None, 17, 14, 12):
        lines = render(view, 80, height).splitlines()
        labels = next(n for n, line in enumerate(lines) if line.split()[:2] == ["21", "22"])
        assert lines[labels].split() == ["21", "22", "23", "24"], lines
        assert "8♣" in "".join(lines[:labels]), lines  # (20's cards, over the row below)
        assert not rows_apart(view, height), (height, rows_apart(view, height))
    # and in the replay viewer's room at 60x20
    assert not rows_apart(view, 11, 60)


@pytest.mark.parametrize("height", [None, 17, 13])
def test_no_wedge_pile_runs_onto_the_next_row(height: int | None) -> None:
    for game in playouts("wedge", range(3), "random", limit=120):
        view = game.view()
        board = draw_board(view, 80, height)
        if board.cropped:
            continue  # (a board that cannot fit says so on its last line)
        assert not rows_apart(view, height), (height, render(view, 80, height))
