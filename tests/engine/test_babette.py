"""Babette, rule by rule, on positions built by hand.

Cells are labelled column letter (a..h) and row number from the top: ``a1`` is the
top-left. The stock ``s`` is written bottom to top, so its last code is dealt first.
"""

from __future__ import annotations

import pytest

from server.engine import IllegalMove, InvalidMove, UndoRefused, new_game
from server.engine.cards import CODE
from server.engine.deal import shuffled_deck, sorted_deck
from server.engine.games.babette import Babette

RANKS = "A23456789TJQK"


def pile(game: Babette, label: str) -> str:
    return " ".join(CODE[c] for c in game.p[game.LABELS[label]])


def moves(game: Babette) -> list[str]:
    return [m.text for m in game.legal_moves()]


def codes(text: str) -> list[str]:
    """Card codes written with spaces, as a list."""
    return text.split()


def row(game: Babette, r: int) -> list[str]:
    """The cells of row ``r`` (1 = top), "" for an empty one."""
    return [pile(game, f"{c}{r}") for c in "abcdefgh"]


def up(suit: str, top: str) -> str:
    """An ascending foundation from the ace to ``top``."""
    return " ".join(f"{r}{suit}" for r in RANKS[: RANKS.index(top) + 1])


def down(suit: str, top: str) -> str:
    """A descending foundation from the king to ``top``."""
    return " ".join(f"{r}{suit}" for r in reversed(RANKS[RANKS.index(top) :]))


def garden(rows: int, redeals: int = 2, **piles: str) -> Babette:
    game = Babette.from_layout(piles, {"rows": rows, "redeals": redeals})
    assert isinstance(game, Babette)
    return game


# -- the deal ----------------------------------------------------------------------------


def test_deal_order_of_an_explicit_deck() -> None:
    deck = [CODE[c] for c in sorted_deck(2)]
    game = new_game("babette", deck=deck)
    assert isinstance(game, Babette)
    assert row(game, 1) == deck[0:8]
    assert len(game.p[game.STOCK]) == 96
    assert game.counters() == {"rows": 1, "redeals": 2}
    assert moves(game) == ["a1>u", "deal"]  # the ace of clubs; nothing goes out by itself
    game.play("deal")
    assert row(game, 2) == deck[8:16]
    assert game.rows == 2


def test_a_seed_deals_its_shuffle_from_the_front() -> None:
    deck = shuffled_deck(42, packs=2)
    assert new_game("babette", seed=42).key() == Babette.from_deck(deck).key()


def test_a_deck_holds_both_packs() -> None:
    deck = [CODE[c] for c in sorted_deck(2)][:-1]
    with pytest.raises(ValueError, match="a babette deck holds 104 cards; missing KS"):
        new_game("babette", deck=deck)


# -- availability ------------------------------------------------------------------------


def test_a_card_is_blocked_by_the_card_directly_below() -> None:
    game = garden(2, a1="AH", a2="9C", b1="AS", c2="AD", s="5C")
    assert moves(game) == ["b1>u", "c2>u", "deal"]
    with pytest.raises(IllegalMove, match="AH at a1 is blocked"):
        game.play("a1>u")
    with pytest.raises(
        IllegalMove, match="9C cannot go down: the descending clubs want the king next"
    ):
        game.play("a2>d")


def test_a_card_over_a_gap_is_free_though_lower_rows_are_full() -> None:
    game = garden(3, c1="AH", c3="5D", d1="AS", d2="9C", d3="4C", s="5C")
    assert moves(game) == ["c1>u", "deal"]
    with pytest.raises(IllegalMove, match="AS at d1 is blocked"):
        game.play("d1>u")


def test_the_lowest_row_is_free_and_its_play_frees_the_card_above() -> None:
    game = garden(2, a1="2H", a2="AH", s="5C")
    assert moves(game) == ["a2>u", "deal"]
    game.play("a2>u")
    assert moves(game) == ["a1>u", "deal"]
    game.play("a1>u")
    assert pile(game, "uh") == "AH 2H"


def test_cells_not_dealt_and_empty_cells() -> None:
    game = garden(2, a1="AH", a2="9C", s="5C")
    with pytest.raises(IllegalMove, match="b2 is empty"):
        game.play("b2>u")
    with pytest.raises(IllegalMove, match="a3 is not dealt"):
        game.play("a3>u")


# -- foundations -------------------------------------------------------------------------


def test_the_first_ace_starts_up_and_the_first_king_starts_down() -> None:
    game = garden(1, a1="AH", b1="KH", s="5C")
    assert moves(game) == ["a1>u", "b1>d", "deal"]
    with pytest.raises(
        IllegalMove, match="AH cannot go down: the descending hearts want the king next"
    ):
        game.play("a1>d")
    with pytest.raises(
        IllegalMove, match="KH cannot go up: the ascending hearts want the ace next"
    ):
        game.play("b1>u")
    game.play("a1>u")
    game.play("b1>d")
    assert (pile(game, "uh"), pile(game, "dh")) == ("AH", "KH")


def test_the_second_copies_finish_the_opposite_piles() -> None:
    game = garden(1, redeals=0, uh=up("H", "Q"), dh=down("H", "2"), a1="AH", b1="KH")
    assert moves(game) == ["a1>d", "b1>u"]
    with pytest.raises(
        IllegalMove, match="AH cannot go up: the ascending hearts want the king next"
    ):
        game.play("a1>u")
    game.play("a1>d")
    game.play("b1>u")
    assert game.progress == (26, 104)
    assert pile(game, "uh") == up("H", "K")
    assert pile(game, "dh") == down("H", "A")
    with pytest.raises(IllegalMove, match="the ascending hearts foundation is complete"):
        garden(1, uh=up("H", "K"), a1="KH", s="5C").play("a1>u")
    with pytest.raises(IllegalMove, match="the descending hearts foundation is complete"):
        garden(1, dh=down("H", "A"), a1="AH", s="5C").play("a1>d")


def test_a_card_that_fits_both_piles_is_the_players_choice() -> None:
    game = garden(1, redeals=0, us=up("S", "6"), ds=down("S", "8"), a1="7S", b1="7S")
    assert moves(game) == ["a1>u", "a1>d", "b1>u", "b1>d"]
    game.play("a1>d")
    # the needs are now 7 up and 6 down: the other seven goes up
    assert moves(game) == ["b1>u"]
    game.undo()
    game.play("a1>u")
    assert moves(game) == ["b1>d"]  # 8 up and 7 down


def test_the_first_ace_never_finishes_the_down_pile() -> None:
    # the kings to the deuce are down, no ace is up: this ace must start the ascending pile
    game = garden(1, dd=down("D", "2"), a1="AD", s="5C")
    assert moves(game) == ["a1>u", "deal"]
    with pytest.raises(
        IllegalMove, match="AD cannot go down: the first ace of diamonds starts the ascending"
    ):
        game.play("a1>d")
    with pytest.raises(
        IllegalMove, match="5D cannot go down: the descending diamonds want the ace next"
    ):
        garden(1, dd=down("D", "2"), a1="5D", s="5C").play("a1>d")


def test_the_first_king_never_finishes_the_up_pile() -> None:
    game = garden(1, uc=up("C", "Q"), a1="KC", s="5C")
    assert moves(game) == ["a1>d", "deal"]
    with pytest.raises(
        IllegalMove, match="KC cannot go up: the first king of clubs starts the descending"
    ):
        game.play("a1>u")
    with pytest.raises(
        IllegalMove, match="5C cannot go up: the ascending clubs want the king next"
    ):
        garden(1, uc=up("C", "Q"), a1="5C", s="5C").play("a1>u")


def test_no_building_in_the_garden() -> None:
    game = garden(1, a1="7S", b1="8S", s="5C")
    with pytest.raises(InvalidMove, match="cannot read 'a1>b1' as a move of Babette"):
        game.play("a1>b1")
    with pytest.raises(InvalidMove, match="cannot read 'a1>f'"):
        game.play("a1>f")


# -- deal --------------------------------------------------------------------------------


def test_deal_lays_a_new_row_into_its_own_line_and_gaps_stay() -> None:
    game = garden(2, a1="9C", b1="9D", a2="", b2="8C", s="2S 3S 4S 5S 6S 7S 8S 9S TS")
    game.play("deal")
    assert game.rows == 3
    assert row(game, 2) == ["", "8C", "", "", "", "", "", ""]
    assert row(game, 3) == ["TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S"]
    assert pile(game, "s") == "2S"
    # the gap at a2 stays, so a1 stays free; b2 is blocked by the new b3
    available = [game.cell_label(i) for i in game._available()]
    assert available == ["a1", *(f"{c}3" for c in "abcdefgh")]


def test_a_short_last_row() -> None:
    game = garden(1, a1="9C", b1="9D", c1="AS", d1="AH", s="5C 4C 3C")
    game.play("deal")
    assert row(game, 2) == ["3C", "4C", "5C", "", "", "", "", ""]
    assert game.rows == 2
    # d1 has no card below it: the short row leaves it free, while a1..c1 are blocked
    assert moves(game) == ["d1>u"]
    with pytest.raises(IllegalMove, match="illegal move 'deal': the stock is empty"):
        game.play("deal")


def test_deal_is_legal_at_any_time_while_the_stock_lasts() -> None:
    game = garden(1, a1="AS", s="5C")
    assert moves(game) == ["a1>u", "deal"]


# -- redeal ------------------------------------------------------------------------------

#: three rows with gaps, the stock out. Columns from the top row down ("." a gap):
#: a: 2C 3C 4C  b: 5C . 6C  c: . 7C .  d: 8C 9C .  e: TC . .  f: . 2D .  g: 3D 4D 5D  h: 6D . 7D
TAKEN_UP = {
    "a1": "2C",
    "a2": "3C",
    "a3": "4C",
    "b1": "5C",
    "b3": "6C",
    "c2": "7C",
    "d1": "8C",
    "d2": "9C",
    "e1": "TC",
    "f2": "2D",
    "g1": "3D",
    "g2": "4D",
    "g3": "5D",
    "h1": "6D",
    "h3": "7D",
}


def test_redeal_takes_up_the_garden_column_h_first_each_from_its_top() -> None:
    game = garden(3, redeals=2, **TAKEN_UP, us=up("S", "4"), dh="KH")
    assert moves(game) == ["redeal"]
    game.play("redeal")
    # column h top down, then g, f, ... a
    order = codes("6D 7D 3D 4D 5D 2D TC 8C 9C 7C 5C 6C 2C 3C 4C")
    assert row(game, 1) == order[0:8]  # the first row is laid again at once
    assert game.counters() == {"rows": 1, "redeals": 1}
    assert len(game.p[game.STOCK]) == 7
    assert (pile(game, "us"), pile(game, "dh")) == (up("S", "4"), "KH")  # foundations stay
    assert all(row(game, r) == [""] * 8 for r in (2, 3))
    game.play("deal")
    assert row(game, 2) == [*order[8:15], ""]


def test_redeal_only_when_the_stock_is_out() -> None:
    game = garden(3, redeals=2, **TAKEN_UP, s="8H")
    assert "redeal" not in moves(game)
    with pytest.raises(IllegalMove, match="the garden is taken up only when the stock is out"):
        game.play("redeal")


def test_redeal_at_most_twice() -> None:
    game = garden(1, redeals=2, a1="9C", b1="9D")
    game.play("redeal")
    assert row(game, 1)[:2] == ["9D", "9C"]  # a garden one row deep comes back reversed
    game.play("redeal")
    assert row(game, 1)[:2] == ["9C", "9D"]
    assert game.counters()["redeals"] == 0
    assert moves(game) == []
    assert game.status == "lost"
    with pytest.raises(IllegalMove, match=r"the game is over \(lost\)"):
        game.play("redeal")
    game = garden(1, redeals=0, a1="9C", b1="AD")
    with pytest.raises(IllegalMove, match="the garden has been taken up twice already"):
        game.play("redeal")


def test_redeal_waits_until_no_available_card_can_go_home() -> None:
    # corrected 2026-11-24: the garden is taken up "when ... all available cards have been
    # played"; the old ruling offered the redeal here beside the play home
    game = garden(1, a1="AC", b1="9D")
    assert moves(game) == ["a1>u"]
    with pytest.raises(
        IllegalMove, match="the garden is taken up only when no available card can go home"
    ):
        game.play("redeal")
    game.play("a1>u")
    assert moves(game) == ["redeal"]


def test_a_blocked_card_that_would_fit_does_not_hold_up_the_redeal() -> None:
    # a2 covers a1's ace: only available cards count
    game = garden(2, a1="AC", a2="9D")
    assert moves(game) == ["redeal"]


def test_redeal_shows_nothing_hidden_and_can_be_undone() -> None:
    game = garden(3, redeals=2, **TAKEN_UP)
    before = game.key()
    game.play("redeal")
    assert game.can_undo()
    assert game.view()["can_undo"] is True
    game.undo()
    assert game.key() == before
    assert game.counters() == {"rows": 3, "redeals": 2}


def test_a_deal_after_a_redeal_cannot_be_undone() -> None:
    # the redealt stock is face down again: dealing from it is a deal from the stock
    game = garden(3, redeals=2, **TAKEN_UP)
    game.play("redeal")
    game.play("deal")
    with pytest.raises(UndoRefused, match="cannot undo 'deal': it brought hidden cards"):
        game.undo()


# -- end ---------------------------------------------------------------------------------


def full_foundations() -> dict[str, str]:
    return {
        **{f"u{s.lower()}": up(s, "K") for s in "CDHS"},
        **{f"d{s.lower()}": down(s, "A") for s in "CDHS"},
    }


def test_won_with_every_card_home() -> None:
    game = garden(0, redeals=2, **full_foundations())
    assert game.status == "won"
    assert game.progress == (104, 104)
    assert moves(game) == []
    with pytest.raises(IllegalMove, match=r"the game is over \(won\)"):
        game.play("deal")


def test_the_last_card_home_wins() -> None:
    layout = full_foundations()
    layout["ds"] = down("S", "2")
    game = garden(1, redeals=0, **layout, a1="AS")
    assert moves(game) == ["a1>d"]
    game.play("a1>d")
    assert game.status == "won"


def test_lost_with_the_stock_out_no_redeal_and_no_play() -> None:
    game = garden(2, redeals=0, a1="AH", a2="9C")
    assert moves(game) == []
    assert game.status == "lost"
    assert garden(2, redeals=1, a1="AH", a2="9C").status == "playing"  # a redeal is left


# -- undo --------------------------------------------------------------------------------


def test_undo_after_a_play_home_but_not_after_a_deal() -> None:
    game = garden(1, a1="AH", s="5C 6C")
    game.play("a1>u")
    game.undo()
    assert pile(game, "a1") == "AH"
    assert pile(game, "uh") == ""
    game.play("deal")
    assert not game.can_undo()
    with pytest.raises(UndoRefused, match="it brought hidden cards into view"):
        game.undo()
    with pytest.raises(UndoRefused, match="nothing to undo"):
        garden(1, a1="AH").undo()


# -- notation and view -------------------------------------------------------------------


def test_notation() -> None:
    game = garden(1, a1="AH", s="5C")
    assert game.parse(" A1 > U ").text == "a1>u"
    assert game.parse("H13>D").text == "h13>d"
    assert game.parse("REDEAL").text == "redeal"
    assert game.parse("d").text == "deal"
    for text in ("i1>u", "a14>u", "a0>u", "a1>g"):
        with pytest.raises(InvalidMove, match="Moves look like c3>u, c3>d, deal or redeal"):
            game.parse(text)


def test_the_view_shows_the_rows_dealt_and_the_redeals_left() -> None:
    game = garden(2, redeals=1, a1="AH", a2="9C", s="5C 6C")
    view = game.view()
    assert (view["rows"], view["width"], view["redeals"]) == (2, 8, 1)
    cells = [p["label"] for p in view["piles"] if p["kind"] == "cell"]
    assert cells == [f"{c}{r}" for r in (1, 2) for c in "abcdefgh"]
    stock = next(p for p in view["piles"] if p["label"] == "s")
    assert (stock["cards"], stock["down"]) == ([], 2)
