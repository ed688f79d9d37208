"""The Labyrinth, rule by rule, on positions built by hand.

Cells are labelled column letter (a..j) and row number from the top: ``a1`` is the
top-left. The stock ``s`` is written bottom to top, so its last code is dealt first. The
helper lays the four aces and four kings on their foundations, as every deal does.
"""

from __future__ import annotations

import pytest

from server.engine import Game, IllegalMove, InvalidMove, UndoRefused, new_game
from server.engine.cards import CODE, RANK
from server.engine.deal import shuffled_deck, sorted_deck
from server.engine.games.labyrinth import Labyrinth

RANKS = "A23456789TJQK"
COLUMNS = "abcdefghij"


def pile(game: Game, label: str) -> str:
    return " ".join(CODE[c] for c in game.p[game.LABELS[label]])


def moves(game: Game) -> list[str]:
    return [m.text for m in game.legal_moves()]


def codes(text: str) -> list[str]:
    """Card codes written with spaces, as a list."""
    return text.split()


def row(game: Game, r: int) -> list[str]:
    """The cells of row ``r`` (1 = top), "" for an empty one."""
    return [pile(game, f"{c}{r}") for c in COLUMNS]


def up(suit: str, top: str) -> str:
    return " ".join(f"{r}{suit}" for r in RANKS[: RANKS.index(top) + 1])


def down(suit: str, top: str) -> str:
    return " ".join(f"{r}{suit}" for r in reversed(RANKS[RANKS.index(top) :]))


def maze(rows: int, grace: int = 0, **piles: str) -> Labyrinth:
    """The foundations started (ace up, king down, each suit) unless named otherwise."""
    layout = {f"u{s}": f"A{s.upper()}" for s in "cdhs"}
    layout.update({f"d{s}": f"K{s.upper()}" for s in "cdhs"})
    layout.update(piles)
    game = Labyrinth.from_layout(layout, {"rows": rows, "grace": grace})
    assert isinstance(game, Labyrinth)
    return game


# -- the deal ----------------------------------------------------------------------------


def test_an_ace_and_a_king_of_each_suit_start_the_foundations() -> None:
    game = new_game("labyrinth", seed=5)
    assert isinstance(game, Labyrinth)
    assert [pile(game, f"u{s}") for s in "cdhs"] == ["AC", "AD", "AH", "AS"]
    assert [pile(game, f"d{s}") for s in "cdhs"] == ["KC", "KD", "KH", "KS"]
    assert game.progress == (8, 104)
    assert len(game.p[game.STOCK]) == 86
    assert game.rows == 1


def test_an_explicit_deck_holds_96_cards() -> None:
    deck = [CODE[c] for c in Labyrinth.deck_cards()]
    assert len(deck) == 96
    assert deck[:11] == codes("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC")
    with pytest.raises(ValueError, match="missing none, extra AC KC AD KD AH KH AS KS"):
        new_game("labyrinth", deck=[CODE[c] for c in sorted_deck(2)])


def test_deal_order_of_an_explicit_deck() -> None:
    deck = [CODE[c] for c in Labyrinth.deck_cards()]
    game = new_game("labyrinth", deck=deck)
    assert isinstance(game, Labyrinth)
    assert row(game, 1) == deck[0:10]  # 2C .. JC
    assert moves(game) == ["a1>u"]  # the 2C must go home before the next deal
    game.play("a1>u")
    game.play("b1>u")  # and then the 3C
    assert moves(game) == ["c1>u"]
    for cell in ("c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1"):
        game.play(f"{cell}>u")  # 4C .. JC climb: the first row empties
    assert moves(game) == ["deal"]
    game.play("deal")  # the first row is all gaps: deal refills it, left to right
    assert row(game, 1) == deck[10:20]
    assert game.rows == 1


def test_a_seed_takes_out_the_first_ace_and_king_of_each_suit_it_meets() -> None:
    shuffled = shuffled_deck(11, packs=2)
    deck = list(shuffled)
    for code in ("AC", "AD", "AH", "AS", "KC", "KD", "KH", "KS"):
        deck.remove(next(c for c in deck if CODE[c] == code))
    assert Labyrinth._deck_from_shuffle(list(shuffled)) == deck
    assert sum(1 for c in deck if RANK[c] in (1, 13)) == 8  # the second copies stay in
    assert new_game("labyrinth", seed=11).key() == Labyrinth.from_deck(deck).key()


# -- availability ------------------------------------------------------------------------

#: four rows; a column of four, and columns with a gap above or below
FOUR_ROWS = {
    "a1": "9C",
    "a2": "9D",
    "a3": "9H",
    "a4": "9S",
    "b2": "2C",
    "b3": "8C",
    "b4": "8D",
    "c1": "8H",
    "c2": "2D",
    "c4": "8S",
    "s": "7C",
}


def test_free_from_above_or_below_and_in_the_top_and_lowest_rows() -> None:
    game = maze(4, grace=0, **FOUR_ROWS)
    available = [game.cell_label(i) for i in game._available()]
    # a1, c1 top row; b2 empty above; c2 empty below; a4 b4 c4 lowest row
    assert available == ["a1", "c1", "b2", "c2", "a4", "b4", "c4"]
    assert moves(game) == ["b2>u", "c2>u"]  # no deal while a card can go home
    with pytest.raises(IllegalMove, match="9D at a2 is blocked"):
        game.play("a2>u")
    with pytest.raises(IllegalMove, match="8C at b3 is blocked"):
        game.play("b3>u")


def test_a_play_from_above_frees_the_card_below() -> None:
    game = maze(3, uc=up("C", "2"), a1="3C", a2="4C", a3="9S", b1="5C", b2="9D", b3="9H")
    assert moves(game) == ["a1>u"]
    game.play("a1>u")
    assert moves(game) == ["a2>u"]  # a1 is empty: a2 is free from the top
    game.play("a2>u")
    assert moves(game) == ["b1>u"]  # b1 is in the top row, blocked by nothing


def test_the_top_row_is_free_with_a_card_below_it() -> None:
    game = maze(2, a1="2H", a2="9C", s="7C")
    assert moves(game) == ["a1>u"]


# -- foundations -------------------------------------------------------------------------


def test_up_and_down_by_suit() -> None:
    game = maze(1, a1="2S", b1="QS", c1="3S", s="7C")
    assert moves(game) == ["a1>u", "b1>d"]
    with pytest.raises(IllegalMove, match="3S cannot go up: the ascending spades want the 2 next"):
        game.play("c1>u")
    with pytest.raises(
        IllegalMove, match="3S cannot go down: the descending spades want the queen next"
    ):
        game.play("c1>d")


def test_the_second_copies_finish_the_opposite_piles() -> None:
    game = maze(1, uh=up("H", "Q"), dh=down("H", "2"), a1="KH", b1="AH")
    assert moves(game) == ["a1>u", "b1>d"]
    game.play("a1>u")
    game.play("b1>d")
    assert (pile(game, "uh"), pile(game, "dh")) == (up("H", "K"), down("H", "A"))


def test_a_card_that_fits_both_piles_is_the_players_choice() -> None:
    game = maze(1, ud=up("D", "4"), dd=down("D", "6"), a1="5D", s="7C")
    assert moves(game) == ["a1>u", "a1>d"]
    game.play("a1>d")
    assert pile(game, "dd") == down("D", "5")


# -- deal --------------------------------------------------------------------------------


def test_deal_only_when_no_card_can_go_home() -> None:
    """Rules version 2: suitable cards are played before the next deal. Which card, and
    which foundation, stay the player's choice; the deal comes back once none is left."""
    game = maze(2, a1="2S", b1="QS", a2="9C", b2="9D", s="7C 8C")
    assert moves(game) == ["a1>u", "b1>d"]
    with pytest.raises(
        IllegalMove,
        match="illegal move 'deal': suitable cards are played before the next deal: "
        "2S at a1 can go home",
    ):
        game.play("deal")
    game.play("b1>d")  # the queen first: the player's choice
    with pytest.raises(IllegalMove, match="2S at a1 can go home"):
        game.play("deal")
    game.play("a1>u")
    assert moves(game) == ["deal"]
    game.play("deal")
    assert row(game, 2)[:4] == ["9C", "9D", "8C", "7C"]  # the lowest row's gaps filled


def test_a_card_freed_by_a_play_must_be_played_too() -> None:
    game = maze(2, uc=up("C", "2"), a1="3C", a2="4C", b1="9D", b2="9H", s="7D")
    game.play("a1>u")
    assert moves(game) == ["a2>u"]  # a2 is free now, and fits: no deal yet
    game.play("a2>u")
    assert moves(game) == ["deal"]


def test_deal_fills_the_lowest_rows_gaps_left_to_right_first() -> None:
    game = maze(2, a1="9C", b1="9D", c1="", a2="", b2="9H", c2="", d2="9S", s="2S 3S 4S")
    game.play("deal")
    assert row(game, 2) == ["4S", "9H", "3S", "9S", "2S", "", "", "", "", ""]
    assert pile(game, "s") == ""
    assert row(game, 1)[:3] == ["9C", "9D", ""]  # a higher gap stays empty
    assert game.rows == 2


def test_deal_lays_a_new_row_when_the_lowest_row_is_full() -> None:
    lowest = {f"{c}2": "9C" for c in COLUMNS}
    stock = "2S 3S 4S 5S 6S 7S 8S 9S TS JS 2D"
    game = maze(2, grace=0, a1="", **lowest, s=stock)
    game.play("deal")
    assert game.rows == 3
    assert row(game, 3) == codes("2D JS TS 9S 8S 7S 6S 5S 4S 3S")
    assert pile(game, "a1") == ""  # the old gap in row 1 is never refilled
    assert pile(game, "s") == "2S"


#: a full first row of nines and tens that fit nowhere
FULL_ROW = dict(
    zip((f"{c}1" for c in COLUMNS), codes("9C 9D 9H 9S TC TD TH TS 9C 9D"), strict=True)
)


def test_a_short_last_row() -> None:
    game = maze(1, grace=0, **FULL_ROW, s="8D 9D")
    game.play("deal")
    assert row(game, 2) == ["9D", "8D"] + [""] * 8
    assert "deal" not in moves(game)
    with pytest.raises(IllegalMove, match="illegal move 'deal': the stock is empty"):
        game.play("deal")


def test_the_top_row_stays_free_under_a_new_row() -> None:
    game = maze(1, grace=0, **FULL_ROW, s="8D QH")
    game.play("deal")
    # a2 (QH) is the lowest row; a1 above it is still free, being in the top row
    assert [game.cell_label(i) for i in game._available()] == [
        "a1",
        "b1",
        *[f"{c}1" for c in COLUMNS[2:]],
        "a2",
        "b2",
    ]
    assert moves(game) == ["a2>d"]


# -- the grace ---------------------------------------------------------------------------


def test_no_grace_while_the_stock_lasts() -> None:
    game = maze(2, a1="9C", a2="9D", s="5H")
    assert moves(game) == ["deal"]
    with pytest.raises(IllegalMove, match="the grace is for when the stock is out and nothing"):
        game.play("a1>g")


def test_no_grace_while_a_card_can_be_played() -> None:
    game = maze(3, a1="9C", a2="9D", a3="2H")
    assert moves(game) == ["a3>u"]
    with pytest.raises(IllegalMove, match="the grace is for when nothing can be played"):
        game.play("a2>g")


def test_the_grace_takes_any_one_card_when_stuck() -> None:
    game = maze(3, a1="4H", a2="2H", a3="3H", b1="9C")
    assert game.status == "playing"
    assert moves(game) == ["a1>g", "b1>g", "a2>g", "a3>g"]
    game.play("a2>g")  # a blocked card: the one most needed
    assert pile(game, "g") == "2H"
    assert game.counters()["grace"] == 1
    assert moves(game) == ["g>u"]
    game.play("g>u")
    assert moves(game) == ["a3>u"]  # free from above now
    game.play("a3>u")
    game.play("a1>u")
    assert pile(game, "uh") == "AH 2H 3H 4H"
    assert moves(game) == []
    assert game.status == "lost"
    with pytest.raises(IllegalMove, match="the game is over"):
        game.play("b1>g")


def test_the_grace_is_used_once() -> None:
    game = maze(3, grace=1, a1="4H", a2="2H", a3="3H", g="")
    assert moves(game) == []
    assert game.status == "lost"
    game = maze(3, grace=1, a1="4H", a2="2H", a3="3H", b1="5H", g="8D")
    # the grace card cannot go home yet; the grace is spent: lost
    assert game.status == "lost"
    game = maze(3, grace=1, a1="4H", a2="3H", a3="5H", g="9S", us=up("S", "8"))
    assert moves(game) == ["g>u"]
    with pytest.raises(IllegalMove, match="the grace has been used"):
        game.play("a2>g")


def test_the_grace_card_may_fit_both_piles() -> None:
    game = maze(3, uc=up("C", "5"), dc=down("C", "7"), a1="9D", a2="6C", a3="9H")
    game.play("a2>g")
    assert moves(game) == ["g>u", "g>d"]


def test_grace_refusals() -> None:
    game = maze(2, a1="9C", a2="9D", b1="9H", b2="9S")
    with pytest.raises(IllegalMove, match="no card has been taken as the grace"):
        game.play("g>u")
    with pytest.raises(IllegalMove, match="c1 is empty"):
        game.play("c1>g")
    with pytest.raises(IllegalMove, match="a3 is not dealt"):
        game.play("a3>g")
    game = maze(4, a1="9C", a2="2D", a3="9D", a4="9H")
    game.play("a3>g")
    assert moves(game) == ["a2>u"]  # free from below now
    with pytest.raises(
        IllegalMove, match="9D cannot go up: the ascending diamonds want the 2 next"
    ):
        game.play("g>u")
    game = maze(4, a1="9C", a2="2D", a3="3D", a4="9H")
    game.play("a2>g")
    game.play("g>u")
    assert moves(game) == ["a3>u"]
    with pytest.raises(IllegalMove, match="the grace card has gone home already"):
        game.play("g>u")


def test_the_grace_can_be_undone() -> None:
    game = maze(2, a1="9C", a2="9D")
    before = game.key()
    game.play("a2>g")
    assert game.can_undo()
    game.undo()
    assert game.key() == before
    assert game.counters()["grace"] == 0
    assert game.view()["grace_used"] is False


# -- end ---------------------------------------------------------------------------------


def full_foundations() -> dict[str, str]:
    return {
        **{f"u{s.lower()}": up(s, "K") for s in "CDHS"},
        **{f"d{s.lower()}": down(s, "A") for s in "CDHS"},
    }


def test_won_with_every_card_home() -> None:
    game = maze(0, grace=0, **full_foundations())
    assert game.status == "won"
    assert game.progress == (104, 104)
    assert moves(game) == []


def test_the_grace_can_win_the_game() -> None:
    layout = full_foundations()
    layout["us"] = up("S", "J")
    layout["ds"] = down("S", "3")
    game = maze(4, grace=0, **layout, a1="KS", a2="QS", a3="2S", a4="AS")
    assert game.progress == (100, 104)
    assert moves(game) == ["a1>g", "a2>g", "a3>g", "a4>g"]
    for move in ("a2>g", "g>u", "a3>d", "a4>d", "a1>u"):
        game.play(move)
    assert game.status == "won"


def test_lost_when_stuck_after_the_grace() -> None:
    game = maze(2, grace=1, a1="9C", a2="9D")
    assert moves(game) == []
    assert game.status == "lost"
    assert game.view()["grace_used"] is True


# -- undo --------------------------------------------------------------------------------


def test_undo_after_a_play_but_not_after_a_deal() -> None:
    game = maze(1, a1="2H", s="9C 9D")
    game.play("a1>u")
    game.undo()
    assert pile(game, "a1") == "2H"
    game.play("a1>u")
    game.play("deal")  # fills a1 from the stock
    with pytest.raises(UndoRefused, match="it brought hidden cards into view"):
        game.undo()


# -- notation ----------------------------------------------------------------------------


def test_notation() -> None:
    game = maze(1, a1="2H", s="9C")
    assert game.parse(" J10 > D ").text == "j10>d"
    assert game.parse("C3>G").text == "c3>g"
    assert game.parse("G > U").text == "g>u"
    for text in ("k1>u", "a11>u", "a1>f", "a1>b1", "g>g", "redeal"):
        with pytest.raises(InvalidMove, match="Moves look like c3>u, c3>d, deal, c3>g or g>u"):
            game.parse(text)
