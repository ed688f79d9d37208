"""The server on a Redis Cluster: three real ``redis-server`` nodes on loopback
(``tests/app/cluster.py``), a race and the daily boards played through it, and the group
commit's routing of one batch to several nodes, through a stale slot map and a slot being
migrated."""

from __future__ import annotations

import asyncio
import json
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
from redis.asyncio.cluster import ClusterNode, RedisCluster

from server.app import store
from server.app.settings import Settings
from server.app.store.connect import open_redis

from .client import player
from .cluster import LocalCluster
from .conftest import ManualClock, ServerProcess, running
from .test_pages import fetch
from .test_processes import race_across_two_processes
from .test_race import WINNING_SEED, lobby, play_first_moves, start


@pytest.fixture(scope="module")
def local_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    cluster = LocalCluster(tmp_path_factory.mktemp("cluster"))
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def cluster(local_cluster: LocalCluster) -> LocalCluster:
    local_cluster.flush()
    return local_cluster


def key_on(redis: RedisCluster, node: ClusterNode, pattern: str) -> str:
    """A key of ``pattern`` (a ``{}`` for its hash tag) that ``node`` serves."""
    n = 0
    while redis.get_node_from_key(key := pattern.format(f"{{t{n}}}")) is not node:
        n += 1
    return key


def on_cluster(cluster: LocalCluster, tmp_path: Path) -> Settings:
    """Settings for a server on the cluster, as the other tests' (conftest ``settings``)."""
    return Settings(
        port=0,
        redis_url=cluster.url,
        redis_cluster=True,
        data_dir=tmp_path,
        countdown=0.3,
        rate=1000.0,
        burst=1000,
        register_rate=0,
        clock=ManualClock(),
    )


async def test_a_race_on_a_cluster(cluster: LocalCluster, tmp_path: Path) -> None:
    settings = on_cluster(cluster, tmp_path)
    async with running(settings) as server:
        (ann, bob), code = await lobby(
            server, ["ann", "bob"], game="doubles-and-quits", seed=WINNING_SEED
        )
        starts = await start([ann, bob])
        reply = await bob.call("move", move=starts[1]["legal"][0])
        await bob.call("move", move=reply["legal"][0])
        await bob.call("resign")
        final = await play_first_moves(ann, starts[0]["legal"])
        assert final["status"] == "won"
        results = (await ann.event("results"))["results"]
        assert [(r["player"], r["status"], r["moves"]) for r in results] == [
            ("ann", "won", 26),
            ("bob", "resigned", 2),
        ]
        assert (await bob.event("results"))["results"] == results
        commit = server.service.commit
        assert commit.cluster is not None and commit.writes >= 29
        await commit.drain()

        # every key is on the node that serves its slot, and the keys are spread
        where = cluster.keys()
        assert len(set(where.values())) > 1, where
        assert isinstance(server.redis, RedisCluster)
        for key, port in where.items():
            node = server.redis.get_node_from_key(key.decode())
            assert node is not None and node.port == port, key
        logs = {r["player"]: store.log_key(r["replay"]) for r in results}
        assert cluster.client(where[logs["ann"].encode()]).llen(logs["ann"]) == 26
        assert cluster.client(where[logs["bob"].encode()]).llen(logs["bob"]) == 3
        room = store.room_key(code).encode()
        assert where[store.results_key(code, 1).encode()] == where[room]
        for r in results:
            gid = r["replay"]
            assert where[store.game_key(gid).encode()] == where[store.log_key(gid).encode()]
            assert store.replay_key(gid).encode() in where

        # the last to leave closes the room: its keys go (one slot), its results stay
        for client in (bob, ann):
            await client.call("room_leave")
            await client.close()
        left = cluster.keys()
        assert room not in left and store.results_key(code, 1).encode() in left
        assert code.encode() not in await server.redis.smembers(store.LIVE_ROOMS)


async def test_a_race_across_two_processes_on_a_cluster(
    cluster: LocalCluster, tmp_path: Path
) -> None:
    """Room changes and events between processes go through the cluster's pub/sub."""
    await race_across_two_processes(on_cluster(cluster, tmp_path))


async def test_the_daily_boards_on_a_cluster(cluster: LocalCluster, tmp_path: Path) -> None:
    """The real server process, told by its variable that its Redis is a cluster."""
    server = ServerProcess(cluster.url, tmp_path, PATIENCE_REDIS_CLUSTER="yes")
    server.start()
    try:
        ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
        for client, moves in ((ann, 2), (bob, 1)):
            reply = await client.call("daily", game="nestor")
            for _ in range(moves):
                reply = await client.call("move", move=reply["legal"][0])
            await client.call("resign")
            result = await client.event("daily_result")
            assert result["status"] == "resigned"
        board = await bob.call("top", board="daily/nestor")
        assert board["size"] == 2
        entries = board["entries"]
        # their order is the deal's (cards home, then moves): today's, from a new secret
        assert [e["rank"] for e in entries] == [1, 2]
        assert {(e["player"], e["moves"], e["won"]) for e in entries} == {
            ("ann", 2, False),
            ("bob", 1, False),
        }
        http = f"http://127.0.0.1:{server.port}"
        status, _, body = await fetch(f"{http}/leaderboard/daily/nestor.json")
        assert status == 200
        page = json.loads(body)
        assert page["size"] == 2 and page["entries"] == entries
        assert (await fetch(f"{http}/healthz"))[0] == 200
        for client in (ann, bob):
            await client.close()
        assert server.stop() == 0
    finally:
        if server.process is not None:
            server.stop(signal.SIGKILL)
    assert '"redis": "cluster"' in server.log.read_text()


async def test_the_group_commit_routes_each_command_to_its_node(cluster: LocalCluster) -> None:
    redis = open_redis(cluster.url, cluster=True)
    assert isinstance(redis, RedisCluster)
    try:
        await redis.initialize()
        commit = store.GroupCommit(redis)
        assert commit.cluster is not None
        one, two, three = redis.get_primaries()

        # one batch over three nodes: each caller hears of its own commands only
        plain, fenced, other = (key_on(redis, node, "g:{}:log") for node in (one, two, three))
        tag = fenced.split("{")[1].split("}")[0]
        await redis.set(store.fence_key(tag), 5)
        writes = [
            commit.submit(lambda c: c.rpush(plain, "1 a")),
            commit.submit(lambda c: c.append_fenced(tag, 4, "1 stale")),
            commit.submit(lambda c: c.append_fenced(tag, 5, "1 b")),
            commit.submit(lambda c: c.rpush(other, "1 c")),
        ]
        outcomes = await asyncio.gather(*writes, return_exceptions=True)
        assert outcomes[0] is None and outcomes[2] is None and outcomes[3] is None
        assert isinstance(outcomes[1], store.Fenced)
        assert commit.batches == 1 and set(commit.cluster.links) == {
            n.name for n in (one, two, three)
        }
        assert await redis.lrange(fenced, 0, -1) == [b"1 b"]

        # a node that lost its scripts: the write is sent again on a link that loads them
        cluster.client(two.port).script_flush()
        await commit.submit(lambda c: c.append_fenced(tag, 5, "2 b"))
        await commit.submit(lambda c: c.append_fenced(tag, 5, "3 b"))
        assert await redis.lrange(fenced, 0, -1) == [b"1 b", b"2 b", b"3 b"]

        # a stale slot map: MOVED, the map is patched, the write lands where it belongs
        moved = key_on(redis, one, "moved:{}")
        slot = redis.keyslot(moved)
        redis.nodes_manager.slots_cache[slot] = [two]
        await commit.submit(lambda c: c.rpush(moved, "1 m"))
        assert redis.get_node_from_key(moved) is one
        assert cluster.client(one.port).lrange(moved, 0, -1) == [b"1 m"]

        # a slot being migrated from one to three: a new key is asked of three
        asked = key_on(redis, one, "asked:{}")
        slot = redis.keyslot(asked)
        source, target = cluster.client(one.port), cluster.client(three.port)
        target.execute_command("CLUSTER SETSLOT", slot, "IMPORTING", cluster.node_id(one.port))
        source.execute_command("CLUSTER SETSLOT", slot, "MIGRATING", cluster.node_id(three.port))
        try:
            await commit.submit(lambda c: c.rpush(asked, "1 q"))
            assert target.execute_command("CLUSTER GETKEYSINSLOT", slot, 10) == [asked]
            assert asked not in source.execute_command("CLUSTER GETKEYSINSLOT", slot, 10)
        finally:
            for node in (source, target):
                node.execute_command("CLUSTER SETSLOT", slot, "STABLE")
    finally:
        await redis.aclose()
