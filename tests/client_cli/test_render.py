"""The board: one renderer for every game, checked against golden text at 80 columns."""

from __future__ import annotations

import pytest
from rich.text import Text

from client_cli.render import draw_board, move_piles, piles_of, render
from server.engine import new_game

from .conftest import check_golden
from .views import GAME_IDS, played


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_start_of_every_game(game_id: str) -> None:
    check_golden(f"board-{game_id}", render(new_game(game_id, seed=1).view(), 80))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_some_moves_in(game_id: str) -> None:
    game = played(game_id, seed=7, moves=40)
    check_golden(f"board-{game_id}-played", render(game.view(), 80))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_ascii(game_id: str) -> None:
    text = render(played(game_id, seed=7, moves=40).view(), 80, ascii=True)
    assert text.isascii()
    check_golden(f"board-{game_id}-ascii", text)


def test_gate_bars_push_the_bottom_bar_down() -> None:
    # the bottom bar sits between the posts while the top bar is short...
    start = render(new_game("gate", seed=1).view()).splitlines()
    assert start[2].startswith("l ") and start[5].startswith("4♦  b1")
    # ...and moves down, keeping the posts and bars apart, as a top bar grows
    view = new_game("gate", seed=1).view()
    for pile in view["piles"]:
        if pile["label"] == "t2":
            pile["cards"] = ["KS", "QH", "JS", "TH", "9S"]
    lines = render(view).splitlines()
    assert lines[3:8] == [
        "7♦  5♠  K♠  6♦  9♠  2♦  [34]  ·",
        "9♣      Q♥          J♥",
        "4♦      J♠          5♥",
        "8♥      T♥          7♥",
        "8♦      9♠          4♥",
    ]
    assert lines[8] == "" and lines[9].startswith("    b1")


def test_cards_are_red_and_black() -> None:
    board = draw_board(new_game("doubles-and-quits", seed=1).view())
    styles = {span.style for line in board.lines for span in line.spans}
    assert "red" in styles and "default" in styles
    hearts = next(line for line in board.lines if "7♥" in line.plain)
    at = hearts.plain.index("7♥")
    assert any(s.start <= at < s.end and s.style == "red" for s in hearts.spans)


def test_playable_piles_are_marked() -> None:
    board = draw_board(new_game("gate", seed=1).view(), legal=["t1>b2", "deal"])
    label_line = board.lines[2]
    t1 = label_line.plain.index("t1")
    assert any(s.start == t1 and "bold" in str(s.style) for s in label_line.spans)


def test_short_of_room_fanned_piles_are_cut() -> None:
    view = new_game("gate", seed=1).view()
    assert len(render(view).splitlines()) == 8
    cut = render(view, height=7).splitlines()
    assert len(cut) == 7
    # the posts show their last cards, the first marked with how many are not shown
    assert cut[3].startswith("9♣+1  5♠") and cut[4] == "4♦                    5♥"


def test_too_small_a_terminal_says_so() -> None:
    board = draw_board(new_game("nestor", seed=1).view(), 80, 3)
    assert board.cropped and "enlarge the terminal" in board.lines[-1].plain


def test_a_narrow_terminal_crops() -> None:
    for line in render(new_game("blockade", seed=1).view(), 30).splitlines():
        assert Text(line).cell_len <= 30


def test_server_strings_cannot_reach_the_terminal_raw() -> None:
    view = {
        "piles": [
            {"label": "\x1b[2Jx", "kind": "k", "x": 0, "y": 0, "fan": "none", "cards": ["\x07"]},
            {"label": "ok", "kind": "k", "x": "bad", "y": None, "fan": 3, "cards": "AH"},
            "not a pile",
        ]
    }
    text = render(view)
    assert "\x1b" not in text and "\x07" not in text
    assert "[2Jx" in text and "??" in text
    assert len(piles_of(view)) == 2


def test_the_view_layout_alone_decides() -> None:
    """A game the client has never heard of draws from its view alone."""
    view = {
        "game": "new-game",
        "piles": [
            {
                "label": "north",
                "kind": "tower",
                "x": 1,
                "y": 0,
                "fan": "down",
                "cards": ["AS", "2S"],
            },
            {"label": "w", "kind": "well", "x": 0, "y": 1, "fan": "right", "cards": ["3H", "4H"]},
            {"label": "e", "kind": "well", "x": 2, "y": 1, "fan": "none", "cards": [], "down": 5},
        ],
    }
    # rows one line apart: the tower fans down beside the wells' row
    assert render(view) == "\n".join(
        [
            "       north",
            "w      A♠  e",
            "3♥ 4♥  2♠  [5]",
        ]
    )


def test_move_piles() -> None:
    assert move_piles("w>f") == ("w",)
    assert move_piles("2+r1") == ("2", "r1")
    assert move_piles("redeal") == ("redeal",)
