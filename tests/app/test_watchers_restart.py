"""A room's watchers counted right across a restart of the real server process: a server
that stops cleanly takes its watchers' marks out of Redis, so the server that takes over
does not count the watchers of the run before as watching still."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from server.app import store

from .client import Client, player, signed_in
from .conftest import ServerProcess


async def watching(url: str, code: str) -> tuple[Client, dict[str, object]]:
    """A spectator (no player) watching the room: the client and the room it was sent."""
    client = await Client.connect(url)
    await client.call("hello", protocol=1)
    return client, await client.call("room_watch", code=code)


async def test_a_clean_restart_leaves_no_watcher_counted_twice(
    server_process: ServerProcess, redis_url: str
) -> None:
    url = server_process.url
    ann = await player(url, "ann")
    code = (await ann.call("room_create", game="gate"))["code"]
    _, room = await watching(url, code)
    assert room["watchers"] == 1
    redis = Redis.from_url(redis_url)
    try:
        await ann.event("room", lambda e: e["watchers"] == 1)
        assert len(await redis.hgetall(store.watchers_key(code))) == 1  # this server's mark

        assert await asyncio.to_thread(server_process.stop) == 0  # SIGTERM: a clean stop
        assert await redis.hgetall(store.watchers_key(code)) == {}

        await asyncio.to_thread(server_process.start)
        ann = await signed_in(url, ann.token or "")
        assert ann.welcome["resume"]["room"]["watchers"] == 0  # type: ignore[attr-defined]
        _, room = await watching(url, code)
        assert room["watchers"] == 1
        told = await ann.event("room", lambda e: e["watchers"] != 0)
        assert told["watchers"] == 1
    finally:
        await redis.aclose()
