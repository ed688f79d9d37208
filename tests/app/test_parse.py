"""Requests as the server reads them: the ``move`` request's fast path reads exactly what
the general one does."""

from __future__ import annotations

from typing import Any

import pytest

from server.protocol import ErrorCode, ProtocolError, parse_request
from server.protocol.messages import Move, move_fields

MOVES: list[dict[str, Any]] = [
    {"type": "move", "id": 1, "move": "t1>b2"},
    {"type": "move", "id": 2, "move": "deal", "game": "0123456789abcdef"},
    {"type": "move", "id": 3, "move": "", "game": None},
    {"type": "move", "id": 4, "move": "x" * 200},
    {"type": "move", "id": 5, "move": "x" * 5000},
    {"type": "move", "id": 6, "move": 7},
    {"type": "move", "id": 7, "move": "t1>b2", "game": 12},
    {"type": "move", "id": 8, "move": "t1>b2", "game": "g" * 5000},
    {"type": "move", "id": 9},
    {"type": "move", "id": 10, "move": ["t1>b2"]},
    {"type": "move", "id": 2**60, "move": "deal"},
    {"type": "move", "id": True, "move": "deal"},
]


def read(raw: dict[str, Any]) -> object:
    try:
        return parse_request(raw)
    except ProtocolError as exc:
        return (exc.code, exc.message, exc.request_id)


@pytest.mark.parametrize("raw", MOVES, ids=lambda raw: str(raw.get("id")))
def test_the_fast_path_reads_a_move_as_the_general_path_does(raw: dict[str, Any]) -> None:
    # an unknown field (ignored) sends a request down the general path
    assert read(raw) == read({**raw, "unknown": 1})


def test_a_move_with_a_deeply_nested_unknown_field_is_refused() -> None:
    nested: Any = 1
    for _ in range(20):
        nested = [nested]
    code = read({"type": "move", "id": 1, "move": "deal", "extra": nested})
    assert isinstance(code, tuple) and code[0] == ErrorCode.BAD_REQUEST


@pytest.mark.parametrize("raw", MOVES, ids=lambda raw: str(raw.get("id")))
def test_the_move_paths_fields_are_the_requests(raw: dict[str, Any]) -> None:
    fields = move_fields(raw)
    if fields is not None:
        assert parse_request(raw) == Move(id=fields[0], move=fields[1], game=fields[2])
    else:  # refused, by the general path
        assert isinstance(read(raw), tuple)
