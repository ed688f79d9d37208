"""The base of every request record, and how one of its fields is checked
(:mod:`.messages` reads requests into these; the requests of one capability may live in a
module of their own, as :mod:`.groups`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .fastpath import MAX_TEXT


@dataclass(frozen=True)
class Field:
    """How one request field is checked: its type, whether required, and its bounds."""

    kind: type
    required: bool = False
    low: int | None = None
    high: int | None = None
    max_len: int = MAX_TEXT


@dataclass(frozen=True, slots=True)
class Request:
    """Base of every request record. ``id`` is echoed in the reply."""

    TYPE: ClassVar[str] = ""
    FIELDS: ClassVar[dict[str, Field]] = {}
    id: int
