"""Everything the server keeps in Redis, behind one small module: key names, TTLs, and
the group commit that makes "acknowledged" mean "in Redis".

Keys (``<...>`` is a value; braces are Redis Cluster hash tags, so a game's meta and log,
or a room's state and results, share one slot):

==========================  ======  ===========================================================
key                         type    what
==========================  ======  ===========================================================
``p:{pid}``                 hash    a player: ``name``, ``created``, ``solo`` (game id),
                                    ``room`` (room code)
``pname:{lower name}``      string  player id owning a name (names are unique ignoring case)
``ptoken:{sha256(token)}``  string  player id of a token; the token itself is never stored
``g:{gid}``                 hash    a game: ``game``, ``seed``, ``owner``, ``kind`` (solo,
                                    race), ``room``, ``race``, ``created``
``g:{gid}:log``             list    the game's moves: ``"{server ms} {notation}"``, or
                                    ``!undo``, ``!resign``, ``!timeout`` in place of a
                                    notation
``g:{gid}:fence``           string  the game's fencing token: the process that last took it
                                    (``INCR``) is the only one whose appends land
``r:{code}``                string  a room's state (msgpack)
``rcode:{code}``            string  a room code ever used; codes are never reused
``r:{code}:results:{n}``    string  race ``n``'s results (msgpack); kept for good
``rooms:live``              set     codes of rooms a restarted server must resume
``dly:{day}:{game}:{pid}``  string  the player's ranked daily game of that day (31 days)
``dlyp:{day}:{game}:{pid}`` string  their current practice attempt of that day (31 days)
``stk:{pid}``               hash    streaks: ``{game}:cur``, ``{game}:best``, ``{game}:last``
                                    (last day won), and the same for ``all`` games
``fol:{pid}``               set     ids of the players they follow
``rp:{gid}``                string  a finished ranked daily or race game's replay (msgpack);
                                    kept for good
``lb:{B}`` ``lbd:{B}`` ...  board   a leaderboard: see ``server/app/boards.py``
==========================  ======  ===========================================================

TTLs: a finished game and its log, and a finished room, expire ``Settings.ended_ttl``
(default 24 h) after they end; an unfinished game and a room in its lobby or race after
``Settings.idle_ttl`` (default 7 days), renewed every 64 moves and at every change of the
room. Players, room codes and results do not expire.
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Callable
from typing import Any

import msgpack
from redis.asyncio import Redis
from redis.exceptions import ResponseError

try:  # redis[hiredis]: packing in C
    from hiredis import pack_command as _pack_command
except ImportError:  # pragma: no cover
    _pack_command = None


def player_key(pid: str) -> str:
    return f"p:{pid}"


def name_key(name: str) -> str:
    return f"pname:{name.lower()}"


def token_key(token: str) -> str:
    return "ptoken:" + hashlib.sha256(token.encode()).hexdigest()


def game_key(gid: str) -> str:
    return f"g:{{{gid}}}"


def log_key(gid: str) -> str:
    return f"g:{{{gid}}}:log"


def fence_key(gid: str) -> str:
    return f"g:{{{gid}}}:fence"


def room_key(code: str) -> str:
    return f"r:{{{code}}}"


def daily_key(day: str, game: str, pid: str) -> str:
    return f"dly:{day}:{game}:{pid}"


def practice_key(day: str, game: str, pid: str) -> str:
    return f"dlyp:{day}:{game}:{pid}"


def streak_key(pid: str) -> str:
    return f"stk:{pid}"


def follow_key(pid: str) -> str:
    return f"fol:{pid}"


def replay_key(gid: str) -> str:
    return f"rp:{gid}"


def code_key(code: str) -> str:
    return f"rcode:{code}"


def results_key(code: str, race: int) -> str:
    return f"r:{{{code}}}:results:{race}"


LIVE_ROOMS = "rooms:live"


def pack(value: Any) -> bytes:
    data: bytes = msgpack.packb(value, use_bin_type=True)
    return data


def unpack(data: bytes) -> Any:
    return msgpack.unpackb(data, raw=False, strict_map_key=False)


class Commands:
    """The commands of one group-commit batch, as a write adds them (the names of a redis-py
    pipeline's methods, for the few commands the log needs)."""

    __slots__ = ("args",)

    def __init__(self) -> None:
        self.args: list[tuple[Any, ...]] = []

    def __len__(self) -> int:
        return len(self.args)

    def execute_command(self, *args: Any) -> None:
        self.args.append(args)

    def rpush(self, key: str, *values: Any) -> None:
        self.args.append(("RPUSH", key, *values))

    def expire(self, key: str, seconds: int) -> None:
        self.args.append(("EXPIRE", key, seconds))

    def append_fenced(self, gid: str, token: int, entry: str) -> None:
        """Append ``entry`` to the game's log only while ``token`` is still its fence."""
        self.args.append(
            ("EVALSHA", FENCED_APPEND_SHA, 2, fence_key(gid), log_key(gid), token, entry)
        )


class Fenced(Exception):
    """An append refused: another process has taken the game since (its fence moved)."""


#: KEYS: the game's fence, its log; ARGV: the writer's token, the entry.
#: Returns the log's new length, or the error FENCED.
FENCED_APPEND = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return redis.error_reply('FENCED another process has taken this game')
end
return redis.call('RPUSH', KEYS[2], ARGV[2])
"""
FENCED_APPEND_SHA = hashlib.sha1(FENCED_APPEND.encode()).hexdigest()
#: scripts every group-commit connection loads when it connects (EVALSHA needs them)
SCRIPTS = (FENCED_APPEND,)


Write = Callable[[Commands], None]


class GroupCommit:
    """Writes from every connection gathered per event-loop wake into one batch, sent to
    Redis pipelined in one write on a connection of its own; each caller's future resolved
    when Redis has answered that caller's commands.

    Callers that must not be reordered (one game's moves) await their write before
    submitting the next; writes of different callers may share a batch in any order.
    Batches go one after another: while one is with Redis, the next gathers.

    The batch is written and its replies read straight on the connection rather than
    through a redis-py ``Pipeline``, whose bookkeeping per batch (pool, retries, events,
    observability) cost several times the commands themselves when batches are small.
    """

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._pending: list[tuple[Write, asyncio.Future[None]]] = []
        self._scheduled = False
        self._inflight: set[asyncio.Task[None]] = set()
        self._lock = asyncio.Lock()
        self._conn: Any = None
        self._timeout: float | None = None
        self.batches = 0
        self.writes = 0

    def submit(self, write: Write) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((write, future))
        if not self._scheduled:
            # runs after every task already woken in this pass of the loop has submitted
            task = loop.create_task(self._flush())
            self._scheduled = True
            self._inflight.add(task)
            task.add_done_callback(self._inflight.discard)
        return future

    async def _execute(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        """Send the commands pipelined and read every reply; an error reply is returned in
        its place. Any other failure (the connection) raises, and the connection is dropped
        (it reconnects on the next batch)."""
        if self._conn is None:
            # held for good; the pool closes it with the client
            conn = await self.redis.connection_pool.get_connection()
            # one deadline for the whole batch rather than one per command (a task each)
            self._timeout = conn.socket_timeout
            conn.socket_timeout = None
            for script in SCRIPTS:
                await conn.send_command("SCRIPT", "LOAD", script)
                await conn.read_response()
            self._conn = conn
        conn = self._conn
        try:
            async with asyncio.timeout(self._timeout):
                packed = (
                    [_pack_command(c) for c in commands]
                    if _pack_command is not None
                    else conn.pack_commands(commands)
                )
                await conn.send_packed_command(packed, check_health=False)
                results: list[Any] = []
                for _ in commands:
                    try:
                        results.append(await conn.read_response())
                    except ResponseError as exc:
                        results.append(exc)
            return results
        except BaseException:
            self._conn = None  # a new one next batch, with the scripts loaded again
            await conn.disconnect(nowait=True)
            raise

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

    async def _commit(self, batch: list[tuple[Write, asyncio.Future[None]]]) -> None:
        commands = Commands()
        ends: list[int] = []
        for write, _ in batch:
            write(commands)
            ends.append(len(commands))
        try:
            # every command runs even when one fails, so each caller hears of its own
            # commands' errors only, never of another's
            results = await self._execute(commands.args)
        except Exception as exc:
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        self.batches += 1
        self.writes += len(batch)
        start = 0
        for (_, future), end in zip(batch, ends, strict=True):
            error = next((r for r in results[start:end] if isinstance(r, Exception)), None)
            start = end
            if future.done():
                continue
            if error is None:
                future.set_result(None)
            elif str(error).startswith("FENCED"):
                future.set_exception(Fenced(str(error)))
            else:
                if str(error).startswith("NOSCRIPT"):
                    self._drop_connection()  # the scripts load again with the next
                future.set_exception(error)

    def _drop_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            task = asyncio.get_running_loop().create_task(conn.disconnect(nowait=True))
            self._inflight.add(task)
            task.add_done_callback(self._inflight.discard)

    async def drain(self) -> None:
        """Wait until every submitted write has been executed."""
        while self._inflight:
            await asyncio.gather(*self._inflight, return_exceptions=True)
