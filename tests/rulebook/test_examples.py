"""Each page's worked first move checked against the rules engine, on the deal it names:
the sketch of that deal shows the cards the engine deals where it deals them, every card
the prose places at a pile is there, every move the prose names is legal where it is
named, and a card the prose says must wait has no move yet (The Blockade in rows of ten
said the 2S at h1 must wait for a second ace of spades, where h1>u was legal at once)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

import rulebook
from server.engine import GAMES, Game, new_game

#: the worked example's heading, and the line naming its first move
HEADING = re.compile(r"^A FIRST MOVE: DEAL (\d+)", re.M)
FIRST = re.compile(r"^First move on deal (\d+): (\S+)$", re.M)
#: a token of a sketch and where it starts
TOKEN = re.compile(r"\S+")
#: what a sketch draws for a pile: a card, an empty pile, a count of cards face down
CARD_TOKEN = re.compile(r"^(?:[A2-9TJQK][CDHS]|\.|\[\d+\])$")
#: the marks a board draws after a label or a card (The Wedge's path and the Wedge)
MARKS = "v<>^*"
#: a card's code, alone
CODE = r"(?<!\w)[A2-9TJQK][CDHS](?!\w)"
#: a pile's label as prose names it: c1, 20, us2, f1, r4, t2, b4
CELL = r"[a-z]{0,2}\d+"
#: "the 2S at d1", "the 7S from 21", "the AS went home from 20", "the QD, moves from 15",
#: "the 2S at the foot of column 3"
AT = re.compile(
    rf"({CODE})(?:,?\s+(?!at\b|from\b)[a-z]+){{0,2}},?\s+"
    rf"(?:at|from)\s+(?:the foot of column\s+)?({CELL})\b"
)
#: "either 8S (g1 or j1)"
AT_EITHER = re.compile(rf"({CODE})\s+\(({CELL}(?:(?:,| or)\s+{CELL})*)\)")
#: the words with which the prose says a card cannot move yet
WAITS = ("must wait", "cannot", "can't", "not yet")


@dataclass(frozen=True)
class Example:
    """A page's worked example: the deal, its first move, its sketch's lines (as the
    terminal's page draws them, the indent taken off) and its prose, one line."""

    game: str
    deal: int
    first: str
    sketch: list[str]
    prose: str


def example(game: str) -> Example:
    text = rulebook.text(game)
    heading = HEADING.search(text)
    found = FIRST.search(text)
    assert heading and found, "a page works a first move: 'A FIRST MOVE: DEAL N'"
    assert heading.group(1) == found.group(1), "the heading and the move name one deal"
    part = text[heading.end() : found.start()].splitlines()
    rules = [n for n, line in enumerate(part) if rulebook.RULE.match(line)]
    assert len(rules) == 2, "the deal drawn between two rules"
    sketch = [line[2:] for line in part[rules[0] + 1 : rules[1]]]
    prose = " ".join(text[found.end() :].split())
    return Example(game, int(found.group(1)), found.group(2), sketch, prose)


def piles(game: Game) -> dict[str, dict[str, Any]]:
    return {pile["label"]: pile for pile in game.view()["piles"]}


def drawn(sketch: list[str], labels: set[str]) -> dict[str, list[str]]:
    """What the sketch draws for each pile: the tokens under its label, top to bottom.

    A token is a card (or ``.``, ``[N]``) or a label; a card belongs to the label above it
    that starts in the same column. A garden's column letter over a row's number (``a``
    over ``1``) names the cell ``a1``."""
    out: dict[str, list[str]] = {}
    above: dict[int, str] = {}  # the last label seen starting in each column
    for line in sketch:
        tokens = [(m.start(), m.group(0).rstrip(MARKS) or m.group(0)) for m in TOKEN.finditer(line)]
        cards = [t for t in tokens if CARD_TOKEN.match(t[1])]
        row = ""
        if cards and tokens[0][1].isdigit():
            row = tokens[0][1]  # a garden's row number
            tokens = tokens[1:]
        for column, token in tokens:
            if CARD_TOKEN.match(token):
                assert column in above, f"{token} at column {column} is under no label"
                label = above[column] + row if row else above[column]
                assert label in labels, f"{token} is under {label}, no pile of the game"
                out.setdefault(label, []).append(token)
            else:
                above[column] = token
    return out


def shown(pile: dict[str, Any]) -> list[str]:
    """A pile as a sketch draws it: its cards, ``.`` for none, ``[N]`` for N face down."""
    if pile["cards"]:
        return list(pile["cards"])
    return [f"[{pile['down']}]"] if pile.get("down") else ["."]


def sentences(prose: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+(?=[A-Z])", prose)


def claims(sentence: str) -> Iterator[tuple[str, str]]:
    """Each (card, pile) the sentence places the card at."""
    for found in AT.finditer(sentence):
        yield found.group(1), found.group(2)
    for found in AT_EITHER.finditer(sentence):
        for cell in re.split(r",\s*|\s+or\s+", found.group(2)):
            yield found.group(1), cell


def played(game_id: str, deal: int, line: tuple[str, ...]) -> Game:
    game = new_game(game_id, seed=deal)
    for move in line:
        game.play(move)
    return game


def legal(game: Game) -> list[str]:
    return [move.text for move in game.legal_moves()]


def starts_at(move: str, cell: str) -> bool:
    """Whether the move takes a card from ``cell`` (either pile of a pair)."""
    if "+" in move:
        return cell in move.split("+")
    return re.split(r"[>:]", move)[0] == cell


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_sketch_shows_the_deal_as_the_engine_deals_it(game_id: str) -> None:
    ex = example(game_id)
    game = new_game(game_id, seed=ex.deal)
    table = piles(game)
    sketched = drawn(ex.sketch, set(table))
    assert sketched, "the sketch shows some pile"
    wrong = {
        label: (tokens, shown(table[label]))
        for label, tokens in sketched.items()
        if tokens != shown(table[label])
    }
    assert wrong == {}, "pile: (sketched, dealt)"


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_card_the_example_places_is_there(game_id: str) -> None:
    """ "The 2S at d1": the 2S is d1's top card at the start. A card the sentence sends
    home ("the AS went home from 20") may have gone by itself: home, its pile empty."""
    ex = example(game_id)
    table = piles(new_game(game_id, seed=ex.deal))
    home = {
        card
        for pile in table.values()
        if pile["kind"].startswith("foundation")
        for card in pile["cards"]
    }
    wrong: list[str] = []
    for sentence in sentences(ex.prose):
        for card, cell in claims(sentence):
            assert cell in table, f"{cell} ({sentence!r}) is no pile of the game"
            cards = table[cell]["cards"]
            gone_home = "home" in sentence and card in home and not cards
            if cards[-1:] != [card] and not gone_home:
                wrong.append(f"{card} at {cell}: {cards[-1:] or 'empty'} ({sentence!r})")
    assert wrong == []


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_every_move_the_example_names_is_legal_where_it_is_named(game_id: str) -> None:
    """The first move is legal at the start; each move the prose names after it is legal
    at the start, or after the first move, or after a move named before it ("r4>a4, which
    can then go home (a4>f)")."""
    ex = example(game_id)
    start = new_game(game_id, seed=ex.deal)
    assert start.parse(ex.first).text in legal(start)
    lines: list[tuple[str, ...]] = [(), (start.parse(ex.first).text,)]
    named = [m.group(0) for m in rulebook.MOVE.finditer(ex.prose)]
    for move in named:
        grown = [
            (*line, text)
            for line in lines
            if (text := (game := played(game_id, ex.deal, line)).parse(move).text) in legal(game)
        ]
        assert grown, f"{move} is legal nowhere the example has reached"
        lines += grown


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_a_card_the_example_says_must_wait_has_no_move_yet(game_id: str) -> None:
    ex = example(game_id)
    start = new_game(game_id, seed=ex.deal)
    moves = legal(start)
    for sentence in sentences(ex.prose):
        if any(word in sentence for word in WAITS):
            for card, cell in claims(sentence):
                can = [m for m in moves if starts_at(m, cell)]
                assert can == [], f"{card} at {cell} can move at the start: {can} ({sentence!r})"
