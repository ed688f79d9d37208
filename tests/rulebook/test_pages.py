"""One source a game renders the terminal's rules page and the browser's: the two forms
keep what is theirs and drop the other's, the HTML has no terminal keys or commands, its
cards are faces and its sketches keep every card of the text's."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from itertools import pairwise

import pytest

import rulebook
from server.engine import GAMES

#: what belongs to the terminal, never to the browser's page
TERMINAL_ONLY = ("(u)", "patience-race", "--seed", "Tab offers", "Enter", "{term:", "{web:")
VOID = {"br", "img", "meta", "link", "hr", "input"}


class Tags(HTMLParser):
    """Checks the page's tags nest and close, and collects its card faces' names."""

    def __init__(self) -> None:
        super().__init__()
        self.open: list[str] = []
        self.faces: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag == "span" and "card" in (named.get("class") or ""):
            self.faces.append(named.get("aria-label") or "")
        if tag not in VOID:
            self.open.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.open or self.open.pop() != tag:
            self.errors.append(f"</{tag}> closes nothing open")


def test_every_game_has_one_source() -> None:
    assert rulebook.games() == sorted(GAMES)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_pages_title_is_the_games_name(game: str) -> None:
    """The offline rules list and the rules pages name each game as the server's games
    list does (they said "The Gate, Bars of Three" beside "The Gate (bars of three)")."""
    assert rulebook.title(game) == GAMES[game].name


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_text_keeps_the_terminals_part_and_drops_the_browsers(game: str) -> None:
    text = rulebook.text(game)
    assert "{term:" not in text and "{web:" not in text
    assert "(u)" in text and f"patience-race play {game}" in text
    assert text.endswith("\n")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_html_has_no_terminal_keys_or_commands(game: str) -> None:
    page = rulebook.html(game)
    assert [word for word in TERMINAL_ONLY if word in page] == []
    assert "<h1>" in page and "<h2>" in page and '<p class="first">' in page


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_html_nests_and_shows_each_card_of_the_text_as_a_face(game: str) -> None:
    tags = Tags()
    tags.feed(rulebook.html(game))
    assert tags.errors == [] and tags.open == []
    # every card a sketch of the text draws is a face in the page, in the same order
    text_cards = [
        m.group(0)
        for picture in re.findall(r"^  -{3,}\n(.*?)\n  -{3,}$", rulebook.text(game), re.S | re.M)
        for m in rulebook.CARD.finditer(picture)
    ]
    sketches = "".join(re.findall(r'<pre class="sketch[ "].*?</pre>', rulebook.html(game), re.S))
    faces = re.findall(r'<span class="card (?:red|black)(?: ten)?"[^>]*>([^<]*)</span>', sketches)
    assert len(faces) == len(text_cards) > 0
    for code, face in zip(text_cards, faces, strict=True):
        rank = "10" if code[0] == "T" else code[0]
        assert face == rank + rulebook.SUITS[code[1]][0]


def test_a_card_face_is_named_in_full_and_coloured_by_its_suit() -> None:
    assert rulebook.card_html("T", "H") == (
        '<span class="card red" role="img" aria-label="10 of hearts">10♥</span>'
    )
    assert 'class="card black"' in rulebook.card_html("Q", "S")
    assert 'aria-label="queen of spades"' in rulebook.card_html("Q", "S")


def test_prose_gets_faces_and_code_and_is_escaped() -> None:
    line = "The 5D goes on <b> at t1>b2, as 3+7 pairs; AS soon as"
    html = rulebook.inline_html(line)
    assert 'aria-label="5 of diamonds"' in html
    assert "<code>t1&gt;b2</code>" in html and "<code>3+7</code>" in html
    assert "&lt;b&gt;" in html and "<b>" not in html
    assert html.count('class="card') == 2  # 5D and AS (a card code alone is a card)


def test_two_labels_sharing_a_meaning_make_one_entry() -> None:
    gate = rulebook.html("gate")
    assert "<dt>t1..t4, b1..b4</dt>" in gate
    assert "<dt>t1..t3, b1..b3</dt>" in rulebook.html("gate-narrow")


def test_a_line_only_the_other_form_has_leaves_no_gap() -> None:
    page = "A\n{web:tap it}\nB\n\nC{term: (c)}"
    assert rulebook.render(page, "text") == "A\nB\n\nC (c)"
    assert rulebook.render(page, "web") == "A\ntap it\nB\n\nC"
    with pytest.raises(ValueError):
        rulebook.render(page, "pdf")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_sketch_leaves_a_space_after_every_ten(game: str) -> None:
    """A ten's face ("10♠") is three characters: in a sketch it takes the space after its
    code, so that the cards after it keep their columns; a ten must have one (or end its
    line)."""
    for picture in re.findall(r"^  -{3,}\n(.*?)\n  -{3,}$", rulebook.source(game), re.S | re.M):
        for line in picture.splitlines():
            for found in rulebook.CARD.finditer(line):
                after = line[found.end() : found.end() + 1]
                assert found.group(1) != "T" or after in ("", " "), line


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_gardens_columns_are_evenly_spaced(game: str) -> None:
    """A row of column letters (a b c ...) in a sketch has one gap throughout: The
    Blockade's deal had a to h five columns apart and i to l four."""
    for picture in re.findall(r"^  -{3,}\n(.*?)\n  -{3,}$", rulebook.source(game), re.S | re.M):
        for line in picture.splitlines():
            letters = [(m.start(), m.group(0)) for m in re.finditer(r"\S+", line)]
            named = "".join(token for _, token in letters)
            if len(letters) > 2 and named == "abcdefghijkl"[: len(letters)]:
                gaps = {b - a for (a, _), (b, _) in pairwise(letters)}
                assert len(gaps) == 1, line
