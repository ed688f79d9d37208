"""A new solo game and the one it replaces: when this process holds the replaced game
under the fencing token Redis still has, whether it ended is known here, and its log is
not read back from Redis and replayed (a log of hundreds of moves, read and replayed on
every new deal, was 2.5% of the server's time under the load test). Taken by another
process since (its token moved on), or not held here, it is read from Redis: whether it
ended is what its log says."""

from __future__ import annotations

from typing import Any

from server.app import store

from .client import Client, player
from .conftest import Running


async def reads(server: Running) -> int:
    """How many times a game's meta has been read so far (``HGETALL``: a game is read
    back with its meta and its log together, ``Games.load``; nothing else a new deal
    does reads a hash whole)."""
    stats: dict[str, Any] = await server.redis.info("commandstats")
    return int(stats.get("cmdstat_hgetall", {}).get("calls", 0))


async def test_a_replaced_game_held_ended_is_not_read_back(server: Running) -> None:
    ann = await player(server.url, "ann")
    dealt = await ann.call("new_game", game="gate", seed=4)
    moved = await ann.call("move", move=dealt["legal"][0])
    await ann.call("move", move=moved["legal"][0])
    await ann.call("resign")
    before = await reads(server)
    await ann.call("new_game", game="gate", seed=5)
    after = await reads(server)
    assert after == before, (before, after)
    # the ended game is kept all the same (one of the last ten that ended)
    over = await ann.request("move", game=dealt["game"], move="deal")
    assert over["code"] == "game_over", over


async def test_a_replaced_game_held_unfinished_is_deleted_unread(server: Running) -> None:
    ann = await player(server.url, "ann")
    dealt = await ann.call("new_game", game="gate", seed=4)
    await ann.call("move", move="deal")
    before = await reads(server)
    await ann.call("new_game", game="gate", seed=5)
    after = await reads(server)
    assert after == before  # its token unmoved: the copy here is its log's last word
    gone = await ann.request("move", game=dealt["game"], move="deal")
    assert gone["code"] == "no_such_game", gone


async def taken_elsewhere(server: Running, ended: bool) -> tuple[Client, str, int]:
    """Ann's solo game, one move in, taken by another process (its token moves on) and,
    with ``ended``, resigned there; then Ann deals another. Her client, the game's id,
    and how many times a game was read back for the deal."""
    ann = await player(server.url, "ann")
    gid = (await ann.call("new_game", game="gate", seed=4))["game"]
    await ann.call("move", move="deal")
    await server.redis.incr(store.fence_key(gid))
    if ended:
        await server.redis.rpush(store.log_key(gid), f"{server.clock.now_ms()} !resign")
    before = await reads(server)
    await ann.call("new_game", game="gate", seed=5)
    return ann, gid, await reads(server) - before


async def test_a_replaced_game_another_process_took_and_ended_is_read_and_kept(
    server: Running,
) -> None:
    ann, gid, read = await taken_elsewhere(server, ended=True)
    assert read == 1  # what its log says, not this copy
    over = await ann.request("move", game=gid, move="deal")
    assert over["code"] == "game_over", over  # kept: it ended


async def test_a_replaced_game_another_process_took_unfinished_is_read_and_deleted(
    server: Running,
) -> None:
    _, gid, read = await taken_elsewhere(server, ended=False)
    assert read == 1
    assert not await server.redis.exists(store.log_key(gid))  # deleted
