"""The group commit's links to a Redis Cluster: a batch split by node, redirects followed."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from redis.asyncio import RedisCluster
from redis.asyncio.cluster import ClusterNode
from redis.asyncio.connection import Connection
from redis.exceptions import (
    AskError,
    MovedError,
    NoScriptError,
    RedisClusterException,
    ResponseError,
    SlotNotCoveredError,
)

from .keys import first_key
from .redis_internals import pack_command
from .scripts import load_scripts

log = logging.getLogger("patience.store")


#: a link: the node, the group commit's connection to it, and that connection's own timeout
_Link = tuple[ClusterNode, Connection, "float | None"]


class ClusterLinks:
    """The group commit's connections to a Redis Cluster: one of its own to each primary
    that a batch has commands for, taken from that node's pool when first needed, with
    the scripts loaded on it, and held (the client closes it with the others).

    A batch is split by the node owning each command's :func:`first_key` (so one game's
    commands, sharing a hash tag, go together and in order); every node's part is
    pipelined on its connection, all parts at once; the replies are put back in the
    batch's order. A MOVED reply (the slot has a new owner: resharding, failover) patches
    the client's slot map, an ASK (the slot is being migrated) is followed with
    ``ASKING``: either way the command did not run, so it is sent again where it was
    pointed, up to :attr:`REDIRECTS` times, after which the redirect is its error. A
    connection that fails fails only the commands sent on it, and the slot map is read
    again before the next batch.
    """

    #: rounds of redirects one batch follows
    REDIRECTS = 2

    def __init__(self, redis: RedisCluster, deadline: float | None = None) -> None:
        self.redis = redis
        #: seconds a node has to answer its part of a batch (None: the connection's own)
        self.deadline = deadline
        #: node name -> its link
        self.links: dict[str, _Link] = {}
        self._stale = False

    async def execute(self, commands: list[tuple[Any, ...]]) -> list[Any]:
        """Each command's reply, or its error reply or failure, in the batch's order."""
        results: list[Any] = [None] * len(commands)
        todo = list(range(len(commands)))
        asking: dict[int, ClusterNode] = {}
        for _ in range(self.REDIRECTS + 1):
            await self._refresh()
            parts: dict[str, tuple[ClusterNode, list[int]]] = {}
            for i in todo:
                node = asking.get(i)
                if node is None:
                    try:
                        node = self._node_of(commands[i])
                    except RedisClusterException as exc:  # a slot nobody serves
                        results[i] = exc
                        self._stale = True
                        continue
                parts.setdefault(node.name, (node, []))[1].append(i)
            sends = [
                self._send(node, [commands[i] for i in part], [i in asking for i in part])
                for node, part in parts.values()
            ]
            replies = await asyncio.gather(*sends) if len(sends) > 1 else [await s for s in sends]
            todo, asking = [], {}
            for (_, part), reply in zip(parts.values(), replies, strict=True):
                if isinstance(reply, Exception):
                    self._stale = True  # a node gone may be a failover
                    for i in part:
                        results[i] = reply
                    continue
                for i, result in zip(part, reply, strict=True):
                    results[i] = result
                    if isinstance(result, MovedError):
                        try:
                            await self.redis.nodes_manager.move_slot(result)
                        except Exception:  # the whole map is read again instead
                            self._stale = True
                            continue
                        todo.append(i)
                    elif isinstance(result, AskError):
                        target = self.redis.get_node(result.host, result.port)
                        if target is None:
                            self._stale = True
                            continue
                        asking[i] = target
                        todo.append(i)
            if not todo:
                break
            todo.sort()
        return results

    async def _refresh(self) -> None:
        if not self._stale:
            await self.redis.initialize()  # nothing to do once the client has its map
            return
        await self.redis.nodes_manager.initialize()
        self._stale = False
        nodes = self.redis.nodes_manager.nodes_cache
        for name, (node, _, _) in list(self.links.items()):
            if nodes.get(name) is not node:
                await self._drop(name)

    def _node_of(self, command: tuple[Any, ...]) -> ClusterNode:
        key = first_key(command)
        node: ClusterNode | None
        if key is None:
            node = self.redis.get_default_node()
        else:
            node = self.redis.get_node_from_key(key)
        if node is None:
            raise SlotNotCoveredError(f"no node for {command[0]} {key!r}")
        return node

    async def _send(
        self, node: ClusterNode, commands: list[tuple[Any, ...]], asking: list[bool]
    ) -> list[Any] | Exception:
        """One node's part of a batch: its replies (an error reply in its place), or the
        failure of the connection, which is dropped."""
        try:
            conn, timeout = await self._connect(node)
        except Exception as exc:
            return exc
        if self.deadline is not None:
            timeout = self.deadline
        wire = commands
        if any(asking):
            wire = []
            for ask, command in zip(asking, commands, strict=True):
                if ask:
                    wire.append(("ASKING",))
                wire.append(command)
        reload = False
        try:
            async with asyncio.timeout(timeout):
                packed = (
                    [pack_command(c) for c in wire]
                    if pack_command is not None
                    else conn.pack_commands(wire)
                )
                await conn.send_packed_command(packed, check_health=False)
                results: list[Any] = []
                for ask in asking:
                    if ask:
                        with contextlib.suppress(ResponseError):  # its own OK
                            await conn.read_response()
                    try:
                        results.append(await conn.read_response())
                    except ResponseError as exc:
                        results.append(exc)
                        reload = reload or isinstance(exc, NoScriptError)
        except Exception as exc:
            await self._drop(node.name)
            return exc
        except BaseException:
            await self._drop(node.name)
            raise
        if reload:  # the node has lost its scripts (a restart): they load with the next
            await self._drop(node.name)
        return results

    async def _connect(self, node: ClusterNode) -> tuple[Connection, float | None]:
        link = self.links.get(node.name)
        if link is not None:
            if link[0] is node:
                return link[1], link[2]
            await self._drop(node.name)  # another node under that name since
        conn = node.acquire_connection()
        await node.disconnect_if_needed(conn)
        timeout = conn.socket_timeout
        conn.socket_timeout = None  # one deadline for each batch instead
        try:
            async with asyncio.timeout(timeout):
                await load_scripts(conn)
        except BaseException:
            await self._release((node, conn, timeout))
            raise
        self.links[node.name] = (node, conn, timeout)
        return conn, timeout

    async def _drop(self, name: str) -> None:
        link = self.links.pop(name, None)
        if link is not None:
            await self._release(link)

    @staticmethod
    async def _release(link: _Link) -> None:
        """Back to the node's pool, closed (kept, it would count against its limit)."""
        node, conn, timeout = link
        conn.socket_timeout = timeout
        await conn.disconnect(nowait=True)
        node.release(conn)
