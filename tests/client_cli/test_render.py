"""The board: one renderer for every game, checked against golden text at 80 columns."""

from __future__ import annotations

import itertools
import random
import re
from typing import Any

import pytest
from rich.text import Text

from client_cli.cards import card_text
from client_cli.marks import piles_of
from client_cli.notation import move_piles
from client_cli.render import MARK_STYLE, draw_board, render
from server.engine import new_game

from .conftest import check_golden
from .views import GAME_IDS, played, snapshot


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


#: the room the screen gives a board: 24 lines less the header, game line, legend,
#: message, legal moves and keys
ROOM = 17


def label_places(text: str, labels: set[str]) -> dict[str, tuple[int, int]]:
    """Where each of ``labels`` is drawn: (line, column)."""
    out = {}
    for n, line in enumerate(text.splitlines()):
        for word in re.finditer(r"\S+", line):
            if word.group() in labels:
                out[word.group()] = (n, word.start())
    return out


def grown(game_id: str, label: str, cards: list[str]) -> dict[str, Any]:
    view = new_game(game_id, seed=1).view()
    for pile in view["piles"]:
        if pile["label"] == label:
            pile["cards"] = cards
    return view


RUN = ["KS", "QH", "JS", "TH", "9S", "8H", "7S", "6H", "5S", "4H", "3S", "2H"]


@pytest.mark.parametrize("game_id", ["gate", "gate-narrow"])
def test_the_gate_s_bar_labels_stay_put_as_the_top_bar_grows(game_id: str) -> None:
    labels = {p["label"] for p in new_game(game_id, seed=1).view()["piles"]}
    start = label_places(render(new_game(game_id, seed=1).view(), 80, ROOM), labels)
    assert start["b1"][0] > start["l"][0] + 5, "the bottom bar starts below the posts"
    for n in range(1, len(RUN) + 1):
        text = render(grown(game_id, "t2", RUN[:n]), 80, ROOM)
        assert len(text.splitlines()) <= ROOM
        assert label_places(text, labels) == start, f"a top bar of {n}"
    # and through real games, every label where it was, every board in the room
    for seed in (1, 2):
        game = new_game(game_id, seed=seed)
        chooser = random.Random(seed)
        for _ in range(150):
            text = render(game.view(), 80, ROOM)
            assert len(text.splitlines()) <= ROOM
            places = label_places(text, labels)
            for label in labels & {"l", "t1", "t2", "b1", "b2", "b3"}:
                assert places[label] == start[label], text
            legal = [m.text for m in game.legal_moves()]
            if not legal:
                break
            game.play(chooser.choice(legal))


@pytest.mark.parametrize("game_id", ["gate", "gate-narrow"])
def test_the_gate_in_the_screen_s_room(game_id: str) -> None:
    check_golden(f"board-{game_id}-room", render(new_game(game_id, seed=1).view(), 80, ROOM))
    view = grown(game_id, "t1", RUN[:9])
    for pile in view["piles"]:
        if pile["label"] == "b2":
            pile["cards"] = ["QD", "JC", "TD", "9C", "8D", "7C", "6D", "5C"]
    check_golden(f"board-{game_id}-room-grown", render(view, 80, ROOM))


def test_the_light_and_shade_rivals_stay_put() -> None:
    labels = {"a1", "a2", "r1", "r4", "f1", "f8"}
    start = label_places(render(new_game("light-and-shade", seed=1).view(), 80, ROOM), labels)
    for n in range(1, len(RUN) + 1):
        text = render(grown("light-and-shade", "a2", RUN[:n]), 80, ROOM)
        assert label_places(text, labels) == start and len(text.splitlines()) <= ROOM


def test_with_no_height_nothing_is_anchored_or_cut() -> None:
    text = render(grown("gate", "t2", RUN), 80)
    assert "+" not in text and all(card in text for card in ("K♠", "2♥"))


def test_the_wedge_is_marked() -> None:
    game = new_game("wedge", seed=1)
    view = game.view()
    assert view["wedge"] == "15"
    lines = render(view).splitlines()
    row = next(n for n, line in enumerate(lines) if line.startswith("10↓ "))
    assert lines[row + 1].endswith("J♥◀") and lines[row + 1].count("◀") == 1
    assert render(view, ascii=True).splitlines()[row + 1].endswith("JH*")
    board = draw_board(view)
    at = board.lines[row + 1].plain.index("◀")
    assert any(s.start <= at < s.end and s.style == MARK_STYLE for s in board.lines[row + 1].spans)
    # once the Wedge has reached 21 there is nothing to mark
    assert "◀" not in render({**view, "wedge": None})


def test_the_wedge_s_mark_moves_no_column() -> None:
    game = played("wedge", seed=7, moves=60)
    view = game.view()
    assert view["wedge"] == "13", "the Wedge mid-row, a card to its right"
    marked = render(view).splitlines()
    plain = render({**view, "wedge": None}).splitlines()
    assert marked != plain
    assert [line.replace("◀", " ").rstrip() for line in marked] == plain
    assert "T♣◀ ·" in render(view), "the mark hangs into the gap before cell 14"


def test_the_grace_pile_is_not_read_as_a_garden_column() -> None:
    """The Labyrinth's grace pile g sits beside the garden, whose columns run a to j (g
    among them): the garden's letters have their line to themselves, and are capitals,
    where every pile outside the garden (g, the foundations uc .. ds) is in small
    letters, as the moves name them (c3>g, c3>u, c3>d); the legal line names the cells
    as the board does (C3>g)."""
    lines = render(new_game("labyrinth", seed=1).view()).splitlines()
    letters = next(n for n, line in enumerate(lines) if line.split()[:2] == ["A", "B"])
    assert lines[letters].split() == list("ABCDEFGHIJ")
    assert lines[0].split() == ["uc", "ud", "uh", "us", "dc", "dd", "dh", "ds", "s"]
    grace = next(n for n, line in enumerate(lines) if line.split() == ["g"])
    assert grace < letters - 1 and lines[grace + 1].split() == ["·"]


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


@pytest.mark.parametrize("game_id", ["gate", "gate-narrow"])
def test_the_lower_bars_labels_are_never_between_the_posts_cards(game_id: str) -> None:
    """At 7 to 11 lines (a replay's board at 60x20) The Gate's lower bars' labels were
    drawn on a line with the posts' cards, "5♥  b1  b2  b3  6♥", read as one row: they
    start under the posts' cards, which are cut for it."""
    for seed in range(4):
        view = new_game(game_id, seed=seed).view()
        for height in range(7, 16):
            lines = render(view, height=height).splitlines()
            assert len(lines) <= height
            labels = next(line for line in lines if line.split()[:1] == ["b1"])
            assert not re.search("[♠♥♦♣]", labels), (seed, height, lines)


def test_short_of_room_fanned_piles_are_cut() -> None:
    view = new_game("gate", seed=1).view()
    assert len(render(view).splitlines()) == 8
    cut = render(view, height=9).splitlines()
    assert len(cut) == 9
    # the posts keep their first card and their last ones, a line saying how many are
    # left out between: no wider than a card
    assert [line[:2] for line in cut[3:7]] == ["7♦", "+2", "8♥", "8♦"]
    assert cut[4] == "+2                  +2"
    # with two lines, the last cards, the first shown carrying the count of those not shown
    two = {"piles": [{"label": "t1", "kind": "bar", "x": 0, "y": 0, "fan": "down",
                      "cards": ["9S", "8D", "7C", "6H"]}]}  # fmt: skip
    assert render(two, height=3) == "t1\n7♣+2\n6♥"


def test_a_cut_fan_keeps_the_card_it_moves_by() -> None:
    """A Gate bar moves as a whole pile, by its first card: a cut keeps it in sight."""
    view = new_game("gate", seed=1).view()
    for pile in view["piles"]:
        if pile["label"] == "t2":
            pile["cards"] = ["KS", "QH", "JS", "TH", "9S", "8H", "7S", "6H", "5S"]
    lines = render(view, 80, 17).splitlines()
    t2 = lines[2].index("t2")
    column = [line[t2 : t2 + 2] for line in lines[3:9]]
    assert column == ["K♠", "+4", "8♥", "7♠", "6♥", "5♠"]


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


def test_a_picked_pile_stands_out() -> None:
    """The pile a click picked: its label reversed; in a garden, its card."""

    def styles(board: Any, text: str) -> set[str]:
        out = set()
        for line in board.lines:
            at = line.plain.find(text)
            if at >= 0:
                out |= {str(s.style) for s in line.spans if s.start <= at < s.end}
        return out

    gate = snapshot(new_game("gate", seed=1234))["view"]
    assert not any("reverse" in s for s in styles(draw_board(gate), "l   t1"))
    assert any("reverse" in s for s in styles(draw_board(gate, picked="l"), "l   t1"))
    babette = snapshot(new_game("babette", seed=1))["view"]
    card = next(p for p in babette["piles"] if p["label"] == "a1")["cards"][-1]
    shown = card_text(card).plain
    assert not any("reverse" in s for s in styles(draw_board(babette), shown))
    assert any("reverse" in s for s in styles(draw_board(babette, picked="a1"), shown))


@pytest.mark.parametrize("game_id", ["babette", "labyrinth", "blockade", "blockade-ten"])
def test_a_gardens_columns_are_evenly_spaced(game_id: str) -> None:
    """An outside tester: The Blockade's columns A to H stood five apart and I to L four
    (the foundations' three-letter labels over A to H widened those alone)."""
    text = render(new_game(game_id, seed=7).view())
    letters = next(line for line in text.splitlines() if re.match(r"^\s+A\s+B\s+C\b", line))
    at = [m.start() for m in re.finditer(r"[A-Z]", letters)]
    assert len({b - a for a, b in itertools.pairwise(at)}) == 1, letters
