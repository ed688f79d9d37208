"""The ``move`` request as the move path reads it: its id, move and game checked by hand,
as :func:`~server.protocol.messages.parse_request` checks every field, without the
:class:`~server.protocol.messages.Move` record (which it is made from when the fields
pass). Compiled with the move path (``server/native.py``): every move's frame is read
through here. It holds the bounds the two share.

>>> move_fields({"type": "move", "id": 3, "move": "deal", "game": "ab12"})
(3, 'deal', 'ab12')
>>> move_fields({"type": "move", "id": 3, "move": 7}) is None
True
"""

from __future__ import annotations

from typing import Any, Final

#: the most characters a text field has unless its spec says otherwise (a move's and its
#: game's among them), and the largest request id
MAX_TEXT: Final = 64
MAX_ID: Final = 2**53


def move_fields(raw: dict[str, Any]) -> tuple[int, str, str | None] | None:
    """A ``move`` request's id, move and game; None when it is anything else or not that
    simple (then :func:`~server.protocol.messages.parse_request` says what is wrong)."""
    kind: object = raw.get("type")
    request_id: object = raw.get("id")
    move: object = raw.get("move")
    game: object = raw.get("game")
    # (``type(x) is``: a bool is no id, and a subclass of str no text, here as there; no
    # field but these four: counted, cheaper than comparing the keys with a set)
    if (
        type(kind) is str
        and kind == "move"
        and type(request_id) is int
        and 0 <= request_id <= MAX_ID
        and type(move) is str
        and len(move) <= MAX_TEXT
        and len(raw) == (4 if "game" in raw else 3)
    ):
        if game is None:
            return request_id, move, None
        if type(game) is str and len(game) <= MAX_TEXT:
            return request_id, move, game
    return None
