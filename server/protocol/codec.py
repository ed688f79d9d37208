"""Frames: one msgpack map per websocket binary message.

>>> decode(encode({"type": "hello", "id": 1, "protocol": 1}))
{'type': 'hello', 'id': 1, 'protocol': 1}
"""

from __future__ import annotations

from typing import Any

import msgpack

#: nesting deeper than this in a request is refused (requests are flat maps)
MAX_DEPTH = 8


class FrameError(ValueError):
    """A frame that cannot be decoded: a text frame, or bytes that are not one msgpack
    value. The server closes the connection (1003)."""


def encode(message: dict[str, Any]) -> bytes:
    data: bytes = msgpack.packb(message, use_bin_type=True)
    return data


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
