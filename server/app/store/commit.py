"""The group commit: writes from many players batched into one round trip, so that
"acknowledged" means "in Redis" at a cost per move the server can afford.

Compiled with the move path (``server/native.py``): every move's log entry is queued,
batched and answered here. A write waiting is a :class:`Queued` object, not a tuple (a
tuple typed by its items is unboxed by compiled code, which loses its identity)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable
from typing import Any

from redis.asyncio import Redis, RedisCluster
from redis.asyncio.connection import ConnectionPool
from redis.exceptions import (
    ConnectionError as RedisConnectionError,
)
from redis.exceptions import (
    NoScriptError,
)

from .cluster import ClusterLinks
from .packing import Commands
from .redis_internals import (
    FAST,
    NOT_ENOUGH_DATA,
    hiredis_reader,
    pack_command,
    read_replies,
    transport_of,
)
from .scripts import FENCED, load_scripts, script_error
from .writes import Batch, Done, Fenced, Queued, Write, settle

log = logging.getLogger("patience.store")

#: batches that may be with Redis at once on the group commit's connection: a batch goes
#: as soon as the pass of the event loop that gathered it ends, not when the one before it
#: is back, so the server is not left idle while Redis writes and syncs a batch
IN_FLIGHT = 3

#: seconds a connection may stand idle before it is asked ``PING`` ahead of the next
#: command (the group commit's own, and the pool's: ``connect.py``): Redis restarted
#: behind a network that does not say so leaves connections that look open and are
#: reset by the first command written on them, and a write sent on one may not be sent
#: again (it may have run), while a ``PING`` may
IDLE_CHECK = 1.0
_PING = b"*1\r\n$4\r\nPING\r\n"


#: the server's Redis: one server, or a Redis Cluster reached through one of its nodes
RedisClient = Redis | RedisCluster


class GroupCommit:
    """Writes from every connection gathered per event-loop wake into one batch, sent to
    Redis pipelined in one write on a connection of its own; each caller's future resolved
    when Redis has answered that caller's commands.

    Callers that must not be reordered (one game's moves) await their write before
    submitting the next; writes of different callers may share a batch in any order.
    A batch goes as soon as the pass of the event loop that gathered it ends, while up
    to :attr:`in_flight` - 1 batches before it are still with Redis (their replies come in
    order on the one connection), so the server is not left idle while Redis writes and
    syncs one; past that, the next gathers until the oldest is answered.

    The batch is written and its replies read straight on the connection rather than
    through a redis-py ``Pipeline``, whose bookkeeping per batch (pool, retries, events,
    observability) cost several times the commands themselves when batches are small.

    On a Redis Cluster there is a connection per node instead, and each batch is split
    between them by :class:`ClusterLinks`; what a caller hears is the same.
    """

    def __init__(self, redis: RedisClient, deadline: float | None = None) -> None:
        self.redis = redis
        #: seconds Redis has to answer a batch before its connection is dropped and its
        #: writes fail (None: the connection's own ``socket_timeout``, if any)
        self.deadline = deadline
        #: a Redis Cluster's connections (None: one Redis, one connection from its pool)
        self.cluster = ClusterLinks(redis, deadline) if isinstance(redis, RedisCluster) else None
        self._pool: ConnectionPool | None = (
            redis.connection_pool if isinstance(redis, Redis) else None
        )
        self._pending: list[Queued] = []
        #: closed (:meth:`close`): :meth:`ask` is no longer offered
        self._shut = False
        self._scheduled = False
        self._inflight: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()
        self._conn: Any = None
        #: the batch deadline in force, and the connection's own timeout (given back
        #: with it)
        self._timeout: float | None = None
        self._conn_timeout: float | None = None
        #: batches answered, writes among them, and commands asked (:meth:`ask`)
        self.batches = 0
        self.writes = 0
        self.asked = 0
        # one Redis with hiredis: batches written straight to the connection's transport
        # and their replies read by one task for good (see _send_next); else, or on a
        # cluster, a task a batch
        self._direct = self.cluster is None and FAST
        #: the batches with Redis, oldest first (its replies come first), and the replies
        #: of the oldest read so far
        self._busy: deque[Batch] = deque()
        self._replies: list[Any] = []
        #: how many batches may be with Redis at once (:data:`IN_FLIGHT`)
        self.in_flight = IN_FLIGHT
        #: the connection is to be dropped once the batches with Redis on it are answered
        self._stale = False
        self._transport: Any = None
        #: the hiredis reader of the connection's replies (``redis_internals``)
        self._reader: Any = None
        #: the protocol that takes the group commit's connection's replies
        self._replies_protocol: _Replies | None = None
        #: the timer that drops a connection whose oldest batch waited its deadline: one,
        #: re-armed as it fires
        self._watchdog: asyncio.TimerHandle | None = None
        self._connecting: asyncio.Task[None] | None = None
        #: when Redis last answered on the connection (loop time): one idle longer than
        #: IDLE_CHECK is asked PING before the next batch, and made afresh if that fails
        self._heard_at = 0.0
        #: called once a batch's writers have all heard (the websocket layer writes the
        #: replies they queued then, rather than a pass of the event loop later)
        self.after_batch: Callable[[], None] | None = None

    @property
    def connected(self) -> bool:
        """Whether the group commit holds a connection (one Redis, the fast path)."""
        return self._transport is not None

    @property
    def in_redis(self) -> int:
        """How many batches are with Redis."""
        return len(self._busy)

    def submit(self, write: Write) -> asyncio.Future[None]:
        """Queue a write; the future is done when Redis has answered its commands."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue(write, future)
        return future

    def submit_callback(self, write: Write, done: Done) -> None:
        """Queue a write; ``done`` is called with None or the error once Redis has
        answered its commands (in the group commit's own call, with no task to wake: the
        move path's way)."""
        self._queue(write, done)

    @property
    def packs(self) -> bool:
        """Whether :meth:`submit_packed` may be used: one Redis, commands packed by
        hiredis (a cluster routes each command by its key, so it takes them unpacked)."""
        return self._direct

    def submit_packed(self, command: bytes, done: Done) -> None:
        """As :meth:`submit_callback`, for a write of one command already packed (RESP),
        as ``hiredis.pack_command`` would pack it: the move path packs its log appends
        from a head kept per game (``server.app.moves``). Only while :attr:`packs`."""
        self._queue(command, done)

    @property
    def answers(self) -> bool:
        """Whether :meth:`ask` may be used: as :attr:`packs`, and not closed."""
        return self._direct and not self._shut

    def ask(self, command: bytes) -> asyncio.Future[Any]:
        """Queue one command, packed (RESP), in the next batch; the future is handed its
        reply (raised, if Redis answered an error), or the connection's failure. A
        command's round trip without a connection of its own from the pool: the store's
        commands go this way (``direct.py``). Only while :attr:`answers`."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue(command, future, True)
        return future

    def _queue(
        self, write: Write | bytes, waiter: asyncio.Future[Any] | Done, asks: bool = False
    ) -> None:
        self._pending.append(Queued(write, waiter, asks))
        if self._direct:
            if not self._scheduled and len(self._busy) < self.in_flight:
                # after every task already woken in this pass of the loop has submitted
                self._scheduled = True
                asyncio.get_running_loop().call_soon(self._send_next)
            return
        if not self._scheduled:
            # runs after every task already woken in this pass of the loop has submitted
            task = asyncio.get_running_loop().create_task(self._flush())
            self._scheduled = True
            self._inflight.add(task)
            task.add_done_callback(self._inflight.discard)

    # -- one Redis: batches written straight, replies read by one task ------------------

    def _send_next(self) -> None:
        """Write the pending writes as one batch, unless :attr:`in_flight` batches are
        with Redis (the oldest one's replies send the next) or the connection is being
        made (so does its end)."""
        self._scheduled = False
        busy = self._busy
        if len(busy) >= self.in_flight or self._stale or not self._pending:
            return
        if self._transport is None:
            if self._connecting is None:
                self._connecting = asyncio.get_running_loop().create_task(self._connect())
            return
        if not busy and asyncio.get_running_loop().time() - self._heard_at > IDLE_CHECK:
            self._ping_first()
            return
        batch, self._pending = self._pending, []
        commands = Commands()
        ends: list[int] = []
        args = commands.args
        for entry in batch:
            write = entry.write
            if isinstance(write, bytes):
                args.append(write)
            else:
                write(commands)
            ends.append(len(args))
        self._write(
            Batch(batch, ends, len(args)),
            lambda: b"".join([c if isinstance(c, bytes) else pack_command(c) for c in args]),
        )

    def _ping_first(self) -> None:
        """The connection stood idle: ``PING`` alone first, the batch once Redis answers
        (a reset drops the connection, and the batch goes on a new one)."""
        self._write(Batch([], [], 1), lambda: _PING)

    def _write(self, batch: Batch, data: Callable[[], bytes]) -> None:
        """Write ``batch`` (``data`` makes its bytes) after those with Redis, its
        deadline's watchdog armed; a failure fails it and drops the connection."""
        self._busy.append(batch)
        if self._timeout is not None:
            loop = asyncio.get_running_loop()
            batch.sent = loop.time()
            if self._watchdog is None:
                self._watchdog = loop.call_later(self._timeout, self._stuck)
        try:
            self._transport.write(data())
        except Exception as exc:
            self._lost(exc)

    async def _connect(self) -> None:
        waiting = len(self._pending)
        try:
            assert self._pool is not None
            # the writes waiting for this connection have the batch deadline too
            async with asyncio.timeout(self.deadline):
                conn = await self._pool.get_connection()  # type: ignore[no-untyped-call]
                self._conn_timeout = conn.socket_timeout
                self._timeout = self.deadline if self.deadline is not None else conn.socket_timeout
                conn.socket_timeout = None
                try:
                    await load_scripts(conn)
                except BaseException:
                    await self._release(conn)
                    raise
        except Exception as exc:
            # what waited for this try fails; what came while it was under way (another
            # caller's) is given a try of its own
            self._connecting = None
            batch, self._pending = self._pending[:waiting], self._pending[waiting:]
            for entry in batch:
                settle(entry.waiter, exc)
            self._schedule()
            return
        reader, transport = hiredis_reader(conn), transport_of(conn)
        if reader is None or transport is None:  # pragma: no cover
            # a parser whose reader this cannot take, or a transport that keeps its
            # protocol: a task a batch
            self._direct = False
            self._conn = conn
            self._connecting = None
            if self._pending:
                task = asyncio.get_running_loop().create_task(self._flush())
                self._inflight.add(task)
                task.add_done_callback(self._inflight.discard)
            return
        self._conn = conn
        self._transport = transport
        self._reader = reader
        self._heard_at = asyncio.get_running_loop().time()  # (made and checked just now)
        # the replies are read as they arrive, in the transport's own callback, rather
        # than by a task woken a pass of the loop later (redis-py's stream reader is left
        # aside: nothing else reads this connection)
        self._replies_protocol = _Replies(self, conn)
        transport.set_protocol(self._replies_protocol)
        self._connecting = None
        self._send_next()

    def _received(self, conn: Any, data: bytes) -> None:
        """Replies from Redis: each batch is handed its replies once all are in."""
        if self._conn is not conn:
            return
        self._heard_at = asyncio.get_running_loop().time()
        reader = self._reader
        reader.feed(data)
        gets = reader.gets
        busy = self._busy
        while busy and self._conn is conn:
            reply = gets()
            if reply is NOT_ENOUGH_DATA:
                break
            if isinstance(reply, RedisConnectionError):
                self._lost(reply)
                return
            self._replies.append(reply)
            oldest = busy[0]
            if len(self._replies) == oldest.count:
                replies, self._replies = self._replies, []
                busy.popleft()
                if not oldest.writes:  # the PING of an idle connection: the batch now
                    self._send_next()
                    continue
                self._resolve(oldest.writes, oldest.ends, replies)
                if self._stale and not busy:
                    self._drop_connection()
                self._send_next()
                self._after_batch()

    def _closed(self, conn: Any, exc: Exception | None) -> None:
        if self._conn is conn:
            self._lost(exc or RedisConnectionError("Redis closed the connection"))

    def _stuck(self) -> None:
        """The watchdog: a batch has waited its deadline for its replies, so the
        connection is dropped; else it looks again when the batch with Redis would be due."""
        self._watchdog = None
        if not self._busy or self._timeout is None:
            return
        loop = asyncio.get_running_loop()
        due = self._busy[0].sent + self._timeout
        if loop.time() >= due:
            self._lost(RedisConnectionError("Redis did not answer in time"))
        else:
            self._watchdog = loop.call_at(due, self._stuck)

    def _lost(self, exc: Exception) -> None:
        """The connection failed: its batch fails, and the next batch makes a new one."""
        busy, self._busy, self._replies = self._busy, deque(), []
        if busy:
            for batch in busy:
                for entry in batch.writes:
                    settle(entry.waiter, exc)
            self._after_batch()
        self._drop_connection()
        self._schedule()

    def _schedule(self) -> None:
        """Send the pending writes in a pass of the loop to come, unless that is so."""
        if self._scheduled or not self._pending:
            return
        self._scheduled = True
        loop = asyncio.get_running_loop()
        if self._direct:
            loop.call_soon(self._send_next)
            return
        task = loop.create_task(self._flush())
        self._inflight.add(task)
        task.add_done_callback(self._inflight.discard)

    # -- a task a batch (a cluster) ------------------------------------------------------

    async def _execute(self, commands: list[tuple[Any, ...] | bytes]) -> list[Any]:
        """Send the commands pipelined and read every reply; an error reply is returned in
        its place. Any other failure (the connection) raises, and the connection is dropped
        (it reconnects on the next batch)."""
        if self._conn is None:
            # held for good; the pool closes it with the client
            assert self._pool is not None
            conn = await self._pool.get_connection()  # type: ignore[no-untyped-call]
            # one deadline for the whole batch rather than one per command (a task each)
            self._conn_timeout = conn.socket_timeout
            self._timeout = self.deadline if self.deadline is not None else conn.socket_timeout
            conn.socket_timeout = None
            await load_scripts(conn)
            self._conn = conn
        conn = self._conn
        try:
            async with asyncio.timeout(self._timeout):
                packed = (
                    [c if isinstance(c, bytes) else pack_command(c) for c in commands]
                    if pack_command is not None
                    else conn.pack_commands(commands)
                )
                await conn.send_packed_command(packed, check_health=False)
                return await read_replies(conn, len(commands))
        except BaseException:
            self._conn = None  # a new one next batch, with the scripts loaded again
            await self._release(conn)
            raise

    async def _release(self, conn: Any) -> None:
        """Give a dropped connection back to the pool, closed and with its own timeout
        again (kept, it would count against the pool's limit for good)."""
        conn.socket_timeout = self._conn_timeout
        await conn.disconnect(nowait=True)
        if self._pool is not None:
            # best effort: the connection is closed whatever the pool makes of it
            with contextlib.suppress(Exception):
                await self._pool.release(conn)

    async def _flush(self) -> None:
        try:
            await self._lock.acquire()
        except BaseException:
            self._scheduled = False
            raise
        try:
            # everything submitted so far: while the batch before was with Redis, this one
            # gathered
            self._scheduled = False
            batch, self._pending = self._pending, []
            if batch:
                await self._commit(batch)
        finally:
            self._lock.release()

    async def _commit(self, batch: list[Queued]) -> None:
        commands = Commands()
        ends: list[int] = []
        for entry in batch:
            write = entry.write
            if isinstance(write, bytes):
                commands.args.append(write)
            else:
                write(commands)
            ends.append(len(commands))
        try:
            # every command runs even when one fails, so each caller hears of its own
            # commands' errors only, never of another's
            cluster = self.cluster
            if cluster is None:
                results = await self._execute(commands.args)
            else:
                # (never a packed command: packs is False on a cluster)
                results = await cluster.execute(commands.args)  # type: ignore[arg-type]
        except Exception as exc:
            for entry in batch:
                settle(entry.waiter, exc)
            self._after_batch()
            return
        self._resolve(batch, ends, results)
        self._after_batch()

    def _resolve(self, batch: list[Queued], ends: list[int], results: list[Any]) -> None:
        """Each writer hears of its own commands: done, or the first error among them.
        A write whose script Redis did not have (``NOSCRIPT``: it did not run) is sent
        again whole, once, ahead of the writes pending, on a connection made afresh (the
        scripts load with it; ClusterLinks makes its own afresh): a write's commands
        beside its script (``EXPIRE``, ``SADD``) must be safe to run twice."""
        self.batches += 1
        self.writes += len(batch)
        again: list[Queued] = []
        start = 0
        for entry, end in zip(batch, ends, strict=True):
            waiter = entry.waiter
            if entry.asks:  # its reply, whatever it is (NOSCRIPT: the caller's to mend)
                self.writes -= 1
                self.asked += 1
                reply = results[end - 1]
                start = end
                if isinstance(waiter, asyncio.Future) and not waiter.done():
                    if isinstance(reply, BaseException):
                        waiter.set_exception(reply)
                    else:
                        waiter.set_result(reply)
                continue
            error: BaseException | None = None
            for reply in results[start:end]:
                if isinstance(reply, Exception):
                    error = reply
                    break
            start = end
            if error is not None:
                if script_error(error, FENCED):
                    error = Fenced(str(error))
                elif isinstance(error, NoScriptError):
                    self._retire()
                    if not entry.resent:
                        entry.resent = True
                        again.append(entry)
                        continue
            settle(waiter, error)
        if again:
            log.info("redis had lost the scripts: loading them again", extra={"writes": len(again)})
            self._pending[:0] = again
            self._schedule()

    def _after_batch(self) -> None:
        hook = self.after_batch
        if hook is not None:
            try:
                hook()
            except Exception:
                log.exception("after a batch")

    def _retire(self) -> None:
        """Make the next batch go on a new connection, the scripts loaded with it: this
        one is dropped now, or once the batches with Redis on it are answered."""
        if self._busy:
            self._stale = True
        elif self._conn is not None:
            self._drop_connection()

    def _drop_connection(self) -> None:
        self._stale = False
        conn, self._conn = self._conn, None
        self._transport = None
        self._reader = None
        self._replies_protocol = None
        if conn is not None:
            task = asyncio.get_running_loop().create_task(self._release(conn))
            self._inflight.add(task)
            task.add_done_callback(self._inflight.discard)

    async def close(self) -> None:
        """Wait for every submitted write, then let the connection go (closed: it is no
        longer redis-py's to close, since its replies come here)."""
        self._shut = True
        await self.drain()
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None
        if self._direct and self._conn is not None:
            self._drop_connection()
            while self._inflight:
                await asyncio.gather(*self._inflight, return_exceptions=True)

    async def drain(self) -> None:
        """Wait until every submitted write has been executed (or has failed)."""
        while self._inflight:
            await asyncio.gather(*self._inflight, return_exceptions=True)
        while self._direct and (self._busy or self._pending or self._connecting):
            await asyncio.sleep(0.005)
        while self._inflight:
            await asyncio.gather(*self._inflight, return_exceptions=True)


class _Replies(asyncio.Protocol):
    """The group commit's connection's protocol once it is taken from redis-py: what
    arrives goes straight to :meth:`GroupCommit._received`."""

    def __init__(self, commit: GroupCommit, conn: Any) -> None:
        self.commit = commit
        self.conn = conn

    def data_received(self, data: bytes) -> None:
        self.commit._received(self.conn, data)

    def eof_received(self) -> bool:
        return False  # close the transport: connection_lost follows

    def connection_lost(self, exc: Exception | None) -> None:
        self.commit._closed(self.conn, exc)
