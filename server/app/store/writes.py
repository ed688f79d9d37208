"""A write on its way through the group commit (``commit.py``) and what its writer hears:
the write as queued (:class:`Queued`), a batch with Redis (:class:`Batch`), and the
outcome told (:func:`settle`). Compiled with the move path (``server/native.py``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .packing import Commands

log = logging.getLogger("patience.store")


class Fenced(Exception):
    """An append refused: another process has taken the game since (its fence moved)."""


Write = Callable[[Commands], None]
#: told of a write's outcome once Redis has answered it: None, or the error
Done = Callable[["BaseException | None"], None]


class Queued:
    """A write on its way: its commands (a :data:`Write`, or one command packed), who
    hears of it, whether it was sent again already (once only, after ``NOSCRIPT``), and
    whether its waiter is handed the command's reply (:meth:`.commit.GroupCommit.ask`)."""

    def __init__(
        self, write: Write | bytes, waiter: asyncio.Future[Any] | Done, asks: bool = False
    ) -> None:
        self.write = write
        self.waiter = waiter
        self.resent = False
        self.asks = asks


class Batch:
    """A batch with Redis: its writes, where each one's commands end among its replies,
    how many replies it has, and when it was sent (loop time)."""

    __slots__ = ("count", "ends", "sent", "writes")

    def __init__(self, writes: list[Queued], ends: list[int], count: int) -> None:
        self.writes = writes
        self.ends = ends
        self.count = count
        self.sent = 0.0


def outcome_unknown(exc: BaseException) -> bool:
    """Whether a failed write may have been run by Redis all the same: the connection
    failed (or timed out) after it was sent, rather than Redis refusing it."""
    return isinstance(exc, RedisConnectionError | RedisTimeoutError | OSError)


def settle(waiter: asyncio.Future[Any] | Done, error: BaseException | None) -> None:
    """Tell a writer its outcome; a callback's own failure is logged, never raised into
    the group commit (it would fail the other writers of the batch)."""
    if isinstance(waiter, asyncio.Future):
        if waiter.done():
            return
        if error is None:
            waiter.set_result(None)
        else:
            waiter.set_exception(error)
        return
    try:
        waiter(error)
    except Exception:
        log.exception("a write's callback failed")
