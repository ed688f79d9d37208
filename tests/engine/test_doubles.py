"""Doubles and Quits: touching pairs, the automatic close-up, won and lost, undo, the deal.

Positions are built by hand with ``DoublesAndQuits.from_layout``: positions ``1``..``20``
hold one card each, ``s`` is the stock (its last code is dealt first), ``x`` the discards.
"""

from __future__ import annotations

import random

import pytest

from server.engine import Game, IllegalMove, InvalidMove, UndoRefused, new_game
from server.engine.cards import CODE, RANK
from server.engine.deal import Shuffler
from server.engine.games.doubles import DoublesAndQuits


def codes(text: str) -> list[str]:
    """Card codes written with spaces, as a list."""
    return text.split()


#: a seed whose first twenty cards hold no touching pair; the first such seed
NO_PAIR_SEED = 33

#: the seed's worked example. Its first lay-out: cards 4 and 8 are nines touching corner
#: to corner, 6 and 7 sevens, 13 and 14 fours, and no other two touching cards pair.
#: Once they are gone and the ranks close up, AH and AC touch corner to corner and 2S and
#: 2C (the first stock card) touch up and down: the seed's second round.
SEED_DECK = codes(
    "AH KC 3D 9S 5C "  # positions 1-5
    "7C 7D 9H 6D QH "  # 6-10
    "AC 8S 4H 4S JD "  # 11-15
    "2S TC 3H 5S 9C "  # 16-20
    "2C KH 6S 8C QD 4C "  # stock, dealt in this order: the first close-up
    "3C 6C JC QC "  # the second close-up
    "AD 2D 4D 5D 8D 9D TD KD 2H 5H 6H 7H 8H TH JH AS 3S 7S TS JS QS KS"
)


def piles(game: Game) -> dict[str, str]:
    """Every pile as ``from_layout`` spells it, the stock included."""
    return {
        spec.label: " ".join(CODE[c] for c in pile)
        for spec, pile in zip(game.PILES, game.key()[0], strict=True)
    }


def rows(game: Game) -> list[str]:
    """The four rows of five, an empty position shown as ``--``."""
    layout = piles(game)
    cells = [layout[str(i)] or "--" for i in range(1, 21)]
    return [" ".join(cells[r : r + 5]) for r in range(0, 20, 5)]


def moves(game: Game) -> list[str]:
    return [str(m) for m in game.legal_moves()]


def discarded_but(*keep: str) -> str:
    return " ".join(code for code in CODE if code not in keep)


# -- the deal --------------------------------------------------------------------------


def test_deck_fills_positions_1_to_20_then_the_stock_from_its_top():
    game = DoublesAndQuits.from_deck(SEED_DECK)
    assert rows(game) == [
        "AH KC 3D 9S 5C",
        "7C 7D 9H 6D QH",
        "AC 8S 4H 4S JD",
        "2S TC 3H 5S 9C",
    ]
    stock = piles(game)["s"].split()
    assert len(stock) == 32
    assert stock[::-1] == SEED_DECK[20:]  # the twenty-first card is dealt first


def test_the_stock_is_face_down_in_the_view_and_the_text():
    game = DoublesAndQuits.from_deck(SEED_DECK)
    stock = next(p for p in game.view()["piles"] if p["label"] == "s")
    assert stock["cards"] == []
    assert stock["down"] == 32
    assert "s  [32 face down]" in game.text().splitlines()


def test_a_deck_whose_first_twenty_hold_no_touching_pair_raises_value_error():
    # the pack in canonical order: AC..KC then AD..7D, no two of a rank touching
    with pytest.raises(
        ValueError, match="cannot be dealt: the first twenty cards hold no touching pair"
    ):
        DoublesAndQuits.from_deck(CODE)


def test_a_seed_deals_its_first_shuffle():
    first = Shuffler(5, 1).next_deck()
    assert new_game("doubles-and-quits", seed=5).text() == DoublesAndQuits.from_deck(first).text()


def test_a_seed_whose_first_twenty_hold_no_pair_deals_the_next_shuffle():
    shuffler = Shuffler(NO_PAIR_SEED, 1)
    first, second = shuffler.next_deck(), shuffler.next_deck()
    with pytest.raises(ValueError, match="no touching pair"):
        DoublesAndQuits.from_deck(first)
    game = new_game("doubles-and-quits", seed=NO_PAIR_SEED)
    assert game.text() == DoublesAndQuits.from_deck(second).text()
    # golden: any change to the shuffle or the retry shows up here
    assert rows(game) == [
        "3D JS 2C JC 9C",
        "7H 4S 6S 2H 8C",
        "TD 5D 5S AC QS",
        "8S AH 5C AS 9D",
    ]


# -- touching --------------------------------------------------------------------------


@pytest.mark.parametrize("other", [1, 2, 3, 6, 8, 11, 12, 13])
def test_cards_touch_across_up_and_down_and_corner_to_corner(other):
    game = DoublesAndQuits.from_layout({"7": "9S", str(other): "9D"})
    low, high = sorted((7, other))
    assert moves(game) == [f"{low}+{high}"]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (5, 6),  # the end of a row does not touch the start of the next
        (10, 11),
        (15, 16),
        (6, 10),  # ends of one row
        (5, 11),
        (10, 16),
        (1, 3),  # two apart
        (1, 11),
        (7, 9),
        (7, 17),
    ],
)
def test_cards_that_do_not_touch_do_not_pair(a, b):
    # a pair at 19 and 20 keeps the game going
    game = DoublesAndQuits.from_layout({str(a): "9S", str(b): "9D", "19": "KC", "20": "KD"})
    assert moves(game) == ["19+20"]
    message = f"illegal move '{a}\\+{b}': positions {a} and {b} do not touch"
    with pytest.raises(IllegalMove, match=message):
        game.play(f"{a}+{b}")


def test_the_player_chooses_among_overlapping_pairs():
    game = DoublesAndQuits.from_layout(
        {"1": "9S", "2": "9D", "6": "9H", "3": "KC", "7": "QC", "s": "5H 4H"}
    )
    assert moves(game) == ["1+2", "1+6", "2+6"]
    game.play("2+6")
    assert piles(game)["x"] == "9D 9H"
    assert rows(game)[0] == "9S KC QC 4H 5H"


def test_cards_of_unequal_rank_do_not_pair():
    game = DoublesAndQuits.from_layout({"1": "9S", "2": "8S", "19": "KC", "20": "KD"})
    with pytest.raises(IllegalMove, match=r"illegal move '1\+2': 9S and 8S are not of equal rank"):
        game.play("1+2")


def test_an_empty_position_does_not_pair():
    game = DoublesAndQuits.from_layout({"2": "9S", "19": "KC", "20": "KD"})
    with pytest.raises(IllegalMove, match=r"illegal move '2\+3': position 3 is empty"):
        game.play("2+3")


# -- notation --------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["4+8", "8+4", " 4 + 8 "])
def test_a_pair_is_read_in_either_order_and_written_lower_first(text):
    game = DoublesAndQuits.from_deck(SEED_DECK)
    assert str(game.play(text)) == "4+8"


@pytest.mark.parametrize("text", ["21+1", "1+1", "0+1", "4-8", "4", "deal", ""])
def test_text_that_names_no_move_is_invalid(text):
    game = DoublesAndQuits.from_deck(SEED_DECK)
    with pytest.raises(InvalidMove, match=r"Moves look like 4\+8 \(two positions from 1 to 20\)"):
        game.play(text)


def test_an_illegal_move_changes_nothing():
    game = DoublesAndQuits.from_deck(SEED_DECK)
    before = game.text()
    with pytest.raises(IllegalMove):
        game.play("1+2")
    assert game.text() == before
    assert game.moves == 0


# -- the close-up ----------------------------------------------------------------------


def test_no_close_up_while_a_touching_pair_remains():
    game = DoublesAndQuits.from_deck(SEED_DECK)
    game.play("4+8")
    game.play("6+7")
    assert rows(game) == [
        "AH KC 3D -- 5C",
        "-- -- -- 6D QH",
        "AC 8S 4H 4S JD",
        "2S TC 3H 5S 9C",
    ]
    assert len(piles(game)["s"].split()) == 32


def test_the_seeds_numbered_close_up():
    game = DoublesAndQuits.from_deck(SEED_DECK)
    assert moves(game) == ["4+8", "6+7", "13+14"]
    for move in ("4+8", "6+7", "13+14"):
        game.play(move)
    assert piles(game)["x"] == "9S 9H 7C 7D 4H 4S"
    assert rows(game) == [
        "AH KC 3D 5C 6D",  # old cards 1, 2, 3, 5, 9
        "QH AC 8S JD 2S",  # old 10, 11, 12, 15, 16
        "TC 3H 5S 9C 2C",  # old 17, 18, 19, 20, then the first stock card
        "KH 6S 8C QD 4C",  # the next five from the stock
    ]
    assert len(piles(game)["s"].split()) == 26


def test_the_seeds_second_round():
    game = DoublesAndQuits.from_deck(SEED_DECK)
    for move in ("4+8", "6+7", "13+14"):
        game.play(move)
    # the aces of hearts and clubs, and the deuces of spades and clubs
    assert moves(game) == ["1+7", "10+15"]
    game.play("1+7")
    game.play("10+15")
    assert piles(game)["x"].split()[-4:] == ["AH", "AC", "2S", "2C"]
    assert rows(game) == [
        "KC 3D 5C 6D QH",
        "8S JD TC 3H 5S",
        "9C KH 6S 8C QD",
        "4C 3C 6C JC QC",
    ]
    assert game.status == "playing"


def test_the_close_up_moves_cards_up_with_an_empty_stock():
    game = DoublesAndQuits.from_layout({"1": "2C", "2": "2D", "8": "9S", "20": "9H"})
    game.play("1+2")
    # 8 and 20 did not touch; closed up to 1 and 2 they do
    assert rows(game) == [
        "9S 9H -- -- --",
        "-- -- -- -- --",
        "-- -- -- -- --",
        "-- -- -- -- --",
    ]
    assert moves(game) == ["1+2"]


def test_the_close_up_deals_the_stock_only_as_far_as_it_goes():
    game = DoublesAndQuits.from_layout({"1": "2C", "2": "2D", "3": "5S", "4": "JH", "s": "7D 9H"})
    game.play("1+2")
    assert rows(game)[0] == "5S JH 9H 7D --"
    assert piles(game)["s"] == ""


# -- won and lost ----------------------------------------------------------------------


def test_won_when_all_52_are_discarded():
    game = DoublesAndQuits.from_layout({"1": "KC", "7": "KD", "x": discarded_but("KC", "KD")})
    assert game.status == "playing"
    game.play("1+7")
    assert game.status == "won"
    assert game.progress == (52, 52)
    with pytest.raises(IllegalMove, match=r"the game is over \(won\)"):
        game.play("1+2")


def test_lost_when_no_pair_touches_after_a_close_up():
    game = DoublesAndQuits.from_layout({"1": "2C", "2": "2D", "3": "5S", "s": "9H 7D"})
    game.play("1+2")
    assert rows(game)[0] == "5S 7D 9H -- --"
    assert game.status == "lost"
    assert game.legal_moves() == []
    with pytest.raises(IllegalMove, match=r"illegal move '1\+2': the game is over \(lost\)"):
        game.play("1+2")


def test_a_close_up_that_brings_no_pair_loses_even_with_stock_left():
    stock = "QD KD 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AD 3D 4D 5D 6D 7D 8D 9D TD"
    game = DoublesAndQuits.from_layout({"1": "2C", "2": "2D", "s": stock})
    game.play("1+2")
    assert rows(game) == [
        "TD 9D 8D 7D 6D",
        "5D 4D 3D AD KC",
        "QC JC TC 9C 8C",
        "7C 6C 5C 4C 3C",
    ]
    assert piles(game)["s"] == "QD KD"
    assert game.status == "lost"


# -- undo ------------------------------------------------------------------------------


def test_a_pair_before_the_close_up_can_be_undone():
    game = DoublesAndQuits.from_deck(SEED_DECK)
    before = game.text()
    game.play("8+4")
    assert game.can_undo()
    assert str(game.undo()) == "4+8"
    assert game.text() == before


def test_a_close_up_that_dealt_stock_cards_cannot_be_undone():
    game = DoublesAndQuits.from_deck(SEED_DECK)
    for move in ("4+8", "6+7", "13+14"):
        game.play(move)
    assert not game.can_undo()
    assert game.view()["can_undo"] is False
    with pytest.raises(
        UndoRefused, match="cannot undo '13\\+14': it brought hidden cards into view"
    ):
        game.undo()
    assert rows(game)[3] == "KH 6S 8C QD 4C"


def test_a_close_up_from_an_empty_stock_can_be_undone():
    game = DoublesAndQuits.from_layout({"1": "2C", "2": "2D", "8": "9S", "20": "9H"})
    before = game.text()
    game.play("1+2")
    assert game.can_undo()
    game.undo()
    assert game.text() == before
    assert moves(game) == ["1+2"]


def test_undo_with_nothing_to_undo_is_refused():
    with pytest.raises(UndoRefused, match="nothing to undo"):
        DoublesAndQuits.from_deck(SEED_DECK).undo()


# -- random play -----------------------------------------------------------------------


def closed_up(game: Game) -> bool:
    """No empty position before an occupied one, and no empty one while the stock lasts."""
    layout = piles(game)
    filled = [bool(layout[str(i)]) for i in range(1, 21)]
    in_order = filled == sorted(filled, reverse=True)
    return in_order and (all(filled) or not layout["s"])


@pytest.mark.parametrize("seed", range(40))
def test_random_play_keeps_the_rules(seed):
    game = new_game("doubles-and-quits", seed=seed)
    rng = random.Random(seed)
    while game.status == "playing":
        move = rng.choice(game.legal_moves())
        a, b = (int(n) for n in str(move).split("+"))
        layout = piles(game)
        assert RANK[CODE.index(layout[str(a)])] == RANK[CODE.index(layout[str(b)])]
        game.play(move)
        # pairs are taken first; the ranks close up only once none is left
        assert game.legal_moves() or closed_up(game)
        assert sorted(" ".join(piles(game).values()).split()) == sorted(CODE)
    assert game.status == ("won" if game.progress == (52, 52) else "lost")
