"""Frames: one msgpack map per websocket binary message.

>>> decode(encode({"type": "hello", "id": 1, "protocol": 1}))
{'type': 'hello', 'id': 1, 'protocol': 1}
"""

from __future__ import annotations

from typing import Any, Final

import msgpack

from .encoded import Encoded as Encoded

#: nesting deeper than this in a request is refused (requests are flat maps)
MAX_DEPTH: Final = 8

#: the most items an array or a map in a frame may claim: the largest request has 7
#: fields, and none has a list; room for fields a newer client adds. msgpack sets aside
#: room for the items a header claims before it reads them, so without a bound a 3 KB
#: frame of nested headers each claiming thousands of items makes it allocate 24 MB
MAX_ITEMS: Final = 32
#: the most bytes a text (or a binary or extension value) in a frame may have: the longest
#: text field, ``token``, is 128 characters, 512 bytes of UTF-8 at most
MAX_BYTES: Final = 512

#: one packer for every frame: ``msgpack.packb`` builds a packer per call, which costs
#: more than packing a small message (the server is single-threaded)
_pack: Final = msgpack.Packer(use_bin_type=True).pack


class FrameError(ValueError):
    """A frame that cannot be decoded: a text frame, bytes that are not one msgpack value,
    or a value past the bounds (``MAX_ITEMS``, ``MAX_BYTES``). The server answers it
    ``bad_request`` with no id, and the connection carries on."""


#: the headers of small maps and arrays, and the encodings of short texts' lengths and
#: of small whole numbers, made once (Final, as every table here: compiled, each is a C
#: variable of its own, not a lookup in the module's dictionary a call)
_FIXMAP: Final = [bytes((0x80 | n,)) for n in range(16)]
_FIXARRAY: Final = [bytes((0x90 | n,)) for n in range(16)]
_FIXSTR: Final = [bytes((0xA0 | n,)) for n in range(32)]
_FIXINT: Final = [bytes((n,)) for n in range(128)]


def map_header(size: int) -> bytes:
    """The msgpack header of a map of ``size`` entries."""
    if size < 16:
        return _FIXMAP[size]
    if size < 1 << 16:
        return b"\xde" + size.to_bytes(2, "big")
    return b"\xdf" + size.to_bytes(4, "big")


def array_header(size: int) -> bytes:
    """The msgpack header of an array of ``size`` items."""
    if size < 16:
        return _FIXARRAY[size]
    if size < 1 << 16:
        return b"\xdc" + size.to_bytes(2, "big")
    return b"\xdd" + size.to_bytes(4, "big")


def pack_str(text: str) -> bytes:
    """A text as msgpack, as ``msgpack.packb`` packs it (the move path's replies are
    packed by hand, without a call into msgpack a field).

    >>> pack_str("deal") == msgpack.packb("deal") and pack_str("é" * 40) == msgpack.packb("é" * 40)
    True
    """
    data = text.encode()
    size = len(data)
    if size < 32:
        return _FIXSTR[size] + data
    if size < 256:
        return b"\xd9" + bytes((size,)) + data
    if size < 1 << 16:
        return b"\xda" + size.to_bytes(2, "big") + data
    return b"\xdb" + size.to_bytes(4, "big") + data


def pack_uint(number: int) -> bytes:
    """A whole number from 0 to 2**64 - 1 as msgpack, as ``msgpack.packb`` packs it.

    >>> all(pack_uint(n) == msgpack.packb(n) for n in (0, 127, 128, 255, 256, 2**16, 2**53))
    True
    """
    if number < 128:
        return _FIXINT[number]
    if number < 256:
        return b"\xcc" + bytes((number,))
    if number < 1 << 16:
        return b"\xcd" + number.to_bytes(2, "big")
    if number < 1 << 32:
        return b"\xce" + number.to_bytes(4, "big")
    return b"\xcf" + number.to_bytes(8, "big")


def encode(message: dict[str, Any]) -> bytes:
    for value in message.values():
        if value.__class__ is Encoded:
            return _splice(message)
    data: bytes = _pack(message)
    return data


#: field names, encoded (the protocol's names are few; a bound all the same)
_KEYS: Final[dict[str, bytes]] = {}


def _splice(message: dict[str, Any]) -> bytes:
    pack = _pack
    keys = _KEYS
    parts = [map_header(len(message))]
    for key, value in message.items():
        packed = keys.get(key)
        if packed is None:
            packed = pack(key)
            if len(keys) < 512:
                keys[key] = packed
        parts.append(packed)
        parts.append(value if value.__class__ is Encoded else pack(value))
    return b"".join(parts)


def _depth(value: Any, level: int = 0) -> int:
    if level > MAX_DEPTH:
        return level
    if isinstance(value, dict):
        return max((_depth(v, level + 1) for v in value.values()), default=level + 1)
    if isinstance(value, list):
        return max((_depth(v, level + 1) for v in value), default=level + 1)
    return level


def too_deep(value: Any) -> bool:
    """Whether a decoded value nests deeper than ``MAX_DEPTH``."""
    return _depth(value) > MAX_DEPTH


def _reader() -> Any:
    return msgpack.Unpacker(
        raw=False,
        strict_map_key=False,
        max_array_len=MAX_ITEMS,
        max_map_len=MAX_ITEMS,
        max_str_len=MAX_BYTES,
        max_bin_len=MAX_BYTES,
        max_ext_len=MAX_BYTES,
        # (its buffer starts this small, 1 MiB by default, and grows to the largest frame)
        read_size=4096,
    )


class _Reader:
    """One reader for every frame: ``msgpack.unpackb`` builds one per call and parses its
    bounds as keywords each time, a third of what decoding a request costs; it is made
    afresh after a frame it could not read, so nothing of that frame stays in it. Kept,
    with the bytes it has been fed, on one object (Final: compiled, its fields are read
    directly, where module globals rebound a frame are dictionary lookups)."""

    def __init__(self) -> None:
        self.unpacker = _reader()
        self.fed = 0


_READ: Final = _Reader()


def decode(frame: bytes | str) -> Any:
    """A frame to its value. Raises :class:`FrameError` for a text frame, bytes that are not
    msgpack, trailing bytes, or an array or map of more than ``MAX_ITEMS`` items or a
    text, binary or extension value of more than ``MAX_BYTES`` bytes anywhere in it.
    Whether the value is a valid request is for
    :func:`~server.protocol.messages.parse_request` to say."""
    # (a tuple of types: compiled, two type checks, where ``bytes | bytearray`` is a union
    # made a call)
    if not isinstance(frame, (bytes, bytearray)):
        raise FrameError("frames are binary msgpack, not text")
    read = _READ
    reader = read.unpacker
    try:
        reader.feed(frame)
        value = reader.unpack()
        read.fed += len(frame)
        if reader.tell() != read.fed:  # where the reader stands in all it was fed
            raise msgpack.ExtraData(value, b"")
        return value
    except Exception as exc:  # msgpack raises several unrelated types
        read.unpacker, read.fed = _reader(), 0
        raise FrameError(_why(exc)) from None


def _why(exc: Exception) -> str:
    """Why a frame could not be read, in words: past the bounds (msgpack says so with a
    plain ``ValueError``, "N exceeds max_str_len(512)"), or not msgpack."""
    if type(exc) is ValueError and "exceeds max_" in str(exc):
        return (
            f"a value past the decoding bounds ({exc}): at most {MAX_BYTES} bytes a text,"
            f" binary or extension value, {MAX_ITEMS} items an array or map"
        )
    return f"not a msgpack frame ({type(exc).__name__})"
