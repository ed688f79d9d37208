"""What a group commit's write sends: its commands as the write adds them
(:class:`Commands`), and the move path's log append packed by hand (RESP) from a head
kept per game (the script, the game's keys and this process's fencing token do not
change between moves, so only the entry is packed a move). Compiled with the move path
(``server/native.py``)."""

from __future__ import annotations

from typing import Any

from .keys import fence_key, log_key
from .scripts import FENCED_APPEND


class Commands:
    """The commands of one group-commit batch, as a write adds them (the names of a redis-py
    pipeline's methods, for the few commands the log needs)."""

    __slots__ = ("args",)

    def __init__(self) -> None:
        #: each command's arguments, or a command already packed (``submit_packed``)
        self.args: list[tuple[Any, ...] | bytes] = []

    def __len__(self) -> int:
        return len(self.args)

    def execute_command(self, *args: Any) -> None:
        self.args.append(args)

    def rpush(self, key: str, *values: Any) -> None:
        self.args.append(("RPUSH", key, *values))

    def expire(self, key: str, seconds: int) -> None:
        self.args.append(("EXPIRE", key, seconds))

    def append_fenced(self, gid: str, token: int, entry: str) -> None:
        """Append ``entry`` to the game's log only while ``token`` is still its fence
        (:data:`~.scripts.FENCED_APPEND`; packed by hand: :func:`.packing.append_head`)."""
        self.args.append(FENCED_APPEND.command([fence_key(gid), log_key(gid)], [token, entry]))


_SHA = FENCED_APPEND.sha.encode()


def _bulk(data: bytes) -> bytes:
    return b"".join((b"$", str(len(data)).encode(), b"\r\n", data, b"\r\n"))


def append_head(gid: str, token: int) -> bytes:
    r"""The fenced append's command for one game and token, packed (RESP) up to its last
    argument, the entry: as ``hiredis.pack_command`` packs :meth:`Commands.append_fenced`.
    The move path keeps one a game (the script, the game's keys and this process's
    fencing token do not change between moves) and sends each entry with
    :func:`packed_append` (:meth:`.commit.GroupCommit.submit_packed`).

    >>> command = packed_append(append_head("ab12", 7), "1700000000000 deal")
    >>> command[:17]
    b'*7\r\n$7\r\nEVALSHA\r\n'
    >>> command[-51:]
    b'$12\r\ng:{ab12}:log\r\n$1\r\n7\r\n$18\r\n1700000000000 deal\r\n'
    """
    args = (
        b"EVALSHA",
        _SHA,
        b"2",
        fence_key(gid).encode(),
        log_key(gid).encode(),
        str(token).encode(),
    )
    return b"".join([b"*7\r\n", *[_bulk(arg) for arg in args]])


def packed_append(head: bytes, entry: str) -> bytes:
    """The whole command: ``head`` (:func:`append_head`) and the entry."""
    return head + _bulk(entry.encode())
