"""The Wedge, rule by rule, on positions built by hand.

Positions are built with ``Wedge.from_layout``: a cell's codes run from the bottom of its pile
to its top; the stock's last code is the next one dealt. The counter ``conveyor`` is 1 while
the Wedge drives the conveyor (a position in stage one) and 0 once it has reached cell 21.
"""

from __future__ import annotations

import pytest

from server.engine import Game, IllegalMove, InvalidMove, UndoRefused, new_game
from server.engine.cards import CODE
from server.engine.deal import sorted_deck
from server.engine.games.wedge import Wedge

PATH_RULE = "is on the Wedge's path: it is neither moved nor built on until the Wedge reaches 21"

#: stage one: the middle row full, the Wedge (6S) in 15, 4H at the path's exit
STAGE_ONE = {
    **{"1": "QC", "2": "QD", "3": "QH", "4": "JS"},
    **{"5": "JC", "6": "JD", "7": "JH", "8": "KS", "9": "TS"},
    **{"10": "4D", "11": "6D", "12": "6C", "13": "2S", "14": "QS", "15": "6S"},
    **{"16": "2H", "17": "5D", "18": "8C", "19": "KH", "20": "7H"},
    **{"21": "4H", "22": "3D", "23": "9D", "24": "5C"},
    "s": "KD KC",
}

#: stage two: the middle row gone, the conveyor stopped; 1, 7, 16 and 22 are vacancies
STAGE_TWO = {
    **{"1": "", "2": "9H", "3": "3H", "4": "9C"},
    **{"5": "7D", "6": "KC", "7": "", "8": "KS QH JC", "9": "8S"},
    **{"16": "", "17": "JD", "18": "4H", "19": "KH", "20": "7S"},
    **{"21": "QS JH TS", "22": "", "23": "7C", "24": "TC 9D 8C"},
    "w": "2D KD",
    "s": "5H",
}


def wedge(base: dict[str, str], conveyor: bool = False, **piles: str) -> Wedge:
    """A hand-built position: ``base`` with some piles replaced (``c17="JD"`` for cell 17)."""
    layout = dict(base)
    layout.update({label.removeprefix("c"): cards for label, cards in piles.items()})
    game = Wedge.from_layout(layout, {"conveyor": int(conveyor)})
    assert isinstance(game, Wedge)
    return game


def stage_one(**piles: str) -> Wedge:
    return wedge(STAGE_ONE, conveyor=True, **piles)


def stage_two(**piles: str) -> Wedge:
    return wedge(STAGE_TWO, conveyor=False, **piles)


def pile(game: Game, label: str) -> str:
    return " ".join(CODE[c] for c in game.p[game.LABELS[label]])


def moves(game: Game) -> list[str]:
    return [m.text for m in game.legal_moves()]


def path(game: Wedge) -> list[str]:
    """The Wedge's path from its exit back: cells 21, 16, 10, 11, .., 15."""
    return [pile(game, label) for label in ("21", "16", "10", "11", "12", "13", "14", "15")]


def illegal(game: Game, move: str, message: str) -> None:
    key = game.key()
    with pytest.raises(IllegalMove, match=message):
        game.play(move)
    assert game.key() == key


# -- the deal ------------------------------------------------------------------------------


def test_deal_order_of_an_explicit_deck() -> None:
    deck = [CODE[c] for c in sorted_deck(1)]
    # no ace in the layout: start at the twos, aces last in the stock
    deck = deck[1:13] + deck[14:26] + deck[27:39] + deck[40:] + ["AC", "AD", "AH", "AS"]
    game = new_game("wedge", deck=deck)
    assert [pile(game, str(n)) for n in range(1, 25)] == deck[:24]
    assert len(game.p[game.LABELS["s"]]) == 28
    assert game.view()["wedge"] == "15"  # the card dealt to cell 15 is the Wedge
    assert game.view()["stage"] == 1
    assert game.counters() == {"conveyor": 1}
    game.play("deal")
    assert pile(game, "w") == deck[24]
    game.play("deal")
    assert pile(game, "w") == " ".join(deck[24:26])


def test_layout_rows_are_left_aligned_four_five_six_five_four() -> None:
    rows: dict[int, list[tuple[int, str]]] = {}
    for spec in Wedge.PILES:
        if spec.kind == "cell":
            rows.setdefault(spec.y, []).append((spec.x, spec.label))
    assert rows == {
        1: [(0, "1"), (1, "2"), (2, "3"), (3, "4")],
        2: [(0, "5"), (1, "6"), (2, "7"), (3, "8"), (4, "9")],
        3: [(0, "10"), (1, "11"), (2, "12"), (3, "13"), (4, "14"), (5, "15")],
        4: [(0, "16"), (1, "17"), (2, "18"), (3, "19"), (4, "20")],
        5: [(0, "21"), (1, "22"), (2, "23"), (3, "24")],
    }


def test_aces_in_the_first_layout_go_out_at_once() -> None:
    layout = ["KS", "KH", "KD", "KC", "QS", "QH", "QD", "QC", "JS", "JH", "JD", "JC"]
    layout += ["TS", "TH", "TD", "TC", "9S", "9H", "9D", "AC", "8S", "AD", "8D", "8C"]
    deck = layout + [CODE[c] for c in sorted_deck(1) if CODE[c] not in layout]
    game = new_game("wedge", deck=deck)
    assert pile(game, "fd") == "AD"  # cell 22, exposed in row 5
    assert pile(game, "fc") == "AC"  # cell 20: nothing below it
    assert pile(game, "20") == pile(game, "22") == ""
    assert game.moves == 0


# -- exposure, building, runs ---------------------------------------------------------------


def test_the_five_cells_marked_e_are_exposed_at_the_start() -> None:
    game = stage_one()
    # exposed: 20 to 24 (and the Wedge in 15, which may not move); only 4H fits anywhere
    assert moves(game) == ["21>24", "deal"]
    illegal(game, "18>24", "cell 18 is not exposed: cell 23 below it is not empty")
    illegal(game, "8>f", "cell 8 is not exposed: cell 13 below it is not empty")
    illegal(game, "1>23", "cell 1 is not exposed: cell 5 below it is not empty")


def test_a_move_exposes_the_card_above() -> None:
    game = stage_one(c24="TC")
    game.play("23>24")
    assert pile(game, "24") == "TC 9D"
    assert "18>24" in moves(game)  # 8C, exposed now that 23 is empty
    game.play("18>24")
    assert pile(game, "24") == "TC 9D 8C"


def test_build_down_in_alternate_colours() -> None:
    game = stage_two(w="2D 6H", c1="KD")
    assert "w>9" not in moves(game)
    illegal(
        game, "w>9", "6H cannot go on 8S: build down in alternate colours \\(8S takes a red 7\\)"
    )
    game = stage_two(w="2D 6D", c20="7H")
    illegal(
        game, "w>20", "6D cannot go on 7H: build down in alternate colours \\(7H takes a black 6\\)"
    )
    game = stage_two(w="2D 6D")
    game.play("w>20")
    assert pile(game, "20") == "7S 6D"


def test_only_exposed_piles_are_built_on() -> None:
    # 3H in cell 3 is covered by cell 7 once it is filled
    game = stage_two(c7="5D", w="2C")
    illegal(game, "w>3", "cell 3 is not exposed: cell 7 below it is not empty")
    game = stage_two(w="2C")
    game.play("w>3")
    assert pile(game, "3") == "3H 2C"


def test_a_whole_pile_moves_bodily_onto_a_pile() -> None:
    # TC 9D 8C of cell 24 fits on JD by its bottom card: all three cards go
    game = stage_two()
    assert "24>17" in moves(game)
    game.play("24>17")
    assert pile(game, "17") == "JD TC 9D 8C"
    assert pile(game, "24") == ""


def test_the_upper_part_of_a_run_never_moves_onto_a_pile() -> None:
    # the first ruling moved 9D 8C, the part of cell 24 that fits, onto TS
    game = stage_two()
    assert "24>21" not in moves(game)
    illegal(
        game,
        "24>21",
        "only the whole of cell 24 moves: its bottom card TC does not fit on TS, "
        "which takes a red 9",
    )


def test_a_top_card_with_cards_under_it_never_moves_alone_but_home() -> None:
    # 8C, the top of TC 9D 8C, would fit on 9H; the first ruling let it go alone
    game = stage_two(c2="", c23="9H", fc="AC 2C 3C 4C 5C 6C 7C")
    assert "24>23" not in moves(game)
    illegal(
        game,
        "24>23",
        "only the whole of cell 24 moves: its bottom card TC does not fit on 9H, "
        "which takes a black 8",
    )
    # to a foundation, a pile's top card goes alone
    assert "24>f" in moves(game)
    game.play("24>f")
    assert pile(game, "fc") == "AC 2C 3C 4C 5C 6C 7C 8C"
    assert pile(game, "24") == "TC 9D"


def test_a_pile_that_does_not_fit_says_what_is_needed() -> None:
    game = stage_two()
    illegal(
        game,
        "24>23",
        "only the whole of cell 24 moves: its bottom card TC does not fit on 7C, "
        "which takes a red 6",
    )
    illegal(game, "8>9", "only the whole of cell 8 moves: its bottom card KS does not fit on 8S")
    illegal(
        game, "23>9", "7C cannot go on 8S: build down in alternate colours \\(8S takes a red 7\\)"
    )


def test_cards_lifted_a_whole_cell_builds_onto_the_pile_above_it() -> None:
    # 8D is the whole of cell 8, directly under 9C in cell 4: moving it uncovers cell 4
    game = stage_two(c8="8D", c6="8H", c2="KS QH JC TH 9S")
    assert {"8>4", "6>2"} <= set(moves(game))
    game.play("8>4")
    assert pile(game, "4") == "9C 8D"
    game.play("6>2")
    assert pile(game, "2") == "KS QH JC TH 9S 8H"
    # in the lower part too: row 5 onto row 4
    game = stage_two(c18="TS", c23="9D")
    game.play("23>18")
    assert pile(game, "18") == "TS 9D"


def test_cards_lifted_only_the_whole_cell_counts() -> None:
    # a run that is the whole of its cell builds onto the pile directly above it
    game = stage_two(c2="JH", c6="TC 9D 8C", c21="QS", c24="")
    assert "6>2" in moves(game)
    game.play("6>2")
    assert pile(game, "2") == "JH TC 9D 8C"
    # 9D 8C's tail 8C would fit on 9H above, but only the whole of cell 6 moves
    game = stage_two(c2="9H", c6="TC 9D 8C")
    illegal(
        game,
        "6>2",
        "only the whole of cell 6 moves: its bottom card TC does not fit on 9H, "
        "which takes a black 8",
    )
    # a cell not directly below does not uncover it
    game = stage_two(c2="TC", c6="8S", c7="9D")
    illegal(game, "7>2", "cell 2 is not exposed: cell 6 below it is not empty")


# -- vacancies ----------------------------------------------------------------------------


def test_a_vacancy_takes_the_waste_top_or_an_exposed_pile() -> None:
    game = stage_two()
    assert {"w>7", "9>7", "24>7", "8>7"} <= set(moves(game))
    game.play("w>7")
    assert pile(game, "7") == "KD"
    game.undo()
    game.play("24>7")  # into a vacancy, the whole pile
    assert pile(game, "7") == "TC 9D 8C"
    assert pile(game, "24") == ""


def test_a_tail_never_fills_a_vacancy() -> None:
    # the first ruling moved any tail into a vacancy, written with a count (24:2>7); a
    # pile moves only whole now, and the count notation is gone
    game = stage_two()
    assert not [m for m in moves(game) if ":" in m]
    for text in ("24:2>7", "24:1>7", "24:3>7", "8:2>1"):
        with pytest.raises(InvalidMove, match=f"cannot read '{text}' as a move of The Wedge"):
            game.play(text)
    assert pile(game, "24") == "TC 9D 8C"


def test_any_vacancy_is_filled_even_one_with_a_card_below() -> None:
    # cell 16 is empty with QS JH TS below it in 21: it may still be filled
    game = stage_two()
    game.play("6>16")
    assert pile(game, "16") == "KC"


def test_stage_two_only_a_king_comes_from_the_board_into_rows_one_and_four() -> None:
    game = stage_two()
    legal = set(moves(game))
    assert {"6>1", "8>1", "6>16", "8>16", "w>1", "w>16"} <= legal  # KC, KS's run, the waste
    assert not {"9>1", "24>1", "9>16", "23>16"} & legal
    illegal(game, "9>1", "in stage two only a king may come from the board into row 1")
    illegal(game, "24>1", "in stage two only a king may come from the board into row 1")
    illegal(game, "23>16", "in stage two only a king may come from the board into row 4")
    # a king takes its run with it
    game.play("8>1")
    assert pile(game, "1") == "KS QH JC"
    assert pile(game, "8") == ""


def test_stage_two_rows_two_and_five_take_any_card() -> None:
    game = stage_two()
    assert {"9>7", "9>22", "23>22", "24>22"} <= set(moves(game))
    game.play("23>22")
    assert pile(game, "22") == "7C"


def test_the_stock_and_waste_may_fill_rows_one_and_four_with_any_card() -> None:
    game = stage_two(w="KD 5H")
    game.play("w>1")
    assert pile(game, "1") == "5H"
    game.play("w>16")
    assert pile(game, "16") == "KD"


def test_stage_one_any_card_may_fill_row_four() -> None:
    # the worked game: 4H from 21 into the space 8C left in row 4
    game = stage_one(c24="TC")
    game.play("23>24")
    game.play("18>24")
    assert "21>18" in moves(game)
    game.play("21>18")
    assert pile(game, "18") == "4H"


# -- the conveyor -------------------------------------------------------------------------


def test_the_conveyor_steps_each_time_cell_21_empties() -> None:
    game = stage_one(c22="3S", c23="5S")
    assert path(game) == ["4H", "2H", "4D", "6D", "6C", "2S", "QS", "6S"]
    game.play("21>23")  # 4H onto 5S: every path card steps once toward 21
    assert path(game) == ["2H", "4D", "6D", "6C", "2S", "QS", "6S", ""]
    assert game.view()["wedge"] == "14"
    game.play("21>22")  # 2H onto 3S
    assert path(game) == ["4D", "6D", "6C", "2S", "QS", "6S", "", ""]
    assert game.view()["wedge"] == "13"
    game.play("21>24")  # 4D onto 5C
    assert path(game) == ["6D", "6C", "2S", "QS", "6S", "", "", ""]
    assert game.counters() == {"conveyor": 1}
    # cell 21 holds an ordinary exposed card: it is built on and moved like any other
    game = stage_one(w="3C")
    game.play("w>21")
    assert pile(game, "21") == "4H 3C"


def test_the_view_names_the_path_ahead_of_the_wedge() -> None:
    """``path``: the cells the Wedge and the cards ahead of it step through, from its cell
    to 21, for a client to draw; None once the Wedge has reached 21."""
    game = stage_one(c22="3S", c23="5S")
    assert game.view()["path"] == ["15", "14", "13", "12", "11", "10", "16", "21"]
    game.play("21>23")
    game.play("21>22")
    assert game.view()["path"] == ["13", "12", "11", "10", "16", "21"]
    layout = dict(STAGE_TWO, **{"16": "6S", "21": "QS JH TS", "20": "KD", "19": "", "w": ""})
    game = wedge(layout, conveyor=True)
    assert game.view()["path"] == ["16", "21"]
    game.play("21>20")
    assert game.view()["wedge"] is None and game.view()["path"] is None


def test_path_cards_are_neither_moved_nor_built_on() -> None:
    game = stage_one(w="5H")
    illegal(game, "w>15", f"cell 15 {PATH_RULE}")  # 5H would fit on the Wedge 6S
    illegal(game, "16>f", f"cell 16 {PATH_RULE}")
    illegal(game, "10>24", f"cell 10 {PATH_RULE}")
    illegal(game, "20>16", f"cell 16 {PATH_RULE}")


def test_the_middle_row_is_never_refilled() -> None:
    game = stage_one(c24="5S", w="5H")
    game.play("21>24")  # 4H onto 5S: the path steps once, 15 empties
    assert pile(game, "15") == ""
    assert not [m for m in moves(game) if m.endswith(">15")]
    illegal(game, "w>15", "cell 15 is out of play: the middle row is never refilled")
    game = stage_two()
    illegal(game, "9>12", "cell 12 is out of play: the middle row is never refilled")


def test_a_path_ace_goes_out_when_it_reaches_21() -> None:
    game = stage_one(c24="5S", c16="AC")
    game.play("21>24")
    # AC came down to 21, went out, and the path stepped again
    assert pile(game, "fc") == "AC"
    assert path(game) == ["4D", "6D", "6C", "2S", "QS", "6S", "", ""]


def test_an_upper_card_is_exposed_as_the_middle_row_retracts() -> None:
    # once 14 is empty, cell 9 above it is exposed, in stage one already
    game = stage_one(c22="3S", c23="5S", w="9H")
    illegal(game, "w>9", "cell 9 is not exposed: cell 14 below it is not empty")
    game.play("21>23")
    game.play("21>22")
    assert pile(game, "14") == ""
    assert "w>9" in moves(game)
    game.play("w>9")
    assert pile(game, "9") == "TS 9H"


def test_the_wedge_reaching_21_stops_the_conveyor_and_frees_cell_16() -> None:
    layout = dict(STAGE_TWO, **{"16": "6S", "21": "QS JH TS", "20": "KD", "19": "", "w": ""})
    game = wedge(layout, conveyor=True)
    assert game.view()["wedge"] == "16"
    assert game.view()["stage"] == 2  # the middle row is empty: stage two already
    illegal(game, "16>f", f"cell 16 {PATH_RULE}")
    game.play("21>20")
    assert pile(game, "21") == "6S"  # the Wedge came down into the bottom row
    assert pile(game, "16") == ""
    assert game.counters() == {"conveyor": 0}
    assert game.view()["wedge"] is None
    # an ordinary exposed card now, and 16 an ordinary cell (row 4: kings only from the board)
    assert "21>5" in moves(game)  # 6S onto 7D
    assert {"6>16", "8>16"} <= set(moves(game))
    game.play("21>5")
    assert pile(game, "5") == "7D 6S"
    assert pile(game, "21") == ""  # stays empty: the conveyor has stopped
    game.play("6>16")
    assert pile(game, "16") == "KC"


def test_undo_of_a_move_that_drove_the_conveyor() -> None:
    layout = dict(STAGE_TWO, **{"16": "6S", "21": "QS JH TS", "20": "KD", "w": ""})
    game = wedge(layout, conveyor=True)
    key = game.key()
    game.play("21>20")
    assert game.counters() == {"conveyor": 0}
    game.undo()
    assert game.key() == key
    assert game.counters() == {"conveyor": 1}


def test_a_wedge_that_is_an_ace_goes_out_from_21() -> None:
    game = wedge({"16": "AS", "21": "4H", "22": "5C", "23": "KC"}, conveyor=True)
    game.play("21>22")
    assert pile(game, "fs") == "AS"
    assert game.counters() == {"conveyor": 0}
    assert "23>16" in moves(game)  # 16 is an ordinary cell now


# -- the stages ---------------------------------------------------------------------------


def test_stage_two_begins_when_the_middle_row_empties() -> None:
    layout = {"21": "6C", "16": "AH", "10": "QS", "11": "6S", "20": "7H", "5": "KC", "s": "2C"}
    game = wedge(layout, conveyor=True)
    assert game.view()["stage"] == 1
    game.play("21>20")
    # AH came to 21 and went out; QS to 21 and the Wedge to 16: the middle row is empty
    assert pile(game, "fh") == "AH"
    assert path(game) == ["QS", "6S", "", "", "", "", "", ""]
    assert game.view()["stage"] == 2
    assert game.view()["wedge"] == "16"
    # king-only into row 1 holds although the conveyor still runs
    illegal(game, "21>1", "in stage two only a king may come from the board into row 1")
    assert "5>1" in moves(game)


# -- foundations, deal, end, undo -----------------------------------------------------------


def test_aces_go_out_when_dealt_or_exposed() -> None:
    game = stage_two(s="AH")
    game.play("deal")
    assert pile(game, "fh") == "AH"
    assert pile(game, "w") == "2D KD"
    game = stage_two(c18="AD", c23="4S", c24="5H")
    game.play("23>24")  # 4S onto 5H exposes the ace above
    assert pile(game, "fd") == "AD"
    assert pile(game, "18") == ""


def test_play_home_from_an_exposed_cell_or_the_waste() -> None:
    game = stage_two(fd="AD", fc="AC 2C 3C 4C 5C 6C", fh="AH 2H", w="KD 2D")
    assert {"w>f", "23>f"} <= set(moves(game))
    game.play("23>f")
    assert pile(game, "fc") == "AC 2C 3C 4C 5C 6C 7C"
    game.play("w>f")
    assert pile(game, "fd") == "AD 2D"
    illegal(game, "18>f", "4H cannot go home: the hearts foundation wants the 3 next")
    illegal(game, "w>f", "KD cannot go home: the diamonds foundation wants the 3 next")


def test_deal_turns_one_stock_card_onto_the_waste_heap() -> None:
    game = stage_two(s="3S 5H")
    game.play("d")
    assert pile(game, "w") == "2D KD 5H"
    assert pile(game, "s") == "3S"


def test_no_second_pass_through_the_waste() -> None:
    game = stage_two(s="")
    assert "deal" not in moves(game)
    illegal(game, "deal", "the stock is empty, and the waste heap is never turned over")


def test_waste_and_source_messages() -> None:
    game = stage_two(w="")
    illegal(game, "w>7", "the waste heap is empty")
    illegal(game, "w>f", "the waste heap is empty")
    illegal(game, "7>9", "cell 7 is empty")
    illegal(game, "9>w", "only a deal lays a card on the waste heap")


def test_won_with_every_card_home() -> None:
    full = {f"f{s}": " ".join(f"{r}{s.upper()}" for r in "A23456789TJQK") for s in "cdhs"}
    game = Wedge.from_layout(full)
    assert game.status == "won"
    assert game.progress == (52, 52)
    assert moves(game) == []


def test_lost_with_the_stock_empty_and_no_move() -> None:
    reds = [f"{r}{s}" for s in "HD" for r in "23456789TJQK"][:18]
    cells = [str(n) for n in (*range(1, 10), *range(16, 25))]
    game = Wedge.from_layout(dict(zip(cells, reds, strict=True)))
    assert moves(game) == []
    assert game.status == "lost"
    illegal(game, "deal", r"the game is over \(lost\)")
    game = Wedge.from_layout({**dict(zip(cells, reds, strict=True)), "s": "KC"})
    assert game.status == "playing"  # a card left in the stock: deal


def test_undo_after_a_build_but_not_after_a_deal_from_the_stock() -> None:
    game = stage_two()
    key = game.key()
    game.play("24>17")
    game.undo()
    assert game.key() == key
    game.play("deal")
    with pytest.raises(UndoRefused, match="it brought hidden cards into view"):
        game.undo()
    game.play("w>7")
    game.undo()  # the waste card's move is public: it can be taken back
    assert pile(game, "w") == "2D KD 5H"


def test_notation() -> None:
    game = stage_two()
    assert game.parse(" 24 > 17 ").text == "24>17"
    assert game.parse("D").text == "deal"
    assert game.parse("W>F").text == "w>f"
    with pytest.raises(InvalidMove, match="cannot read '25>1' as a move of The Wedge"):
        game.play("25>1")
    with pytest.raises(
        InvalidMove,
        match=r"cannot read '20:2>7' as a move of The Wedge\. "
        r"Moves look like 20>7, w>7, 20>f, w>f or deal\.",
    ):
        game.play("20:2>7")  # the first ruling's tail into a vacancy: no move now
    with pytest.raises(InvalidMove, match="cannot read 'w:1>7'"):
        game.play("w:1>7")
    with pytest.raises(InvalidMove):
        game.parse("7>7")


def test_view_carries_the_stage_and_the_wedge() -> None:
    game = stage_one()
    view = game.view()
    assert view["stage"] == 1
    assert view["wedge"] == "15"
    assert [p["label"] for p in view["piles"]][-6:] == ["w", "s", "fc", "fd", "fh", "fs"]
    assert stage_two().view()["wedge"] is None
