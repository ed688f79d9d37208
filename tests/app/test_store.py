"""The group commit on one Redis, when its connection must go: the scripts load again on
the next, and the pool gets the old one back; the fenced append packed by the store."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from redis.asyncio import BlockingConnectionPool, Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from server.app import store
from server.app.settings import Settings
from server.app.store.games import Games
from server.engine import new_game

from .client import Client, player
from .conftest import Outage, Running, running, until, with_settings


async def test_a_connection_that_lost_its_scripts_is_replaced(redis_url: str) -> None:
    # two connections: the group commit's and one for this test's own commands, so a
    # dropped connection the pool never got back would leave this test none
    pool = BlockingConnectionPool.from_url(redis_url, max_connections=2, timeout=2)
    redis = Redis.from_pool(pool)
    commit = store.GroupCommit(redis)
    try:
        await redis.set(store.fence_key("g1"), 1)
        await commit.submit(lambda c: c.append_fenced("g1", 1, "1 a"))
        for n in range(3):

            def append(c: store.Commands, n: int = n) -> None:
                c.append_fenced("g1", 1, f"{n + 2} b")

            await redis.script_flush()  # as a failover to a replica without them would
            # sent again on a new connection, with the scripts loaded: the old one to the pool
            await commit.submit(append)
        log = await redis.lrange(store.log_key("g1"), 0, -1)
        assert log == [b"1 a", b"2 b", b"3 b", b"4 b"]
        assert await redis.ping()  # the pool has a connection left for this test
    finally:
        await commit.close()
        await redis.aclose()


async def test_the_group_commit_makes_a_new_connection_when_redis_drops_it(
    server: Running,
) -> None:
    """Redis closes every client connection (a restart, a failover): a move on the dead
    connection fails as not applied, or goes through on a new one; the next ones do, and
    the log holds exactly the moves acknowledged."""
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game="gate", seed=3)
    reply = await ann.call("move", move=game["legal"][0])
    acknowledged = [game["legal"][0]]
    await server.redis.execute_command("CLIENT", "KILL", "TYPE", "normal")
    for _ in range(3):
        move = reply["legal"][0]
        answer = await ann.request("move", move=move)
        if answer["type"] == "moved":
            acknowledged.append(move)
            reply = answer
        else:
            assert answer["code"] == "internal_error", answer
    assert len(acknowledged) >= 3
    log = await Games(server.redis).read_log(game["game"])
    assert [what for _, what in log] == acknowledged


async def test_a_batch_redis_does_not_answer_in_time_fails_and_the_next_goes_through(
    outage: Outage,
) -> None:
    """Redis stops answering (frozen): the batch with it fails after the connection's
    ``socket_timeout``, while Redis still does not answer; writes after that go through
    on a new connection once it does."""
    pool = BlockingConnectionPool.from_url(
        outage.redis.url, max_connections=3, timeout=5, socket_timeout=0.5
    )
    redis = Redis.from_pool(pool)
    commit = store.GroupCommit(redis)
    loop = asyncio.get_running_loop()
    try:
        await redis.set(store.fence_key("g2"), 1)
        await commit.submit(lambda c: c.append_fenced("g2", 1, "1 a"))
        outage.freeze()
        started = loop.time()
        try:
            with pytest.raises(RedisConnectionError, match="did not answer in time"):
                await commit.submit(lambda c: c.append_fenced("g2", 1, "2 unknown"))
            waited = loop.time() - started
        finally:
            outage.thaw()
        assert waited > 0.4, waited  # the socket timeout, not at once
        await commit.submit(lambda c: c.append_fenced("g2", 1, "3 b"))
        log = await redis.lrange(store.log_key("g2"), 0, -1)
        # the write that timed out may or may not have been applied once Redis went on
        assert log[0] == b"1 a" and log[-1] == b"3 b" and len(log) in (2, 3), log
    finally:
        await commit.close()
        await redis.aclose()


class _ReplyEater:
    """A TCP proxy in front of a Redis on a unix socket that, when told to, lets the next
    ``EVALSHA`` through to Redis but cuts the connection before its reply comes back: a
    write whose outcome the server cannot know (Redis ran it)."""

    def __init__(self, socket_path: str) -> None:
        self.socket_path = socket_path
        self.armed = False
        self.eaten = 0
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = self.server.sockets[0].getsockname()[1]
        return f"redis://127.0.0.1:{port}"

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()

    async def _serve(self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter) -> None:
        redis_r, redis_w = await asyncio.open_unix_connection(self.socket_path)
        doomed = asyncio.Event()

        async def up() -> None:
            while data := await client_r.read(65536):
                if self.armed and b"EVALSHA" in data:
                    self.armed = False
                    doomed.set()
                redis_w.write(data)
                await redis_w.drain()

        async def down() -> None:
            while data := await redis_r.read(65536):
                if doomed.is_set():
                    self.eaten += 1
                    return  # the reply never reaches the server
                client_w.write(data)
                await client_w.drain()

        try:
            await asyncio.wait(
                [asyncio.ensure_future(up()), asyncio.ensure_future(down())],
                return_when=asyncio.FIRST_COMPLETED,
            )
        finally:
            client_w.close()
            redis_w.close()


async def test_a_move_whose_write_may_have_landed_leaves_the_game_as_redis_has_it(
    settings: Settings, redis_url: str
) -> None:
    """Redis runs a move's append but the connection fails before its reply: the player
    hears ``internal_error``, yet the log has the move. The server must not play on from
    its own copy without it (the log would then hold moves that do not follow each other,
    and the game could never be rebuilt): the next request finds the game as the log has
    it."""
    eater = _ReplyEater(redis_url.removeprefix("unix://"))
    proxied = await eater.start()
    try:
        async with running(with_settings(settings, redis_url=proxied)) as server:
            ann = await player(server.url, "ann")
            game = await ann.call("new_game", game="gate", seed=3)
            gid = game["game"]
            first = await ann.call("move", move=game["legal"][0], game=gid)
            move = next(m for m in first["legal"] if m != "deal")
            reference = new_game("gate", seed=3)
            reference.play(game["legal"][0])
            reference.play(move)
            assert move not in [m.text for m in reference.legal_moves()]  # not twice
            eater.armed = True
            failed = await ann.request("move", move=move, game=gid)
            assert failed["type"] == "error" and failed["code"] == "internal_error", failed
            assert eater.eaten == 1
            # the player, told it failed, tries it again
            again = await ann.request("move", move=move, game=gid)
            assert again["type"] == "error" and again["code"] == "illegal_move", again
            log = await Games(server.redis).read_log(gid)
            assert [what for _, what in log] == [game["legal"][0], move]
            rebuilt = await Games(server.redis).load(gid, fence=False)
            assert rebuilt is not None
            assert rebuilt.game.view() == server.service.games[gid].game.view()
            assert rebuilt.game.view() == reference.view()
    finally:
        await eater.stop()


async def test_a_move_redis_sits_on_fails_after_the_write_timeout(
    settings: Settings, outage: Outage
) -> None:
    """Redis stops answering (frozen) for longer than ``write_timeout``: the move fails
    with ``internal_error`` at that deadline rather than hanging (while Redis still does
    not answer), both while the group commit is making its connection and with a batch
    on the wire; once Redis is back, the game goes on as Redis has it."""
    loop = asyncio.get_running_loop()

    async def paused_move(ann: Client, move: str, gid: str) -> None:
        outage.freeze()
        started = loop.time()
        try:
            failed = await ann.request("move", move=move, game=gid)
            waited = loop.time() - started
        finally:
            outage.thaw()
        assert failed["type"] == "error" and failed["code"] == "internal_error", failed
        assert waited > 0.4, waited  # the write timeout, not at once

    async def settled(ann: Client, move: str, gid: str) -> dict[str, Any]:
        """The move made again once Redis is back, as the refusal says to ("try again in
        a moment"): on a starved machine the first try after the thaw could meet the
        write timeout while the connection was made afresh (it failed CI so once)."""
        deadline = loop.time() + 10
        while True:
            reply = await ann.request("move", move=move, game=gid)
            if reply.get("code") != "internal_error" or loop.time() > deadline:
                return reply
            await asyncio.sleep(0.05)

    async def once_back(ann: Client, move: str, gid: str) -> dict[str, Any]:
        reply = await settled(ann, move, gid)
        assert reply["type"] != "error", reply
        return reply

    own = with_settings(settings, redis_url=outage.redis.url, write_timeout=0.5)
    async with running(own) as server:
        ann = await player(server.url, "ann")
        game = await ann.call("new_game", game="gate", seed=3)
        gid = game["game"]
        # the group commit without a connection (Redis dropped it): the move's write
        # has to make one (the store's reads made the first: store/direct.py)
        commit = server.service.commit
        await server.redis.execute_command("CLIENT", "KILL", "TYPE", "normal")
        while commit.connected:
            await asyncio.sleep(0.01)
        await paused_move(ann, game["legal"][0], gid)
        first = await once_back(ann, game["legal"][0], gid)
        # now with its connection made: the batch waits on the wire
        second = first["legal"][0]
        await paused_move(ann, second, gid)
        # whether or not Redis ran it once it went on, the game is as its log says (read
        # on a client of the test's own: the server's sends its reads in the group
        # commit's batches, whose new connection may meet the write timeout as well)
        await settled(ann, second, gid)
        own_client = Redis.from_url(outage.redis.url)
        try:
            log = await Games(own_client).read_log(gid)
            rebuilt = await Games(own_client).load(gid, fence=False)
        finally:
            await own_client.aclose()
        assert [what for _, what in log] == [game["legal"][0], second]
        assert rebuilt is not None
        assert rebuilt.game.view() == server.service.games[gid].game.view()


@pytest.mark.parametrize(
    ("gid", "token", "entry"),
    [("ab12", 7, "1700000000000 deal"), ("e7a9e24a5d3d245e", 2**40, "1 b3>b4"), ("x", 0, "1 é")],
)
def test_the_packed_append_is_the_command_hiredis_packs(gid: str, token: int, entry: str) -> None:
    hiredis = pytest.importorskip("hiredis")
    args = ("EVALSHA", store.FENCED_APPEND_SHA, 2, store.fence_key(gid), store.log_key(gid))
    packed = store.packed_append(store.append_head(gid, token), entry)
    assert packed == hiredis.pack_command((*args, token, entry))


async def test_packed_appends_share_batches_with_other_writes_and_are_fenced(
    redis_url: str,
) -> None:
    """Packed appends (the move path's) and general writes in the same batches: each lands
    in order, each writer hears of its own outcome, and a stale token is refused."""
    redis = Redis.from_url(redis_url)
    commit = store.GroupCommit(redis)
    try:
        await redis.set(store.fence_key("p1"), 5)
        await redis.set(store.fence_key("p2"), 6)
        await commit.submit(lambda c: c.append_fenced("p1", 5, "0 first"))  # connects
        assert commit.packs
        heard: list[tuple[str, BaseException | None]] = []
        finished = asyncio.get_running_loop().create_future()

        def told(name: str) -> store.Done:
            def done(error: BaseException | None) -> None:
                heard.append((name, error))
                if len(heard) == 4 and not finished.done():
                    finished.set_result(None)

            return done

        # one pass of the loop: all four go in one batch
        commit.submit_packed(store.packed_append(store.append_head("p1", 5), "1 a"), told("a"))
        commit.submit_callback(lambda c: c.append_fenced("p2", 6, "1 x"), told("x"))
        commit.submit_packed(store.packed_append(store.append_head("p2", 5), "2 y"), told("y"))
        commit.submit_packed(store.packed_append(store.append_head("p1", 5), "2 b"), told("b"))
        await asyncio.wait_for(finished, 5)
        assert [name for name, _ in heard] == ["a", "x", "y", "b"]
        outcome = dict(heard)
        assert outcome["a"] is None and outcome["x"] is None and outcome["b"] is None
        assert isinstance(outcome["y"], store.Fenced)  # p2's fence is 6, not 5
        assert await redis.lrange(store.log_key("p1"), 0, -1) == [b"0 first", b"1 a", b"2 b"]
        assert await redis.lrange(store.log_key("p2"), 0, -1) == [b"1 x"]
    finally:
        await commit.close()
        await redis.aclose()


#: a write that keeps Redis busy for about 0.3 s (its script spins on Redis's clock)
SLOW = """local t = redis.call('TIME'); local until_us = t[1] * 1000000 + t[2] + 300000
repeat t = redis.call('TIME') until t[1] * 1000000 + t[2] >= until_us
return 1"""


def slow(c: store.Commands) -> None:
    c.execute_command("EVAL", SLOW, 0)


@pytest.mark.parametrize("in_flight", [1, 3])
async def test_a_batch_goes_while_the_one_before_is_with_redis(
    redis_url: str, in_flight: int
) -> None:
    redis = Redis.from_url(redis_url)
    commit = store.GroupCommit(redis)
    commit.in_flight = in_flight
    try:
        await redis.set(store.fence_key("g1"), 1)
        first = commit.submit(slow)
        # (waited for, not slept for: on a loaded machine 50 ms was once too short for
        # the first batch to reach Redis, and the test failed)
        await until(lambda: commit.in_redis == 1)
        second = commit.submit(lambda c: c.append_fenced("g1", 1, "1 a"))
        if in_flight > 1:
            await until(lambda: commit.in_redis == 2)  # sent behind the slow one
        else:
            for _ in range(20):  # passes of the loop, each of which could have sent it
                await asyncio.sleep(0)
            assert commit.in_redis == 1 and not first.done()  # held back until answered
        await asyncio.gather(first, second)
        assert (commit.in_redis, commit.batches) == (0, 2)
        assert await redis.lrange(store.log_key("g1"), 0, -1) == [b"1 a"]
    finally:
        await commit.close()
        await redis.aclose()


async def test_batches_that_lost_their_scripts_go_again_once_the_last_is_answered(
    redis_url: str,
) -> None:
    """Two batches with Redis when the scripts are gone: each one's appends are answered
    NOSCRIPT; the connection is dropped once both are answered (not under the second),
    and the appends go again on a new one, with the scripts loaded."""
    pool = BlockingConnectionPool.from_url(redis_url, max_connections=2, timeout=2)
    redis = Redis.from_pool(pool)
    commit = store.GroupCommit(redis)
    try:
        for gid in ("g1", "g2"):
            await redis.set(store.fence_key(gid), 1)
        await commit.submit(lambda c: c.append_fenced("g1", 1, "1 a"))  # (connected)
        await redis.script_flush()

        def slow_then_append(c: store.Commands) -> None:
            slow(c)
            c.append_fenced("g1", 1, "2 b")

        first = commit.submit(slow_then_append)
        await asyncio.sleep(0.05)
        second = commit.submit(lambda c: c.append_fenced("g2", 1, "1 c"))
        await asyncio.sleep(0.05)
        assert commit.in_redis == 2
        await asyncio.wait_for(asyncio.gather(first, second), 5)
        assert await redis.lrange(store.log_key("g1"), 0, -1) == [b"1 a", b"2 b"]
        assert await redis.lrange(store.log_key("g2"), 0, -1) == [b"1 c"]
        assert await redis.ping()  # the old connection went back to the pool
    finally:
        await commit.close()
        await redis.aclose()
