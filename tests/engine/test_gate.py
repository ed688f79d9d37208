"""The Gate, rule by rule, on positions built by hand."""

from __future__ import annotations

import random

import pytest

from server.engine import Game, IllegalMove, InvalidMove, UndoRefused, new_game
from server.engine.cards import CODE, RANK, RED, SUIT
from server.engine.deal import sorted_deck
from server.engine.games.gate import Gate, GateNarrow


def pile(game: Game, label: str) -> str:
    return " ".join(CODE[c] for c in game.p[game.LABELS[label]])


def moves(game: Game) -> list[str]:
    return [m.text for m in game.legal_moves()]


FULL_GATE = {
    "l": "KS KH KD KC QS",
    "r": "QH QD QC JS JH",
    "t1": "9S",
    "t2": "9H",
    "t3": "5C",
    "t4": "5D",
    "b1": "2S",
    "b2": "2H",
    "b3": "7C",
    "b4": "7D",
    "s": "6H 6S",
}


def gate(**piles: str) -> Gate:
    layout = dict(FULL_GATE)
    layout.update({label.replace("_", ""): cards for label, cards in piles.items()})
    game = Gate.from_layout(layout)
    assert isinstance(game, Gate)
    return game


def test_deal_order_of_an_explicit_deck() -> None:
    deck = [CODE[c] for c in sorted_deck(1)]
    # put no ace where it would go out at once: start the deck at the twos
    deck = deck[1:13] + deck[14:26] + deck[27:39] + deck[40:] + ["AC", "AD", "AH", "AS"]
    game = new_game("gate", deck=deck)
    assert isinstance(game, Gate)
    assert pile(game, "l") == " ".join(deck[0:5])
    assert [pile(game, f"t{i}") for i in range(1, 5)] == deck[5:9]
    assert [pile(game, f"b{i}") for i in range(1, 5)] == deck[9:13]
    assert pile(game, "r") == " ".join(deck[13:18])
    assert len(game.p[game.STOCK]) == 34
    game.play("deal")  # the Gate is complete: one card to the waste heap
    assert pile(game, "w") == deck[18]


def test_narrow_gate_deals_sixteen() -> None:
    game = new_game("gate-narrow", seed=3)
    assert isinstance(game, GateNarrow)
    assert [s.label for s in game.PILES if s.kind == "bar"] == ["t1", "t2", "t3", "b1", "b2", "b3"]
    assert len(game.p[game.STOCK]) + game.cards_home() == 36 or game.cards_home() > 0
    dealt = sum(len(game.p[i]) for i in game.FILL_ORDER) + game.cards_home()
    assert dealt == 16


def test_aces_in_the_first_layout_go_out_at_once() -> None:
    post = ["9H", "8S", "2D", "AC", "AS"]
    deck = post + [CODE[c] for c in sorted_deck(1) if CODE[c] not in post]
    game = new_game("gate", deck=deck)
    assert pile(game, "fs") == "AS"
    assert pile(game, "fc") == "AC"  # exposed once the ace of spades left the post
    assert pile(game, "l") == "9H 8S 2D"
    assert pile(game, "fd") == "AD"  # the right post's lowest card
    assert game.moves == 0


def test_build_down_in_alternate_colours_from_a_post() -> None:
    game = gate(l="KS KH KD KC 8D")
    assert "l>t1" in moves(game)  # 8D on 9S
    assert "l>t2" not in moves(game)  # 8D on 9H: same colour
    game.play("l>t1")
    assert pile(game, "t1") == "9S 8D"
    assert pile(game, "l") == "KS KH KD KC"
    with pytest.raises(
        IllegalMove,
        match=r"KC cannot go on 8D: bars build down in alternate colours \(8D takes a black 7\)",
    ):
        game.play("l>t1")
    with pytest.raises(IllegalMove, match="8D cannot go on 9H"):
        gate(l="KS KH KD KC 8D").play("l>t2")


def test_posts_are_never_built_on() -> None:
    game = gate()
    with pytest.raises(IllegalMove, match="posts are never built on"):
        game.play("t1>l")


def test_a_bar_s_whole_pile_shifts_bodily() -> None:
    game = gate(t1="8D 7C", t2="9C")
    assert "t1>t2" in moves(game)
    game.play("t1>t2")
    assert pile(game, "t2") == "9C 8D 7C"
    assert pile(game, "t1") == ""  # the vacancy waits for a post or a deal
    game.undo()
    assert pile(game, "t1") == "8D 7C"
    # a single card is the whole of its cell
    game = gate(t3="8D")
    game.play("t3>t1")
    assert pile(game, "t1") == "9S 8D"


def test_a_tail_of_a_run_never_shifts() -> None:
    # the first ruling moved the tail 7C onto 8H; the whole pile fits nowhere
    game = gate(t1="9S 8D 7C", b3="8H")
    assert not [m for m in moves(game) if m.startswith("t1>")]
    with pytest.raises(
        IllegalMove,
        match="only the whole of t1 shifts: its bottom card 9S does not fit on 8H, "
        "which takes a black 7",
    ):
        game.play("t1>b3")
    assert pile(game, "t1") == "9S 8D 7C"
    assert pile(game, "b3") == "8H"


def test_a_top_card_with_cards_under_it_never_shifts_alone() -> None:
    # 8D would fit on 9C, but 9S lies under it in t1
    game = gate(t1="9S 8D", b3="9C")
    assert "t1>b3" not in moves(game)
    with pytest.raises(
        IllegalMove, match="only the whole of t1 shifts: its bottom card 9S does not fit on 9C"
    ):
        game.play("t1>b3")
    # posts' lowest cards and the waste top still move singly
    game = gate(l="KS KH KD KC 8D", w="3C 8H", b3="9C")
    assert {"l>b3", "w>t1"} <= set(moves(game))


def test_a_single_bar_card_that_does_not_fit() -> None:
    game = gate()
    with pytest.raises(
        IllegalMove,
        match=r"9S cannot go on 9H: bars build down in alternate colours \(9H takes a black 8\)",
    ):
        game.play("t1>t2")


def test_narrow_gate_shifts_whole_piles_only() -> None:
    layout = {label: cards for label, cards in FULL_GATE.items() if label not in ("t4", "b4")}
    layout.update(t1="9S 8D 7C", t2="8H", t3="8D 7C", b3="9C")
    game = GateNarrow.from_layout(layout)
    assert isinstance(game, GateNarrow)
    legal = moves(game)
    assert "t3>b3" in legal  # the whole of t3 onto 9C
    assert "t1>t2" not in legal  # the tail 7C of t1 onto 8H
    with pytest.raises(IllegalMove, match="only the whole of t1 shifts"):
        game.play("t1>t2")
    game.play("t3>b3")
    assert pile(game, "b3") == "9C 8D 7C"


def test_bar_vacancy_filled_only_from_a_post() -> None:
    game = gate(t3="", w="7H")
    assert {"l>t3", "r>t3"} <= set(moves(game))
    with pytest.raises(IllegalMove, match="nothing moves into an empty bar cell except"):
        game.play("t1>t3")
    with pytest.raises(IllegalMove, match="the waste heap never fills a bar vacancy"):
        game.play("w>t3")
    game.play("r>t3")
    assert pile(game, "t3") == "JH"
    assert pile(game, "r") == "QH QD QC JS"


def test_waste_top_builds_and_goes_home() -> None:
    game = gate(w="3D 8D", fs="AS 2S 3S 4S 5S 6S 7S")
    assert "w>t1" in moves(game)  # 8D on 9S
    game.play("w>t1")
    assert pile(game, "w") == "3D"
    with pytest.raises(IllegalMove, match="3D cannot go home: the diamonds foundation wants"):
        game.play("w>f")


def test_to_foundation_from_post_bar_and_waste() -> None:
    game = gate(fc="AC 2C 3C 4C", fd="AD 2D 3D 4D", l="KS KH KD KC 5S", w="QS")
    assert {"t3>f", "t4>f"} <= set(moves(game))  # 5C and 5D
    game.play("t3>f")
    assert pile(game, "fc") == "AC 2C 3C 4C 5C"
    with pytest.raises(IllegalMove, match="5S cannot go home: the spades foundation wants the ace"):
        game.play("l>f")


def test_deal_fills_every_vacancy_in_layout_order() -> None:
    game = gate(l="KS KH", t2="", b4="", r="QH QD QC JS", s="2H 3H 4H 5H 6H 7H 8H")
    game.play("deal")
    # stock top is the last code: 8H, 7H, ... ; left post first, then t2, b4, right post
    assert pile(game, "l") == "KS KH 8H 7H 6H"
    assert pile(game, "t2") == "5H"
    assert pile(game, "b4") == "4H"
    assert pile(game, "r") == "QH QD QC JS 3H"
    assert pile(game, "s") == "2H"


def test_deal_turns_one_card_when_the_gate_is_complete() -> None:
    game = gate(s="2H 3H", w="9C")
    game.play("deal")
    assert pile(game, "w") == "9C 3H"
    assert pile(game, "s") == "2H"


def test_deal_takes_the_waste_top_first_once_the_stock_is_out() -> None:
    game = gate(l="KS KH KD", s="", w="8H KS2 9H".replace("KS2", "KC"))
    game.play("deal")
    # the waste's top card fills first, the order of the heap unchanged
    assert pile(game, "l") == "KS KH KD 9H KC"
    assert pile(game, "w") == "8H"


def test_aces_go_out_only_after_the_whole_fill_pass() -> None:
    game = gate(l="KS KH KD KC", t1="", s="2H AH")
    game.play("deal")
    # AH was dealt to the left post and went out after the pass; 2H filled t1
    assert pile(game, "fh") == "AH"
    assert pile(game, "l") == "KS KH KD KC"
    assert pile(game, "t1") == "2H"
    assert "deal" not in moves(game)  # stock and waste are empty; the vacancy waits


def test_deal_refused_when_complete_and_stock_empty() -> None:
    game = gate(s="", w="3C", l="KS KH KD KC 8D")
    assert moves(game) == ["l>t1"]
    with pytest.raises(IllegalMove, match="the Gate is complete and the stock is empty"):
        game.play("deal")


def test_deal_refused_with_nothing_to_fill_from() -> None:
    game = gate(t1="", l="", s="", w="")
    assert "deal" not in moves(game)
    with pytest.raises(IllegalMove, match="the stock and the waste heap are both empty"):
        game.play("d")


def test_lost_when_no_move_remains() -> None:
    game = gate(s="", w="")
    assert moves(game) == []
    assert game.status == "lost"
    with pytest.raises(IllegalMove, match=r"the game is over \(lost\)"):
        game.play("t1>t2")


def test_won_with_every_card_home() -> None:
    full = {f"f{s}": " ".join(f"{r}{s.upper()}" for r in "A23456789TJQK") for s in "cdhs"}
    game = Gate.from_layout(full)
    assert game.status == "won"
    assert game.progress == (52, 52)


def test_undo_after_a_build_but_not_after_a_deal_from_stock() -> None:
    game = gate(l="KS KH KD KC 8D", t3="", s="2C 3C")
    game.play("l>t1")
    game.undo()
    assert pile(game, "l") == "KS KH KD KC 8D"
    game.play("deal")
    with pytest.raises(UndoRefused, match="it brought hidden cards into view"):
        game.undo()


def test_undo_of_a_fill_from_the_waste_is_allowed() -> None:
    game = gate(t3="", s="", w="8S 9C")
    game.play("deal")
    assert pile(game, "t3") == "9C"
    game.undo()
    assert pile(game, "w") == "8S 9C"


def test_notation_errors() -> None:
    game = gate()
    with pytest.raises(InvalidMove, match="cannot read 'x9>t1' as a move of The Gate"):
        game.play("x9>t1")
    with pytest.raises(InvalidMove, match="cannot read 't5>t1'"):
        game.play("t5>t1")
    assert game.parse(" T1 > B2 ").text == "t1>b2"
    assert game.parse("D").text == "deal"


def test_narrow_gate_has_no_fourth_cell() -> None:
    game = new_game("gate-narrow", seed=1)
    with pytest.raises(InvalidMove):
        game.parse("t4>f")


def _moves_by_search(game: Gate) -> list[str]:
    """The legal moves found the slow way, in the listing's order: every source tried
    against every bar, a bar by its bottom card (its whole pile moves)."""
    p = game.p
    out = []
    for i in game.SOURCES:
        if p[i] and RANK[p[i][-1]] == len(p[game.F0 + SUIT[p[i][-1]]]) + 1:
            out.append(f"{game.PILES[i].label}>f")
    empty = []
    for j in game.BARS:
        if not p[j]:
            empty.append(j)
            continue
        d = p[j][-1]
        for i in (game.LP, game.RP, game.WASTE, *game.BARS):
            if i == j or not p[i]:
                continue
            c = p[i][0] if i in game.BARS else p[i][-1]
            if RANK[c] == RANK[d] - 1 and RED[c] != RED[d]:
                out.append(f"{game.PILES[i].label}>{game.PILES[j].label}")
    for j in empty:
        for i in (game.LP, game.RP):
            if p[i]:
                out.append(f"{game.PILES[i].label}>{game.PILES[j].label}")
    if p[game.STOCK] or (p[game.WASTE] and game._vacancies()):
        out.append("deal")
    return out


@pytest.mark.parametrize("cls", [Gate, GateNarrow])
def test_the_move_list_is_the_slow_search_s_in_random_play(cls: type[Gate]) -> None:
    """Moves onto bars are found by a table of where each rank and colour sits: the same
    list, in the same order, as trying every source against every bar."""
    rng = random.Random(7)
    positions = 0
    for seed in range(100):  # whole-pile shifts end games sooner: more deals
        game = new_game(cls.id, seed=seed)
        assert isinstance(game, Gate)
        for _ in range(200):
            legal = moves(game)
            assert legal == _moves_by_search(game)
            positions += 1
            if not legal:
                break
            game.play(rng.choice(legal))
    assert positions > 5000
