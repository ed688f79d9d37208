"""The board: one renderer for every game, from the layout data in the view.

A view lists piles, each with a ``label``, a ``kind``, a place on a table grid (``x``
columns, ``y`` rows growing downwards), a ``fan`` (``down``, ``right`` or ``none``), its
face-up ``cards`` and a count of face-down cards (``down``). The renderer knows no game:

- every grid row ``y`` starts on a screen line; rows keep their spacing (one line per
  ``y`` step), and a row moves down when a pile fanned from above in the same column would
  reach it (so The Gate's bottom bar sits between the posts while the top bar is short,
  and below them when it grows);
- each pile is its label (the notation's own) above its cards: a fanned pile one card a
  line, a squared pile its top card with ``+n`` for the cards beneath, a face-down pile
  ``[n]``, an empty one ``·``;
- a garden whose labels are a column letter and a row number (``a1`` .. ``h13``) is drawn
  as a grid with the letters above and the numbers beside it, instead of a label per cell;
- when the board is taller than the room it has, fanned piles are cut to their last cards,
  the first one marked ``+n`` for the cards not shown, until it fits;
- labels and squared piles may run into free columns to their right.

:func:`render` is the plain-text form that golden tests compare; :func:`draw_board` gives
the styled lines the screen is made of.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from .cards import card_text
from .sanitize import clean

#: kinds whose count of cards beneath the top is not shown (the progress says it)
HOME_KINDS = frozenset({"foundation", "foundation-up", "foundation-down", "discard"})
#: the longest label drawn in full
MAX_LABEL = 8

LABEL_STYLE = "cyan"
PLAYABLE_STYLE = "bold yellow"
EMPTY_STYLE = "bright_black"
COUNT_STYLE = "bright_black"
HIDDEN_STYLE = "blue"

_AXIS_LABEL = re.compile(r"([a-z])(\d{1,2})")
_MOVE_SPLIT = re.compile(r"[>+:]")


@dataclass(frozen=True)
class Pile:
    """One pile of a view, checked and cleaned."""

    label: str
    kind: str
    x: int
    y: int
    fan: str
    cards: tuple[str, ...]
    down: int


def _int(value: Any, low: int = 0, high: int = 999) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return min(max(value, low), high)
    return low


def piles_of(view: Mapping[str, Any]) -> list[Pile]:
    """The view's piles, every field checked (a malformed pile is skipped), every string
    cleaned."""
    out: list[Pile] = []
    raw = view.get("piles")
    if not isinstance(raw, list):
        return out
    for item in raw:
        if not isinstance(item, Mapping):
            continue
        cards = item.get("cards")
        out.append(
            Pile(
                label=clean(item.get("label", "?"), MAX_LABEL),
                kind=clean(item.get("kind", ""), 20),
                x=_int(item.get("x"), 0, 60),
                y=_int(item.get("y"), 0, 60),
                fan=clean(item.get("fan", "none"), 8),
                cards=tuple(clean(c, 2) for c in cards) if isinstance(cards, list) else (),
                down=_int(item.get("down"), 0, 9999),
            )
        )
    return out


def move_piles(move: str) -> tuple[str, ...]:
    """The piles a move starts from, read off its notation: the part before ``>`` or
    ``:`` (``t1>b2`` and The Blockade's counted ``c3:2>e2`` start at ``t1`` and ``c3``),
    or both sides of a pair (``4+8``). A word (``deal``) comes back whole: it names no
    pile.

    >>> move_piles("t1>b2"), move_piles("c3:2>e2"), move_piles("4+8"), move_piles("deal")
    (('t1',), ('c3',), ('4', '8'), ('deal',))
    """
    parts = _MOVE_SPLIT.split(move)
    if "+" in move:
        return tuple(p for p in move.split("+") if p)
    return (parts[0],)


def playable_piles(legal: Iterable[str]) -> frozenset[str]:
    """Labels of the piles some legal move starts from."""
    return frozenset(p for move in legal for p in move_piles(move))


# -- layout -------------------------------------------------------------------------------


@dataclass
class _Block:
    pile: Pile
    head: Text | None  # what the pile puts on its row's label line
    body: list[Text]  # its content, one entry a line
    top: int = 0  # its row's first line (the label line, if the row has one)
    first: int = 0  # its first content line

    @property
    def bottom(self) -> int:
        return self.first + len(self.body) - 1

    def lines(self) -> range:
        return range(self.top if self.head is not None else self.first, self.bottom + 1)


@dataclass
class _Axis:
    """A garden: cells labelled by column letter and row number."""

    letters: dict[int, str]  # x -> letter
    numbers: dict[int, str]  # y -> number
    labels: frozenset[str]


def _axis(piles: Sequence[Pile]) -> _Axis | None:
    letter_x: dict[str, set[int]] = defaultdict(set)
    x_letter: dict[int, set[str]] = defaultdict(set)
    number_y: dict[str, set[int]] = defaultdict(set)
    y_number: dict[int, set[str]] = defaultdict(set)
    labels = set()
    for p in piles:
        match = _AXIS_LABEL.fullmatch(p.label)
        if match is None:
            continue
        letter, number = match.groups()
        letter_x[letter].add(p.x)
        x_letter[p.x].add(letter)
        number_y[number].add(p.y)
        y_number[p.y].add(number)
        labels.add(p.label)
    if len(letter_x) < 2:
        return None
    for mapping in (letter_x, x_letter, number_y, y_number):
        if any(len(v) != 1 for v in mapping.values()):
            return None
    return _Axis(
        letters={x: next(iter(v)) for x, v in x_letter.items()},
        numbers={y: next(iter(v)) for y, v in y_number.items()},
        labels=frozenset(labels),
    )


def _empty(ascii: bool) -> Text:
    return Text("." if ascii else "·", style=EMPTY_STYLE)


def _body(pile: Pile, cap: int | None, ascii: bool, playable: bool) -> list[Text]:
    top_style = "underline" if playable else ""
    if not pile.cards:
        if pile.down:
            return [Text(f"[{pile.down}]", style=HIDDEN_STYLE)]
        return [_empty(ascii)]
    cards = pile.cards
    if pile.fan == "down":
        shown = cards if cap is None or len(cards) <= cap else cards[-cap:]
        lines = [card_text(c, ascii=ascii) for c in shown]
        lines[-1] = card_text(shown[-1], ascii=ascii, style=top_style)
        hidden = len(cards) - len(shown) + pile.down
        if hidden:
            lines[0].append(f"+{hidden}", style=COUNT_STYLE)
        return lines
    if pile.fan == "right":
        line = Text(" ").join(card_text(c, ascii=ascii) for c in cards)
        return [line]
    line = card_text(cards[-1], ascii=ascii, style=top_style)
    beneath = len(cards) - 1 + pile.down
    if beneath and pile.kind not in HOME_KINDS:
        line.append(f"+{beneath}", style=COUNT_STYLE)
    return [line]


def _blocks(
    piles: Sequence[Pile],
    axis: _Axis | None,
    cap: int | None,
    ascii: bool,
    playable: frozenset[str],
) -> list[_Block]:
    first_axis_row = min(axis.numbers) if axis else None
    blocks = []
    for p in piles:
        on_grid = axis is not None and p.label in axis.labels
        head: Text | None
        if on_grid:
            assert axis is not None
            head = Text(axis.letters[p.x], style=LABEL_STYLE) if p.y == first_axis_row else None
        else:
            style = PLAYABLE_STYLE if p.label in playable else LABEL_STYLE
            head = Text(p.label, style=style)
        body = _body(p, cap, ascii, on_grid and p.label in playable)
        blocks.append(_Block(p, head, body))
    return blocks


def _place(blocks: list[_Block]) -> int:
    """Give every block its lines; the board's height."""
    by_row: dict[int, list[_Block]] = defaultdict(list)
    for b in blocks:
        by_row[b.pile.y].append(b)
    placed: list[_Block] = []
    prev_y: int | None = None
    prev_top = 0
    for y in sorted(by_row):
        row = by_row[y]
        top = 0
        if prev_y is not None:
            top = prev_top + (y - prev_y)
            columns = {b.pile.x for b in row}
            for above in placed:
                if above.pile.x in columns:
                    gap = 2 if y - above.pile.y >= 2 else 1
                    top = max(top, above.bottom + gap)
        has_head = any(b.head is not None for b in row)
        for b in row:
            b.top = top
            b.first = top + (1 if has_head else 0)
        placed.extend(row)
        prev_y, prev_top = y, top
    return max(b.bottom for b in blocks) + 1 if blocks else 0


def _caps(piles: Sequence[Pile]) -> list[int | None]:
    longest = max((len(p.cards) for p in piles if p.fan == "down"), default=0)
    return [None, *range(longest - 1, 0, -1)]


@dataclass
class Board:
    """A drawn board: styled lines, and how it was fitted."""

    lines: list[Text]
    cap: int | None = None  # fanned piles cut to this many cards, if they were
    cropped: int = 0  # lines left out because even the cut board was too tall
    width: int = 0
    notes: list[str] = field(default_factory=list)


def _draw(blocks: list[_Block], height: int, axis: _Axis | None, gap: int) -> list[Text]:
    xs = [b.pile.x for b in blocks]
    lo, hi = min(xs), max(xs)
    covered: dict[int, set[int]] = defaultdict(set)
    for b in blocks:
        covered[b.pile.x].update(b.lines())
    # every piece of text: (column, line, text)
    items: list[tuple[int, int, Text]] = []
    for b in blocks:
        if b.head is not None:
            items.append((b.pile.x, b.top, b.head))
        for n, piece in enumerate(b.body):
            items.append((b.pile.x, b.first + n, piece))

    def span(x: int, line: int) -> int:
        n = 0
        while x + n + 1 <= hi and line not in covered[x + n + 1]:
            n += 1
        return n

    width = {x: 0 for x in range(lo, hi + 1)}
    spilling = []
    for x, line, text in items:
        s = span(x, line) if text.cell_len > 2 else 0
        if s == 0:
            width[x] = max(width[x], text.cell_len)
        else:
            width[x] = max(width[x], min(text.cell_len, 2))
            spilling.append((x, s, text.cell_len))
    for x, s, need in sorted(spilling):
        have = sum(width[c] for c in range(x, x + s + 1)) + gap * s
        if need > have:
            width[x + s] += need - have
    margin = 0
    if axis is not None:
        margin = max(len(n) for n in axis.numbers.values()) + 1
    start: dict[int, int] = {}
    col = margin
    for x in range(lo, hi + 1):
        start[x] = col
        col += width[x] + (gap if width[x] else 1)
    rows: list[list[tuple[int, Text]]] = [[] for _ in range(height)]
    for x, line, text in items:
        rows[line].append((start[x], text))
    if axis is not None:
        by_y: dict[int, list[_Block]] = defaultdict(list)
        for b in blocks:
            if b.pile.label in axis.labels:
                by_y[b.pile.y].append(b)
        for y, number in axis.numbers.items():
            if by_y[y]:
                line = by_y[y][0].first
                rows[line].append((0, Text(number.rjust(margin - 1), style=LABEL_STYLE)))
    out = []
    for pieces in rows:
        text = Text()
        for at, piece in sorted(pieces, key=lambda item: item[0]):
            if at < text.cell_len:
                continue  # never happens by construction; never overwrite
            text.append(" " * (at - text.cell_len))
            text.append_text(piece)
        out.append(text)
    return out


def draw_board(
    view: Mapping[str, Any],
    width: int = 80,
    height: int | None = None,
    *,
    ascii: bool = False,
    legal: Iterable[str] = (),
) -> Board:
    """The board of ``view`` in at most ``width`` columns and, if given, ``height`` lines.

    Piles some legal move starts from have their label highlighted (a garden cell its
    card underlined)."""
    piles = piles_of(view)
    if not piles:
        return Board([Text("(nothing on the table)")])
    playable = playable_piles(legal)
    axis = _axis(piles)
    chosen: tuple[list[_Block], int, int | None] | None = None
    for cap in _caps(piles):
        blocks = _blocks(piles, axis, cap, ascii, playable)
        tall = _place(blocks)
        chosen = (blocks, tall, cap)
        if height is None or tall <= height:
            break
    assert chosen is not None
    blocks, tall, cap = chosen
    lines: list[Text] = []
    for gap in (2, 1):
        lines = _draw(blocks, tall, axis, gap)
        if max(line.cell_len for line in lines) <= width:
            break
    board = Board(lines, cap=cap)
    if height is not None and len(lines) > height:
        keep = max(height - 1, 0)
        board.cropped = len(lines) - keep
        board.lines = [*lines[:keep], Text(f"… {board.cropped} more lines: enlarge the terminal")]
    for line in board.lines:
        line.truncate(width)
        line.rstrip()
    board.width = max((line.cell_len for line in board.lines), default=0)
    return board


def render(
    view: Mapping[str, Any],
    width: int = 80,
    height: int | None = None,
    *,
    ascii: bool = False,
) -> str:
    """The board as plain text: what the golden tests compare.

    >>> view = {"piles": [
    ...     {"label": "w", "kind": "waste", "x": 1, "y": 0, "fan": "none",
    ...      "cards": ["2C", "KH"], "down": 0},
    ...     {"label": "s", "kind": "stock", "x": 0, "y": 0, "fan": "none",
    ...      "cards": [], "down": 30},
    ...     {"label": "t1", "kind": "bar", "x": 0, "y": 1, "fan": "down",
    ...      "cards": ["9S", "8D"], "down": 0}]}
    >>> print(render(view))
    s     w
    [30]  K♥+1
    t1
    9♠
    8♦
    >>> print(render(view, height=4, ascii=True))
    s     w
    [30]  KH+1
    t1
    8D+1
    """
    board = draw_board(view, width, height, ascii=ascii)
    return "\n".join(line.plain for line in board.lines)
