"""The seed's worked game of The Gate (seeds/000), replayed move by move through the engine.

The seed plays one whole game "completely through". Its opening diagram is lost, so the deck
is rebuilt from the text; each sentence of the game is quoted above the moves it stands for.

How the layout is rebuilt (posts top to bottom; bars left to right):

- Right post 2D 5C 4D AD 7H. The text plays it out bottom first: 7H into a bar, AD out, 4D and
  5C into bars, 2D home. The next deal then refills the whole post.
- Left post KH JC QH 6D 7S. 7S, 6D and QH come out in that order. The next card up is the
  knave of clubs or the 10 of diamonds: one of the two leaves the post (the next deal gives
  the post four cards), the other leaves a space in the second bar (which the KD fills). Either
  way fits the text. We choose JC in the post: it continues the "fill from the post, then build
  from the post" pattern of 7S/6D just before. The top card is never named. It must be the
  king of hearts: the 34 stock cards named in the deals and the 17 laid-out cards named in the
  play are all different, and KH is the only card left.
- Bars: AC, QC, JH, JS, TH, 6H, KC, TD. The text fixes only these facts:
  QC is in the second bar ("Put 8 of diamonds into the space in second bar" fills the cell
  QC left). TD is in the second bar ("moving the 3 of hearts into the second bar"; KD fills
  it). The cell the 3 of hearts ends in is in the top bar ("Move 7 of clubs into the top-bar
  space"), and so is the cell later dealt the 4 of spades.
  We put AC at t1, so that the "first space" of the text is AC's cell on either reading (first
  made, or first in layout order). JH and TH go in the top bar, so that the spaces 4D and JS
  leave (which take 3H and 8S) are both in the top bar.
  So: top bar AC JH JS TH; bottom bar QC 6H KC TD.
- The stock is the cards of the text's deals, in order. The waste heap's 8H, KS, 9H are
  dealt back top card first once the stock runs out.
"""

from __future__ import annotations

import pytest

from server.engine import IllegalMove
from server.engine.cards import CODE
from server.engine.games.gate import Gate

LEFT_POST = ["KH", "JC", "QH", "6D", "7S"]  # top to bottom; 7S is the lowest
TOP_BAR = ["AC", "JH", "JS", "TH"]
BOTTOM_BAR = ["QC", "6H", "KC", "TD"]
RIGHT_POST = ["2D", "5C", "4D", "AD", "7H"]  # top to bottom; 7H is the lowest
STOCK = [
    *["7D", "AH", "8S", "3H", "5S"],  # first deal: the right post
    *["3D", "TS", "8D", "QD", "KD", "AS"],  # second: left post, second bar, right post
    *["6C", "4C", "2C", "3S", "TC", "6S", "3C", "2H", "JD"],  # third: both posts
    *["7C", "5H"],  # fourth: the left post
    *["9H", "KS", "9D", "8H", "9S"],  # dealt one by one with the Gate complete
    *["QS", "5D", "8C", "2S", "4S", "4H", "9C"],  # last deal, finished from the waste
]
DECK = LEFT_POST + TOP_BAR + BOTTOM_BAR + RIGHT_POST + STOCK

#: the move the first ruling allowed at the text's standstills: 4D-3S, a tail of b2, onto
#: b1's 5C. Whole piles only shift now, and the text's standstills are standstills.
TAIL_SHIFT = "b2>b1"


def pile(game: Gate, label: str) -> str:
    return " ".join(CODE[c] for c in game.p[game.LABELS[label]])


def moves(game: Gate) -> list[str]:
    return [m.text for m in game.legal_moves()]


def play(game: Gate, *texts: str) -> None:
    for text in texts:
        game.play(text)


def home(game: Gate) -> dict[str, int]:
    """How many cards each foundation holds, by suit."""
    return {s: len(game.p[game.LABELS[f"f{s.lower()}"]]) for s in "CDHS"}


def stock_left(game: Gate) -> int:
    return len(game.p[game.STOCK])


def test_the_reconstructed_deck_is_one_whole_pack() -> None:
    assert len(DECK) == 52
    assert len(STOCK) == 34
    assert sorted(DECK) == sorted(r + s for r in "A23456789TJQK" for s in "CDHS")


def test_the_worked_game_plays_through_to_a_win() -> None:
    game = Gate.from_deck(DECK)
    assert isinstance(game, Gate)

    # "Put out the ace of clubs for a foundation."
    # (automatic: the AC is exposed in the first layout)
    assert pile(game, "fc") == "AC"
    assert pile(game, "t1") == ""
    assert game.moves == 0

    # "Build knave of hearts on queen of clubs, 10 of hearts on knave of spades."
    play(game, "t2>b1", "t4>t3")
    assert pile(game, "b1") == "QC JH"
    assert pile(game, "t3") == "JS TH"

    # "We have thus made three spaces in the bars; in the first space put the 7 of hearts,
    # which exposes the ace of diamonds and enables us to put it out for a second foundation."
    assert [label for label in ("t1", "t2", "t4") if not pile(game, label)] == ["t1", "t2", "t4"]
    play(game, "r>t1")
    assert pile(game, "t1") == "7H"
    assert pile(game, "fd") == "AD"  # out by itself once exposed

    # "Fill the other two spaces with 4 of diamonds and 5 of clubs; and put out 2 of diamonds
    # on the ace."
    play(game, "r>t2", "r>t4", "r>f")
    assert pile(game, "fd") == "AD 2D"
    assert pile(game, "r") == ""
    assert home(game) == {"C": 1, "D": 2, "H": 0, "S": 0}

    # "Now we must deal from stock to fill up all vacancies and restore the Gate to its
    # original form. For the right-hand post we deal downwards, in succession, the 7 of
    # diamonds, ace of hearts, 8 of spades, 3 of hearts, 5 of spades."
    play(game, "deal")
    assert pile(game, "r") == "7D AH 8S 3H 5S"
    assert stock_left(game) == 29

    # "Put 5 of spades on 6 of hearts, 4 of diamonds on 5 of spades."
    play(game, "r>b2", "t2>b2")
    assert pile(game, "b2") == "6H 5S 4D"

    # "Fill space in bar with 7 of spades. Build 6 of diamonds on 7 of spades, 5 of clubs on
    # 6 of diamonds."
    play(game, "l>t2", "l>t2", "t4>t2")
    assert pile(game, "t2") == "7S 6D 5C"

    # "Fill space in bar with queen of hearts; build on her the knave of clubs; and on him
    # the 10 of diamonds."
    # (the JC is the post's next card; the TD comes from b4, leaving a space in the second bar)
    play(game, "l>t4", "l>t4", "b4>t4")
    assert pile(game, "t4") == "QH JC TD"
    assert pile(game, "l") == "KH"

    # "There is nothing to be gained by moving the 3 of hearts into the second bar."
    assert pile(game, "b4") == ""
    assert pile(game, "r") == "7D AH 8S 3H"
    assert "r>b4" in moves(game)  # possible, but declined

    # "Now fill up spaces again from stock. For the left-hand post we deal, in downward
    # order, 3 of diamonds, 10 of spades, 8 of diamonds, queen of diamonds. Into the second
    # bar, king of diamonds; and into the right-hand post the ace of spades. Resume building."
    play(game, "deal")
    assert pile(game, "l") == "KH 3D TS 8D QD"
    assert pile(game, "b4") == "KD"
    assert stock_left(game) == 23

    # "The ace of spades goes out for one third foundation."
    # (automatic, after the whole fill pass: the AS was dealt as the right post's lowest card)
    assert pile(game, "fs") == "AS"
    assert pile(game, "r") == "7D AH 8S 3H"

    # "Build queen of diamonds on king of clubs; move knave of hearts and queen of clubs on
    # to king of diamonds."
    play(game, "l>b3", "b1>b4")
    assert pile(game, "b3") == "KC QD"
    assert pile(game, "b4") == "KD QC JH"

    # "Put 8 of diamonds into the space in second bar. Build 10 of spades on knave of hearts."
    play(game, "l>b1", "l>b4")
    assert pile(game, "b1") == "8D"
    assert pile(game, "b4") == "KD QC JH TS"

    # "This exposes the 3 of diamonds which goes out on to its foundation packet; but it is a
    # point of fine judgment to leave the 4 of diamonds untouched for the present, as it may
    # be imperatively needed for a black 3."
    play(game, "l>f")
    assert pile(game, "fd") == "AD 2D 3D"
    assert "b2>f" in moves(game)  # the 4D could go home now; it stays on b2

    # "Move the 5-of-clubs-to-7-of-spades sequence on to the 8 of diamonds, and the 10 of
    # hearts, knave of spades, on to the queen of diamonds."
    play(game, "t2>b1", "t3>b3")
    assert pile(game, "b1") == "8D 7S 6D 5C"
    assert pile(game, "b3") == "KC QD JS TH"
    assert pile(game, "t2") == pile(game, "t3") == ""

    # "Now we can shift 3 of hearts and 8 of spades into the bars, and so expose the ace of
    # hearts, which is put out for our last foundation. Build the 7 of diamonds on the 8 of
    # spades."
    play(game, "r>t2", "r>t3")
    assert pile(game, "fh") == "AH"
    play(game, "r>t3")
    assert pile(game, "t2") == "3H"
    assert pile(game, "t3") == "8S 7D"
    assert pile(game, "r") == ""
    assert home(game) == {"C": 1, "D": 3, "H": 1, "S": 1}

    # "Deal again from stock to fill vacancies. For the left-hand post we get 6 of clubs,
    # 4 of clubs, 2 of clubs, 3 of spades; for the right-hand post, 10 of clubs, 6 of spades,
    # 3 of clubs, 2 of hearts, knave of diamonds."
    play(game, "deal")
    assert pile(game, "l") == "KH 6C 4C 2C 3S"
    assert pile(game, "r") == "TC 6S 3C 2H JD"
    assert stock_left(game) == 14

    # "Build the 3 of spades on 4 of diamonds. Put out the 2 of clubs."
    play(game, "l>b2", "l>f")
    assert pile(game, "b2") == "6H 5S 4D 3S"
    assert pile(game, "fc") == "AC 2C"

    # "No more building being here possible, we deal out the 7 of clubs and 5 of hearts, in
    # downward order, to fill the vacancies in the left-hand post."
    # A standstill indeed: only the whole of a bar's pile shifts, and b2's 4D-3S, which
    # would fit on b1's 5C, is a tail of 6H 5S 4D 3S. (The first ruling let that tail move,
    # so none of the text's standstills here and below was one.) Dealing is the one move.
    assert moves(game) == ["deal"]
    with pytest.raises(
        IllegalMove,
        match="only the whole of b2 shifts: its bottom card 6H does not fit on 5C, "
        "which takes a red 4",
    ):
        game.play(TAIL_SHIFT)
    play(game, "deal")
    assert pile(game, "l") == "KH 6C 4C 7C 5H"
    assert stock_left(game) == 12

    # "Being again at a standstill, we continue dealing from stock. The 9 of hearts is
    # useless, and therefore begins our waste-heap, the king of spades follows and shares a
    # like fate."
    assert moves(game) == ["deal"]
    play(game, "deal")
    assert pile(game, "w") == "9H"
    # "useless" is the author's judgment: the 9H could go on the 10 of spades (b4), but the
    # 9 of diamonds, dealt next, is to take that place.
    assert "w>b4" in moves(game)
    play(game, "deal")
    assert pile(game, "w") == "9H KS"
    assert moves(game) == ["deal"]  # "a like fate": the king builds nowhere, nor does a bar

    # "The 9 of diamonds is dealt and goes on 10 of spades. The 8 of hearts is dealt and
    # goes to waste."
    play(game, "deal", "w>b4")
    assert pile(game, "b4") == "KD QC JH TS 9D"
    play(game, "deal")
    assert pile(game, "w") == "9H KS 8H"

    # "Then the 9 of spades is dealt, and goes on the 10 of hearts; we can now shift the
    # 5-of-clubs-to-8-of-diamonds sequence on to the 9 of spades, and we get the
    # long-desired space for the knave of diamonds, enabling us to put out the 2 of hearts
    # and 3 of clubs which have been blocked."
    play(game, "deal", "w>b3", "b1>b3")
    assert pile(game, "b3") == "KC QD JS TH 9S 8D 7S 6D 5C"
    assert stock_left(game) == 7
    play(game, "r>b1", "r>f", "r>f")
    assert pile(game, "b1") == "JD"
    assert pile(game, "fh") == "AH 2H"
    assert pile(game, "fc") == "AC 2C 3C"
    assert pile(game, "r") == "TC 6S"

    # "Build 6 of spades on 7 of diamonds, 5 of hearts on 6 of spades, 10 of clubs on knave
    # of diamonds."
    play(game, "r>t3", "l>t3", "r>b1")
    assert pile(game, "t3") == "8S 7D 6S 5H"
    assert pile(game, "b1") == "JD TC"

    # "Put out the 3 of hearts. Move 7 of clubs into the top-bar space."
    play(game, "t2>f", "l>t2")
    assert pile(game, "fh") == "AH 2H 3H"
    assert pile(game, "t2") == "7C"

    # "Put out the 4, 5, 6, and 7 of clubs."
    play(game, "l>f", "b3>f", "l>f", "t2>f")
    assert pile(game, "fc") == "AC 2C 3C 4C 5C 6C 7C"
    assert pile(game, "l") == "KH"
    assert home(game) == {"C": 7, "D": 3, "H": 3, "S": 1}

    # "Now deal again; into the left-hand post the queen of spades, 5 of diamonds, 8 of
    # clubs, 2 of spades; into the top bar the 4 of spades; into the right-hand post the 4 of
    # hearts and 9 of clubs, which exhaust the stock. We therefore complete the post with the
    # 8 of hearts, king of spades, and 9 of hearts (in order) from the waste-heap."
    play(game, "deal")
    assert pile(game, "l") == "KH QS 5D 8C 2S"
    assert pile(game, "t2") == "4S"
    assert pile(game, "r") == "4H 9C 8H KS 9H"
    assert stock_left(game) == 0
    assert pile(game, "w") == ""

    # "The end of our task is now in sight. Put out the 2, 3, 4 of spades."
    play(game, "l>f", "b2>f", "t2>f")
    assert pile(game, "fs") == "AS 2S 3S 4S"

    # "Build 9 of hearts on 10 of clubs, and 8 of clubs on 9 of hearts."
    play(game, "r>b1", "l>b1")
    assert pile(game, "b1") == "JD TC 9H 8C"

    # "Put out 4, 5, 6 of diamonds, and 5 of spades."
    play(game, "b2>f", "l>f", "b3>f", "b2>f")
    assert pile(game, "fd") == "AD 2D 3D 4D 5D 6D"
    assert pile(game, "fs") == "AS 2S 3S 4S 5S"
    assert pile(game, "b2") == "6H"

    # "Build 7 of hearts on 8 of clubs. Move king of spades into the top bar."
    # (the top bar has two spaces now, t1 and t2: we take t1, the one the 7H left)
    play(game, "t1>b1", "r>t1")
    assert pile(game, "b1") == "JD TC 9H 8C 7H"
    assert pile(game, "t1") == "KS"

    # "Move the 5-of-hearts-to-8-of-spades sequence on to the 9 of diamonds."
    play(game, "t3>b4")
    assert pile(game, "b4") == "KD QC JH TS 9D 8S 7D 6S 5H"

    # "Now the 8 of hearts will go into the bar; the 9 of clubs builds on to the 10 of
    # diamonds; the 4 of hearts goes out; and all the rest is easy."
    play(game, "r>t2", "r>t4", "r>f")
    assert pile(game, "t2") == "8H"
    assert pile(game, "t4") == "QH JC TD 9C"
    assert pile(game, "fh") == "AH 2H 3H 4H"
    assert pile(game, "r") == ""
    assert home(game) == {"C": 7, "D": 6, "H": 4, "S": 5}
    assert "deal" not in moves(game)  # stock and waste are both spent

    # "All the rest" is foundation plays only: play home the first card that fits, until
    # every card is home.
    while game.status == "playing":
        home_moves = [m for m in moves(game) if m.endswith(">f")]
        assert home_moves, game.text()
        play(game, home_moves[0])
    assert game.status == "won"
    assert game.progress == (52, 52)
