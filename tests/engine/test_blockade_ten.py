"""The Blockade in rows of ten (the footnote's other fashion), rule by rule.

Cells are labelled column letter (a..j) and row number from the top: ``a1`` is the
top-left. The stock ``s`` is written bottom to top, so its last code is dealt first.
"""

from __future__ import annotations

import pytest

from server.engine import IllegalMove, InvalidMove, UndoRefused, new_game
from server.engine.cards import CODE
from server.engine.deal import shuffled_deck, sorted_deck
from server.engine.games.blockade import BlockadeTen

RANKS = "A23456789TJQK"
COLUMNS = "abcdefghij"


def pile(game: BlockadeTen, label: str) -> str:
    return " ".join(CODE[c] for c in game.p[game.LABELS[label]])


def moves(game: BlockadeTen) -> list[str]:
    return [m.text for m in game.legal_moves()]


def row(game: BlockadeTen, r: int) -> list[str]:
    return [pile(game, f"{c}{r}") for c in COLUMNS]


def free(game: BlockadeTen) -> list[str]:
    """The cells whose card is available now, in reading order."""
    return [game.cell_label(i) for i in game._available()]


def up(suit: str, top: str) -> str:
    return " ".join(f"{r}{suit}" for r in RANKS[: RANKS.index(top) + 1])


def down(suit: str, top: str) -> str:
    return " ".join(f"{r}{suit}" for r in reversed(RANKS[RANKS.index(top) :]))


def rows_of_ten(rows: int, **piles: str) -> BlockadeTen:
    game = BlockadeTen.from_layout(piles, {"rows": rows})
    assert isinstance(game, BlockadeTen)
    return game


# -- the deal ----------------------------------------------------------------------------


def test_deal_order_of_an_explicit_deck() -> None:
    deck = [CODE[c] for c in sorted_deck(2)]
    game = new_game("blockade-ten", deck=deck)
    assert row(game, 1) == deck[0:10]
    assert len(game.p[game.STOCK]) == 94
    assert game.progress == (0, 104)  # nothing goes out by itself, not even an ace
    assert moves(game) == ["a1>u", "deal"]
    game.play("a1>u")
    game.play("deal")  # the lowest row's gap first
    assert pile(game, "a1") == deck[10]
    game.play("deal")
    assert row(game, 2) == deck[11:21]


def test_a_seed_deals_its_shuffle_from_the_front() -> None:
    deck = shuffled_deck(3, packs=2)
    assert new_game("blockade-ten", seed=3).key() == BlockadeTen.from_deck(deck).key()


# -- availability: below only while the pack lasts, then from either side ----------------

#: three rows: a column of three; a gap in row 1 over a full column; a gap in row 2
THREE_ROWS = {
    "a1": "2H",
    "a2": "9C",
    "a3": "9D",
    "b1": "",
    "b2": "3H",
    "b3": "9S",
    "c1": "4H",
    "c2": "",
    "c3": "9H",
}


def test_during_the_deal_only_cards_with_nothing_below_are_free() -> None:
    game = rows_of_ten(3, uh="AH", **THREE_ROWS, s="5C")
    # c1 over the gap at c2, then the lowest row; not the top row, not b2 under a gap
    assert free(game) == ["c1", "a3", "b3", "c3"]
    assert moves(game) == ["deal"]
    with pytest.raises(IllegalMove, match="2H at a1 is blocked"):
        game.play("a1>u")
    with pytest.raises(IllegalMove, match="3H at b2 is blocked"):
        game.play("b2>u")


def test_once_the_pack_is_out_the_top_row_and_cards_under_a_gap_are_free() -> None:
    game = rows_of_ten(3, uh="AH", **THREE_ROWS)
    assert free(game) == ["a1", "c1", "b2", "a3", "b3", "c3"]
    assert moves(game) == ["a1>u"]
    game.play("a1>u")
    assert moves(game) == ["b2>u"]  # a2 is free from the top, but 9C fits nowhere
    game.play("b2>u")
    game.play("c1>u")
    assert pile(game, "uh") == "AH 2H 3H 4H"


def test_the_deal_that_empties_the_stock_frees_the_top_row() -> None:
    full = {f"{c}{r}": "9C" for c in COLUMNS for r in (1, 2)}
    game = rows_of_ten(2, **{**full, "a1": "2H", "j2": ""}, uh="AH", s="9D")
    assert "a1>u" not in moves(game)
    game.play("deal")
    assert pile(game, "j2") == "9D"
    assert moves(game) == ["a1>u"]


# -- foundations -------------------------------------------------------------------------


def test_the_first_ace_starts_up_and_the_first_king_starts_down() -> None:
    game = rows_of_ten(1, a1="AS", b1="KS", s="5C")
    assert moves(game) == ["a1>u", "b1>d", "deal"]
    with pytest.raises(IllegalMove, match="AS cannot go down: the spades descend from the king"):
        game.play("a1>d")


def test_the_second_copies_finish_the_opposite_piles() -> None:
    game = rows_of_ten(1, uc=up("C", "Q"), dc=down("C", "2"), a1="AC", b1="KC")
    assert moves(game) == ["a1>d", "b1>u"]


def test_a_card_that_fits_both_piles_is_the_players_choice() -> None:
    game = rows_of_ten(1, ud=up("D", "8"), dd=down("D", "T"), a1="9D", s="5C")
    assert moves(game) == ["a1>u", "a1>d", "deal"]


def test_the_first_ace_and_king_never_finish_the_other_pile() -> None:
    game = rows_of_ten(1, dh=down("H", "2"), uc=up("C", "Q"), a1="AH", b1="KC", s="5C")
    assert moves(game) == ["a1>u", "b1>d", "deal"]
    with pytest.raises(IllegalMove, match="the first ace of hearts starts the ascending"):
        game.play("a1>d")
    with pytest.raises(IllegalMove, match="the first king of clubs starts the descending"):
        game.play("b1>u")


def test_no_building() -> None:
    game = rows_of_ten(1, a1="7S", b1="8S", s="5C")
    with pytest.raises(InvalidMove, match="Moves look like c3>u, c3>d or deal"):
        game.play("a1>b1")
    with pytest.raises(InvalidMove):
        game.play("a1>f")


# -- deal --------------------------------------------------------------------------------


def test_deal_fills_the_lowest_rows_gaps_left_to_right_and_higher_gaps_stay() -> None:
    full = {f"{c}{r}": "9C" for c in COLUMNS for r in (1, 2)}
    game = rows_of_ten(2, **{**full, "b1": "", "c2": "", "h2": ""}, s="2S 3S 4S")
    game.play("deal")
    assert (pile(game, "c2"), pile(game, "h2")) == ("4S", "3S")
    assert pile(game, "b1") == ""
    assert game.rows == 2
    game.play("deal")  # the lowest row is full: a new row, one card long
    assert row(game, 3) == ["2S", *[""] * 9]
    assert pile(game, "b1") == ""
    assert "deal" not in moves(game)


def test_undo_refused_after_a_deal_allowed_after_a_play() -> None:
    game = rows_of_ten(1, a1="AS", s="5C")
    game.play("a1>u")
    assert game.can_undo()
    game.undo()
    game.play("deal")
    with pytest.raises(UndoRefused, match="it brought hidden cards into view"):
        game.undo()


# -- end ---------------------------------------------------------------------------------


def test_won_and_lost() -> None:
    full = {f"u{s.lower()}": up(s, "K") for s in "CDHS"}
    full.update({f"d{s.lower()}": down(s, "A") for s in "CDHS"})
    game = rows_of_ten(0, **full)
    assert game.status == "won"
    assert game.progress == (104, 104)
    game = rows_of_ten(2, a1="9C", a2="9D")
    assert moves(game) == []
    assert game.status == "lost"
    with pytest.raises(IllegalMove, match=r"the game is over \(lost\)"):
        game.play("a2>u")


def test_notation() -> None:
    game = rows_of_ten(1, a1="9D", s="9H")
    assert game.parse(" J11 > D ").text == "j11>d"
    assert game.parse("D").text == "deal"
    for text in ("k1>u", "a12>u", "redeal", "a1>g"):
        with pytest.raises(InvalidMove, match="cells: column a-j, row 1-11"):
            game.parse(text)
