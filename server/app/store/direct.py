"""The server's client of one Redis: redis-py's ``Redis``, whose everyday commands go
to Redis in the group commit's batches (:meth:`GroupCommit.ask`) instead of each taking
a connection from the pool.

A command through redis-py's pool costs its caller a connection taken and given back
(a lock and a condition), a retry wrapper, a timeout and its reply read by a coroutine:
about 50 µs of CPU, where Redis itself spends a few. A race's end and rematch send
about a hundred (the rating boards, the results, the new games), and under load they
were a third of the server's CPU. Sent through the group commit instead, a command is
packed, queued with whatever else goes in that pass of the event loop, and handed its
reply when the batch's replies come; what redis-py makes of a reply (its response
callbacks) is applied as it would be.

Only the commands of :data:`DIRECT` go this way: none that blocks, that holds state on
its connection or that the pool's retry on ``LOADING`` must see to. A command answered
``LOADING`` (Redis restarted and reading its data: it did not run) is sent again the
pool's way, which waits for the load. Everything else (pipelines, transactions,
pub/sub) is redis-py's as before. A Redis Cluster keeps redis-py's cluster client.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Mapping
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import Pipeline
from redis.exceptions import BusyLoadingError, ResponseError

from .commit import GroupCommit
from .redis_internals import pack_command

#: the commands sent through the group commit: plain reads and writes of one reply each,
#: none blocking, none with state on the connection
DIRECT = frozenset(
    {
        # strings and keys
        "GET",
        "SET",
        "SETNX",
        "SETEX",
        "PSETEX",
        "GETDEL",
        "GETEX",
        "MGET",
        "MSET",
        "INCR",
        "INCRBY",
        "DECR",
        "DECRBY",
        "STRLEN",
        "DEL",
        "UNLINK",
        "EXISTS",
        "EXPIRE",
        "PEXPIRE",
        "EXPIREAT",
        "PEXPIREAT",
        "TTL",
        "PTTL",
        "PERSIST",
        "TYPE",
        # hashes
        "HSET",
        "HSETNX",
        "HGET",
        "HMGET",
        "HGETALL",
        "HDEL",
        "HEXISTS",
        "HINCRBY",
        "HKEYS",
        "HVALS",
        "HLEN",
        # lists
        "LPUSH",
        "RPUSH",
        "LPOP",
        "RPOP",
        "LRANGE",
        "LINDEX",
        "LLEN",
        "LREM",
        "LTRIM",
        "LSET",
        # sets
        "SADD",
        "SREM",
        "SMEMBERS",
        "SISMEMBER",
        "SMISMEMBER",
        "SCARD",
        # sorted sets
        "ZADD",
        "ZREM",
        "ZRANGE",
        "ZREVRANGE",
        "ZRANGEBYSCORE",
        "ZREVRANGEBYSCORE",
        "ZRANK",
        "ZREVRANK",
        "ZSCORE",
        "ZMSCORE",
        "ZCARD",
        "ZCOUNT",
        "ZINCRBY",
        "ZREMRANGEBYRANK",
        "ZREMRANGEBYSCORE",
        # streams (never XREAD: it may block), pub/sub's publishing side, scripts
        "XADD",
        "XRANGE",
        "XREVRANGE",
        "XLEN",
        "XTRIM",
        "PUBLISH",
        "EVAL",
        "EVALSHA",
    }
)

#: options of redis-py's that change how a reply is read: such a command goes the pool's way
_READ_OPTIONS = frozenset({"NEVER_DECODE", "EMPTY_RESPONSE"})


class DirectRedis(Redis):
    """``Redis`` with :data:`DIRECT`'s commands sent through a group commit once
    :meth:`direct` has given it one (until then, and once that group commit is closed,
    every command goes the pool's way)."""

    _commit: GroupCommit | None = None

    def direct(self, commit: GroupCommit) -> None:
        """Send :data:`DIRECT`'s commands through ``commit``, unless another group commit
        not yet closed has them (two services on one client: the first one's, which the
        server's shutdown closes before the client)."""
        if self._commit is None or not self._commit.answers:
            self._commit = commit

    def pipeline(self, transaction: bool = True, shard_hint: str | None = None) -> Pipeline:
        pipe = DirectPipeline(
            self.connection_pool, self.response_callbacks, transaction, shard_hint
        )
        pipe._commit = self._commit
        return pipe

    async def execute_command(self, *args: Any, **options: Any) -> Any:
        commit = _sent_directly(self._commit, args, options)
        if commit is None:
            return await super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        try:
            reply = await commit.ask(_packed(args))
        except BusyLoadingError:
            return await super().execute_command(*args, **options)  # type: ignore[no-untyped-call]
        return await _parsed(self, args[0], reply, options)


class DirectPipeline(Pipeline):
    """A pipeline whose commands, when it is no transaction and all of them are
    :data:`DIRECT`'s, go in one of the group commit's batches (each answered as redis-py's
    pipeline answers it: the replies in order, an error reply in its place or raised)."""

    _commit: GroupCommit | None = None

    async def execute(self, raise_on_error: bool = True) -> list[Any]:
        commit = self._commit
        stack = self.command_stack
        if (
            commit is None
            or not stack
            or self.is_transaction
            or self.explicit_transaction
            or self.watching
            or self.scripts
            or any(_sent_directly(commit, args, options) is None for args, options in stack)
        ):
            return await super().execute(raise_on_error)
        asked = [commit.ask(_packed(args)) for args, _ in stack]
        replies = await asyncio.gather(*asked, return_exceptions=True)
        for reply in replies:
            if isinstance(reply, BusyLoadingError):
                return await super().execute(raise_on_error)  # (the stack is still there)
            if isinstance(reply, BaseException) and not isinstance(reply, ResponseError):
                await self.reset()  # type: ignore[no-untyped-call]
                raise reply
        response: list[Any] = []
        for (args, options), reply in zip(stack, replies, strict=True):
            if isinstance(reply, ResponseError):
                response.append(reply)
            else:
                response.append(await _parsed(self, args[0], reply, dict(options)))
        await self.reset()  # type: ignore[no-untyped-call]
        if raise_on_error:
            self.raise_first_error(stack, response)
        return response


def _sent_directly(
    commit: GroupCommit | None, args: tuple[Any, ...], options: Mapping[str, Any]
) -> GroupCommit | None:
    """The group commit to send a command through, or None: the pool's way."""
    if (
        commit is None
        or pack_command is None
        or not commit.answers
        or args[0] not in DIRECT
        or (options and not _READ_OPTIONS.isdisjoint(options))
    ):
        return None
    return commit


def _packed(args: tuple[Any, ...]) -> bytes:
    assert pack_command is not None  # (_sent_directly saw to it)
    packed: bytes = pack_command(args)
    return packed


async def _parsed(client: Redis, name: Any, reply: Any, options: dict[str, Any]) -> Any:
    """A reply as redis-py's response callback for the command makes it."""
    callback = client.response_callbacks.get(name)
    if callback is None:
        return reply
    options.pop("keys", None)
    parsed = callback(reply, **options)
    return await parsed if inspect.isawaitable(parsed) else parsed
