"""Values as Redis holds them: msgpack."""

from __future__ import annotations

from typing import Any

import msgpack


def pack(value: Any) -> bytes:
    data: bytes = msgpack.packb(value, use_bin_type=True)
    return data


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)
