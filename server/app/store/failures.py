"""Logging failures without flooding the log while Redis is away.

While Redis is down or restarting, every request, timer and housekeeping pass that needs
it fails the same way, many times a second. A :class:`FailureLog` writes one line a kind
of failure every few seconds for those (with how many it left out since its last line),
and a line with the traceback, every time, for anything else (a fault in the server).

>>> import logging
>>> seen = []
>>> class Keep(logging.Handler):
...     def emit(self, record): seen.append(record.getMessage())
>>> logger = logging.getLogger("doctest.failures")
>>> logger.addHandler(Keep()); logger.propagate = False
>>> clock = iter([0.0, 1.0, 2.0, 6.0]).__next__
>>> failures = FailureLog(logger, every=5.0, clock=clock)
>>> for _ in range(4):
...     failures.failed("room timer", ConnectionError("Connection refused"))
>>> seen
['room timer failed: redis unavailable (ConnectionError: Connection refused)', \
'room timer failed: redis unavailable (ConnectionError: Connection refused); 2 more since']
"""

from __future__ import annotations

import errno
import logging
import time
from collections.abc import Callable
from typing import Any

from redis.exceptions import (
    AuthenticationError,
    RedisClusterException,
    RedisError,
    ResponseError,
)

#: what an unreachable, restarting or loading Redis raises: redis-py's own errors, the
#: socket's, and a wait for an answer that ran out
UNAVAILABLE = (RedisError, RedisClusterException, OSError, TimeoutError)

#: the errors of this process's own files and resources, which no Redis raises: an
#: ``OSError`` with one of these is a fault to fix here (a read-only root file system
#: with no writable temporary directory, a full disk, no descriptors left), not Redis away
LOCAL_ERRNOS = frozenset(
    (
        errno.ENOENT,
        errno.EACCES,
        errno.EPERM,
        errno.EROFS,
        errno.ENOSPC,
        errno.EDQUOT,
        errno.EEXIST,
        errno.EISDIR,
        errno.ENOTDIR,
        errno.ENOTEMPTY,
        errno.ENAMETOOLONG,
        errno.ELOOP,
        errno.EXDEV,
        errno.EFBIG,
        errno.ETXTBSY,
        errno.EMFILE,
        errno.ENFILE,
        errno.ENOMEM,
    )
)


#: what a request that failed for want of Redis answers (code ``internal_error``): what
#: happened and what to do, where "could not handle this request" left a player wondering
#: whether their move counted (docs/protocol.md, ``internal_error``)
STORE_AWAY = (
    "the server cannot reach its database just now: try again in a moment (once it is"
    " back, the game shows as it stands)"
)
#: what any other failed request answers
FAULT = "the server could not handle this request (it is logged)"


def failure_text(exc: BaseException) -> str:
    """The message of the ``internal_error`` a request that raised ``exc`` answers."""
    return STORE_AWAY if unavailable(exc) and not isinstance(exc, ResponseError) else FAULT


def redis_error(exc: BaseException) -> bool:
    """Whether ``exc`` is one of redis-py's own errors (the client's, not the OS's)."""
    return isinstance(exc, RedisError | RedisClusterException)


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` is Redis being away, as opposed to a fault of the server: an
    ``OSError`` of this process's own files or resources (:data:`LOCAL_ERRNOS`) is a
    fault, whatever needed the file."""
    if isinstance(exc, OSError) and exc.errno in LOCAL_ERRNOS:
        return False
    return isinstance(exc, UNAVAILABLE)


class FailureLog:
    """One line a kind of failure every ``every`` seconds while Redis is unavailable."""

    def __init__(
        self,
        logger: logging.Logger,
        every: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.log = logger
        self.every = every
        self.clock = clock
        #: kind -> (when its last line was written, failures left out since)
        self._kinds: dict[str, tuple[float, int]] = {}

    def failed(self, kind: str, exc: BaseException, **extra: Any) -> None:
        """Log that ``kind`` (``"request"``, ``"room timer"``...) failed with ``exc``."""
        if not unavailable(exc):
            self.log.error("%s failed", kind, exc_info=exc, extra=extra)
            return
        now = self.clock()
        last = self._kinds.get(kind)
        if last is not None and now - last[0] < self.every:
            self._kinds[kind] = (last[0], last[1] + 1)
            return
        more = f"; {last[1]} more since" if last is not None and last[1] else ""
        self._kinds[kind] = (now, 0)
        self.log.warning(
            "%s failed: redis unavailable (%s: %s)%s",
            kind,
            type(exc).__name__,
            str(exc).splitlines()[0] if str(exc) else "",
            more,
            extra=extra,
        )


def wrong_password(exc: BaseException) -> bool:
    """Whether Redis refused the URL's user or password (``AUTH``): not an outage.

    >>> wrong_password(AuthenticationError("invalid username-password pair"))
    True
    >>> wrong_password(ConnectionError("refused"))
    False
    """
    return isinstance(exc, AuthenticationError)
