"""The games' rules pages for players: one source a game (``rulebook/pages/<game id>.txt``),
read as the terminal's text and as an HTML page for the browser.

A source is the terminal's page, plain ASCII at most 76 columns wide for a pager on an
80x24 terminal (the goal, a sketch of the table with its pile labels, the moves in the
notation, what happens by itself, how the game ends, a worked first move on a numbered
deal), with two marks for what only one of the two readers should see:

- ``{term:...}``: text for the terminal only (its keys, its commands), and
- ``{web:...}``: text for the browser only (what to tap).

Neither spans lines, nor nests. A line left empty by the marks alone is dropped.

The HTML reads the page's shape: its first line is the title, a line in capitals a
heading, the lines between two rules of dashes a sketch of the table (kept as drawn,
its cards as faces), an indented line a term and what it means (continued by lines
indented further), and the rest paragraphs. Card codes (``TH``, ``5D``) become faces in
the suit's colour, moves (``t1>b2``, ``3+7``) code.

>>> "gate" in games()
True
>>> text("gate").splitlines()[0]
'THE GATE  (gate)'
>>> "(u)" in text("gate"), "(u)" in html("gate")
(True, False)
>>> render("Undo{term: (u)} takes{web: or taps} it", "text")
'Undo (u) takes it'
>>> render("Undo{term: (u)} takes{web: or taps} it", "web")
'Undo takes or taps it'
"""

from __future__ import annotations

import re
from html import escape
from importlib import resources
from importlib.resources.abc import Traversable

SUFFIX = ".txt"
#: the two readers a page is rendered for
FORMS = ("text", "web")

#: a mark: ``{term:...}`` or ``{web:...}``
MARK = re.compile(r"\{(term|web):([^{}\n]*)\}")
#: the widths a sketch's type is sized for (its class ``wN``: N characters, even)
SKETCH_WIDTHS = tuple(range(20, 81, 2))

#: the rule over and under a sketch of the table
RULE = re.compile(r"^  -{3,}$")
#: a heading: a line of capitals (digits and punctuation allowed), not indented
HEADING = re.compile(r"^[A-Z][A-Z0-9 ,:;'()./-]*$")
#: a card code: rank then suit, alone (``TH``, ``5D``, not ``AS`` inside a word)
CARD = re.compile(r"(?<![\w])([A2-9TJQK])([CDHS])(?![\w])")
#: a card in a sketch of the table, and the space after it if there is one
SKETCH_CARD = re.compile(CARD.pattern + "( ?)")
#: a move in the notation: t1>b2, l>f, 3+7, 2+r1, c3:2>e2, g>u
MOVE = re.compile(r"(?<![\w>+:.])([a-z0-9]+(?::\d+)?[>+][a-z0-9]+)(?![\w>+])")
#: the worked first move's own line
FIRST = re.compile(r"^First move on deal (\d+): (\S+)$")

SUITS = {"C": ("♣", "clubs"), "D": ("♦", "diamonds"), "H": ("♥", "hearts"), "S": ("♠", "spades")}
RANKS = {"A": "ace", "T": "10", "J": "jack", "Q": "queen", "K": "king"}
#: words a game's name keeps in lower case, past its first
SMALL_WORDS = frozenset({"and", "of", "the"})


class UnknownGame(LookupError):
    """No page for that game id (the message names the ones there are)."""


def _folder() -> Traversable:
    return resources.files("rulebook").joinpath("pages")


def games() -> list[str]:
    """The ids of the games that have a page, sorted."""
    return sorted(
        entry.name.removesuffix(SUFFIX)
        for entry in _folder().iterdir()
        if entry.name.endswith(SUFFIX) and entry.is_file()
    )


def source(game_id: str) -> str:
    """The page's source, marks and all.

    Raises :class:`UnknownGame` for an id with no page (anything that is not exactly one
    of :func:`games`, so no path can reach another file).

    >>> source("klondike")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rulebook.UnknownGame: no rules page for 'klondike'; the games: babette, ...
    """
    known = games()
    if game_id not in known:
        raise UnknownGame(f"no rules page for {game_id!r}; the games: {', '.join(known)}")
    return _folder().joinpath(game_id + SUFFIX).read_text(encoding="utf-8")


def render(page: str, form: str) -> str:
    """``page`` as ``form`` ("text" or "web") reads it: the other form's marks taken out,
    its own unwrapped, and a line the marks alone left empty dropped."""
    if form not in FORMS:
        raise ValueError(f"no form {form!r}: {', '.join(FORMS)}")
    keep = "term" if form == "text" else "web"
    out: list[str] = []
    for line in page.split("\n"):
        kept = MARK.sub(lambda m: m.group(2) if m.group(1) == keep else "", line)
        if kept.strip() or not line.strip():
            out.append(kept.rstrip())
    return "\n".join(out)


def text(game_id: str) -> str:
    """The terminal's page of ``game_id``, ending in a newline."""
    return render(source(game_id), "text")


def title(game_id: str) -> str:
    """The game's name, as its page's first line gives it (in capitals there; a variant
    after a comma, named in brackets as the games list names it).

    >>> title("gate-narrow"), title("light-and-shade")
    ('The Gate (bars of three)', 'Light and Shade')
    """
    heading = source(game_id).splitlines()[0].rsplit("  (", 1)[0]
    game, comma, variant = heading.partition(", ")
    return _words(game, small=True) + (f" ({variant.lower()})" if comma else "")


def _words(capitals: str, small: bool = False) -> str:
    """A line of capitals as a title (``small``: its short words in lower case) or as a
    sentence ("HOW TO MOVE" -> "How to move")."""
    words = capitals.lower().split(" ")
    if not small:
        return capitals[:1] + capitals[1:].lower()
    return " ".join(
        w if n and w in SMALL_WORDS else w[:1].upper() + w[1:] for n, w in enumerate(words)
    )


def card_html(rank: str, suit: str, wide: bool = False) -> str:
    """A card's face: its rank and suit symbol in the suit's colour, named in full for
    screen readers ("10 of hearts"); ``wide``, a sketch's ten, three columns wide (class
    ``ten``)."""
    symbol, name = SUITS[suit]
    colour = "red" if suit in "DH" else "black"
    face = "10" if rank == "T" else rank
    kind = f"card {colour} ten" if wide else f"card {colour}"
    return (
        f'<span class="{kind}" role="img" aria-label="{RANKS.get(rank, rank)} of {name}">'
        f"{face}{symbol}</span>"
    )


def inline_html(line: str) -> str:
    """One line of prose: escaped, its card codes as faces and its moves as code."""
    out: list[str] = []
    at = 0
    for found in re.finditer(f"{CARD.pattern}|{MOVE.pattern}", line):
        out.append(escape(line[at : found.start()]))
        if found.group(1):
            out.append(card_html(found.group(1), found.group(2)))
        else:
            out.append(f"<code>{escape(found.group(0))}</code>")
        at = found.end()
    out.append(escape(line[at:]))
    return "".join(out)


def _sketch_face(found: re.Match[str]) -> str:
    """A card of a sketch as its face (:data:`SKETCH_CARD`): a ten's "10" and suit are
    three characters, so its face takes the space after its code too."""
    rank, suit, space = found.groups()
    if rank == "T":
        return card_html(rank, suit, wide=True)
    return card_html(rank, suit) + space


def sketch_html(lines: list[str]) -> str:
    """A sketch of the table as drawn (monospace), its cards as faces: a face keeps its
    code's two columns, a ten's the space after it too (a sketch leaves one after every
    ten), so the sketch stays aligned.

    >>> re.sub("<[^>]+>", "|", sketch_html(["  TS  9H"]))  # one space left between them
    '||10♠| |9♥||'
    """
    body = "\n".join(SKETCH_CARD.sub(_sketch_face, escape(line[2:])) for line in lines)
    # its width in characters, rounded up to even: the class the page's style sheet sizes
    # its type by, so that the whole sketch fits a phone's width (SKETCH_WIDTHS)
    width = max((len(line[2:].rstrip()) for line in lines), default=0)
    columns = min(max(width + width % 2, SKETCH_WIDTHS[0]), SKETCH_WIDTHS[-1])
    return f'<pre class="sketch w{columns}" aria-label="a sketch of the table">{body}</pre>'


def html(game_id: str) -> str:
    """The browser's page of ``game_id``: an ``<article>`` (no terminal keys, commands or
    ``{term:...}`` text; see the module's docstring for how the shape is read)."""
    lines = render(source(game_id), "web").split("\n")
    parts = [f"<h1>{escape(title(game_id))}</h1>"]
    paragraph: list[str] = []
    terms: list[tuple[str, list[str]]] = []

    def close() -> None:
        if paragraph:
            parts.append(f"<p>{inline_html(' '.join(paragraph))}</p>")
            paragraph.clear()
        if terms:
            items = "".join(
                f"<dt>{inline_html(term)}</dt><dd>{inline_html(' '.join(meaning))}</dd>"
                for term, meaning in terms
            )
            parts.append(f"<dl>{items}</dl>")
            terms.clear()

    n = 1
    while n < len(lines):
        line = lines[n]
        n += 1
        if RULE.match(line):
            close()
            sketch: list[str] = []
            while n < len(lines) and not RULE.match(lines[n]):
                sketch.append(lines[n])
                n += 1
            n += 1  # the closing rule
            parts.append(sketch_html(sketch))
        elif not line.strip():
            close()
        elif HEADING.match(line):
            close()
            parts.append(f"<h2>{escape(_words(line.strip()))}</h2>")
        elif first := FIRST.match(line):
            close()
            parts.append(
                f'<p class="first">First move on deal {first.group(1)}: '
                f"<code>{escape(first.group(2))}</code></p>"
            )
        elif line.startswith("  ") and line[2] != " ":
            if paragraph:
                close()
            term, _, meaning = line[2:].partition("  ")
            term, meaning = term.strip(), meaning.strip()
            if terms and (terms[-1][0].endswith(",") or not meaning):
                # two labels sharing one meaning: "t1..t4," over "b1..b4", or "b1..b3" alone
                joined = terms[-1][0].rstrip(",")
                terms[-1] = (f"{joined}, {term}", terms[-1][1] + ([meaning] if meaning else []))
            else:
                terms.append((term, [meaning]))
        elif line.startswith("   ") and terms:
            terms[-1][1].append(line.strip())
        else:
            if terms:
                close()
            paragraph.append(line.strip())
    close()
    return f'<article class="rules">{"".join(parts)}</article>'
