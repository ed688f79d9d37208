"""Values as Redis holds them: msgpack."""

from __future__ import annotations

from typing import Any

import msgpack


def pack(value: Any) -> bytes:
    data: bytes = msgpack.packb(value, use_bin_type=True)
    return data


def unpack(data: bytes | str) -> Any:
    """A value packed by :func:`pack`, as Redis gives it back (bytes: the server's clients
    never decode replies, whatever redis-py's types allow)."""
    if not isinstance(data, bytes):
        raise TypeError(f"a packed value is bytes, not {type(data).__name__}")
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


def text(value: bytes | str | bool) -> str:
    """A string Redis gives back (bytes: the server's clients never decode replies), as
    ``str``; redis-py's types also allow ``str``, and ``bool`` for ``SET ... GET``."""
    if isinstance(value, bytes):
        return value.decode()
    if isinstance(value, str):
        return value
    raise TypeError(f"a Redis string is bytes, not {type(value).__name__}")
