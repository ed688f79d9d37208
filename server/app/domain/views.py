"""A game's view kept encoded between moves: the ``view`` of every ``moved`` and ``undone``
reply, without building it afresh as a tree of dicts and encoding it whole each time.

A move changes a few piles; :class:`ViewEncoder` keeps the msgpack encoding of every pile
with a copy of the cards it shows, encodes again only the piles whose cards differ, and
joins the parts. The result decodes to exactly ``game.view()`` (the test
``tests/app/test_views.py`` plays every game at random and compares); a game class that
defines its own ``view()`` is encoded from it, uncached.

>>> import msgpack
>>> from server.engine import new_game
>>> game = new_game("gate", seed=1234)
>>> views = ViewEncoder(game)
>>> game.play("deal").text
'deal'
>>> msgpack.unpackb(views.encode()) == game.view()
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

import msgpack

from server.engine import Game
from server.engine.cards import CODE
from server.protocol.codec import Encoded, array_header, map_header, pack_str, pack_uint

# (Final: the compiled module keeps each in a C variable of its own instead of looking
# it up in the module's dictionary every time)
_packb: Final[Callable[[Any], bytes]] = msgpack.Packer(use_bin_type=True).pack

#: every card's code, msgpack-encoded
_CODES: Final = [_packb(code) for code in CODE]
_DOWN: Final = _packb("down")
_DOWN_NONE: Final = _DOWN + _packb(0)
_EMPTY: Final = array_header(0)
_ARRAYS: Final = [array_header(n) for n in range(16)]
#: the view's fields after its piles, as keys encoded
_TAIL: Final = ("status", "home", "total", "moves", "can_undo")
_STATUS: Final = _packb("status")
_HOME: Final = _packb("home")
_TOTAL: Final = _packb("total")
_MOVES: Final = _packb("moves")
_CAN_UNDO: Final = _packb("can_undo")
_TRUE: Final = _packb(True)
_FALSE: Final = _packb(False)
#: each status a view can have, encoded
_STATUSES: Final = {status: pack_str(status) for status in ("playing", "won", "lost")}


class _Layout:
    """What a game class's encoded views share: each pile's encoding up to its cards
    (the pile's fixed fields, then the ``cards`` key), and the start of the view."""

    __slots__ = ("every_pile", "heads", "hidden", "own_view", "prefix")

    def __init__(self, cls: type[Game]) -> None:
        self.heads = [
            map_header(len(template) + 2)
            + b"".join(_packb(k) + _packb(v) for k, v in template.items())
            + _packb("cards")
            for template in cls._TEMPLATES
        ]
        for template in cls._TEMPLATES:
            assert "cards" not in template and "down" not in template
        self.prefix = _packb("game") + _packb(cls.id) + _packb("piles")
        #: whether each pile is face down (shows only how many cards it holds)
        self.hidden = [i in cls.HIDDEN for i in range(len(cls.PILES))]
        #: the class makes its own view (encoded from it, uncached); it shows every pile
        self.own_view = cls.view is not Game.view
        self.every_pile = cls._shown is Game._shown


_LAYOUTS: Final[dict[type[Game], _Layout]] = {}


class ViewEncoder:
    __slots__ = (
        "_heads",
        "_hidden",
        "_indexes",
        "_layout",
        "_parts",
        "_piles_head",
        "_position",
        "_prefix",
        "_shown",
        "_snap",
        "game",
    )

    def __init__(self, game: Game) -> None:
        self.game = game
        cls = type(game)
        layout = _LAYOUTS.get(cls)
        if layout is None:
            layout = _LAYOUTS[cls] = _Layout(cls)
        self._layout = layout
        self._heads = layout.heads
        self._hidden = layout.hidden
        self._prefix = layout.prefix
        #: per pile: a copy of the cards its encoding shows (None: not encoded yet)
        self._snap: list[list[int] | None] = [None] * len(game.PILES)
        #: the piles shown, in order (None: every pile), their encodings in that order,
        #: and each pile's place in that list
        self._shown: tuple[int, ...] | None = None
        self._indexes: list[int] = []
        self._parts: list[bytes] = []
        self._position: list[int] = []
        #: the header of the list of piles shown (its length changes with the layout)
        self._piles_head = b""

    def _pile(self, i: int, cards: list[int]) -> bytes:
        """A pile's encoding: as ``msgpack.packb({**template, "cards": [...], "down": n})``."""
        self._snap[i] = cards.copy()
        if self._hidden[i]:
            return self._heads[i] + _EMPTY + _DOWN + _packb(len(cards))
        codes = _CODES
        n = len(cards)
        out = [self._heads[i], _ARRAYS[n] if n < 16 else array_header(n)]
        for c in cards:
            out.append(codes[c])
        out.append(_DOWN_NONE)
        return b"".join(out)

    def encode(self) -> Encoded:
        """``game.view()``, msgpack-encoded."""
        return Encoded(self.encode_bytes())

    def encode_bytes(self) -> bytes:
        """:meth:`encode` as plain bytes."""
        out: list[bytes] = []
        self.encode_into(out)
        return b"".join(out)

    def encode_into(self, out: list[bytes]) -> None:
        """:meth:`encode`'s parts, appended to ``out``: the move path joins them into its
        reply with the fields around them, the view's bytes copied once."""
        game = self.game
        layout = self._layout
        if layout.own_view:
            out.append(_packb(game.view()))
            return
        piles = game.p
        shown = None if layout.every_pile else tuple(game._shown())
        parts = self._parts
        if not parts or shown != self._shown:
            # the first time, or rows dealt: lay out the list of piles again
            old = dict(zip(self._indexes, parts, strict=True))
            self._shown = shown
            self._indexes = list(range(len(piles)) if shown is None else shown)
            position = self._position = [-1] * len(piles)
            for n, i in enumerate(self._indexes):
                position[i] = n
            snap = self._snap
            parts[:] = [
                old[i] if i in old and snap[i] == piles[i] else self._pile(i, piles[i])
                for i in self._indexes
            ]
            self._piles_head = array_header(len(parts))
        else:
            snap = self._snap
            position = self._position
            for i in [i for i in self._indexes if snap[i] != piles[i]]:
                parts[position[i]] = self._pile(i, piles[i])
        extra = game._view_extra()
        out.append(map_header(2 + len(_TAIL) + len(extra)))
        out.append(self._prefix)
        out.append(self._piles_head)
        out.extend(parts)
        out.append(_STATUS)
        out.append(_STATUSES[game.status])
        out.append(_HOME)
        out.append(pack_uint(game.cards_home()))
        out.append(_TOTAL)
        out.append(pack_uint(game.total))
        out.append(_MOVES)
        out.append(pack_uint(game.moves))
        out.append(_CAN_UNDO)
        out.append(_TRUE if game.can_undo() else _FALSE)
        for key, value in extra.items():
            assert key not in _TAIL, f"{type(game).__name__}._view_extra() names {key!r}"
            out.append(_packb(key))
            out.append(_packb(value))
