"""The Blockade in rows of twelve, rule by rule, on positions built by hand.

Cells are labelled column letter (a..l) and row number from the top: ``a1`` is the
top-left. A cell holds a pile, written bottom to top. The stock ``s`` is written bottom
to top too, so its last code is dealt first. ``from_layout`` takes no automatic step:
the upper-row refill and the aces going out happen after the first move played, so the
helper fills every upper cell (as play with a stock always leaves them).
"""

from __future__ import annotations

import pytest

from server.engine import Game, IllegalMove, InvalidMove, UndoRefused, new_game
from server.engine.cards import CODE, RANK
from server.engine.deal import shuffled_deck, sorted_deck
from server.engine.games.blockade import Blockade

RANKS = "A23456789TJQK"
COLUMNS = "abcdefghijkl"
#: what fills the upper rows unless named: kings go home last and take only a queen
WALL = ("KC", "KD", "KH", "KS")


def pile(game: Game, label: str) -> str:
    return " ".join(CODE[c] for c in game.p[game.LABELS[label]])


def moves(game: Game) -> list[str]:
    return [m.text for m in game.legal_moves()]


def row(game: Game, r: int) -> list[str]:
    """The piles of row ``r`` (1 = top), "" for an empty cell."""
    return [pile(game, f"{c}{r}") for c in COLUMNS]


def up(suit: str, top: str) -> str:
    return " ".join(f"{r}{suit}" for r in RANKS[: RANKS.index(top) + 1])


def table(rows: int, **piles: str) -> Blockade:
    """Every cell above the lowest row holds a king unless named ("" for a gap); the
    lowest row holds only the cells named."""
    layout = {f"{c}{r}": WALL[n % 4] for r in range(1, rows) for n, c in enumerate(COLUMNS)}
    layout.update(piles)
    game = Blockade.from_layout(layout, {"rows": rows})
    assert isinstance(game, Blockade)
    return game


# -- the deal ----------------------------------------------------------------------------


def test_deal_order_of_an_explicit_deck() -> None:
    deck = [CODE[c] for c in sorted_deck(2)]
    game = new_game("blockade", deck=deck)
    assert isinstance(game, Blockade)
    # the first row is AC..QC, and the ace goes out at once
    assert row(game, 1) == ["", *deck[1:12]]
    assert pile(game, "fc1") == "AC"
    assert len(game.p[game.STOCK]) == 92
    assert game.moves == 0
    game.play("deal")  # the vacancy in the lowest row is filled first
    assert pile(game, "a1") == deck[12]  # KC
    assert game.rows == 1
    game.play("deal")  # now a new row: AD..QD, and the ace of diamonds goes out
    assert row(game, 2) == ["", *deck[14:25]]
    assert pile(game, "fd1") == "AD"


def test_a_seed_deals_its_shuffle_from_the_front() -> None:
    deck = shuffled_deck(9, packs=2)
    assert new_game("blockade", seed=9).key() == Blockade.from_deck(deck).key()


def test_no_ace_is_left_free_after_the_deal() -> None:
    for seed in range(20):
        game = new_game("blockade", seed=seed)
        assert isinstance(game, Blockade)
        assert not any(RANK[game.p[i][-1]] == 1 for i in game._available())


# -- availability ------------------------------------------------------------------------


def test_a_pile_is_blocked_by_the_cell_directly_below() -> None:
    # b1 is free across the gap at b2 although b3 holds a card (a position built by hand:
    # in play the gap would have been refilled from the stock)
    lowest = {f"{c}3": "9H" for c in COLUMNS}
    layout = {**lowest, "c3": ""}
    game = table(3, fc1=up("C", "4"), a1="5C", b1="5C", b2="", c2="7D 6D", **layout, s="2S")
    available = [game.cell_label(i) for i in game._available()]
    assert available == ["b1", "c2", *(f"{c}3" for c in COLUMNS if c != "c")]
    assert moves(game) == ["b1>f", "deal"]
    with pytest.raises(IllegalMove, match="5C at a1 is blocked"):
        game.play("a1>f")
    with pytest.raises(
        IllegalMove, match="6D cannot go home: the diamonds foundations want the ace"
    ):
        game.play("c2>f")


def test_cells_empty_and_not_dealt() -> None:
    game = table(2, a2="9D", s="2C")
    with pytest.raises(IllegalMove, match="b2 is empty"):
        game.play("b2>f")
    with pytest.raises(IllegalMove, match="a3 is not dealt"):
        game.play("a3>f")


# -- foundations -------------------------------------------------------------------------


def test_eight_ascending_foundations_two_per_suit() -> None:
    game = table(1, fh1=up("H", "5"), fh2=up("H", "2"), a1="6H", b1="3H", c1="TH", s="9C")
    assert moves(game) == ["a1>f", "b1>f", "deal"]
    game.play("a1>f")
    game.play("b1>f")
    assert (pile(game, "fh1"), pile(game, "fh2")) == (up("H", "6"), up("H", "3"))
    with pytest.raises(
        IllegalMove, match="TH cannot go home: the hearts foundations want the 4 or the 7"
    ):
        game.play("c1>f")


def test_a_card_fitting_both_piles_of_its_suit_goes_to_the_first() -> None:
    game = table(1, fs1=up("S", "4"), fs2=up("S", "4"), a1="5S", s="9C")
    assert moves(game) == ["a1>f", "deal"]
    game.play("a1>f")
    assert (pile(game, "fs1"), pile(game, "fs2")) == (up("S", "5"), up("S", "4"))


def test_the_foundations_say_what_they_want() -> None:
    game = table(1, fh1=up("H", "2"), fh2=up("H", "4"), a1="9H", s="9C")
    with pytest.raises(IllegalMove, match=r"the hearts foundations want the 3 or the 5$"):
        game.play("a1>f")
    with pytest.raises(IllegalMove, match=r"the hearts foundations want the ace or the 4$"):
        table(1, fh2=up("H", "3"), a1="9H", s="9C").play("a1>f")
    with pytest.raises(IllegalMove, match=r"the spades foundations want the ace$"):
        table(1, a1="9S", s="9C").play("a1>f")


# -- the aces go out by themselves -------------------------------------------------------


def test_an_ace_uncovered_goes_out_and_its_cell_is_refilled() -> None:
    game = table(2, fc1=up("C", "4"), a1="AH", a2="5C", b2="9D", s="2S 9C")
    game.play("a2>f")
    # a2 is a gap in the lowest row, so it waits; a1's ace is free and goes out
    assert pile(game, "fh1") == "AH"
    assert pile(game, "a1") == "9C"  # a1 is an upper gap: filled from the stock at once
    assert pile(game, "a2") == ""
    assert pile(game, "s") == "2S"


def test_the_second_ace_starts_the_second_pile() -> None:
    game = table(1, fh1=up("H", "3"), a1="AH", b1="9D", s="5C")
    game.play("deal")  # the automatic steps follow any move
    assert pile(game, "fh2") == "AH"


# -- building ----------------------------------------------------------------------------


def test_build_down_on_the_next_higher_of_its_suit() -> None:
    game = table(3, c3="9S 8S 7S", e2="8S", s="2C")
    assert moves(game) == ["c3>e2", "deal"]
    game.play("c3>e2")
    assert pile(game, "e2") == "8S 7S"
    assert pile(game, "c3") == "9S 8S"  # only the part of the run that fits 8S moved
    assert moves(game) == ["e2>c3", "deal"]
    game.undo()
    assert pile(game, "c3") == "9S 8S 7S"


def test_both_copies_of_the_next_higher_card_take_it() -> None:
    game = table(2, a2="7H", b2="8H", c2="8H", s="2C")
    assert moves(game) == ["a2>b2", "a2>c2", "deal"]


def test_build_refusals() -> None:
    game = table(2, a1="9C", b1="8H", a2="7H", b2="6H", c2="8S", d2="8H", s="2C")
    with pytest.raises(IllegalMove, match=r"no part of a2 fits on 8S: it needs the 7 of spades$"):
        game.play("a2>c2")
    with pytest.raises(
        IllegalMove,
        match=r"e2 is empty, and nothing moves into an empty cell while the stock lasts$",
    ):
        game.play("a2>e2")
    with pytest.raises(IllegalMove, match="8H at b1 is blocked"):
        game.play("a2>b1")
    with pytest.raises(IllegalMove, match="9C at a1 is blocked"):
        game.play("a1>d2")
    with pytest.raises(IllegalMove, match="a3 is not dealt"):
        game.play("a2>a3")
    with pytest.raises(IllegalMove, match=r"no part of a2 fits on 6H: it needs the 5 of hearts$"):
        game.play("a2>b2")


def test_nothing_builds_on_the_pile_directly_above() -> None:
    # 7H at a2 would fit 8H at a1, but a1 is blocked by a2 itself
    game = table(2, a1="8H", a2="7H", s="2C")
    assert moves(game) == ["deal"]
    with pytest.raises(IllegalMove, match="8H at a1 is blocked"):
        game.play("a2>a1")


# -- vacancies and deal ------------------------------------------------------------------


def test_an_upper_gap_is_filled_from_the_stock_at_once() -> None:
    game = table(3, fc1=up("C", "4"), b2="5C", a3="9D", s="9H 2D")
    assert "b2>f" in moves(game)  # b3 is empty: b2 is free
    game.play("b2>f")
    assert pile(game, "b2") == "2D"
    assert pile(game, "b3") == ""  # the lowest row's gap waits
    assert pile(game, "s") == "9H"
    with pytest.raises(UndoRefused, match="it brought hidden cards into view"):
        game.undo()


def test_a_refilled_ace_goes_out_and_its_cell_is_filled_again() -> None:
    game = table(3, fc1=up("C", "4"), b2="5C", a3="9D", s="9H 2D AH")
    game.play("b2>f")
    assert pile(game, "fh1") == "AH"
    assert pile(game, "b2") == "2D"
    assert pile(game, "s") == "9H"


def test_a_build_from_an_upper_row_is_refilled_too() -> None:
    game = table(2, a1="7H", b2="8H", s="9C 2S")
    game.play("a1>b2")
    assert (pile(game, "a1"), pile(game, "b2")) == ("2S", "8H 7H")


def test_upper_gaps_are_filled_higher_rows_first_then_left_to_right() -> None:
    lowest = {f"{c}3": "9C" for c in COLUMNS}
    game = table(
        3, a1="", e1="", c2="", **{**lowest, "l3": "TH"}, fh1=up("H", "9"), s="2S 3S 4S 5S"
    )
    game.play("l3>f")
    assert (pile(game, "a1"), pile(game, "e1"), pile(game, "c2")) == ("5S", "4S", "3S")
    assert pile(game, "l3") == ""
    assert pile(game, "s") == "2S"


def test_when_the_stock_runs_out_the_last_gaps_stay() -> None:
    lowest = {f"{c}2": "9C" for c in COLUMNS}
    game = table(2, a1="", b1="", c1="", **{**lowest, "l2": "TH"}, fh1=up("H", "9"), s="5S")
    game.play("l2>f")
    assert [pile(game, f"{c}1") for c in "abc"] == ["5S", "", ""]
    assert pile(game, "l2") == ""
    # they stay empty until the player moves a card into one (test_blockade_runs.py)
    assert "a2>b1" in moves(game)


def test_deal_fills_the_lowest_rows_gaps_left_to_right_first() -> None:
    lowest = {f"{c}2": "9C" for c in COLUMNS}
    game = table(2, **{**lowest, "b2": "", "k2": ""}, s="2S 3S 4S")
    game.play("deal")
    assert (pile(game, "b2"), pile(game, "k2")) == ("4S", "3S")
    assert game.rows == 2
    game.play("deal")
    assert game.rows == 3
    assert row(game, 3) == ["2S", *[""] * 11]  # a short last row


def test_deal_lays_a_new_row_and_its_aces_go_out() -> None:
    first = {f"{c}1": "9C" for c in COLUMNS}
    stock = "2H 3H 4H 5H 6H 7H 8H 9H TH JH AS AH 2D"
    game = table(1, **first, s=stock)
    game.play("deal")
    assert row(game, 2) == ["2D", "", "", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H"]
    assert (pile(game, "fh1"), pile(game, "fs1")) == ("AH", "AS")
    assert pile(game, "s") == "2H"
    # the two gaps in the lowest row wait for the next deal, which fills them
    game.play("deal")
    assert (pile(game, "b2"), pile(game, "c2"), game.rows) == ("2H", "", 2)


def test_deal_refused_with_the_stock_empty() -> None:
    game = table(1, a1="2H", fh1="AH")
    assert moves(game)[0] == "a1>f"
    assert "deal" not in moves(game)
    with pytest.raises(IllegalMove, match="illegal move 'deal': the stock is empty"):
        game.play("deal")


# -- end ---------------------------------------------------------------------------------


def full_foundations() -> dict[str, str]:
    return {f"f{s.lower()}{k}": up(s, "K") for s in "CDHS" for k in (1, 2)}


def test_won_with_every_card_home() -> None:
    game = table(0, **full_foundations())
    assert game.status == "won"
    assert game.progress == (104, 104)


def test_the_last_card_home_wins() -> None:
    layout = full_foundations()
    layout["fd2"] = up("D", "Q")
    game = table(1, **layout, a1="KD")
    game.play("a1>f")
    assert game.status == "won"


def test_lost_with_the_stock_out_and_no_move() -> None:
    # no empty cell, no build, nothing home: the row of nines blocks the twos
    lowest = {f"{c}2": "9C" for c in COLUMNS}
    game = table(2, a1="2H", **lowest, fh1="AH")
    assert moves(game) == []
    assert game.status == "lost"
    with pytest.raises(IllegalMove, match=r"the game is over \(lost\)"):
        game.play("a1>f")


# -- undo --------------------------------------------------------------------------------


def test_undo_allowed_when_no_stock_card_was_shown() -> None:
    game = table(2, fc1=up("C", "4"), a1="9D", a2="5C", s="9H")
    game.play("a2>f")  # a gap in the lowest row: nothing refilled
    assert game.can_undo()
    game.undo()
    assert pile(game, "a2") == "5C"


def test_undo_refused_after_a_deal() -> None:
    game = table(1, a1="9D", s="9H 8H")
    game.play("deal")
    with pytest.raises(UndoRefused, match="cannot undo 'deal'"):
        game.undo()


# -- notation and view -------------------------------------------------------------------


def test_notation() -> None:
    game = table(1, a1="9D", s="9H")
    assert game.parse(" C3 > E2 ").text == "c3>e2"
    assert game.parse("L9>F").text == "l9>f"
    assert game.parse("D").text == "deal"
    assert game.parse(" C3 : 2 > E2 ").text == "c3:2>e2"
    assert game.parse("l9:12>a1").text == "l9:12>a1"
    for text in ("c3>c3", "c3>u", "m1>f", "a10>f", "redeal", "c3>g"):
        with pytest.raises(InvalidMove, match="Moves look like c3>f, c3>e2, c3:2>e2 or deal"):
            game.parse(text)
    for text in (
        "c3:0>e2",
        "c3:13>e2",
        "c3:02>e2",
        "c3:2>c3",
        "c3:2>f",
        "s:1>e2",
        "c3:2",
        "c3:>e2",
    ):
        with pytest.raises(InvalidMove, match="cannot read"):
            game.parse(text)


def test_the_view_fans_the_piles_down() -> None:
    game = table(1, a1="9D 8D", s="9H")
    cell = next(p for p in game.view()["piles"] if p["label"] == "a1")
    assert (cell["kind"], cell["fan"], cell["cards"]) == ("cell", "down", ["9D", "8D"])
