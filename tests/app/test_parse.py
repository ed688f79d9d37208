"""Requests as the server reads them: the ``move`` request's fast path reads exactly what
the general one does; frames are decoded within bounds every request fits in."""

from __future__ import annotations

import tracemalloc
from typing import Any

import msgpack
import pytest

from server.protocol import ErrorCode, FrameError, ProtocolError, decode, parse_request
from server.protocol.fastpath import move_fields
from server.protocol.messages import MAX_ID, REQUESTS, Move, Request

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


#: 3 KB of nested array headers, each claiming 3,000 items: msgpack sets aside room for
#: what a header claims before reading the items, 24 MB for these
CLAIMING = b"\xdc\x0b\xb8" * 1000


def test_a_frame_claiming_huge_arrays_is_refused_before_room_is_made_for_them() -> None:
    tracemalloc.start()
    try:
        with pytest.raises(FrameError):
            decode(CLAIMING)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, peak


def _longest(cls: type[Request]) -> dict[str, Any]:
    """``cls``'s request with every field at its largest: texts of four-byte characters."""
    raw: dict[str, Any] = {"type": cls.TYPE, "id": MAX_ID}
    for name, spec in cls.FIELDS.items():
        if spec.kind is str:
            raw[name] = "\U0001d11e" * spec.max_len
        elif spec.kind is int:
            raw[name] = spec.high
        else:
            raw[name] = True
    return raw


@pytest.mark.parametrize("cls", REQUESTS.values(), ids=lambda cls: cls.TYPE)
def test_every_request_at_its_largest_decodes(cls: type[Request]) -> None:
    raw = _longest(cls)
    frame = msgpack.packb(raw)
    assert decode(frame) == raw
    parse_request(raw)  # and is a valid request


@pytest.mark.parametrize(
    "bad",
    [b"", b"\x82\xa4type", msgpack.packb({"id": 1}) + b"\x01", b"\xc1", CLAIMING, "text"],
    ids=["empty", "cut short", "trailing", "never used", "claiming", "text"],
)
def test_a_frame_that_cannot_be_read_leaves_nothing_behind(bad: bytes | str) -> None:
    """Frames are read one at a time by one reader: after one it refuses, the next frame
    reads as it would alone."""
    good = {"type": "move", "id": 7, "move": "t1>b2"}
    assert decode(msgpack.packb(good)) == good
    with pytest.raises(FrameError):
        decode(bad)
    assert decode(msgpack.packb(good)) == good
    assert decode(msgpack.packb(good) + b"") == good


def test_a_value_past_the_bounds_is_said_so() -> None:
    """A frame of good msgpack with a text past the bounds was refused as "not a msgpack
    frame (ValueError)", which sent a client's author looking for an encoding fault."""
    with pytest.raises(FrameError) as long_text:
        decode(msgpack.packb({"type": "review", "id": 1, "game": "x" * 1000}))
    assert str(long_text.value) == (
        "a value past the decoding bounds (1000 exceeds max_str_len(512)): at most 512"
        " bytes a text, binary or extension value, 32 items an array or map"
    )
    with pytest.raises(FrameError) as many:
        decode(msgpack.packb({"type": "x", "id": 1, "list": list(range(40))}))
    assert "(40 exceeds max_array_len(32))" in str(many.value)
    with pytest.raises(FrameError) as garbage:
        decode(b"\xc1")
    assert str(garbage.value) == "not a msgpack frame (FormatError)"
