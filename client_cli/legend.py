"""The legend: one line under the board saying what its marks and piles mean.

The board writes the server's notation and little else: ``[34]`` beside the stock,
``9♥+12`` on a waste heap, a grace pile ``g`` beside the garden's column ``g``, the Wedge
marked ``◀``. A new player cannot guess these, nor that The Gate's waste heap refills the
gaps top card first once the stock is out. :func:`legend` says them in one line, for the
game (the rules id) and from what its view holds now: a part is said only when the board
has what it speaks of (the grace only with a grace pile, the Wedge only while it drives
its path), and the labels it names are read from the view's piles.

Each part has a rank, 0 the most needed. When the line is wider than ``width`` the least
needed parts go first; a last part still too wide is cut with an ellipsis.

The rules pages (``client_cli/rules/<id>.txt``) say the same in full; the legend is their
shortest form, in their words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len

from .marks import HOME_KINDS, Pile, mark_text, marked_piles, piles_of

#: the widest legend, on an 80-column screen with room to spare
WIDTH = 76
#: The Wedge's path, from its first cell to its exit (the rules' own order), for a view
#: that does not name it
WEDGE_PATH = ("15", "14", "13", "12", "11", "10", "16", "21")


@dataclass(frozen=True)
class Part:
    """One thing the legend says, and how much it is needed (0 the most)."""

    text: str
    rank: int


@dataclass(frozen=True)
class _Board:
    """What the legend reads from a view: its piles and fields, and the glyphs to use."""

    view: Mapping[str, Any]
    piles: Sequence[Pile]
    ascii: bool

    def kind(self, *kinds: str) -> list[Pile]:
        return [p for p in self.piles if p.kind in kinds]

    def pile(self, label: str) -> Pile | None:
        return next((p for p in self.piles if p.label == label), None)

    def span(self, *kinds: str) -> str:
        """The labels of the piles of these kinds, as a run: ``a1-a4``, or ``l r``."""
        labels = [p.label for p in self.kind(*kinds)]
        if len(labels) <= 2:
            return " ".join(labels)
        return f"{labels[0]}-{labels[-1]}"

    def first(self, kind: str, default: str) -> str:
        piles = self.kind(kind)
        return piles[0].label if piles else default


def _face_down(board: _Board, rank: int) -> list[Part]:
    """``[n]``, when the board draws a pile so."""
    if any(p.down and not p.cards for p in board.piles):
        return [Part("[n] face down", rank)]
    return []


def _not_shown(board: _Board, rank: int) -> list[Part]:
    """``+n``, when a squared pile shows one now or a waste heap or talon will."""
    squared = [p for p in board.piles if p.fan == "none" and p.kind not in HOME_KINDS]
    if any(p.cards and len(p.cards) - 1 + p.down for p in squared) or any(
        p.kind in ("waste", "talon") for p in squared
    ):
        return [Part("+n more", rank)]
    return []


def _gate(board: _Board) -> list[Part]:
    bars = " ".join(dict.fromkeys(p.label[:1] for p in board.kind("bar")))
    stock, waste = board.first("stock", "s"), board.first("waste", "w")
    return [
        Part(f"posts {board.span('post')}, bars {bars}", 2),
        *_not_shown(board, 1),
        *_face_down(board, 3),
        Part(f"deal fills gaps from {stock}, then {waste}, top first", 0),
    ]


def _wedge(board: _Board) -> list[Part]:
    parts: list[Part] = []
    marked = [label for label, name in marked_piles(board.view).items() if name == "wedge"]
    cell = board.pile(marked[0]) if marked else None
    if cell is not None and cell.cards:
        # the board draws the path as arrows after its labels (the view's ``path``)
        mark = mark_text("wedge", board.ascii)
        path = board.view.get("path")
        end = path[-1] if isinstance(path, list) and path else WEDGE_PATH[-1]
        parts.append(Part(f"{mark} the Wedge steps along the arrows as {end} empties", 0))
        parts.append(Part("cards on them cannot move", 1))
    elif board.view.get("stage") == 2:
        parts.append(Part("stage two: only a king comes from the board into rows 1 and 4", 0))
    elif board.view.get("stage") == 1:
        parts.append(Part("the path has stopped; row 3 is never filled again", 0))
    return [*parts, *_not_shown(board, 3), *_face_down(board, 4)]


def _up_down(board: _Board, short: bool = False) -> str:
    """The foundations as the moves name them (``>u``, ``>d``: small letters like the
    foundations' labels ``uc`` .. ``ds``, where the garden's columns are capitals)."""
    if short:
        return ">u home up, >d home down"
    return ">u home up from A, >d down from K"


def _labyrinth(board: _Board) -> list[Part]:
    parts: list[Part] = []
    grace = board.kind("grace")
    if grace:
        g = grace[0]
        stock = board.first("stock", "s")
        # (the garden's columns are capitals: its grace pile's small letter is no column)
        if board.view.get("grace_used") and not g.cards:
            said = f"{g.label} beside {stock}: the grace (used)"
        else:
            said = f"{g.label} beside {stock}: the grace, once, when stuck"
        parts.append(Part(said, 0))
    return [
        *parts,
        Part(_up_down(board, short=True), 1),
        Part("free: top or lowest row, or beside a gap", 2),
        *_face_down(board, 3),
    ]


def _babette(board: _Board) -> list[Part]:
    parts = [Part(_up_down(board), 0), Part("free: nothing below it", 1)]
    redeals = board.view.get("redeals")
    if isinstance(redeals, int) and not isinstance(redeals, bool):
        left = {0: "no redeal left", 1: "1 redeal left"}.get(redeals, f"{redeals} redeals left")
        parts.append(Part(left, 2))
    return [*parts, *_face_down(board, 3)]


def _blockade(board: _Board) -> list[Part]:
    return [
        Part(f"{board.span('foundation')} up from A, two a suit", 2),
        Part("a cell's pile hangs down, top card last", 1),
        Part("free: nothing below it", 0),
        *_face_down(board, 3),
    ]


def _blockade_ten(board: _Board) -> list[Part]:
    return [
        Part(_up_down(board, short=True), 1),
        Part(f"free: nothing below (or above, once {board.first('stock', 's')} is out)", 0),
        *_face_down(board, 2),
    ]


def _nestor(board: _Board) -> list[Part]:
    parts = [Part("a column's lowest card is free", 2)]
    reserve, turned = board.kind("reserve"), board.kind("reserve-card")
    if reserve and reserve[0].down:
        name, into = reserve[0].label, board.span("reserve-card")
        parts.append(Part(f"{name} turns the next card up into {into}", 1))
    elif turned:
        parts.append(Part(f"{board.span('reserve-card')}: the turned reserve, free", 1))
    for pile in board.kind("discard"):
        parts.append(Part(f"{pile.label}: pairs taken off", 0))
    return parts


def _doubles(board: _Board) -> list[Part]:
    parts = [Part("a pair must touch, even at a corner; 5 and 6 do not", 0)]
    for pile in board.kind("discard"):
        parts.append(Part(f"{pile.label}: pairs taken off", 1))
    stock = board.kind("stock")
    if stock and stock[0].down:
        parts.append(Part(f"{stock[0].label} [n]: fills the end when the table closes up", 2))
    return parts


def _light_and_shade(board: _Board) -> list[Part]:
    names = ", ".join(
        f"{board.span(kind)} {word}"
        for kind, word in (("auxiliary", "auxiliaries"), ("rival", "rivals"))
        if board.kind(kind)
    )
    talon = board.first("talon", "t")
    return [
        Part(names, 0),
        Part(f"{talon} talon: its top plays, never turned over", 1),
        *_not_shown(board, 2),
        *_face_down(board, 3),
    ]


def _any(board: _Board) -> list[Part]:
    return [*_not_shown(board, 0), *_face_down(board, 1)]


#: the parts of each game's legend, by rules id; any other game gets the common parts
GAMES: Mapping[str, Callable[[_Board], list[Part]]] = {
    "gate": _gate,
    "gate-narrow": _gate,
    "wedge": _wedge,
    "labyrinth": _labyrinth,
    "babette": _babette,
    "blockade": _blockade,
    "blockade-ten": _blockade_ten,
    "nestor": _nestor,
    "doubles-and-quits": _doubles,
    "light-and-shade": _light_and_shade,
}


def parts(rules: str, view: Mapping[str, Any], ascii: bool = False) -> list[Part]:
    """Everything the legend of ``rules`` would say of ``view``, in the order said."""
    board = _Board(view, piles_of(view), ascii)
    return [p for p in GAMES.get(rules, _any)(board) if p.text]


def fit(said: Sequence[Part], width: int, ascii: bool = False) -> str:
    """The parts joined in one line of at most ``width`` cells: the least needed parts
    (the highest rank, the later of two) go first; one still too wide is cut.

    >>> said = [Part("a b c", 1), Part("d e", 0), Part("f", 2)]
    >>> fit(said, 20), fit(said, 11), fit(said, 4), fit(said, 4, ascii=True)
    ('a b c · d e · f', 'a b c · d e', 'd e', 'd e')
    >>> fit([Part("a long part", 0)], 9), fit([Part("a long part", 0)], 8, ascii=True)
    ('a long…', 'a...')
    >>> fit([Part("unbroken", 0)], 5)
    'unbr…'
    """
    sep = " | " if ascii else " · "
    kept = list(said)
    while len(kept) > 1 and cell_len(sep.join(p.text for p in kept)) > width:
        drop = max(range(len(kept)), key=lambda i: (kept[i].rank, i))
        del kept[drop]
    line = sep.join(p.text for p in kept)
    if cell_len(line) > width:
        ellipsis = "..." if ascii else "…"
        line = line[: max(width - len(ellipsis), 0) + 1]
        line = (line.rsplit(" ", 1)[0] if " " in line else line[:-1]).rstrip(" ,;:") + ellipsis
    return line


def legend(rules: str, view: Mapping[str, Any], ascii: bool = False, width: int = WIDTH) -> str:
    """The one-line legend of the board of ``view`` in the game ``rules``, at most
    ``width`` cells wide ("" when there is nothing to say).

    >>> view = {"piles": [{"label": "w", "kind": "waste", "x": 0, "y": 0, "fan": "none",
    ...                    "cards": ["2C", "KH"], "down": 0}]}
    >>> legend("a-new-game", view)
    '+n more'
    """
    return fit(parts(rules, view, ascii), width, ascii)
