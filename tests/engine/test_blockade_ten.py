"""The Blockade in rows of ten (the footnote's other fashion), rule by rule.

Cells are labelled column letter (a..j) and row number from the top: ``a1`` is the
top-left. The stock ``s`` is written bottom to top, so its last code is dealt first.
Foundations: ``uc1 uc2 .. us2`` ascend from the aces, ``dc1 dc2 .. ds2`` descend from the
kings. ``from_layout`` takes no automatic step: the aces and kings go out after the
first move played.
"""

from __future__ import annotations

import random

import pytest

from server.engine import Game, IllegalMove, InvalidMove, UndoRefused, new_game
from server.engine.cards import CODE, RANK
from server.engine.deal import shuffled_deck, sorted_deck
from server.engine.games.blockade import BlockadeTen

RANKS = "A23456789TJQK"
COLUMNS = "abcdefghij"


def pile(game: Game, label: str) -> str:
    return " ".join(CODE[c] for c in game.p[game.LABELS[label]])


def moves(game: Game) -> list[str]:
    return [m.text for m in game.legal_moves()]


def row(game: Game, r: int) -> list[str]:
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
    assert isinstance(game, BlockadeTen)
    # the first row is AC..TC, and the ace goes out at once
    assert row(game, 1) == ["", *deck[1:10]]
    assert pile(game, "uc1") == "AC"
    assert len(game.p[game.STOCK]) == 94
    assert game.moves == 0
    assert moves(game) == ["b1>u", "deal"]
    game.play("deal")  # the lowest row's gap first: JC
    assert pile(game, "a1") == deck[10]
    game.play("deal")  # a new row: QC KC AD..8D, and the king and ace go out
    assert row(game, 2) == ["QC", "", "", *deck[14:21]]
    assert (pile(game, "dc1"), pile(game, "ud1")) == ("KC", "AD")


def free_aces_and_kings(game: Game) -> list[str]:
    assert isinstance(game, BlockadeTen)
    return [game.cell_label(i) for i in game._available() if RANK[game.p[i][-1]] in (1, 13)]


def test_no_ace_or_king_is_left_free_after_the_deal() -> None:
    for seed in range(20):
        assert free_aces_and_kings(new_game("blockade-ten", seed=seed)) == []


def test_no_ace_or_king_is_left_free_after_any_move() -> None:
    # the automatic step looks only where a move can have freed a card: check it against
    # every available card, over random games to their end, and after undo
    for seed in range(30):
        rng = random.Random(seed)
        game = new_game("blockade-ten", seed=seed)
        while game.legal_moves():
            game.play(rng.choice(game.legal_moves()))
            assert free_aces_and_kings(game) == [], game.moves
            if game.can_undo() and rng.random() < 0.2:
                game.undo()
                assert free_aces_and_kings(game) == []


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
    game = rows_of_ten(3, uh1="AH", **THREE_ROWS, s="5C")
    # c1 over the gap at c2, then the lowest row; not the top row, not b2 under a gap
    assert free(game) == ["c1", "a3", "b3", "c3"]
    assert moves(game) == ["deal"]
    with pytest.raises(IllegalMove, match="2H at a1 is blocked"):
        game.play("a1>u")
    with pytest.raises(IllegalMove, match="3H at b2 is blocked"):
        game.play("b2>u")


def test_once_the_pack_is_out_the_top_row_and_cards_under_a_gap_are_free() -> None:
    game = rows_of_ten(3, uh1="AH", **THREE_ROWS)
    assert free(game) == ["a1", "c1", "b2", "a3", "b3", "c3"]
    assert moves(game) == ["a1>u"]
    game.play("a1>u")
    assert moves(game) == ["b2>u"]  # a2 is free from the top, but 9C fits nowhere
    game.play("b2>u")
    game.play("c1>u")
    assert pile(game, "uh1") == "AH 2H 3H 4H"


def test_the_deal_that_empties_the_stock_frees_the_top_row() -> None:
    full = {f"{c}{r}": "9C" for c in COLUMNS for r in (1, 2)}
    game = rows_of_ten(2, **{**full, "a1": "2H", "j2": ""}, uh1="AH", s="9D")
    assert "a1>u" not in moves(game)
    game.play("deal")
    assert pile(game, "j2") == "9D"
    assert moves(game) == ["a1>u"]


# -- foundations -------------------------------------------------------------------------


def test_every_ace_and_every_king_goes_out_by_itself() -> None:
    # the first rules had the player play them, and only the first ace and king of a suit
    # started piles: a second ace went on the descending pile, last
    game = rows_of_ten(2, uc1=up("C", "5"), a1="AC", a2="KC", b1="KH", b2="AS", c2="9D", s="5H")
    game.play("deal")
    assert (pile(game, "uc1"), pile(game, "uc2")) == (up("C", "5"), "AC")
    assert (pile(game, "dc1"), pile(game, "dh1"), pile(game, "us1")) == ("KC", "KH", "AS")
    assert row(game, 1) == [""] * 10
    # the deal filled the lowest row's first gap, d2; then KC and AS went out, which
    # freed AC and KH above them
    assert row(game, 2) == ["", "", "9D", "5H", *[""] * 6]


def test_aces_and_kings_go_out_wherever_a_move_frees_them() -> None:
    # in play every card is dealt into the lowest row, so an ace or king goes out as it
    # is dealt; a position built by hand can hide them, and they go out once freed.
    # While the pack lasts, a card is freed from below:
    full = {f"{c}2": "9C" for c in COLUMNS}
    layout = {**full, "a1": "KS", "a2": "5H", "j2": ""}
    game = rows_of_ten(2, **layout, uh1=up("H", "4"), s="9S 8D")
    game.play("deal")
    assert pile(game, "a1") == "KS"
    game.play("a2>u")
    assert (pile(game, "a1"), pile(game, "ds1")) == ("", "KS")
    # once it is out, from above too:
    game = rows_of_ten(3, a1="6H", a2="AS", a3="9C", b3="5H", uh1=up("H", "4"))
    game.play("b3>u")
    assert pile(game, "a2") == "AS"
    game.play("a1>u")
    assert (pile(game, "a2"), pile(game, "us1")) == ("", "AS")
    # and the deal of the last card frees the top row
    layout = {**full, "a1": "KD", "b2": "2H", "j2": ""}
    game = rows_of_ten(2, **layout, uh1="AH", s="7D 8D")
    game.play("b2>u")
    game.play("deal")
    assert (pile(game, "a1"), pile(game, "dd1"), pile(game, "s")) == ("", "KD", "")


def test_a_second_ace_starts_a_second_ascending_pile() -> None:
    # the first rules: "AC cannot go up: the clubs ascend from the 6"
    game = rows_of_ten(1, uc1=up("C", "5"), a1="AC", b1="6C", s="5H")
    assert moves(game) == ["a1>u", "b1>u", "deal"]
    game.play("a1>u")
    assert (pile(game, "uc1"), pile(game, "uc2")) == (up("C", "5"), "AC")


def test_aces_go_up_and_kings_down_never_to_end_the_other_piles() -> None:
    # the first rules let the second ace end the descending pile and the second king the
    # ascending one: these moves were legal
    game = rows_of_ten(1, uc1=up("C", "Q"), dc1=down("C", "2"), a1="AC", b1="KC", s="5H")
    assert moves(game) == ["a1>u", "b1>d", "deal"]
    with pytest.raises(IllegalMove, match="AC cannot go down: every ace starts an ascending pile"):
        game.play("a1>d")
    with pytest.raises(IllegalMove, match="KC cannot go up: every king starts a descending pile"):
        game.play("b1>u")
    game.play("a1>u")  # the king goes out by itself after the move
    assert (pile(game, "uc2"), pile(game, "dc2")) == ("AC", "KC")


def test_a_card_goes_on_any_pile_of_its_suit_that_it_fits() -> None:
    piles = dict(ud1=up("D", "5"), ud2=up("D", "2"), dd1=down("D", "9"), dd2="KD")
    game = rows_of_ten(1, **piles, a1="3D", b1="6D", c1="8D", d1="QD", e1="7D", s="5H")
    assert moves(game) == ["a1>u", "b1>u", "c1>d", "d1>d", "deal"]
    for text in ("a1>u", "b1>u", "c1>d", "d1>d"):
        game.play(text)
    assert (pile(game, "ud1"), pile(game, "ud2")) == (up("D", "6"), up("D", "3"))
    assert (pile(game, "dd1"), pile(game, "dd2")) == (down("D", "8"), "KD QD")
    # 7D now fits the top of both ways: the player's choice
    assert moves(game) == ["e1>u", "e1>d", "deal"]


def test_two_piles_that_take_a_card_are_interchangeable() -> None:
    game = rows_of_ten(1, us1=up("S", "4"), us2=up("S", "4"), a1="5S", s="5H")
    assert moves(game) == ["a1>u", "deal"]
    game.play("a1>u")
    assert (pile(game, "us1"), pile(game, "us2")) == (up("S", "5"), up("S", "4"))


def test_the_foundations_say_what_they_want() -> None:
    piles = dict(uh1=up("H", "2"), uh2=up("H", "4"), dh1=down("H", "8"), dh2="KH")
    game = rows_of_ten(1, **piles, a1="9H", s="5C")
    with pytest.raises(
        IllegalMove, match=r"9H cannot go up: the ascending hearts want the 3 or the 5$"
    ):
        game.play("a1>u")
    with pytest.raises(
        IllegalMove, match=r"9H cannot go down: the descending hearts want the 7 or the queen$"
    ):
        game.play("a1>d")
    game = rows_of_ten(1, a1="9S", s="5C")
    with pytest.raises(IllegalMove, match=r"the ascending spades want the ace$"):
        game.play("a1>u")
    with pytest.raises(IllegalMove, match=r"the descending spades want the king$"):
        game.play("a1>d")
    full = dict(uc1=up("C", "Q"), uc2=up("C", "Q"), dc1=down("C", "2"), dc2=down("C", "2"))
    game = rows_of_ten(1, **full, a1="9C", s="5C")
    with pytest.raises(IllegalMove, match=r"9C cannot go up: the ascending clubs take no more"):
        game.play("a1>u")


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
    game = rows_of_ten(1, us1="AS", a1="2S", s="5C")
    game.play("a1>u")
    assert game.can_undo()
    game.undo()
    game.play("deal")
    with pytest.raises(UndoRefused, match="it brought hidden cards into view"):
        game.undo()


# -- end ---------------------------------------------------------------------------------


def test_won_and_lost() -> None:
    # each suit: two ascending piles to the 6, two descending to the 7
    full = {f"u{s.lower()}{k}": up(s, "6") for s in "CDHS" for k in (1, 2)}
    full.update({f"d{s.lower()}{k}": down(s, "7") for s in "CDHS" for k in (1, 2)})
    game = rows_of_ten(0, **full)
    assert game.status == "won"
    assert game.progress == (104, 104)
    game = rows_of_ten(2, a1="9C", a2="9D")
    assert moves(game) == []
    assert game.status == "lost"
    with pytest.raises(IllegalMove, match=r"the game is over \(lost\)"):
        game.play("a2>u")


def test_a_deal_played_home_whenever_possible_is_won() -> None:
    # the correction's measure: such a player won 187 deals in 200 (none under the first
    # rules); seed 0 is one of them
    game = new_game("blockade-ten", seed=0)
    while game.status == "playing":
        legal = game.legal_moves()
        home = [m for m in legal if m.text != "deal"]
        game.play(home[0] if home else legal[-1])
    assert game.status == "won"
    assert game.progress == (104, 104)
    ups = [pile(game, f"u{s}{k}") for s in "cdhs" for k in (1, 2)]
    downs = [pile(game, f"d{s}{k}") for s in "cdhs" for k in (1, 2)]
    assert all(p.startswith("A") for p in ups)
    assert all(p.startswith("K") for p in downs)


def test_notation() -> None:
    game = rows_of_ten(1, a1="9D", s="9H")
    assert game.parse(" J11 > D ").text == "j11>d"
    assert game.parse("D").text == "deal"
    for text in ("k1>u", "a12>u", "redeal", "a1>g"):
        with pytest.raises(InvalidMove, match="cells: column a-j, row 1-11"):
            game.parse(text)
