"""The board: one renderer for every game, from the layout data in the view.

A view lists piles, each with a ``label``, a ``kind``, a place on a table grid (``x``
columns, ``y`` rows growing downwards), a ``fan`` (``down``, ``right`` or ``none``), its
face-up ``cards`` and a count of face-down cards (``down``). The renderer knows no game:

- every grid row ``y`` starts on a screen line; rows keep their spacing (one line per
  ``y`` step), and a row moves down when a pile fanned from above in the same column would
  reach it, or one fanned from the row just above past either end of the row (The
  Wedge's 15 and 20, past the end of the shorter row under them: their cards were drawn
  beside its labels, read as one more pile of it);
- a row the layout sets two or more steps below a fanned pile in its column (The Gate's
  bottom bar under the top bar, Light and Shade's rivals under the auxiliaries) is
  *anchored* when the board has a height: it starts on a line fixed by the layout and the
  height alone, never by the cards, so its labels stay put as the fans above it grow. The
  fans above get the lines down to a blank line over it (an even share with the fanned
  rows from it down, at most :data:`FAN_ROOM`), and are cut to them. Its labels never
  share a line with the cards of fans on both sides of it (The Gate's lower bars between
  its posts), which are cut further if the board must fit;
- each pile is its label (the notation's own) above its cards: a fanned pile one card a
  line, a squared pile its top card with ``+n`` for the cards beneath, a face-down pile
  ``[n]``, an empty one ``·``;
- a garden whose labels are a column letter and a row number (``a1`` .. ``h13``) is drawn
  as a grid with the letters above and the numbers beside it, instead of a label per cell;
  the letters are capitals (``A`` .. ``H``: :func:`cell_case`) on a line of their own, so
  that no pile beside the garden, named in small letters (The Labyrinth's grace pile
  ``g``, the foundations ``uc`` .. ``ds``, a move's ``>u`` and ``>d``), reads as one of
  its columns;
- a pile a view field names (:data:`MARKING_FIELDS`: The Wedge's ``wedge``) has a mark
  after its top card, ``◀`` (``*`` in ASCII), hanging into the gap to its right so that
  no column moves for it;
- a view's ``path`` (The Wedge's: the cells its cards step through, in order) is drawn
  as an arrow after each label on it, pointing to the next pile (``←``, ``↓``; ``<``,
  ``v`` in ASCII), hanging into the gap like a mark;
- when the board is taller than the room it has, fanned piles are cut until it fits: each
  keeps its first card (the one a whole pile moves by) and its last ones, a line ``+n``
  between them for the ``n`` cards left out (with room for two cards or fewer, its last
  cards, the first marked ``+n`` for all the cards not shown);
- labels and squared piles may run into free columns to their right.

:func:`render` is the plain-text form that golden tests compare; :func:`draw_board` gives
the styled lines the screen is made of.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from math import ceil
from typing import Any

from rich.cells import cell_len
from rich.text import Text

from .cards import card_text
from .marks import (
    HOME_KINDS,
    Pile,
    mark_text,
    marked_piles,
    path_arrows,
    piles_of,
)
from .notation import playable_piles

#: the cells a card takes
CARD_WIDTH = 2
#: the most lines an anchored row leaves the fans above it: a run from king to ace
FAN_ROOM = 13

LABEL_STYLE = "cyan"
PLAYABLE_STYLE = "bold yellow"
#: the pile a click picked (the mouse), waiting for where it goes
PICKED_STYLE = "bold reverse yellow"
EMPTY_STYLE = "bright_black"
COUNT_STYLE = "bright_black"
HIDDEN_STYLE = "blue"
MARK_STYLE = "bold magenta"

_AXIS_LABEL = re.compile(r"([a-z])(\d{1,2})")


def garden_cells(view: Mapping[str, Any]) -> frozenset[str]:
    """The labels of the view's garden cells (column letter, row number), if it has a
    garden."""
    axis = _axis(piles_of(view))
    return axis.labels if axis is not None else frozenset()


# -- layout -------------------------------------------------------------------------------


#: an anchored row's first line, from its ``y`` and the first line of the fans over it
_Anchor = Callable[[int, int], int]


@dataclass(frozen=True)
class _Look:
    """How a pile's cards are drawn, whatever room they get."""

    ascii: bool
    underline: bool  # its top card underlined (a playable garden cell)
    mark: str  # after its top card, hanging into the gap ("" for none)
    picked: bool = False  # its top card reversed (a garden cell the mouse picked)
    arrow: str = ""  # after its label, hanging into the gap: the way its path goes


@dataclass
class _Block:
    pile: Pile
    head: Text | None  # what the pile puts on its row's label line
    look: _Look
    cap: int | None  # a fanned pile shows at most this many cards
    body: list[Text] = field(init=False)  # its content, one entry a line
    top: int = 0  # its row's first line (the label line, if the row has one)
    first: int = 0  # its first content line

    def __post_init__(self) -> None:
        self.body = _body(self.pile, self.cap, self.look)

    def cut(self, cap: int) -> None:
        """Show at most ``cap`` cards of a fanned pile (at least one)."""
        cap = max(cap, 1)
        if self.pile.fan == "down" and (self.cap is None or cap < self.cap):
            self.cap = cap
            self.body = _body(self.pile, cap, self.look)

    @property
    def bottom(self) -> int:
        return self.first + len(self.body) - 1

    @property
    def hang(self) -> int:
        """Cells of the top card's line that hang into the gap to the right (the mark)."""
        return cell_len(self.look.mark)

    @property
    def head_hang(self) -> int:
        """Cells of the label that hang into the gap to the right (a path's arrow)."""
        return cell_len(self.look.arrow)

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


def _body(pile: Pile, cap: int | None, look: _Look) -> list[Text]:
    """The pile's lines; the top card's line ends with the mark, if it has one."""
    top_style = "reverse" if look.picked else "underline" if look.underline else ""
    lines = _cards(pile, cap, look.ascii, top_style)
    if look.mark:
        lines[-1].append(look.mark, style=MARK_STYLE)
    return lines


def _fan(pile: Pile, cap: int | None, ascii: bool, top_style: str) -> list[Text]:
    """A fanned pile, one card a line; cut to ``cap`` lines, it keeps its first card (the
    one a whole pile moves by) and its last ones, with a line ``+n`` for the ``n`` cards
    between left out, so that the cut takes no more width than the cards. With one or two
    lines, or face-down cards beneath, the ``+n`` goes after the first card shown and
    counts every card not shown."""
    cards = pile.cards
    if cap is None or len(cards) <= cap:
        shown, between = list(cards), 0
    elif cap >= 3 and not pile.down:
        shown, between = [cards[0], *cards[len(cards) - cap + 2 :]], len(cards) - cap + 1
    else:
        shown, between = list(cards[-cap:]), 0
    lines = [card_text(c, ascii=ascii) for c in shown]
    lines[-1] = card_text(shown[-1], ascii=ascii, style=top_style)
    if between:
        lines.insert(1, Text(f"+{between}", style=COUNT_STYLE))
    else:
        hidden = len(cards) - len(shown) + pile.down
        if hidden:
            lines[0].append(f"+{hidden}", style=COUNT_STYLE)
    return lines


def _cards(pile: Pile, cap: int | None, ascii: bool, top_style: str) -> list[Text]:
    if not pile.cards:
        if pile.down:
            return [Text(f"[{pile.down}]", style=HIDDEN_STYLE)]
        return [_empty(ascii)]
    cards = pile.cards
    if pile.fan == "down":
        return _fan(pile, cap, ascii, top_style)
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
    marked: Mapping[str, str],
    picked: str | None = None,
    arrows: Mapping[str, str] | None = None,
) -> list[_Block]:
    first_axis_row = min(axis.numbers) if axis else None
    arrows = arrows or {}
    blocks = []
    for p in piles:
        on_grid = axis is not None and p.label in axis.labels
        head: Text | None
        arrow = ""
        if on_grid:
            assert axis is not None
            letter = axis.letters[p.x].upper()
            head = Text(letter, style=LABEL_STYLE) if p.y == first_axis_row else None
        else:
            style = PLAYABLE_STYLE if p.label in playable else LABEL_STYLE
            head = Text(p.label, style=PICKED_STYLE if p.label == picked else style)
            arrow = arrows.get(p.label, "")
            if arrow:
                head.append(arrow, style=MARK_STYLE)
        mark = mark_text(marked[p.label], ascii) if p.label in marked and p.cards else ""
        look = _Look(
            ascii=ascii,
            underline=on_grid and p.label in playable,
            mark=mark,
            picked=on_grid and p.label == picked,
            arrow=arrow,
        )
        blocks.append(_Block(p, head, look, cap))
    return blocks


def _rows(blocks: Iterable[_Block]) -> dict[int, list[_Block]]:
    by_row: dict[int, list[_Block]] = defaultdict(list)
    for b in blocks:
        by_row[b.pile.y].append(b)
    return dict(sorted(by_row.items()))


def _hanging(placed: Sequence[_Block], row: Sequence[_Block]) -> list[_Block]:
    """The fanned piles that hang over ``row`` from two or more steps up: in each of its
    columns, the nearest pile above it, if that one is fanned down."""
    y = row[0].pile.y
    out = []
    for x in sorted({b.pile.x for b in row}):
        above = [b for b in placed if b.pile.x == x]
        if above:
            nearest = max(above, key=lambda b: b.pile.y)
            if nearest.pile.fan == "down" and y - nearest.pile.y >= 2:
                out.append(nearest)
    return out


def _place(blocks: list[_Block], height: int | None = None, axis_row: int | None = None) -> int:
    """Give every block its lines; the board's height.

    With a ``height``, a row that fanned piles hang over is anchored (see the module's
    docstring) and the piles over it are cut to the room it leaves them. The garden's
    first row (``axis_row``), whose letters head it, starts below everything before it."""
    by_row = _rows(blocks)
    anchors = _anchors(by_row, height, axis_row) if height is not None else None
    placed: list[_Block] = []
    prev_y: int | None = None
    prev_top = 0
    for y, row in by_row.items():
        top = 0
        if prev_y is not None:
            top = prev_top + (y - prev_y)
            hanging = _hanging(placed, row) if anchors is not None else []
            if anchors is not None and hanging:
                first = min(b.first for b in hanging)
                top = max(top, anchors(y, first))
                for b in hanging:
                    b.cut(top - 1 - b.first)  # down to a blank line over the row
            columns = {b.pile.x for b in row}
            for above in placed:
                if above.pile.x in columns:
                    gap = 2 if y - above.pile.y >= 2 else 1
                    top = max(top, above.bottom + gap)
                elif y - above.pile.y == 1 and _past_the_end(above, columns):
                    # (the row just above, past this row's end: The Wedge's 20 over row 5
                    # drew its cards beside 24's label, read as 24's)
                    top = max(top, above.bottom + 1)
            if y == axis_row:
                top = max(top, max(b.bottom for b in placed) + 1)
        has_head = any(b.head is not None for b in row)
        if has_head and prev_y is not None and anchors is not None:
            top = max(top, _beside(placed, row, top))
        for b in row:
            b.top = top
            b.first = top + (1 if has_head else 0)
        placed.extend(row)
        prev_y, prev_top = y, top
    return max(b.bottom for b in blocks) + 1 if blocks else 0


def _past_the_end(above: _Block, columns: set[int]) -> bool:
    """Whether ``above`` is fanned down in a column past either end of a row in
    ``columns`` (a pile between two of the row's fans beside it, as a tower between two
    wells: its cards are no pile of the row's)."""
    x = above.pile.x
    return above.pile.fan == "down" and (x < min(columns) or x > max(columns))


def _beside(placed: Sequence[_Block], row: Sequence[_Block], top: int) -> int:
    """The first line a row's labels may take at ``top`` or below: not between cards of
    piles fanned down from an earlier row on both sides of it (The Gate's lower bars between
    its posts: "5♥  b1  b2  b3  6♥" read as one row, in a replay's board 12 lines high);
    the fans are cut for it where the board must fit its height."""
    columns = {b.pile.x for b in row}
    side = [
        b
        for b in placed
        if b.pile.x not in columns and b.pile.fan == "down" and b.first <= top <= b.bottom
    ]
    left = any(b.pile.x < min(columns) for b in side)
    right = any(b.pile.x > max(columns) for b in side)
    return max(b.bottom + 1 for b in side) if left and right else top


def _anchors(by_row: Mapping[int, Sequence[_Block]], height: int, axis_row: int | None) -> _Anchor:
    """Where an anchored row starts, from the layout and ``height`` alone.

    The skeleton (every pile one line) says how many lines the row and those below it
    need at the least; the lines left over are shared evenly between the fans hanging over
    the row (the odd line theirs, so that a line more or less of height rarely moves the
    row) and each fanned row from it down."""
    skeleton = [_Block(b.pile, b.head, b.look, 1) for row in by_row.values() for b in row]
    bottom = _place(skeleton, None, axis_row)
    skeleton_top = {b.pile.y: b.top for b in skeleton}
    fanned = {y for y, row in by_row.items() if any(b.pile.fan == "down" for b in row)}

    def anchor(y: int, first: int) -> int:
        below = bottom - skeleton_top[y]
        growers = len([f for f in fanned if f >= y])
        spare = height - first - below - 2
        room = 1 + ceil(max(spare, 0) / (1 + growers))
        return first + min(room, FAN_ROOM) + 1

    return anchor


def _caps(piles: Sequence[Pile]) -> list[int | None]:
    longest = max((len(p.cards) for p in piles if p.fan == "down"), default=0)
    return [None, *range(longest - 1, 0, -1)]


@dataclass(frozen=True)
class Spot:
    """Where a pile is drawn: lines ``top`` to ``bottom`` and columns ``left`` up to (not
    including) ``right``, its label line and its cards; what a click there means."""

    label: str
    kind: str
    top: int
    bottom: int
    left: int
    right: int


@dataclass
class Board:
    """A drawn board: styled lines, and how it was fitted."""

    lines: list[Text]
    cap: int | None = None  # fanned piles cut to this many cards, if they were
    cropped: int = 0  # lines left out because even the cut board was too tall
    width: int = 0
    notes: list[str] = field(default_factory=list)
    #: where each pile is drawn (for the mouse)
    spots: list[Spot] = field(default_factory=list)


def _draw(
    blocks: list[_Block], height: int, axis: _Axis | None, gap: int, spots: list[Spot]
) -> list[Text]:
    """The board's lines; ``spots`` gets where each pile is drawn."""
    xs = [b.pile.x for b in blocks]
    lo, hi = min(xs), max(xs)
    covered: dict[int, set[int]] = defaultdict(set)
    for b in blocks:
        covered[b.pile.x].update(b.lines())
    # every piece of text: (column, line, text, cells of it that hang into the gap)
    items: list[tuple[int, int, Text, int]] = []
    for b in blocks:
        if b.head is not None:
            items.append((b.pile.x, b.top, b.head, b.head_hang))
        for n, piece in enumerate(b.body):
            hang = b.hang if n == len(b.body) - 1 else 0
            items.append((b.pile.x, b.first + n, piece, hang))

    def span(x: int, line: int) -> int:
        n = 0
        while x + n + 1 <= hi and line not in covered[x + n + 1]:
            n += 1
        return n

    # a column is at least a card wide, so that emptying its piles moves no other column
    width = {x: CARD_WIDTH if x in covered else 0 for x in range(lo, hi + 1)}
    spilling = []
    for x, line, text, hang in items:
        need = text.cell_len - min(hang, gap)
        s = span(x, line) if need > 2 else 0
        if s == 0:
            width[x] = max(width[x], need)
        else:
            width[x] = max(width[x], min(need, 2))
            spilling.append((x, s, need))
    for x, s, need in sorted(spilling):
        have = sum(width[c] for c in range(x, x + s + 1)) + gap * s
        if need > have:
            width[x + s] += need - have
    margin = 0
    if axis is not None:
        margin = max(len(n) for n in axis.numbers.values()) + 1
        # a garden's columns one width, the widest's (the Blockade's three-letter
        # foundation labels over A to H had widened those alone: A to H five apart, I to L
        # four)
        widest = max(width[x] for x in axis.letters)
        for x in axis.letters:
            width[x] = widest
    start: dict[int, int] = {}
    col = margin
    for x in range(lo, hi + 1):
        start[x] = col
        col += width[x] + (gap if width[x] else 1)
    spots.clear()
    for b in blocks:
        drawn = b.lines()
        if len(drawn):
            right = start[b.pile.x] + max(width[b.pile.x], CARD_WIDTH)
            spots.append(
                Spot(b.pile.label, b.pile.kind, drawn[0], drawn[-1], start[b.pile.x], right)
            )
    rows: list[list[tuple[int, Text]]] = [[] for _ in range(height)]
    for x, line, text, _ in items:
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
    picked: str | None = None,
) -> Board:
    """The board of ``view`` in at most ``width`` columns and, if given, ``height`` lines.

    Piles some legal move starts from have their label highlighted (a garden cell its
    card underlined); a pile the view names in a :data:`MARKING_FIELDS` field is marked."""
    piles = piles_of(view)
    if not piles:
        return Board([Text("(nothing on the table)")])
    playable = playable_piles(legal)
    marked = marked_piles(view)
    arrows = path_arrows(view, piles, ascii)
    axis = _axis(piles)
    axis_row = min(axis.numbers) if axis else None
    chosen: tuple[list[_Block], int, int | None] | None = None
    for cap in _caps(piles):
        blocks = _blocks(piles, axis, cap, ascii, playable, marked, picked, arrows)
        tall = _place(blocks, height, axis_row)
        chosen = (blocks, tall, cap)
        if height is None or tall <= height:
            break
    assert chosen is not None
    blocks, tall, cap = chosen
    lines: list[Text] = []
    spots: list[Spot] = []
    for gap in (2, 1):
        lines = _draw(blocks, tall, axis, gap, spots)
        if max(line.cell_len for line in lines) <= width:
            break
    board = Board(lines, cap=cap, spots=[s for s in spots if s.left < width])
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
