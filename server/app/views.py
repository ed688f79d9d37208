"""A game's view kept encoded between moves: the ``view`` of every ``moved`` and ``undone``
reply, without building it afresh as a tree of dicts and encoding it whole each time.

A move changes a few piles; :class:`ViewEncoder` keeps the msgpack encoding of every pile
with a copy of the cards it shows, encodes again only the piles whose cards differ, and
joins the parts. The result decodes to exactly ``game.view()`` (the test
``tests/app/test_views.py`` plays every game at random and compares); a game class that
defines its own ``view()`` is encoded from it, uncached.

>>> from server.engine import new_game
>>> from server.protocol import decode
>>> game = new_game("gate", seed=1234)
>>> views = ViewEncoder(game)
>>> game.play("deal").text
'deal'
>>> decode(views.encode()) == game.view()
True
"""

from __future__ import annotations

import msgpack

from server.engine import Game
from server.engine.cards import CODE
from server.protocol.codec import Encoded, array_header, map_header

_packb = msgpack.Packer(use_bin_type=True).pack


class ViewEncoder:
    __slots__ = ("_indexes", "_parts", "_position", "_shown", "_snap", "game")

    def __init__(self, game: Game) -> None:
        self.game = game
        #: per pile: a copy of the cards its encoding shows (None: not encoded yet)
        self._snap: list[list[int] | None] = [None] * len(game.PILES)
        #: the piles shown, in order (None: every pile), their encodings in that order,
        #: and each pile's place in that list
        self._shown: tuple[int, ...] | None = None
        self._indexes: list[int] = []
        self._parts: list[bytes] = []
        self._position: dict[int, int] = {}

    def _pile(self, i: int, cards: list[int]) -> bytes:
        game = self.game
        self._snap[i] = cards.copy()
        if i in game.HIDDEN:
            return _packb({**game._TEMPLATES[i], "cards": [], "down": len(cards)})
        return _packb({**game._TEMPLATES[i], "cards": [CODE[c] for c in cards], "down": 0})

    def encode(self) -> Encoded:
        """``game.view()``, msgpack-encoded."""
        game = self.game
        cls = type(game)
        if cls.view is not Game.view:
            return Encoded(_packb(game.view()))
        piles = game.p
        shown = None if cls._shown is Game._shown else tuple(game._shown())
        parts = self._parts
        if not parts or shown != self._shown:
            # the first time, or rows dealt: lay out the list of piles again
            old = dict(zip(self._indexes, parts, strict=True))
            self._shown = shown
            self._indexes = list(range(len(piles)) if shown is None else shown)
            self._position = {i: n for n, i in enumerate(self._indexes)}
            snap = self._snap
            parts[:] = [
                old[i] if i in old and snap[i] == piles[i] else self._pile(i, piles[i])
                for i in self._indexes
            ]
        else:
            snap = self._snap
            position = self._position
            for i in [i for i in self._indexes if snap[i] != piles[i]]:
                parts[position[i]] = self._pile(i, piles[i])
        home, total = game.progress
        tail = {
            "status": game.status,
            "home": home,
            "total": total,
            "moves": game.moves,
            "can_undo": game.can_undo(),
        }
        tail.update(game._view_extra())
        body = _packb(tail)
        return Encoded(
            b"".join(
                (
                    map_header(2 + len(tail)),
                    _packb("game"),
                    _packb(game.id),
                    _packb("piles"),
                    array_header(len(parts)),
                    *parts,
                    body[len(map_header(len(tail))) :],
                )
            )
        )
