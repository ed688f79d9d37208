"""The players' rules pages (client_cli/rules/): one for every game, fit for a pager on an
80x24 terminal, free of developer talk, and true to the game: every move the page writes
is one the game can read, every pile the sketch names is one of its piles, the opening
position it shows is the deal the client draws, and its worked first move is legal there.
"""

from __future__ import annotations

import re

import pytest

from client_cli import rules
from client_cli.render import render
from server.engine import GAMES, new_game

from .views import GAME_IDS

#: the widest line a page may have: a pager on 80 columns, with room to spare
WIDTH = 76
#: a page is a screenful or three, not a manual
LINES = range(30, 76)
#: words that belong to the code, not to a page for players (case does not matter)
DEVELOPER_WORDS = (
    "new_game",
    "deck=",
    "seed file",
    "seeds/",
    "pytest",
    "test_",
    "tests/",
    "mypy",
    "redis",
    "engine",
    ".py",
    "docs/",
    "import ",
    "def ",
    "function",
    "module",
    "ruling",
    "json",
    "websocket",
    "```",
    "todo",
)
#: the rule over and under a picture of the table
RULE = re.compile(r"^  -{3,}$")
#: the worked first move, in a line of its own
FIRST = re.compile(r"^First move on deal (\d+): (\S+)$", re.M)
#: a move written in the text: t1>b2, l>f, 3+7, 2+r1, c3:2>e2, g>u
MOVE = re.compile(r"(?<![\w>+:.])([a-z0-9]+(?::\d+)?[>+][a-z0-9]+)(?![\w>+])")
#: a run of labels written in the text: t1..t4, a1..h13, fc..fs
SPAN = re.compile(r"(?<![\w.])([a-z0-9]+)\.\.([a-z0-9]+)(?![\w.])")


def pictures(text: str) -> list[list[str]]:
    """The pictures of the table on a page: the lines between two rules."""
    found: list[list[str]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        if RULE.match(line):
            if current is None:
                current = []
            else:
                found.append(current)
                current = None
        elif current is not None:
            current.append(line)
    assert current is None, "a picture is not closed"
    return found


def first_move(text: str) -> tuple[int, str]:
    found = FIRST.findall(text)
    assert len(found) == 1, "a page has one line 'First move on deal N: MOVE'"
    deal, move = found[0]
    return int(deal), move


def is_label(token: str, labels: dict[str, int]) -> bool:
    """A pile of the game, or a garden's column letter or row number as the client draws
    them over and beside the grid."""
    if token in labels:
        return True
    if len(token) == 1 and token.isalpha():
        return token + "1" in labels
    return token.isdigit() and "a" + token in labels


def test_every_game_has_a_page() -> None:
    assert rules.games() == sorted(GAMES)
    for game_id in GAMES:
        assert rules.page(game_id).endswith("\n")


@pytest.mark.parametrize("asked", ["klondike", "", "GATE", "../rules", "gate.txt"])
def test_an_unknown_game_is_refused(asked: str) -> None:
    listed = ", ".join(sorted(GAMES))
    with pytest.raises(rules.UnknownGame) as refused:
        rules.page(asked)
    assert str(refused.value) == f"no rules page for {asked!r}; the games: {listed}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_page_fits_a_pager(game_id: str) -> None:
    text = rules.page(game_id)
    lines = text.splitlines()
    assert len(lines) in LINES, f"{len(lines)} lines"
    assert lines[0].endswith(f"({game_id})"), "the title names the game's id"
    assert text.isascii(), "plain ASCII: any terminal, any pager"
    for number, line in enumerate(lines, 1):
        assert len(line) <= WIDTH, f"line {number} is {len(line)} columns: {line!r}"
        assert "\t" not in line and line == line.rstrip(), f"line {number}: tab or trailing space"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_no_developer_words(game_id: str) -> None:
    text = rules.page(game_id).lower()
    assert [word for word in DEVELOPER_WORDS if word in text] == []


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_worked_first_move_is_legal_on_its_deal(game_id: str) -> None:
    text = rules.page(game_id)
    deal, move = first_move(text)
    assert f"patience-race play {game_id} --seed {deal}" in text, "how to play that deal"
    game = new_game(game_id, seed=deal)
    legal = [m.text for m in game.legal_moves()]
    assert game.parse(move).text in legal, f"{move} is not legal on deal {deal}: {legal}"
    assert move != "deal" or legal == ["deal"], "a worked move shows more than a deal"
    game.play(move)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_opening_position_is_the_deal_the_client_draws(game_id: str) -> None:
    text = rules.page(game_id)
    deal, _ = first_move(text)
    shown = pictures(text)
    assert len(shown) == 2, "two pictures: the table's sketch, then the deal"
    drawn = render(new_game(game_id, seed=deal).view(), WIDTH - 2, ascii=True)
    # spacing may change with the renderer; the cards and labels, row by row, may not
    # (nor may their case, but a garden's column letters: the board draws them as
    # capitals, a page may write them as the notation does, case never mattering)
    words = [line.lower().split() for line in shown[1] if line.strip()]
    assert words == [line.lower().split() for line in drawn.splitlines() if line.strip()]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_sketch_names_only_the_game_s_piles(game_id: str) -> None:
    labels = GAMES[game_id].cls.LABELS
    sketch = pictures(rules.page(game_id))[0]
    named = [token for line in sketch for token in line.split() if token.strip(".")]
    assert named, "the sketch names the piles"
    assert [token for token in named if not is_label(token, labels)] == []


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_move_and_label_written_is_the_game_s(game_id: str) -> None:
    text = rules.page(game_id)
    game = new_game(game_id, seed=1)
    moves = MOVE.findall(text)
    assert moves, "the page shows its notation"
    for move in moves:
        game.parse(move)  # InvalidMove: not a move this game can read
    labels = GAMES[game_id].cls.LABELS
    for low, high in SPAN.findall(text):
        assert is_label(low, labels) and is_label(high, labels), f"{low}..{high}"


def test_the_readers_of_a_page() -> None:
    """What the checks above read from a page: moves, runs of labels, piles."""
    text = "type t1>b2, then 2+r1 or c3:2>e2 (g>u); not 6 > 5, nor 2s and up"
    assert MOVE.findall(text) == ["t1>b2", "2+r1", "c3:2>e2", "g>u"]
    assert SPAN.findall("t1..t4 and a1..h13, not a sentence...") == [("t1", "t4"), ("a1", "h13")]
    gate, blockade = GAMES["gate"].cls.LABELS, GAMES["blockade"].cls.LABELS
    assert is_label("t4", gate) and not is_label("t5", gate)
    assert is_label("l", blockade) and not is_label("m", blockade)  # twelve columns
    assert is_label("9", blockade) and not is_label("10", blockade)  # nine rows at most
    assert pictures("x\n  ---\n  a b\n\n  ---\ny\n  ---\n  c\n  ---\n") == [["  a b", ""], ["  c"]]
