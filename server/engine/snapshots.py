"""The bytes of a game snapshot (:meth:`server.engine.core.Game.snapshot`): its header
and the reader the game's ``_restore`` takes its piles and journal from.

A snapshot opens with ``PRS``, the format's version, the game id, the version of the
game's rules, whether it has a seed, the seed and the number of moves made.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import Any, Final

SNAPSHOT_MAGIC: Final = b"PRS"
SNAPSHOT_VERSION: Final = 2

Op = tuple[int, int, int]


def pack_ints(values: Sequence[int]) -> bytes:
    return struct.pack(f"<B{len(values)}i", len(values), *values)


class Reader:
    __slots__ = ("data", "pos")

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def take(self, n: int) -> bytes:
        end = self.pos + n
        if end > len(self.data):
            raise ValueError("snapshot is truncated")
        chunk = self.data[self.pos : end]
        self.pos = end
        return chunk

    def unpack(self, fmt: str) -> tuple[Any, ...]:
        return struct.unpack(fmt, self.take(struct.calcsize(fmt)))

    def u8(self) -> int:
        return int(self.unpack("<B")[0])

    def u16(self) -> int:
        return int(self.unpack("<H")[0])

    def ints(self) -> list[int]:
        n = self.u8()
        return list(self.unpack(f"<{n}i"))

    def op(self) -> Op:
        a, b, c = self.unpack("<BBB")
        return (a, b, c)

    def journal(self) -> list[tuple[str, tuple[int, ...], list[Op]]]:
        """The undoable moves :func:`pack_snapshot` wrote: each move's text, the counters
        before it and its transfers."""
        entries = []
        for _ in range(self.u16()):
            text = self.take(self.u8()).decode()
            counters = tuple(self.ints())
            entries.append((text, counters, [self.op() for _ in range(self.u16())]))
        return entries

    def done(self) -> bool:
        return self.pos == len(self.data)


def pack_snapshot(
    game_id: str,
    rules: int,
    seed: int | None,
    moves: int,
    counters: Sequence[int],
    piles: Sequence[Sequence[int]],
    undoable: Sequence[tuple[str, Sequence[int], Sequence[Op]]],
) -> bytes:
    """A game's snapshot: the header :func:`read_snapshot_header` reads, the counters, the
    piles, then each undoable move's text, the counters before it and its transfers."""
    gid = game_id.encode()
    out = bytearray(SNAPSHOT_MAGIC)
    out += struct.pack("<BB", SNAPSHOT_VERSION, len(gid)) + gid
    out += struct.pack("<H", rules)
    out += struct.pack("<?QI", seed is not None, seed or 0, moves)
    out += pack_ints(counters)
    out += struct.pack("<B", len(piles))
    for pile in piles:
        out += struct.pack("<B", len(pile)) + bytes(pile)
    out += struct.pack("<H", len(undoable))
    for text, before, ops in undoable:
        encoded = text.encode()
        out += struct.pack("<B", len(encoded)) + encoded
        out += pack_ints(before)
        out += struct.pack("<H", len(ops))
        for op in ops:
            out += struct.pack("<BBB", *op)
    return bytes(out)


def read_snapshot_header(data: bytes) -> tuple[str, int, Reader, int | None, int]:
    """The game id and rules version of a snapshot, and a reader positioned after its
    header (with the seed and the move count the header holds)."""
    if not isinstance(data, bytes | bytearray) or data[:3] != SNAPSHOT_MAGIC:
        raise ValueError("not a game snapshot")
    reader = Reader(bytes(data))
    reader.take(3)
    version = reader.u8()
    if version != SNAPSHOT_VERSION:
        raise ValueError(f"snapshot version {version} is not supported")
    game_id = reader.take(reader.u8()).decode()
    rules = reader.u16()
    has_seed, seed, moves = reader.unpack("<?QI")
    return game_id, rules, reader, (seed if has_seed else None), moves
