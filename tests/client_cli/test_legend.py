"""The legend under the board: for every game, from real views, what a new player cannot
guess from the board, in one line that fits, and true to the board and to the rules."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from rich.cells import cell_len

from client_cli.legend import WIDTH, legend, parts
from client_cli.render import render
from server.engine import new_game

from .views import GAME_IDS, played

#: what each game's legend must say at the start of deal 1, at the default width
SAYS = {
    "gate": ["posts l r, bars t b", "deal fills gaps from s, then w, top first"],
    "gate-narrow": ["posts l r, bars t b", "deal fills gaps from s, then w, top first"],
    "wedge": ["◀ the Wedge steps along the arrows as 21 empties", "cards on them cannot move"],
    "labyrinth": ["g beside s: the grace, once, when stuck", ">u home up, >d home down"],
    "babette": [">u home up from A, >d down from K", "free: nothing below it", "2 redeals left"],
    "blockade": ["a cell's pile hangs down, top card last", "free: nothing below it"],
    "blockade-ten": [">u home up, >d home down", "free: nothing below (or above, once s is out)"],
    "nestor": ["reserve turns the next card up into r1-r4", "x: pairs taken off"],
    "doubles-and-quits": [
        "a pair must touch, even at a corner; 5 and 6 do not", "x: pairs taken off"
    ],
    "light-and-shade": [
        "a1-a4 auxiliaries, r1-r4 rivals", "t talon: its top plays, never turned over"
    ],
}  # fmt: skip


def with_pile(view: dict[str, Any], name: str, **fields: Any) -> dict[str, Any]:
    """The view with one pile's fields changed."""
    piles = [dict(p, **fields) if p["label"] == name else p for p in view["piles"]]
    return {**view, "piles": piles}


def test_every_game_has_its_words() -> None:
    assert sorted(SAYS) == sorted(GAME_IDS)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_each_game_s_legend_at_the_deal(game_id: str) -> None:
    text = legend(game_id, new_game(game_id, seed=1).view())
    for words in SAYS[game_id]:
        assert words in text, f"{game_id}: {text!r} leaves out {words!r}"
    assert "\n" not in text and cell_len(text) <= WIDTH


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_one_line_that_fits_all_through_a_game(game_id: str) -> None:
    for moves in (0, 20, 60, 150):
        view = played(game_id, seed=3, moves=moves).view()
        for width in (WIDTH, 60, 40, 20):
            text = legend(game_id, view, width=width)
            assert text and "\n" not in text and cell_len(text) <= width, (width, text)
            ascii = legend(game_id, view, ascii=True, width=width)
            assert ascii.isascii() and len(ascii) <= width, ascii
        # the most needed part comes first to go in, the last to go out
        first = min(parts(game_id, view), key=lambda p: p.rank).text
        assert legend(game_id, view, width=len(first)) == first


#: a run of labels the legend writes: a1-a4, uc-us, fc1-fs2
RUN = re.compile(r"\b([a-z]+\d+|[a-z]{2})-([a-z]+\d+|[a-z]{2})\b")
#: a one-letter word: a label, in every game (the article and the ranks A and K aside)
LETTER = re.compile(r"(?<![\w\[+'-])([a-zA-Z])(?![\w'\]-])")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_piles_it_names_are_on_the_board(game_id: str) -> None:
    """Every label the legend writes is one of the view's: it speaks the notation."""
    view = new_game(game_id, seed=1).view()
    labels = {p["label"] for p in view["piles"]}
    said = " · ".join(p.text for p in parts(game_id, view))
    runs = RUN.findall(said)
    letters = set(LETTER.findall(said)) - {"a", "A", "K"}
    for low, high in runs:
        assert low in labels and high in labels, f"{low}-{high} in {said!r}"
    for letter in letters:
        prefix = any(label.startswith(letter) for label in labels)
        assert letter in labels or prefix, f"{letter} in {said!r}"


def test_the_gate_says_what_the_board_shows() -> None:
    view = new_game("gate", seed=1).view()
    said = " · ".join(p.text for p in parts("gate", view))
    assert "[n] face down" in said, "the stock is drawn [34]"
    assert "+n more" in said, "a waste heap will show +n"
    out = with_pile(view, "s", down=0, cards=[])
    assert "[n]" not in " · ".join(p.text for p in parts("gate", out))
    # the labels are the view's
    renamed = with_pile(view, "w", label="h")
    assert "then h, top first" in legend("gate", renamed)


def test_the_gate_s_waste_refills_top_card_first() -> None:
    """What the legend says of the waste heap is what the engine does: once the stock is
    out, deal fills the gaps, in layout order, from the waste's top card down."""
    order = ["l", "t1", "t2", "t3", "t4", "b1", "b2", "b3", "b4", "r"]
    checked = 0
    for seed in range(1, 60):
        game = new_game("gate", seed=seed)
        chooser = random.Random(seed)
        for _ in range(400):
            legal = [m.text for m in game.legal_moves()]
            if not legal:
                break
            view = game.view()
            before = {p["label"]: p["cards"] for p in view["piles"]}
            stock = next(p for p in view["piles"] if p["label"] == "s")
            if "deal" in legal and not stock["down"] and len(before["w"]) > 1:
                home = view["home"]
                game.play("deal")
                after = {p["label"]: p["cards"] for p in game.view()["piles"]}
                grew = [label for label in order if len(after[label]) > len(before[label])]
                if grew and game.view()["home"] == home:
                    first = grew[0]
                    assert after[first][len(before[first])] == before["w"][-1]
                    checked += 1
                continue
            game.play(chooser.choice(legal))
        if checked >= 3:
            break
    assert checked >= 3


def test_the_wedge_s_legend_follows_the_wedge() -> None:
    """In words a player gets, with the board's own marks: the Wedge's ◀, and the arrows
    the board draws after each label on its path, pointing where the card goes next (no
    list of cell numbers to look up in the rules)."""
    view = new_game("wedge", seed=1).view()
    assert legend("wedge", view).startswith("◀ the Wedge steps along the arrows as 21 empties")
    assert legend("wedge", view, ascii=True).startswith("* the Wedge steps along the arrows")
    assert not re.search(r"\d+ \d+ \d+|locked", legend("wedge", view))
    # the legend's marks are the board's: the Wedge, and an arrow after each label on its
    # path, toward the next cell (left along row 3, then down from 10 and 16 to 21)
    board = render(view)
    assert "◀" in board and "*" in render(view, ascii=True)
    assert "10↓ 11← 12← 13← 14← 15←" in board and "16↓ 17" in board
    assert "10v 11< 12< 13< 14< 15<" in render(view, ascii=True)
    later = played("wedge", seed=7, moves=60).view()
    assert later["wedge"] == "13"
    drawn = render(later)
    assert "10↓ 11← 12← 13← 14 " in drawn  # behind the Wedge: out of play, no arrow
    assert "as 21 empties" in legend("wedge", later)
    # at 21 the Wedge is an ordinary card: the legend says what comes next instead
    done = {**view, "wedge": None, "stage": 2}
    assert "Wedge" not in legend("wedge", done)
    assert "only a king comes from the board into rows 1 and 4" in legend("wedge", done)
    assert "row 3 is never filled again" in legend("wedge", {**view, "wedge": None})


def test_the_labyrinth_s_grace() -> None:
    view = new_game("labyrinth", seed=1).view()
    assert legend("labyrinth", view).startswith("g beside s: the grace, once, when stuck")
    # the garden's columns are capitals, its grace pile a small letter: no column g
    board = render(view)
    assert re.search(r"\n  A   B   C   D   E   F   G   H   I   J\n", board)
    assert re.search(r"\n +g\n", board)
    used = {**view, "grace_used": True}
    assert "the grace (used)" in legend("labyrinth", used)
    # only a view with a grace pile hears of it
    without = {**view, "piles": [p for p in view["piles"] if p["kind"] != "grace"]}
    assert "grace" not in legend("labyrinth", without)


def test_counters_and_reserves_are_read_from_the_view() -> None:
    babette = new_game("babette", seed=1).view()
    assert "no redeal left" in legend("babette", {**babette, "redeals": 0})
    assert "1 redeal left" in legend("babette", {**babette, "redeals": 1})
    nestor = new_game("nestor", seed=1).view()
    out = with_pile(nestor, "reserve", down=0)
    assert "r1-r4: the turned reserve" in legend("nestor", out)
    assert "reserve turns" not in legend("nestor", out)


def test_a_game_the_client_does_not_know() -> None:
    view = {
        "piles": [
            {"label": "w", "kind": "waste", "x": 0, "y": 0, "fan": "none", "cards": ["2C", "KH"]},
            {"label": "s", "kind": "stock", "x": 1, "y": 0, "fan": "none", "down": 5},
        ]
    }
    assert legend("new-game", view) == "+n more · [n] face down"
    assert legend("new-game", {"piles": []}) == ""
    assert legend("gate", {"piles": "junk"}).startswith("posts")
