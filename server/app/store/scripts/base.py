"""A Lua script as the store runs it (:class:`Script`), and how its errors are read;
the scripts themselves are in this package's other modules, one a capability."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from typing import Any

from redis.exceptions import NoScriptError, ResponseError

log = logging.getLogger("patience.store")


class Script:
    """A Lua script: its source, its SHA-1, and the names of its ``KEYS`` and ``ARGV``.

    The source's first lines name them as locals, in order (a script that takes none
    of one kind has no line for it); a key or argument named last may be left out of a
    call (its local is then ``nil``):

    >>> s = Script(("counter",), ("by",), '''
    ... local counter = KEYS[1]
    ... local by = ARGV[1]
    ... return redis.call('INCRBY', counter, by)
    ... ''')
    >>> s.sha == hashlib.sha1(s.source.encode()).hexdigest(), s.keys, s.args
    (True, ('counter',), ('by',))
    >>> Script(("a",), (), "return KEYS[1]")
    Traceback (most recent call last):
    ...
    ValueError: a script's first lines must be: local a = KEYS[1]
    """

    __slots__ = ("args", "keys", "sha", "source")

    def __init__(self, keys: tuple[str, ...], args: tuple[str, ...], source: str) -> None:
        #: the names of its KEYS and ARGV, as its locals name them
        self.keys = keys
        self.args = args
        self.source = source
        #: its SHA-1, hex: what ``EVALSHA`` runs it by
        self.sha = hashlib.sha1(source.encode()).hexdigest()
        head = [_locals(keys, "KEYS"), _locals(args, "ARGV")]
        head = [line for line in head if line]
        lines = [line.strip() for line in source.strip().splitlines()]
        if lines[: len(head)] != head:
            raise ValueError("a script's first lines must be: " + "; ".join(head))

    def command(self, keys: Sequence[Any], args: Sequence[Any]) -> tuple[Any, ...]:
        """The ``EVALSHA`` command running it on ``keys`` and ``args`` (as a group
        commit's write sends it).

        >>> from server.app.store.scripts import FENCED_APPEND
        >>> FENCED_APPEND.command(["g:{x}:fence", "g:{x}:log"], [3, "1 t1>b2"])[2:]
        (2, 'g:{x}:fence', 'g:{x}:log', 3, '1 t1>b2')
        """
        self._check(keys, args)
        return ("EVALSHA", self.sha, len(keys), *keys, *args)

    async def __call__(self, redis: Any, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        """Run it on ``redis`` (a client, one Redis or a cluster): its reply. A Redis
        without it in its cache is sent its source, once."""
        self._check(keys, args)
        try:
            return await redis.evalsha(self.sha, len(keys), *keys, *args)
        except NoScriptError:
            log.debug("a script was not in Redis's cache; sending its source")
            return await redis.eval(self.source, len(keys), *keys, *args)

    def queue(self, pipe: Any, keys: Sequence[Any], args: Sequence[Any]) -> None:
        """Queue it, by its hash, on a pipeline that is executed with
        ``raise_on_error=False``; hand its reply to :meth:`settle`. (As a command: a
        cluster client's pipeline refuses its ``evalsha`` method, but routes the command
        by its first key.)"""
        pipe.execute_command(*self.command(keys, args))

    async def settle(self, redis: Any, reply: Any, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        """The reply of a run :meth:`queue` queued: as it is, or, when Redis had not the
        script (it did not run), the reply of running it again on ``redis``; any other
        error reply is raised."""
        if isinstance(reply, NoScriptError):
            return await self(redis, keys, args)
        if isinstance(reply, Exception):
            raise reply
        return reply

    def _check(self, keys: Sequence[Any], args: Sequence[Any]) -> None:
        if len(keys) > len(self.keys) or len(args) > len(self.args):
            raise ValueError(
                f"a script of {len(self.keys)} keys and {len(self.args)} arguments "
                f"given {len(keys)} and {len(args)}"
            )


def _locals(names: tuple[str, ...], table: str) -> str:
    if not names:
        return ""
    values = ", ".join(f"{table}[{n}]" for n in range(1, len(names) + 1))
    return f"local {', '.join(names)} = {values}"


def script_error(exc: BaseException, code: str) -> bool:
    """Whether ``exc`` is a script's own error reply of ``code`` (``redis.error_reply``
    of ``"<CODE> <message>"``): redis-py has no class for codes of our own, and makes it
    a bare ``ResponseError`` whose text starts with the code.

    >>> script_error(ResponseError("FENCED another process has taken this game"), "FENCED")
    True
    >>> not_ours = ResponseError("FENCEDX no"), OSError("FENCED another")
    >>> [script_error(exc, "FENCED") for exc in not_ours]
    [False, False]
    """
    return type(exc) is ResponseError and str(exc).partition(" ")[0] == code
