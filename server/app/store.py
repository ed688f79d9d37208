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
from redis.asyncio.client import Pipeline


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


Write = Callable[[Pipeline], None]


class GroupCommit:
    """Writes from every connection gathered per event-loop wake into one pipeline, each
    caller's future resolved when that pipeline has been executed by Redis.

    Callers that must not be reordered (one game's moves) await their write before
    submitting the next; writes of different callers may share a pipeline in any order.
    """

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._pending: list[tuple[Write, asyncio.Future[None]]] = []
        self._scheduled = False
        self._inflight: set[asyncio.Task[None]] = set()
        self.batches = 0
        self.writes = 0

    def submit(self, write: Write) -> asyncio.Future[None]:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._pending.append((write, future))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._flush_soon)
        return future

    def _flush_soon(self) -> None:
        self._scheduled = False
        batch, self._pending = self._pending, []
        if batch:
            task = asyncio.get_running_loop().create_task(self._flush(batch))
            self._inflight.add(task)
            task.add_done_callback(self._inflight.discard)

    async def _flush(self, batch: list[tuple[Write, asyncio.Future[None]]]) -> None:
        pipe = self.redis.pipeline(transaction=False)
        ends: list[int] = []
        for write, _ in batch:
            write(pipe)
            ends.append(len(pipe))
        try:
            # not a transaction: every command runs even when one fails, so each caller
            # hears of its own commands' errors only, never of another's
            results = await pipe.execute(raise_on_error=False)
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
            else:
                future.set_exception(error)

    async def drain(self) -> None:
        """Wait until every submitted write has been executed."""
        if self._pending:
            self._flush_soon()
        while self._inflight:
            await asyncio.gather(*self._inflight, return_exceptions=True)
