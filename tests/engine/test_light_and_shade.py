"""Light and Shade, rule by rule, on positions built by hand."""

from __future__ import annotations

from collections import Counter

import pytest

from server.engine import Game, IllegalMove, InvalidMove, UndoRefused, new_game
from server.engine.cards import CODE, RANK
from server.engine.deal import shuffled_deck, sorted_deck
from server.engine.games.light_and_shade import LightAndShade

ACES = {
    "f1": "AD",
    "f2": "AD",
    "f3": "AH",
    "f4": "AH",
    "f5": "AC",
    "f6": "AC",
    "f7": "AS",
    "f8": "AS",
}


def pile(game: Game, label: str) -> str:
    return " ".join(CODE[c] for c in game.p[game.LABELS[label]])


def moves(game: Game) -> list[str]:
    return [m.text for m in game.legal_moves()]


#: kings on the Auxiliaries and fives on the Rivals: nothing moves
QUIET = {
    "a1": "KH",
    "a2": "KD",
    "a3": "KC",
    "a4": "KS",
    "r1": "5C",
    "r2": "5D",
    "r3": "5H",
    "r4": "5S",
}


def table(**piles: str) -> LightAndShade:
    """The aces on their foundations, the quiet table, then the piles named ("" empties one);
    the talon and the stock are empty unless named."""
    layout = {**ACES, **QUIET}
    layout.update(piles)
    game = LightAndShade.from_layout(layout)
    assert isinstance(game, LightAndShade)
    return game


def full_foundations() -> dict[str, str]:
    """Every foundation built to its king: a red ace takes a black 2, a red 3, ... a red K."""
    # for each foundation: (suit of odd ranks, suit of even ranks)
    suits = [
        ("D", "C"),
        ("D", "S"),
        ("H", "C"),
        ("H", "S"),
        ("C", "D"),
        ("C", "H"),
        ("S", "D"),
        ("S", "H"),
    ]
    return {
        f"f{k + 1}": " ".join(
            f"{'A23456789TJQK'[r - 1]}{odd if r % 2 else even}" for r in range(1, 14)
        )
        for k, (odd, even) in enumerate(suits)
    }


# -- the deal --------------------------------------------------------------------------------


def test_the_aces_start_on_the_foundations() -> None:
    game = new_game("light-and-shade", seed=7)
    foundations = [pile(game, f"f{k}") for k in range(1, 9)]
    assert foundations == ["AD", "AD", "AH", "AH", "AC", "AC", "AS", "AS"]
    assert game.progress == (8, 104)
    assert game.status == "playing"
    elsewhere = [c for i, cards in enumerate(game.p) if i not in game.HOME for c in cards]
    assert not any(RANK[c] == 1 for c in elsewhere)
    sizes = {label: len(game.p[game.LABELS[label]]) for label in ("a1", "a4", "r1", "r4", "t", "s")}
    assert sizes == {"a1": 1, "a4": 1, "r1": 1, "r4": 1, "t": 0, "s": 88}


def test_deal_order_of_an_explicit_deck() -> None:
    deck = [CODE[c] for c in LightAndShade.deck_cards()]
    assert len(deck) == 96
    assert deck[:3] == ["2C", "3C", "4C"]  # the canonical order, aces left out
    game = new_game("light-and-shade", deck=deck)
    assert [pile(game, f"a{k}") for k in range(1, 5)] == deck[0:4]
    assert [pile(game, f"r{k}") for k in range(1, 5)] == deck[4:8]
    assert len(game.p[game.LABELS["s"]]) == 88
    game.play("deal")
    assert pile(game, "t") == deck[8]  # the stock is dealt from the front
    game.play("deal")
    assert pile(game, "t") == f"{deck[8]} {deck[9]}"


def test_an_explicit_deck_holds_no_ace() -> None:
    deck = [CODE[c] for c in sorted_deck(2)]
    with pytest.raises(ValueError, match="missing none, extra AC AC AD AD AH AH AS AS"):
        new_game("light-and-shade", deck=deck)


def test_a_seed_deals_its_shuffle_without_the_aces() -> None:
    shuffled = shuffled_deck(42, packs=2)
    deck = LightAndShade._deck_from_shuffle(list(shuffled))
    assert deck == [c for c in shuffled if RANK[c] != 1]
    assert len(deck) == 96
    assert new_game("light-and-shade", seed=42).key() == LightAndShade.from_deck(deck).key()


# -- building on the Auxiliaries -----------------------------------------------------------


def test_a_rival_builds_down_in_alternate_colours() -> None:
    game = table(a1="8S", a2="8H", r1="7C", r2="7D", r3="6D", r4="KS", s="2C")
    assert moves(game) == ["r2>a1", "r1>a2", "deal"]
    game.play("r2>a1")
    assert pile(game, "a1") == "8S 7D"
    assert pile(game, "r2") == ""
    with pytest.raises(
        IllegalMove,
        match=r"7C cannot go on 7D: Auxiliaries build down in alternate colours \(7D takes a b",
    ):
        game.play("r1>a1")
    with pytest.raises(IllegalMove, match="6D cannot go on 7D: Auxiliaries build down in alter"):
        game.play("r3>a1")
    with pytest.raises(
        IllegalMove,
        match=r"7C cannot go on 8S: Auxiliaries build down in alternate colours \(8S takes a red 7",
    ):
        table(a1="8S", r1="7C", s="2C").play("r1>a1")


def test_the_talon_top_builds_on_an_auxiliary() -> None:
    game = table(a1="TS", t="3C 9H")
    assert moves(game) == ["t>a1"]
    game.play("t>a1")
    assert pile(game, "a1") == "TS 9H"
    assert pile(game, "t") == "3C"
    # only the top card of the talon is available
    with pytest.raises(IllegalMove, match="3C cannot go on TS: Auxiliaries build down"):
        table(a1="TS", t="9H 3C", s="2C").play("t>a1")


def test_two_copies_of_a_card_are_two_moves() -> None:
    game = table(a1="8S", a2="8C", r1="7D", r3="7D")
    assert moves(game) == ["r1>a1", "r3>a1", "r1>a2", "r3>a2"]


def test_a_king_builds_on_nothing() -> None:
    game = table(a1="KH", a2="9S", r1="QS", r2="KC", t="QC")
    assert moves(game) == ["r1>a1", "t>a1"]


# -- vacancies -----------------------------------------------------------------------------


def test_a_rival_fills_an_empty_auxiliary_by_choice() -> None:
    game = table(a2="", a3="", r1="KS", r2="9D", r3="", r4="2H", s="3C")
    assert moves(game) == ["r1>a2", "r2>a2", "r4>a2", "r1>a3", "r2>a3", "r4>a3", "deal"]
    game.play("r1>a3")
    assert pile(game, "a3") == "KS"
    assert pile(game, "r1") == ""
    # the vacancy need not be filled before a deal
    game.play("deal")
    assert pile(game, "a2") == ""


def test_the_talon_never_fills_an_empty_auxiliary() -> None:
    game = table(a2="", t="KH")
    assert "t>a2" not in moves(game)
    with pytest.raises(IllegalMove, match="the talon never fills an empty Auxiliary: a Rival does"):
        game.play("t>a2")


def test_an_empty_auxiliary_waits_when_the_rivals_are_empty() -> None:
    game = table(a2="", r1="", r2="", r3="", r4="", s="3C")
    assert moves(game) == ["deal"]
    with pytest.raises(IllegalMove, match="r1 is empty"):
        game.play("r1>a2")


def test_the_talon_top_fills_an_empty_rival_by_choice() -> None:
    game = table(a1="5S", r1="9C", r2="", r3="9D", r4="", t="2S 4H", s="3C")
    assert moves(game) == ["t>a1", "t>r2", "t>r4", "deal"]
    game.play("t>r2")
    assert pile(game, "r2") == "4H"
    assert pile(game, "t") == "2S"
    with pytest.raises(IllegalMove, match="nothing builds on a Rival: r2 is taken"):
        game.play("t>r2")


def test_nothing_builds_on_a_rival() -> None:
    game = table(r1="9C", r2="8D", t="8H", s="2C")
    with pytest.raises(IllegalMove, match="nothing builds on a Rival: r1 is taken"):
        game.play("r2>r1")
    with pytest.raises(IllegalMove, match="nothing builds on a Rival: r1 is taken"):
        game.play("t>r1")


def test_an_empty_rival_is_filled_from_the_talon_only() -> None:
    game = table(a1="9C", r1="8D", r2="", t="8H")
    with pytest.raises(IllegalMove, match="an empty Rival is filled from the talon only"):
        game.play("r1>r2")
    with pytest.raises(IllegalMove, match="nothing moves from an Auxiliary to a Rival"):
        game.play("a1>r2")


def test_the_talon_is_empty() -> None:
    game = table(a1="9C", r1="8D", r2="")
    with pytest.raises(IllegalMove, match="the talon is empty"):
        game.play("t>r2")
    with pytest.raises(IllegalMove, match="the talon is empty"):
        game.play("t>a1")


# -- what never moves ------------------------------------------------------------------------


def test_nothing_moves_between_auxiliaries() -> None:
    game = table(a1="8S", a2="7D", a3="")
    assert moves(game) == ["r1>a3", "r2>a3", "r3>a3", "r4>a3"]
    with pytest.raises(IllegalMove, match="nothing moves between Auxiliaries"):
        game.play("a2>a1")  # it would fit
    with pytest.raises(IllegalMove, match="nothing moves between Auxiliaries"):
        game.play("a2>a3")


def test_only_a_deal_lays_a_card_on_the_talon() -> None:
    game = table(a1="8S", r1="7D", t="9H")
    for text in ("a1>t", "r1>t"):
        with pytest.raises(IllegalMove, match="only a deal lays a card on the talon"):
            game.play(text)


# -- the foundations -------------------------------------------------------------------------


def test_an_auxiliary_top_goes_home_in_alternate_colours_regardless_of_suit() -> None:
    game = table(a1="9D 2C", a2="2S", a3="3H", a4="2H")
    assert moves(game) == ["a1>f", "a2>f", "a4>f"]
    game.play("a1>f")  # the first foundation that takes a black 2: f1, on the red AD
    assert pile(game, "f1") == "AD 2C"
    game.play("a2>f")
    assert pile(game, "f2") == "AD 2S"
    game.play("a4>f")  # a red 2 goes on a black ace
    assert pile(game, "f5") == "AC 2H"
    assert game.progress == (11, 104)
    game.play("a3>f")  # a red 3 on a black 2
    assert pile(game, "f1") == "AD 2C 3H"


def test_a_card_goes_to_the_first_foundation_that_takes_it() -> None:
    game = table(f1="AD", f3="AH 2S", f4="AH 2C", a1="3D")
    game.play("a1>f")
    assert pile(game, "f3") == "AH 2S 3D"
    assert pile(game, "f4") == "AH 2C"


def test_a_card_that_fits_no_foundation() -> None:
    game = table(a1="2H", a2="4C", a3="", f5="AC 2D", s="2C")
    with pytest.raises(
        IllegalMove, match="2H cannot go home: no foundation has a black ace on top"
    ):
        table(a1="2H", f5="AC 2D", f6="AC 2D", f7="AS 2H", f8="AS 2H", s="2C").play("a1>f")
    with pytest.raises(IllegalMove, match="4C cannot go home: no foundation has a red 3 on top"):
        game.play("a2>f")
    with pytest.raises(IllegalMove, match="a3 is empty"):
        game.play("a3>f")


def test_only_an_auxiliary_top_goes_to_a_foundation() -> None:
    game = table(a1="9S 5D", r1="2C", t="2S", s="QD")
    assert moves(game) == ["deal"]
    with pytest.raises(IllegalMove, match="only an Auxiliary's top card goes to a foundation"):
        game.play("r1>f")
    with pytest.raises(IllegalMove, match="the talon's top must first pass into an Auxiliary"):
        game.play("t>f")


def test_move_order_is_home_then_builds_then_fills_then_deal() -> None:
    game = table(a1="3S 2S", a2="9H", a3="", a4="", r1="8C", r2="8S", r3="", r4="", t="8D", s="QC")
    assert moves(game) == [
        "a1>f",
        "r1>a2",
        "r2>a2",
        "r1>a3",
        "r2>a3",
        "r1>a4",
        "r2>a4",
        "t>r3",
        "t>r4",
        "deal",
    ]


# -- deal, end, undo -------------------------------------------------------------------------


def test_deal_turns_one_card_at_any_time() -> None:
    game = table(a1="8S", r1="7D", s="5H 9C")
    assert "r1>a1" in moves(game)  # a build is open, and the deal is allowed all the same
    game.play("d")
    assert pile(game, "t") == "9C"
    assert pile(game, "s") == "5H"
    game.play("deal")
    assert pile(game, "t") == "9C 5H"
    assert "deal" not in moves(game)


def test_no_redeal() -> None:
    game = table(a1="8S", r1="7D", t="9C 5H")
    assert moves(game) == ["r1>a1"]
    with pytest.raises(IllegalMove, match="the stock is empty, and there is no redeal"):
        game.play("deal")


def test_lost_when_the_stock_is_out_and_no_move_remains() -> None:
    game = table(a1="8S", a2="8C", r1="8D", r2="KH", r3="5C", r4="3S", t="JC 9S")
    assert moves(game) == []
    assert game.status == "lost"
    with pytest.raises(IllegalMove, match=r"the game is over \(lost\)"):
        game.play("r1>a1")


def test_a_stuck_table_is_not_lost_while_the_stock_lasts() -> None:
    game = table(a1="8S", a2="8C", r1="8D", r2="KH", r3="5C", r4="3S", t="JC 9S", s="4D")
    assert moves(game) == ["deal"]
    assert game.status == "playing"


def test_won_with_every_card_home() -> None:
    layout = full_foundations()
    assert Counter(c for cards in layout.values() for c in cards.split()) == Counter(
        CODE[c] for c in sorted_deck(2)
    )
    game = LightAndShade.from_layout(layout)
    assert game.status == "won"
    assert game.progress == (104, 104)


def test_the_last_card_home_wins() -> None:
    layout = full_foundations()
    layout["f1"] = layout["f1"].removesuffix(" KD")
    layout["a2"] = "KD"
    game = LightAndShade.from_layout(layout)
    assert game.status == "playing"
    assert [m.text for m in game.legal_moves()] == ["a2>f"]
    game.play("a2>f")
    assert game.status == "won"
    with pytest.raises(IllegalMove, match=r"the game is over \(won\)"):
        game.play("deal")


def test_undo_after_moves_but_not_after_a_deal() -> None:
    game = table(a1="8S 2C", r1="7D", r2="", t="3H", s="4D 6C")
    game.play("a1>f")
    game.play("t>r2")
    game.play("r1>a1")
    for text in ("r1>a1", "t>r2", "a1>f"):
        assert game.undo().text == text
    assert pile(game, "a1") == "8S 2C"
    assert pile(game, "t") == "3H"
    assert pile(game, "f1") == "AD"
    game.play("deal")
    assert not game.can_undo()
    with pytest.raises(UndoRefused, match="cannot undo 'deal': it brought hidden cards into view"):
        game.undo()
    game.play("t>r2")  # a move after the deal can be taken back, the deal still cannot
    game.undo()
    with pytest.raises(UndoRefused, match="hidden cards"):
        game.undo()


def test_the_talon_is_public_and_the_stock_is_not() -> None:
    game = table(a1="8S", t="3H 9C 4D", s="5S 6S")
    piles = {p["label"]: p for p in game.view()["piles"]}
    assert piles["t"]["cards"] == ["3H", "9C", "4D"]
    assert piles["s"]["cards"] == []
    assert piles["s"]["down"] == 2
    assert piles["a1"]["fan"] == "down"
    assert piles["r1"]["kind"] == "rival"


def test_notation() -> None:
    game = table(a1="8S", r2="7D", s="2C")
    assert game.parse(" R2 > A1 ").text == "r2>a1"
    assert game.parse("D").text == "deal"
    with pytest.raises(InvalidMove, match="cannot read 'a5>f' as a move of Light and Shade"):
        game.play("a5>f")
    with pytest.raises(InvalidMove, match="Moves look like r2>a1, t>a3, t>r2, a1>f or deal"):
        game.play("a1>f3")
    with pytest.raises(InvalidMove, match="cannot read 's>a1'"):
        game.play("s>a1")


def test_no_message_names_a_stock_card() -> None:
    game = table(a1="8S 2C", a2="", r1="7D", r2="", t="3H", s="QH JH TH")
    legal = set(game.legal_moves())
    for move in game.MOVES.values():
        if move not in legal:
            with pytest.raises(IllegalMove) as caught:
                game.play(move)
            assert not {"QH", "JH", "TH"} & set(str(caught.value).replace(":", " ").split())
