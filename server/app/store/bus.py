"""The bus between server processes: Redis pub/sub, one subscribing connection a process.

Channels:

- ``room:<code>``: changes of a room and its events (``room``, ``progress``, ``results``),
  subscribed by every process with a member or a watcher of the room connected;
- ``proc:<id>``: messages for one process (a player who signed in elsewhere is kicked);
- ``boards``: ``board_update`` events, forwarded to each process's board watchers, and
  ``league`` notices (a weekly league's standings changed: each process sends its
  watchers of the league the standings again; see :meth:`Bus.publish_league`) and
  ``group`` notices (a group's members or who of them is online changed), and
  ``signed_out`` notices (a player's devices were signed out: every process closes
  their connections).

A message is a msgpack map with ``o``, the sending process's id (a process skips its own:
it has told its own connections already), and ``k``, its kind. Pub/sub delivers at most
once and only to processes connected at the time: nothing kept for good travels on the bus
(Redis keys are the truth; the bus only says "look again" and carries events).

When the subscribing connection fails (Redis restarted, the network cut), the reader
drops it and subscribes to every channel again on a new connection, every ``retry``
seconds (the ``retry_pause`` setting) until Redis answers; it does not leave this to the
client library, which goes on counting the old subscriptions. Once it hears again it calls
``on_back``: what was published meanwhile was lost to this process, so the service reads
what it holds from Redis again (its rooms, and the board updates it missed: see
:meth:`Bus.missed_boards`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from redis.asyncio import RedisCluster

from .codec import pack, unpack
from .commit import RedisClient
from .failures import FailureLog
from .keys import BOARD_FEED, BOARD_FEED_LEN, proc_channel

log = logging.getLogger("patience.bus")

BOARDS = "boards"


Handler = Callable[[str, dict[str, Any]], Awaitable[None]]

#: seconds the reader waits for a message before it looks at the subscriptions again
POLL = 0.05
#: seconds between two tries to subscribe again once the subscribing connection failed,
#: unless the bus is given its own (the ``retry_pause`` setting)
RETRY = 0.25
#: board updates are read again from this many ms before the bus last read its
#: connection without a failure (a message may have been lost a moment before; one heard
#: twice is harmless: a ``board_update`` says how an entry stands)
MISSED_MARGIN_MS = 2000
#: a gap between two of the reader's passes longer than this many ms is a stall: what
#: the reader read right after it does not show that the connection lived through it
STALL_MS = 1000


class Bus:
    def __init__(
        self,
        redis: RedisClient,
        proc: str,
        handler: Handler,
        on_back: Callable[[], Coroutine[Any, Any, None]] | None = None,
        retry: float = RETRY,
        redis_ms: Callable[[], int] | None = None,
    ) -> None:
        self.redis = redis
        self.retry = retry
        #: Redis's time now (ms: the time base of its stream ids; the server clock's
        #: ``redis_ms``, this machine's clock where none is given)
        self.redis_ms = redis_ms or (lambda: time.time_ns() // 1_000_000)
        self.proc = proc
        self.handler = handler
        #: called (in a task of its own) when the bus hears again after it could not
        self.on_back = on_back
        #: whether the subscribing connection is down (set by the reader), and since
        #: when (Redis's ms, the time base of its stream ids)
        self.deaf = False
        self.deaf_since_ms = 0
        #: when the reader last read its connection without a failure (Redis's ms):
        #: a process stalled with its connection cut finds out only when it runs again,
        #: and what was published meanwhile goes back to before the stall
        self.heard_ms = 0
        self._last_pass_ms = 0
        #: times the bus lost its connection, and heard again (for /metrics and tests)
        self.lost = 0
        self.recovered = 0
        #: the channels this process wants; the reader subscribes to them (see _read)
        self.channels: set[str] = set()
        self._pubsub: Any = None
        #: callers of subscribe/unsubscribe waiting for the reader to have sent them
        self._waiting: list[asyncio.Future[None]] = []
        self._reader: asyncio.Task[None] | None = None
        self._sends: set[asyncio.Task[Any]] = set()
        #: commands to send (messages to publish, and writes that go with them), in
        #: order, by one sender task at a time
        self._outgoing: list[tuple[tuple[Any, ...], asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None
        self._stopping = False
        self._started = False
        #: messages published, and received from other processes (for /metrics)
        self.published = 0
        self.received = 0
        self.failures = FailureLog(log)

    async def start(self) -> None:
        if isinstance(self.redis, RedisCluster):
            await self.redis.initialize()  # the slot map, which its pub/sub needs
        self._started = True
        self._pubsub = self.redis.pubsub()
        self.channels |= {proc_channel(self.proc), BOARDS}
        await self._pubsub.subscribe(*self.channels)
        self._reader = asyncio.get_running_loop().create_task(self._read())

    async def stop(self) -> None:
        self._stopping = True
        reader = self._reader
        if reader is not None:
            # redis-py can turn a cancellation inside a read into a connection error,
            # which the reader survives: hence the flag too, and the wait
            reader.cancel()
            await asyncio.wait([reader], timeout=2)
        if self._sender is not None:
            await asyncio.gather(self._sender, return_exceptions=True)
        if self._sends:
            await asyncio.gather(*self._sends, return_exceptions=True)
        if self._pubsub is not None:
            try:
                await self._pubsub.aclose()
            except Exception:  # the connection may be gone already
                log.debug("closing pub/sub failed", exc_info=True)

    async def subscribe(self, channel: str) -> None:
        """Hear ``channel`` from now on: returns once the reader has sent the
        subscription (or failed to, Redis away: it sends it once Redis is back)."""
        if channel in self.channels or not self._started:
            return
        self.channels.add(channel)
        await self._synced()

    async def unsubscribe(self, channel: str) -> None:
        if channel not in self.channels or not self._started:
            return
        self.channels.discard(channel)
        await self._synced()

    async def _synced(self) -> None:
        reader = self._reader
        if reader is None or reader.done():
            return
        waiter = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        await waiter

    async def _sync(self) -> None:
        """Bring the pub/sub connection's subscriptions in line with :attr:`channels`.

        Only the reader touches the pub/sub connection: redis-py's pub/sub is no more
        than one coroutine's at a time (a subscribe from a request while the reader
        reconnects had two coroutines read one socket, "read() called while another
        coroutine is already waiting"), and a subscription that failed while Redis was
        away is not one redis-py knows to send again when it reconnects."""
        pubsub = self._pubsub
        have = {_text(c) for c in pubsub.channels}
        have -= {_text(c) for c in pubsub.pending_unsubscribe_channels}
        more, fewer = self.channels - have, have - self.channels
        if more:
            await pubsub.subscribe(*more)
        if fewer:
            await pubsub.unsubscribe(*fewer)

    def _release(self) -> None:
        waiting, self._waiting = self._waiting, []
        for waiter in waiting:
            if not waiter.done():
                waiter.set_result(None)

    def watch_soon(self, channel: str, on: bool) -> None:
        """Subscribe or unsubscribe without waiting (from code that cannot await)."""
        self._spawn(self.subscribe(channel) if on else self.unsubscribe(channel))

    def publish_soon(self, channel: str, kind: str, **fields: Any) -> asyncio.Future[None]:
        """Publish without waiting; messages go out in the order they were given. The
        future is done once Redis has taken the message (await it to know that)."""
        self.published += 1
        return self.command_soon("PUBLISH", channel, pack({"o": self.proc, "k": kind, **fields}))

    def publish_board(self, board_id: str, data: bytes) -> asyncio.Future[None]:
        """A ``board_update`` (``data``, encoded) to the other processes' watchers of
        ``board_id``: published, and added to the board feed that a process which could
        not hear the bus reads when it hears again (:meth:`missed_boards`)."""
        self.command_soon(
            "XADD", BOARD_FEED, "MAXLEN", "~", BOARD_FEED_LEN, "*",
            "o", self.proc, "b", board_id, "d", data,
        )  # fmt: skip
        return self.publish_soon(BOARDS, "board", id=board_id, data=data)

    def publish_league(self, week: str, league: str) -> asyncio.Future[None]:
        """A ``league`` notice: ``league``'s standings of ``week`` changed (``""``: every
        league of the week, closed). It carries no standings: each process reads them
        for its own watchers, so a notice heard twice is harmless."""
        return self.publish_soon(BOARDS, "league", week=week, league=league)

    def publish_group(self, gid: str) -> asyncio.Future[None]:
        """A ``group`` notice: the group's members, or who of them is online, changed;
        each process reads the group for its own watchers of it."""
        return self.publish_soon(BOARDS, "group", group=gid)

    def publish_signed_out(self, pid: str, devices: list[str], by: str) -> asyncio.Future[None]:
        """A ``signed_out`` notice: the player's ``devices`` were signed out (from the
        device ``by``): every process closes the connections it holds on them, the
        player's own and those beside it. One missed (the bus deaf) is made up for when
        the bus hears again (``Accounts.kick_signed_out``)."""
        return self.publish_soon(BOARDS, "signed_out", pid=pid, devices=devices, by=by)

    async def missed_boards(self) -> list[tuple[str, bytes]]:
        """The board updates other processes published since shortly before this one
        last heard its bus, before it went deaf (oldest first): ``(board id, encoded
        board_update)``."""
        since = max(0, self.deaf_since_ms - MISSED_MARGIN_MS)
        entries: Any = await self.redis.xrange(BOARD_FEED, min=f"{since}-0", max="+")
        out = []
        for _, fields in entries or ():
            got = {_text(k): v for k, v in (fields or {}).items()}
            if _text(got.get("o", b"")) != self.proc and "b" in got and "d" in got:
                data = got["d"]
                out.append((_text(got["b"]), data if isinstance(data, bytes) else data.encode()))
        return out

    def command_soon(self, *args: Any) -> asyncio.Future[None]:
        """Send a Redis command without waiting for it, with the next messages: what a
        pass of the event loop queues goes in one pipeline (a write nobody waits on,
        such as the standings that go with progress events)."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._outgoing.append((args, done))
        if self._sender is None or self._sender.done():
            self._sender = loop.create_task(self._send())
        return done

    async def _send(self) -> None:
        while self._outgoing:
            batch, self._outgoing = self._outgoing, []
            try:
                if len(batch) == 1:
                    await self.redis.execute_command(*batch[0][0])
                else:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for args, _ in batch:
                            # PUBLISH by name: a cluster's pipeline refuses its publish()
                            pipe.execute_command(*args)
                        await pipe.execute()
            except Exception as exc:  # the others miss these events; Redis has the state
                self.failures.failed("publishing", exc)
            for _, done in batch:  # sent or not: the state is in Redis either way
                if not done.done():
                    done.set_result(None)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> None:
        task: asyncio.Task[Any] = asyncio.get_running_loop().create_task(coro)
        self._sends.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._sends.discard(task)
        if not task.cancelled() and (exc := task.exception()) is not None:
            self.failures.failed("subscribing", exc)

    async def _read(self) -> None:
        try:
            await self._read_forever()
        finally:
            self._release()

    async def _read_forever(self) -> None:
        while not self._stopping:
            try:
                if self._pubsub is None:
                    await self._subscribe_again()
                elif self._waiting or len(self.channels) != len(self._pubsub.channels):
                    await self._sync()
                    self._release()
                message = await self._pubsub.get_message(
                    ignore_subscribe_messages=True, timeout=POLL
                )
                self._passed()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                self._release()  # (tried: the next pass tries again)
                if self._stopping:
                    return
                self.failures.failed("reading the bus", exc)
                await self._drop()
                await asyncio.sleep(self.retry)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                data = unpack(message["data"])
                if not isinstance(data, dict) or data.get("o") == self.proc:
                    continue
                self.received += 1
                channel = message["channel"]
                if isinstance(channel, bytes):
                    channel = channel.decode()
                await self.handler(channel, data)
            except Exception as exc:
                self.failures.failed("a bus message", exc)

    def _passed(self) -> None:
        """A read that did not fail: the bus heard up to now, unless the pass before was
        long ago. After a stall (the process stopped, the loop held up) a read that only
        timed out proves nothing of the connection, which may have died during it: the
        bus is taken to have heard until the stall, until a pass right after this one
        reads without failing too."""
        now = self.redis_ms()
        if now - self._last_pass_ms <= STALL_MS:
            self.heard_ms = now
        self._last_pass_ms = now

    async def _drop(self) -> None:
        """Let go of the failed subscribing connection: the next pass subscribes to every
        channel again on a new one."""
        pubsub, self._pubsub = self._pubsub, None
        if not self.deaf:
            self.deaf = True
            now = self.redis_ms()
            self.deaf_since_ms = min(now, self.heard_ms) if self.heard_ms else now
            self.lost += 1
        if pubsub is not None:
            try:
                await pubsub.aclose()
            except Exception:  # the connection is gone already
                log.debug("closing the failed pub/sub failed", exc_info=True)

    async def _subscribe_again(self) -> None:
        """Subscribe to every channel on a new connection (raises while Redis is away);
        once through, the bus hears again: ``on_back`` brings this process up to date."""
        if isinstance(self.redis, RedisCluster):
            await self.redis.initialize()
        pubsub = self.redis.pubsub()
        try:
            await pubsub.subscribe(*self.channels)
        except BaseException:
            try:
                await pubsub.aclose()  # type: ignore[no-untyped-call]
            except Exception:
                log.debug("closing the pub/sub failed", exc_info=True)
            raise
        self._pubsub = pubsub
        self._release()
        if self.deaf:
            self.deaf = False
            self.recovered += 1
            log.info("hearing the bus again", extra={"channels": len(self.channels)})
            if self.on_back is not None:
                self._spawn(self.on_back())


def _text(channel: str | bytes) -> str:
    return channel.decode() if isinstance(channel, bytes) else channel


async def announce_board(redis: RedisClient, origin: str, board_id: str, data: bytes) -> None:
    """A ``board_update`` (``data``, encoded) from outside the server's processes (the
    operator's ``review clear``): on the board feed and the ``boards`` channel, as
    :meth:`Bus.publish_board` sends one, from ``origin`` (no process's id), so that every
    process tells its watchers."""
    await redis.execute_command(
        "XADD", BOARD_FEED, "MAXLEN", "~", BOARD_FEED_LEN, "*",
        "o", origin, "b", board_id, "d", data,
    )  # fmt: skip
    await redis.publish(BOARDS, pack({"o": origin, "k": "board", "id": board_id, "data": data}))


async def announce_league(redis: RedisClient, origin: str, week: str, league: str) -> None:
    """A ``league`` notice (:meth:`Bus.publish_league`) from outside the server's
    processes (the operator's ``review clear`` of a result that scores in a league)."""
    await redis.publish(BOARDS, pack({"o": origin, "k": "league", "week": week, "league": league}))
