"""The seed's worked game of The Wedge (seeds/003), replayed move by move through the engine.

The seed plays one whole game. Its diagrams (the original layout, and the board "nearing
completion") are lost, so the deal is rebuilt from the text under the ruling's geometry;
each sentence of the game is quoted above the moves it stands for. It replays to a win.

The layout (cells in reading order; see docs/games/wedge.md for the grid)::

    row 1   9H TH 3H 9C
    row 2   7D KC JC KS 8S
    row 3   4D 6D 6C AH QS 6S      6S in cell 15 is the Wedge
    row 4   2H 5D 8C KH 7H
    row 5   4H 3D 9D TC

How it is rebuilt:

- The background's consistency check gives the path: 21=4H, 16=2H, 10..15 = 4D 6D 6C AH QS
  and the Wedge 6S, and KS at 8 (the Wedge "comes under the king of spades" at 13).
- 9D is in row 5 with 8C above it, and 10C is exposed at the start: "build 9D on 10C; 8C,
  thus released, goes on 9D" leaves two spaces, a row-4 one over a row-5 one. 4H must take
  the row-4 space and 2H the row-5 one, since 2H is later moved onto 3C (it must be exposed).
- JD and 7C fill "the top" and "the lower" of the spaces 5D and 3D leave, and later a king
  goes "into the space on left of knave of diamonds" just after the Wedge has left the path:
  that space is cell 16, so JD is at 17 and 7C at 22. So 5D is at 17, 3D at 22 ("the 5 of
  diamonds, thus exposed" by 3D's move).
- KD is dealt "into space next to king of hearts", and QS's run then goes onto KD: the only
  spaces then are 7H's first cell and JC's cell. 9S, "dealt into space next to knave of
  clubs" (JC lying on cell 8), takes JC's old cell, which must be 7 or 9. 10H lies in row 1
  over KC ("move KC, then 10H upon the knave of clubs"), "between the 9 and 3 of hearts", so
  row 1 holds 9H TH 3H with KC under TH. Final vacancies must be exactly four (21, KC's cell,
  8, 9S's cell), 8D must reach 9C and 8H reach 9S (both by the ruling's lifted-cards rule),
  and 9H and 3H must be free at the end while 8S's pile never moves: this leaves only
  TH at 2, KC at 6, JC at 7, 8S at 9, 7D at 5, 9C at 4, 7H at 20, KH at 19 (next to KD's 20),
  8C at 18, 9D at 23 and 10C at 24.
- The stock is the cards of the text's deals, in order. One card is never named: the 10 of
  diamonds. All the others are placed, so it can only be a stock card; we put it after the
  5 of hearts. The text then says "there are but three cards left in stock" where there are
  four (10D, QC, QD, JS): the text's one slip.
"""

from __future__ import annotations

from server.engine.cards import CODE
from server.engine.games.wedge import Wedge

LAYOUT = [
    *["9H", "TH", "3H", "9C"],  # row 1: cells 1-4
    *["7D", "KC", "JC", "KS", "8S"],  # row 2: cells 5-9
    *["4D", "6D", "6C", "AH", "QS", "6S"],  # row 3: cells 10-15; 6S is the Wedge
    *["2H", "5D", "8C", "KH", "7H"],  # row 4: cells 16-20
    *["4H", "3D", "9D", "TC"],  # row 5: cells 21-24
]
STOCK = [
    *["2D", "TS", "5S", "3C"],  # "2D, TS, 5S, 3C"
    *["AC", "AD"],  # "Next cards dealt are ace of clubs and ace of diamonds"
    *["7C", "JD", "4S", "JH", "5C"],  # "Next come ..."
    *["QH", "4C", "2C", "9S", "KD"],  # dealt one at a time in stage two
    *["AS", "2S", "8D", "8H", "6H", "7S"],  # "deal from stock to fill up all the vacancies"
    *["3S", "5H"],  # "the card next dealt is the 3 of spades ... and the next the 5 of hearts"
    *["TD", "QC", "QD", "JS"],  # the 10 of diamonds is never named; the text's last three
]
DECK = LAYOUT + STOCK


def pile(game: Wedge, label: str) -> str:
    return " ".join(CODE[c] for c in game.p[game.LABELS[label]])


def moves(game: Wedge) -> list[str]:
    return [m.text for m in game.legal_moves()]


def play(game: Wedge, *texts: str) -> None:
    for text in texts:
        game.play(text)


def path(game: Wedge) -> list[str]:
    """The Wedge's path from its exit back: cells 21, 16, 10, 11, .., 15."""
    return [pile(game, label) for label in ("21", "16", "10", "11", "12", "13", "14", "15")]


def vacancies(game: Wedge) -> list[str]:
    """The empty cells outside the middle row (which is never refilled)."""
    rows = [str(n) for n in (*range(1, 10), *range(16, 25))]
    return [label for label in rows if not pile(game, label)]


def stock_left(game: Wedge) -> int:
    return len(game.p[game.LABELS["s"]])


def test_the_reconstructed_deck_is_one_whole_pack() -> None:
    assert len(LAYOUT) == 24
    assert len(STOCK) == 28
    assert sorted(DECK) == sorted(r + s for r in "A23456789TJQK" for s in "CDHS")


def test_the_worked_game_plays_through_to_a_win() -> None:
    game = Wedge.from_deck(DECK)
    assert isinstance(game, Wedge)
    assert game.view()["wedge"] == "15"
    assert game.view()["stage"] == 1
    # the five cards marked E, exposed: cells 20 to 24 (and the Wedge, which may not move)
    assert moves(game) == ["23>24", "deal"]

    # "Build the 9 of diamonds upon the 10 of clubs. The 8 of clubs, thus released, will go
    # on the 9 of diamonds."
    play(game, "23>24", "18>24")
    assert pile(game, "24") == "TC 9D 8C"

    # "We have now two spaces into which we can move, in succession, the 4 of hearts and the
    # 2 of hearts underneath it."
    # (cells 18 and 23. The 2H is "underneath" in the path's order: it lies in 16, above 21,
    # and comes down to 21 by itself when the 4H leaves)
    assert pile(game, "18") == pile(game, "23") == ""
    play(game, "21>18")
    assert pile(game, "21") == "2H"
    play(game, "21>23")
    assert pile(game, "18") == "4H"
    assert pile(game, "23") == "2H"

    # "Move down the 4 and 6 of diamonds into the two places thus vacated by the hearts, and
    # shift the middle row to the left, so that the 6 of spades (which is our "Wedge") comes
    # under the king of spades."
    # (all automatic: the conveyor steps each time cell 21 empties)
    assert path(game) == ["4D", "6D", "6C", "AH", "QS", "6S", "", ""]
    assert pile(game, "8") == "KS"
    assert game.view()["wedge"] == "13"

    # "The 7 of hearts might now be built upon the 8 of clubs, but you should wait to see
    # what further cards are dealt before making any moves that are not necessary for the
    # purpose of driving in the Wedge."
    assert "20>24" in moves(game)

    # "The cards dealt from stock (in order) turn out to be 2 of diamonds, 10 of spades,
    # 5 of spades, 3 of clubs. The first three are useless and are put into the wasteheap;
    # the 3 of clubs is put on 4 of diamonds."
    play(game, "deal", "deal", "deal", "deal", "w>21")
    assert pile(game, "w") == "2D TS 5S"
    assert pile(game, "21") == "4D 3C"

    # "Move 2 of hearts on to 3 of clubs; then shift the whole sequence of three into the
    # space thus vacated. The 6 of diamonds and 6 of clubs now descend, and the three
    # remaining cards of the middle row move one place farther to the left."
    play(game, "23>21", "21>23")
    assert pile(game, "23") == "4D 3C 2H"
    assert path(game) == ["6D", "6C", "AH", "QS", "6S", "", "", ""]

    # "Next cards dealt are ace of clubs and ace of diamonds, both of which are put out for
    # foundation cards."
    # (automatic: aces go out when dealt)
    play(game, "deal", "deal")
    assert pile(game, "fc") == "AC"
    assert pile(game, "fd") == "AD"
    assert pile(game, "w") == "2D TS 5S"

    # "Next come 7 of clubs, knave of diamonds, 4 of spades, knave of hearts, 5 of clubs. The
    # first four are put on to the wasteheap; the 5 of clubs goes on 6 of diamonds, and on
    # these goes the 2-of-hearts-to-4-of-diamonds sequence."
    play(game, "deal", "deal", "deal", "deal", "deal", "w>21", "23>21")
    assert pile(game, "w") == "2D TS 5S 7C JD 4S JH"
    assert pile(game, "21") == "6D 5C 4D 3C 2H"

    # "Now the whole sequence of 5 cards is moved into the space under the 4 of hearts, and
    # we release the 6 of clubs."
    play(game, "21>23")
    assert pile(game, "23") == "6D 5C 4D 3C 2H"
    assert path(game) == ["6C", "AH", "QS", "6S", "", "", "", ""]

    # "This will go upon the 7 of hearts, so that we can put out the ace of hearts, bring
    # down the queen of spades to the lefthand place in the bottom row, and dissolve the
    # middle row altogether by getting the "Wedge" into the lowest row but one."
    # (one move: the ace goes out as it reaches 21, and the conveyor steps twice)
    play(game, "21>20")
    assert pile(game, "20") == "7H 6C"
    assert pile(game, "fh") == "AH"
    assert path(game) == ["QS", "6S", "", "", "", "", "", ""]

    # "You have now arrived at the second stage of the game. The "Wedge" has done its work,
    # and the board has been split into two separate segments."
    assert game.view()["stage"] == 2
    assert game.view()["wedge"] == "16"  # the conveyor still holds it until 21 empties

    # "From the wasteheap move the top card, the knave of hearts, upon the queen of spades."
    play(game, "w>21")
    assert pile(game, "21") == "QS JH"

    # "Put the 6 of clubs and 7 of hearts upon the 8 of spades, exposed in the upper
    # segment. Fill their place with the 4 of spades from the wasteheap, and on the 4 build
    # the 3 of diamonds."
    # (the sequence moves bodily: the 6C alone would fit on the 7D in cell 5, but it does
    # not leave the 7H under it)
    assert "20>5" not in moves(game)
    play(game, "20>9", "w>20", "22>20")
    assert pile(game, "9") == "8S 7H 6C"
    assert pile(game, "20") == "4S 3D"

    # "The 5 of diamonds, thus exposed, goes on the 6 of clubs; the 3 of diamonds and 4 of
    # spades go on the 5 of diamonds."
    play(game, "17>9", "20>9")
    assert pile(game, "9") == "8S 7H 6C 5D 4S 3D"

    # "Fill the spaces from the wasteheap, the top one with knave of diamonds, the lower one
    # with 7 of clubs, on which place the sequence from 2 of hearts to 6 of diamonds."
    # (three spaces are open: 17, 20 and 22. "The top one" and "the lower one" are 17 and 22,
    # one above the other; 20 waits for the king of diamonds)
    assert vacancies(game) == ["17", "20", "22"]
    play(game, "w>17", "w>22", "23>22")
    assert pile(game, "17") == "JD"
    assert pile(game, "22") == "7C 6D 5C 4D 3C 2H"

    # "Put the 5 of spades into the space in bottom row; then 10 of spades on knave of
    # hearts, and the 2 of diamonds will go out on the ace, exhausting the wasteheap."
    play(game, "w>23", "w>21", "w>f")
    assert pile(game, "23") == "5S"
    assert pile(game, "21") == "QS JH TS"
    assert pile(game, "fd") == "AD 2D"
    assert pile(game, "w") == ""

    # "The next card dealt is queen of hearts; put her on king of spades; and on her the
    # knave of clubs."
    play(game, "deal", "w>8", "7>8")
    assert pile(game, "8") == "KS QH JC"

    # "Deal 4 of clubs into the space vacated by the knave of clubs; put out 2 of hearts on
    # the ace."
    play(game, "deal", "w>7", "22>f")
    assert pile(game, "7") == "4C"
    assert pile(game, "fh") == "AH 2H"

    # "The 2 of clubs, which you deal next, goes out, as well as the 3 and 4 of same suit.
    # Also put out the 3 of diamonds, but not the 4 as yet, because you may need a red 4 for
    # building purposes, and the 4 of hearts is not exposed."
    play(game, "deal", "w>f", "22>f", "7>f", "9>f")
    assert pile(game, "fc") == "AC 2C 3C 4C"
    assert pile(game, "fd") == "AD 2D 3D"
    assert "22>f" in moves(game)  # the 4D could go; it stays
    assert "18>f" not in moves(game)  # 4H is under 5S's cell 23: not exposed

    # "Deal the 9 of spades into space next to knave of clubs, and the king of diamonds into
    # space next to king of hearts."
    # (cell 7, which the JC left for cell 8; cell 20, beside KH in 19: a king from the stock
    # may fill row 4 in stage two)
    play(game, "deal", "w>7", "deal", "w>20")
    assert pile(game, "7") == "9S"
    assert pile(game, "20") == "KD"
    assert pile(game, "19") == "KH"

    # "On the king of diamonds place the sequence from 10 to queen of spades. The "Wedge,"
    # coming down into bottom row, becomes an ordinary exposed card and is put on the 7 of
    # diamonds."
    play(game, "21>20")
    assert pile(game, "20") == "KD QS JH TS"
    assert pile(game, "21") == "6S"
    assert game.view()["wedge"] is None  # the conveyor has stopped
    play(game, "21>5")
    assert pile(game, "5") == "7D 6S"

    # "Into the space on left of knave of diamonds you can now move one of the kings that
    # are blocking the game in the upper segment of the board. Choose the king of clubs, as
    # you can then move the 10 of hearts upon the knave of clubs."
    # (cell 16 became an ordinary cell when the Wedge reached 21; only a king may come into
    # row 4 from the board now, and KC and KS both qualify)
    assert {"6>16", "8>16"} <= set(moves(game))
    play(game, "6>16", "2>8")
    assert pile(game, "16") == "KC"
    assert pile(game, "8") == "KS QH JC TH"

    # "Into the space thus vacated between the 9 and 3 of hearts move the
    # 10-of-hearts-to-king-of-spades sequence. Put 9 of spades on 10 of hearts."
    play(game, "8>2", "7>2")
    assert pile(game, "1") == "9H"
    assert pile(game, "2") == "KS QH JC TH 9S"
    assert pile(game, "3") == "3H"

    # "Now deal from stock to fill up all the vacancies. The cards you get are ace of
    # spades, 2 of spades, 8 of diamonds, 8 of hearts, 6 of hearts, 7 of spades. The two
    # first go out for a foundation packet; the other four, dealt out in order, bring the
    # board into the state shown below:"
    # (the ace goes out by itself, the 2 by the player. The four vacancies are 6, 7, 8 and
    # 21; the next two moves need 8D in 8 and 8H in 6, under the 9C and 9S they go on. The
    # diagram is lost: 6H and 7S take 7 and 21 in that order, our choice)
    assert vacancies(game) == ["6", "7", "8", "21"]
    play(game, "deal")
    assert pile(game, "fs") == "AS"
    play(game, "deal", "w>f")
    assert pile(game, "fs") == "AS 2S"
    play(game, "deal", "w>8", "deal", "w>6", "deal", "w>7", "deal", "w>21")
    assert [pile(game, c) for c in ("6", "7", "8", "21")] == ["8H", "6H", "8D", "7S"]
    assert stock_left(game) == 6

    # "We now proceed as follows. Put 8 of diamonds on 9 of clubs, and 8 of hearts on 9 of
    # spades."
    # (the ruling's lifted-cards rule: each 8 is the whole of the cell just below its 9)
    play(game, "8>4", "6>2")
    assert pile(game, "4") == "9C 8D"
    assert pile(game, "2") == "KS QH JC TH 9S 8H"

    # "Put 5 of spades on 6 of hearts, which releases the 4 of hearts, to go on the 5 of
    # spades."
    play(game, "23>7", "18>7")
    assert pile(game, "7") == "6H 5S 4H"

    # "The sequence from 4 of diamonds to 7 of clubs goes on the 8 of hearts; the 7 of
    # spades goes on the 8 of diamonds."
    play(game, "22>2", "21>4")
    assert pile(game, "2") == "KS QH JC TH 9S 8H 7C 6D 5C 4D"
    assert pile(game, "4") == "9C 8D 7S"

    # "The sequence from 8 to 10 of clubs will go on knave of diamonds, and the sequence
    # from 4 to 6 of hearts on 7 of spades."
    play(game, "24>17", "7>4")
    assert pile(game, "17") == "JD TC 9D 8C"
    assert pile(game, "4") == "9C 8D 7S 6H 5S 4H"

    # "The 6 of spades and 7 of diamonds go on the 8 of clubs; the 9 of hearts on 10 of
    # spades."
    play(game, "5>17", "1>20")
    assert pile(game, "17") == "JD TC 9D 8C 7D 6S"
    assert pile(game, "20") == "KD QS JH TS 9H"

    # "You have now unblocked all the board, and can put out the 3 of hearts on to its
    # foundation packet."
    play(game, "3>f")
    assert pile(game, "fh") == "AH 2H 3H"

    # "As the card next dealt is the 3 of spades (which goes out), and the next the 5 of
    # hearts, the game is won."
    play(game, "deal", "w>f", "deal")
    assert pile(game, "fs") == "AS 2S 3S"
    assert pile(game, "w") == "5H"

    # "There are but three cards left in stock — the queen of clubs, queen of diamonds, and
    # knave of spades; and all the foundation packets can be built up in succession from
    # exposed cards."
    # (four: the 10 of diamonds, never named, is still there too)
    assert stock_left(game) == 4
    # Play home the first card that fits; deal when none does.
    while game.status == "playing":
        home_moves = [m for m in moves(game) if m.endswith(">f")]
        play(game, home_moves[0] if home_moves else "deal")
    assert game.status == "won"
    assert game.progress == (52, 52)
