"""Frames: one msgpack map per websocket binary message.

>>> decode(encode({"type": "hello", "id": 1, "protocol": 1}))
{'type': 'hello', 'id': 1, 'protocol': 1}
"""

from __future__ import annotations

from typing import Any

import msgpack

from .encoded import Encoded as Encoded

#: nesting deeper than this in a request is refused (requests are flat maps)
MAX_DEPTH = 8

#: one packer for every frame: ``msgpack.packb`` builds a packer per call, which costs
#: more than packing a small message (the server is single-threaded)
_pack = msgpack.Packer(use_bin_type=True).pack


class FrameError(ValueError):
    """A frame that cannot be decoded: a text frame, or bytes that are not one msgpack
    value. The server closes the connection (1003)."""


def map_header(size: int) -> bytes:
    """The msgpack header of a map of ``size`` entries."""
    if size < 16:
        return bytes((0x80 | size,))
    if size < 1 << 16:
        return b"\xde" + size.to_bytes(2, "big")
    return b"\xdf" + size.to_bytes(4, "big")


def array_header(size: int) -> bytes:
    """The msgpack header of an array of ``size`` items."""
    if size < 16:
        return bytes((0x90 | size,))
    if size < 1 << 16:
        return b"\xdc" + size.to_bytes(2, "big")
    return b"\xdd" + size.to_bytes(4, "big")


def encode(message: dict[str, Any]) -> bytes:
    for value in message.values():
        if value.__class__ is Encoded:
            return _splice(message)
    data: bytes = _pack(message)
    return data


#: field names, encoded (the protocol's names are few; a bound all the same)
_KEYS: dict[str, bytes] = {}


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


def decode(frame: bytes | str) -> Any:
    """A frame to its value. Raises :class:`FrameError` for a text frame, bytes that are not
    msgpack, or trailing bytes. Whether the value is a valid request is for
    :func:`~server.protocol.messages.parse_request` to say."""
    if not isinstance(frame, bytes | bytearray):
        raise FrameError("frames are binary msgpack, not text")
    try:
        return msgpack.unpackb(frame, raw=False, strict_map_key=False, use_list=True)
    except Exception as exc:  # msgpack raises several unrelated types
        raise FrameError(f"not a msgpack frame ({type(exc).__name__})") from None
