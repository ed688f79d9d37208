"""The store's Lua scripts: each names its KEYS and ARGV, each is run by its hash through
one wrapper, and a Redis that has lost them (a restart, a failover, ``SCRIPT FLUSH``)
is sent them again, by the wrapper and by the group commit alike."""

from __future__ import annotations

import asyncio
import re
from collections.abc import AsyncIterator

import pytest
from redis.asyncio import Redis
from redis.exceptions import ResponseError

from server.app import store
from server.app.domain.boards import parse_board
from server.app.store import scripts
from server.app.store.boards import Boards
from server.app.store.daily import Dailies
from server.app.store.keys import away_key, board_key, claim_key, online_key, version_key
from server.app.store.limits import Limit, Limiter
from server.app.store.presence import Presence
from server.app.store.rooms import Rooms

from .conftest import Outage

ALL = [value for value in vars(scripts).values() if isinstance(value, scripts.Script)]


def test_every_script_is_a_script_naming_its_keys_and_arguments() -> None:
    names = {name for name, value in vars(scripts).items() if isinstance(value, scripts.Script)}
    assert names >= {
        "FENCED_APPEND",
        "ROOM_CAS",
        "DELETE_IF_OURS",
        "SUBMIT_TIME",
        "SUBMIT_COUNT",
        "STREAK",
        "SLIDING_WINDOW",
    }
    # no Lua source left as a bare string
    for name, value in vars(scripts).items():
        if isinstance(value, str):
            assert "redis.call" not in value, name
    for script in ALL:
        lines = script.source.strip().splitlines()
        head = len([n for n in (script.keys, script.args) if n])
        body = "\n".join(lines[head:])
        # past its locals, a script reads no KEYS[n] or ARGV[n]
        assert not re.search(r"\b(KEYS|ARGV)\[", body), script.source
        for name in (*script.keys, *script.args):
            assert re.search(rf"\b{name}\b", body), (name, script.source)


def test_a_script_must_declare_its_names_first() -> None:
    with pytest.raises(ValueError, match="local room, version = KEYS"):
        scripts.Script(("room", "version"), (), "local version, room = KEYS[1], KEYS[2]")
    with pytest.raises(ValueError, match="local expected = ARGV"):
        scripts.Script((), ("expected",), "return ARGV[1]")
    with pytest.raises(ValueError, match="1 keys and 1 arguments given 2 and 0"):
        scripts.DELETE_IF_OURS.command(["a", "b"], [])


@pytest.fixture
async def own(outage: Outage) -> AsyncIterator[Redis]:
    """A client of a Redis of the test's own (its command counts are the test's)."""
    redis = Redis.from_url(outage.redis.url)
    yield redis
    await redis.aclose()


async def counts(redis: Redis) -> dict[str, int]:
    stats = await redis.info("commandstats")
    return {
        name: int(stats.get(f"cmdstat_{name}", {}).get("calls", 0)) for name in ("eval", "evalsha")
    }


async def test_the_repositories_run_scripts_by_hash_and_send_the_source_once_when_lost(
    own: Redis,
) -> None:
    """Every repository's script goes by ``EVALSHA``; after ``SCRIPT FLUSH`` each is sent
    as source (``EVAL``) once, which caches it again, and goes by its hash after that."""
    rooms, presence, limiter = Rooms(own, "p1"), Presence(own, "p1"), Limiter(own)
    dailies, boards = Dailies(own), Boards(own)
    wins = parse_board("wins/gate", "2026-11-22", "2026-W47")

    async def each() -> None:
        version = int(await own.get(version_key("ab")) or 0)
        assert await rooms.write("ab", version, {"n": version}, 60) == version + 1
        await presence.mark("ann", 30)
        await presence.unmark("ann", 1_000)
        assert await own.exists(online_key("ann")) == 0
        token = await limiter.claim("hint", "ann", 1000)
        assert token is not None
        await limiter.let_go("hint", "ann", token)
        assert await own.exists(claim_key("hint", "ann")) == 0
        assert (await limiter.take(Limit("deal", 100, 60_000), "ann", 1)).allowed
        await dailies.count_win("ann", "gate", "2026-11-22", "2026-11-21")
        await boards.submit_count(wins, "ann", {"player": "ann"}, 1_000)

    await each()  # loads each script, by whichever way
    await own.config_resetstat()
    await each()
    assert await counts(own) == {"eval": 0, "evalsha": 6}
    await own.script_flush()
    await each()
    await each()
    # six scripts, each sent as source once
    assert (await counts(own))["eval"] == 6
    assert await own.zcard(board_key(wins.id)) == 1


async def test_the_room_write_runs_its_compare_and_set_once_after_a_flush(own: Redis) -> None:
    rooms = Rooms(own, "p1")
    assert await rooms.write("cd", 0, {"a": 1}, 60) == 1
    await own.script_flush()
    assert await rooms.write("cd", 1, {"a": 2}, 60) == 2
    assert await rooms.write("cd", 1, {"a": 3}, 60) == 0  # stale: not written
    assert await rooms.read("cd") == {"a": 2}
    assert "cd" in await rooms.live_codes()


async def test_a_scripts_own_error_is_raised_and_recognised(own: Redis) -> None:
    await own.set(store.fence_key("g"), 2)
    keys = [store.fence_key("g"), store.log_key("g")]
    with pytest.raises(ResponseError) as raised:
        await scripts.FENCED_APPEND(own, keys, [1, "1 a"])
    assert scripts.script_error(raised.value, scripts.FENCED)
    assert await scripts.FENCED_APPEND(own, keys, [2, "1 a"]) == 1


async def test_the_group_commit_sends_a_write_again_once_redis_has_lost_its_script(
    own: Redis,
) -> None:
    """The scripts flushed under the group commit (a failover to a replica without
    them): the writes of that batch, packed or not, are sent again on a connection that
    loads them, and land in order, once each; nobody hears ``NOSCRIPT``."""
    commit = store.GroupCommit(own)
    try:
        await own.set(store.fence_key("g1"), 1)
        head = store.append_head("g1", 1)
        await commit.submit(lambda c: c.append_fenced("g1", 1, "1 a"))
        assert commit.packs
        for n in range(3):
            await own.script_flush()
            heard = await both(commit, head, n)
            assert heard == [None, None]
        log = await own.lrange(store.log_key("g1"), 0, -1)
        assert log == [b"1 a"] + [f"{n} {k}".encode() for n in range(3) for k in ("p", "q")]
    finally:
        await commit.close()


async def both(commit: store.GroupCommit, head: bytes, n: int) -> list[BaseException | None]:
    """A packed append and another, in one batch (one callback for both): what each
    heard."""
    heard: list[BaseException | None] = []
    done = asyncio.get_running_loop().create_future()

    def told(error: BaseException | None) -> None:
        heard.append(error)
        if len(heard) == 2:
            done.set_result(None)

    commit.submit_packed(store.packed_append(head, f"{n} p"), told)
    commit.submit_callback(lambda c: c.append_fenced("g1", 1, f"{n} q"), told)
    await asyncio.wait_for(done, 5)
    return heard


async def test_an_online_mark_is_taken_away_by_its_own_process_alone(own: Redis) -> None:
    """The mark names the process and the device (``presence.py``); only that process
    takes it away, whichever device, and not a process whose id its own begins with. A
    player connected to no process once a mark is taken away is away from then, the same
    time for every process; a sign-in anywhere ends it."""
    here, there, longer = Presence(own, "p1"), Presence(own, "p2"), Presence(own, "p1x")
    assert await here.mark("ann", 30, "51be0c7a") is None
    assert (await here.where("ann"), await here.device("ann")) == ("p1", "51be0c7a")
    await there.unmark("ann", 1_000)
    await longer.unmark("ann", 1_000)
    assert await here.where("ann") == "p1"
    assert await own.exists(away_key("ann")) == 0  # (connected: not away)
    assert await there.mark("ann", 30, "9c41d2e0") == "p1"  # (connected there since)
    await here.unmark("ann", 2_000)
    assert (await here.where("ann"), await here.device("ann")) == ("p2", "9c41d2e0")
    assert await own.exists(away_key("ann")) == 0
    await there.unmark("ann", 3_000)
    assert await own.exists(online_key("ann")) == 0
    # away from 3,000 for every process, however late each first looks
    assert await here.away_since("ann", 9_000) == await there.away_since("ann", 5_000) == 3_000
    await longer.mark("ann", 30)  # back, on a third process: away no longer
    assert await own.exists(away_key("ann")) == 0
    await longer.unmark("ann", 10_000)
    # a player whose process died, marking nothing: away from the first look
    assert await here.away_since("cat", 4_000) == 4_000
    assert await there.away_since("cat", 6_000) == 4_000
    await here.mark("bob", 30)  # a mark without a device
    assert (await here.where("bob"), await here.device("bob")) == ("p1", None)
    await here.unmark("bob", 1_000)
    assert await own.exists(online_key("bob")) == 0
