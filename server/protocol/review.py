"""The request for a finished game's review (``docs/protocol.md``, "review"): a record
as :mod:`.messages`'s, listed in its request table."""

from __future__ import annotations

from dataclasses import dataclass

from .fields import Field, Request


@dataclass(frozen=True, slots=True)
class Review(Request):
    """Where a finished game was lost (the last position a player who knew the stock
    could still win from, the move played there and one that kept the win), or how many
    moves over par it was won; ``game``: its id, as its replay's."""

    TYPE = "review"
    FIELDS = {"game": Field(str, required=True, max_len=32)}
    game: str = ""


REVIEW_REQUESTS = (Review,)
