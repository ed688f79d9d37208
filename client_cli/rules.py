"""The games' rules pages for players, shipped with the client so that they can be read
with no server at all (in a game, or before the first one): the terminal's form of the
pages in :mod:`rulebook`, one source a game that the browser's pages are rendered from too.

>>> "gate" in games()
True
>>> page("gate").splitlines()[0]
'THE GATE  (gate)'
>>> title("gate")
'The Gate'
"""

from __future__ import annotations

import re
import textwrap

import rulebook
from rulebook import UnknownGame, games, title

__all__ = ["UnknownGame", "games", "page", "reflow", "title"]


def page(game_id: str) -> str:
    """The rules page of ``game_id`` as the terminal shows it, text ending in a newline.

    Raises :class:`UnknownGame` for an id with no page.

    >>> page("klondike")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rulebook.UnknownGame: no rules page for 'klondike'; the games: babette, ...
    """
    return rulebook.text(game_id)


#: an entry of a list on the page: its term (two spaces in, then two or more after it),
#: then its words; the lines after it that start at its words' column go on with them
_ENTRY = re.compile(r"^(  \S+(?: \S+)*,? {2,})\S")


def reflow(text: str, width: int) -> list[str]:
    """A page's lines for a screen ``width`` columns wide: its paragraphs and the words of
    its lists wrapped again (the pages are written 73 columns wide, and a narrower screen
    cut every line); its headings, tables and boards as written.

    >>> page_ = "HOW TO MOVE\\nType where a card comes from, then > and\\nwhere it goes.\\n" \\
    ...     "  t1>f      a free card goes home to its\\n            foundation (l>f, w>f)\\n" \\
    ...     "  ------\\n  l   t1\\n  ------\\nFirst move: r>b4\\n"
    >>> for line in reflow(page_, 30): print(line)
    HOW TO MOVE
    Type where a card comes from,
    then > and where it goes.
    t1>f  a free card goes home to
          its foundation (l>f,
          w>f)
      ------
      l   t1
      ------
    First move: r>b4

    Where the words have 30 columns or more, the list keeps its column:

    >>> for line in reflow(page_, 44)[3:6]: print(line)
      t1>f      a free card goes home to its
                foundation (l>f, w>f)
      ------
    >>> reflow(page_, 80) == page_.splitlines()  # (where it fits: as written)
    True

    A term over two lines (``t1..t4,`` then ``b1..b4``) is one entry's:

    >>> reflow("  t1..t4,   the bars: eight piles\\n  b1..b4    built down\\n", 30)
    ['t1..t4, b1..b4  the bars:', '                eight piles', '                built down']
    >>> reflow("  t1..t4,   the bars: eight piles, each\\n  b1..b4    built down\\n", 42)
    ['  t1..t4,   the bars: eight piles, each', '  b1..b4    built down']
    """
    lines = text.rstrip("\n").split("\n")
    if max(map(len, lines)) <= width:  # the page as written, where it fits
        return lines
    # the width its paragraphs were written to (its boards may be wider)
    written = max((len(line) for line in lines if line[:1].strip()), default=width)
    out: list[str] = []
    board = False
    n = 0
    while n < len(lines):
        line = lines[n]
        n += 1
        if line.startswith("  ---"):  # a board's frame: as written, to its other frame
            board = not board
            out.append(line)
            continue
        entry = _ENTRY.match(line)
        if _heading(line) and len(line) > width:  # (The Wedge's path, at 40 columns)
            out += textwrap.wrap(line, width, break_on_hyphens=False)
            continue
        if board or not line.strip() or (line[0] == " " and not entry) or _heading(line):
            out.append(line)
            continue
        if entry:  # a list's entry: its words, and the lines that go on with them
            term = entry.group(1)
            words = [line[len(term) :]]
            terms = [term.strip()]
            while n < len(lines):
                more = _ENTRY.match(lines[n])
                if terms[-1].endswith(",") and more and len(more.group(1)) == len(term):
                    terms.append(more.group(1).strip())  # the term goes on: "t1..t4," "b1..b4"
                    words.append(lines[n][len(term) :])
                elif _goes_on(lines[n], len(term)):
                    words.append(lines[n].strip())
                else:
                    break
                n += 1
            out += _hanging(terms, len(term), " ".join(words), width)
            continue
        words = [line]  # a paragraph: to its blank line, heading, list or board
        while (
            n < len(lines)
            and lines[n].strip()
            and lines[n][0] != " "
            and not _heading(lines[n])
            and not _ends_short(words[-1], lines[n], written)
        ):
            words.append(lines[n])
            n += 1
        out += textwrap.wrap(" ".join(words), width, break_on_hyphens=False) or [""]
    return out


def _ends_short(line: str, after: str, written: int) -> bool:
    """Whether ``line`` was ended on purpose before ``after``: it would have taken the
    first word of ``after`` with a quarter of a line to spare, in a page written
    ``written`` columns wide ("First move on deal 4: r>b4" stands alone over the
    paragraph it names; a line is wrapped a few columns short of the widest).

    >>> _ends_short("First move on deal 4: r>b4", "The 5D at the foot", 73)
    True
    >>> _ends_short("Two packs (104 cards). The goal: all 104 cards onto the eight aces,",
    ...     "each", 73)
    False
    """
    return len(line) + 1 + len(after.split(" ", 1)[0]) <= written * 3 // 4


def _heading(line: str) -> bool:
    """A heading: its first word in capitals ("HOW TO MOVE", "A FIRST MOVE: DEAL 4 ...")."""
    first = line.split(" ", 1)[0].rstrip(":")
    return len(first) > 1 and first.isupper() and line.split("(")[0].upper() == line.split("(")[0]


def _goes_on(line: str, indent: int) -> bool:
    """Whether ``line`` goes on with a list's entry whose words start at ``indent``."""
    return line[:indent].strip() == "" and len(line) > indent and line[indent] != " "


def _hanging(terms: list[str], column: int, words: str, width: int) -> list[str]:
    """A list's entry wrapped to ``width``: its words from ``column``, its terms before
    them a line each, as written; where that leaves the words under 30 columns, its terms
    on one line and its words two spaces after them."""
    if width - column < 30:
        term = " ".join(terms) + "  "
        return textwrap.wrap(
            words,
            width,
            initial_indent=term,
            subsequent_indent=" " * len(term),
            break_on_hyphens=False,
        ) or [term]
    wrapped = textwrap.wrap(words, width - column, break_on_hyphens=False) or [""]
    wrapped += [""] * (len(terms) - len(wrapped))
    heads = [f"  {t}".ljust(column) for t in terms]
    return [(heads[k] if k < len(heads) else " " * column) + w for k, w in enumerate(wrapped)]
