"""The limits every server process on one Redis shares, counted in Redis over a sliding
window of server time: registrations from one address, a player's new games, hints and
stuck checks. Several servers here are several ``Service`` instances in this process on
one Redis and one clock (each keeps its own memory, as a process does), or real server
processes where a test needs them."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections.abc import AsyncIterator
from pathlib import Path

from server.app.settings import Settings
from tests.solver.positions import STUCK

from .client import Client, player, signed_in
from .cluster import LocalCluster
from .conftest import ManualClock, Running, running, until, with_settings
from .test_cluster import cluster, local_cluster, on_cluster  # noqa: F401 (fixtures)
from .test_processes import three


async def registered(url: str, name: str) -> dict:
    client = await Client.connect(url)
    await client.call("hello", protocol=1)
    return await client.request("register", name=name)


async def test_a_class_registers_at_once_and_then_one_comes_back_every_twelve_minutes(
    settings: Settings,
) -> None:
    """``register_burst`` (30) from one address at once, spread over three processes (a
    class behind one address), then ``register_rate`` (5) an hour: the 31st is refused
    with the wait in words, and one more fits once that wait is over, whichever process
    it asks."""
    limited = with_settings(settings, register_rate=5, register_burst=30)
    assert Settings().register_burst == 30 and Settings().register_rate == 5  # the defaults
    clock = limited.clock
    assert isinstance(clock, ManualClock)
    # the bucket fills by the clock: thirty registrations that take a loaded machine more
    # than a second would leave a wait of 59 s where the test reads 60
    clock.freeze()
    async with running(limited) as one, running(limited) as two, running(limited) as three:
        urls = [one.url, two.url, three.url]
        for n in range(30):
            reply = await registered(urls[n % 3], f"pupil{n}")
            assert reply["type"] == "registered", (n, reply)
        refused = await registered(two.url, "pupil30")
        assert refused["code"] == "rate_limited"
        assert refused["message"] == (
            "no more than 30 new players at once from one address, then 5 an hour: "
            "try again in 12 min, or sign in as a player you already are (a link code, or a "
            "recovery key)"
        )
        clock.advance(11 * 60)
        assert "try again in 60 s" in (await registered(three.url, "pupil30"))["message"]
        clock.advance(60)
        assert (await registered(three.url, "pupil30"))["type"] == "registered"
        assert (await registered(one.url, "pupil31"))["code"] == "rate_limited"
        # a name taken is no registration: its place goes back
        clock.advance(12 * 60)
        assert (await registered(one.url, "pupil0"))["code"] == "name_taken"
        assert (await registered(two.url, "pupil31"))["type"] == "registered"
        # a quiet day fills the bucket again, and no more than it holds
        clock.advance(24 * 3600)
        for n in range(30):
            assert (await registered(urls[n % 3], f"next{n}"))["type"] == "registered"
        assert (await registered(one.url, "next30"))["code"] == "rate_limited"


async def test_dealing_is_limited_per_player_across_processes(settings: Settings) -> None:
    """``deal_rate`` (30) new games a minute for one player, wherever they deal them."""
    most = 30
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        for _ in range(20):
            await ann.call("new_game", game="gate")
        assert ann.token is not None
        ann = await signed_in(two.url, ann.token)  # the next through another process
        for _ in range(most - 20):
            await ann.call("new_game", game="gate")
        refused = await ann.request("new_game", game="gate")
        assert refused.get("code") == "rate_limited", refused
        assert refused["message"].startswith(f"at most {most} new games a minute: try again in ")
        # another player deals as before
        bob = await player(one.url, "bob")
        assert (await bob.call("new_game", game="gate"))["type"] == "game"
        one.clock.advance(60)
        assert (await ann.call("new_game", game="gate"))["type"] == "game"


async def games_of(server: Running, pid: str) -> set[str]:
    """The ids of the games Redis holds for a player (their meta, ``g:{gid}``)."""
    found = set()
    async for key in server.redis.scan_iter(match="g:{*}", count=1000):
        name = key.decode()
        if name.endswith("}") and await server.redis.hget(name, "owner") == pid.encode():
            found.add(name[3:-1])
    return found


async def test_a_player_keeps_the_newest_solo_game_and_ten_finished(server: Running) -> None:
    """Dealing game after game keeps a bounded number in Redis: a solo game replaced
    before it ended goes, with its log; of those that ended, the last ten stay (a
    finished game is still named later, as a challenge will); the daily is no solo game
    dealt by new_game and stays."""
    ann = await player(server.url, "ann")
    pid = (await ann.call("hello", protocol=1, token=ann.token))["player"]["id"]
    daily = (await ann.call("daily", game="gate"))["game"]
    finished = []
    for seed in range(14):
        dealt = await ann.call("new_game", game="gate", seed=seed)
        await ann.call("move", move=dealt["legal"][0])
        await ann.call("resign")
        finished.append(dealt["game"])
    unfinished = []
    for seed in range(5):
        dealt = await ann.call("new_game", game="gate", seed=seed)
        await ann.call("move", move=dealt["legal"][0])
        unfinished.append(dealt["game"])
    kept = await games_of(server, pid)
    assert kept == {daily, unfinished[-1], *finished[-10:]}, (len(kept), kept)
    assert await server.redis.exists(*(f"g:{{{gid}}}:log" for gid in unfinished[:-1])) == 0
    # a game replaced unfinished is gone; a finished one kept is still there, over
    gone = await ann.request("move", game=unfinished[0], move="deal")
    assert gone["code"] == "no_such_game", gone
    over = await ann.request("move", game=finished[-1], move="deal")
    assert over["code"] == "game_over", over
    # the current game plays on
    assert (await ann.call("move", move="deal"))["game"] == unfinished[-1]


async def until_claimed(server: Running, pid: str) -> None:
    """Wait until the player's hint holds its claim (``claim:hint:<pid>``) in Redis, or
    5 s (the hint is then in hand all the same: the worker is held far longer)."""
    deadline = time.monotonic() + 5
    while not await server.redis.exists(f"claim:hint:{pid}") and time.monotonic() < deadline:
        await asyncio.sleep(0.02)


def wait_for_file(path: str, most: float) -> None:
    """A task that holds a worker process until ``path`` exists (at most ``most`` s)."""
    deadline = time.monotonic() + most
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.01)


@contextlib.asynccontextmanager
async def hint_worker_held(server: Running, tmp_path: Path) -> AsyncIterator[None]:
    """The server's one hint worker busy with something else until the block ends, so
    that the hints asked meanwhile wait for it, however fast they are."""
    release = tmp_path / "release"
    held = asyncio.ensure_future(
        server.service.workers.run("hints", wait_for_file, str(release), 60.0)
    )
    try:
        yield
    finally:
        release.touch()
        await held


async def test_ten_hints_a_minute_across_three_processes(redis_url: str, tmp_path: Path) -> None:
    """A player signing in through one process after another gets ten hints a minute
    in all, not ten in each."""
    procs = three(redis_url, tmp_path)
    try:
        for proc in procs:
            await asyncio.to_thread(proc.start)
        ann = await player(procs[0].url, "ann")
        await ann.call("new_game", game="nestor", seed=1)
        given = 0
        for proc, asks in zip(procs, (4, 4, 3), strict=True):
            if proc is not procs[0]:
                assert ann.token is not None
                ann = await signed_in(proc.url, ann.token)
            for _ in range(asks):
                reply = await ann.request("hint")
                if reply["type"] == "hint":
                    given += 1
                    assert reply["hints"] == given
                else:
                    assert reply["code"] == "rate_limited", reply
                    assert "at most 10 hints a minute" in reply["message"], reply
        assert given == 10
    finally:
        for proc in procs:
            if proc.process is not None:
                proc.stop(signal.SIGKILL)


async def test_one_hint_at_a_time_across_processes(settings: Settings, tmp_path: Path) -> None:
    """While a player's hint is being worked out in one process, a hint they ask
    through another (signed in there meanwhile) is refused."""
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        pid = (await ann.call("hello", protocol=1, token=ann.token))["player"]["id"]
        await ann.call("new_game", game="nestor", seed=1)
        async with hint_worker_held(one, tmp_path):
            first = asyncio.ensure_future(ann.request("hint"))
            # ann's hint holds its claim in Redis while it waits for the worker
            await until_claimed(one, pid)
            assert ann.token is not None
            again = await signed_in(two.url, ann.token)
            refused = await again.request("hint")
            assert refused.get("code") == "rate_limited", refused
            assert "a hint is being worked out" in refused["message"]
        with contextlib.suppress(ConnectionError):  # (signed out meanwhile)
            await first
        # once that hint is over (its claim let go), the next is worked out
        while await two.redis.exists(f"claim:hint:{pid}"):
            await asyncio.sleep(0.02)
        assert (await again.call("hint"))["type"] == "hint"


async def test_a_flood_of_hints_is_refused_at_once_and_an_idle_player_still_served(
    server: Running, tmp_path: Path
) -> None:
    """Ten players who have had a hint each ask again while the worker is busy: a few
    wait (four a worker), the rest are refused at once rather than queued for seconds;
    then a player who has had none asks, goes before the waiting ones, and is answered
    first once the worker is free (the waiting hint of the player with the most lately
    is refused to make room)."""
    flood = [await player(server.url, f"p{n}") for n in range(10)]
    for client in flood:
        await client.call("new_game", game="nestor", seed=1)
        assert (await client.call("hint"))["hints"] == 1
    ivy = await player(server.url, "ivy")
    await ivy.call("new_game", game="nestor", seed=1)
    answered: list[str] = []

    async def ask(client: Client) -> dict:
        reply = await client.request("hint", timeout=30)
        answered.append(client.name or "")
        return reply

    async with hint_worker_held(server, tmp_path):
        asked = [asyncio.ensure_future(ask(client)) for client in flood]
        # refused at once, while the worker is still held: they do not wait for it
        deadline = time.monotonic() + 5
        while sum(task.done() for task in asked) < 5 and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        refused = [task.result() for task in asked if task.done()]
        assert len(refused) == 5, f"{len(refused)} of 10 answered while the worker was busy"
        for reply in refused:
            assert reply["code"] == "rate_limited", reply
            assert "busy" in reply["message"], reply
        waiting = [task for task in asked if not task.done()]
        ivys = asyncio.ensure_future(ask(ivy))
        done, _ = await asyncio.wait(waiting, timeout=5, return_when=asyncio.FIRST_COMPLETED)
        assert len(done) == 1 and next(iter(done)).result()["code"] == "rate_limited"
    assert (await ivys)["type"] == "hint"
    served = [reply for reply in await asyncio.gather(*asked) if reply["type"] == "hint"]
    assert len(served) == 4
    # the hint handed to the worker before ivy's came first, then ivy's
    assert answered[-5:].index("ivy") == 1, answered


async def test_stuck_checks_are_limited_per_player_across_processes(settings: Settings) -> None:
    """Ten stuck checks a minute per player, wherever their games are played: an
    eleventh position is not searched then, and is checked once the minute allows
    (if the game still stands there)."""
    position = STUCK["gate"]

    async def stuck_game(client: Client) -> str:
        gid = (await client.call("new_game", game="gate", seed=position.seed))["game"]
        for move in position.line:
            await client.call("move", move=move, game=gid)
        return gid

    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        for n in range(10):
            if n == 5:
                assert ann.token is not None
                ann = await signed_in(two.url, ann.token)
            gid = await stuck_game(ann)
            assert (await ann.event("stuck", timeout=30))["game"] == gid
        searched = one.service.stuck.searched + two.service.stuck.searched
        assert searched == 10
        watch = two.service.stuck
        gid = await stuck_game(ann)

        def told() -> list[dict]:
            return [e for e in ann.events if e["type"] == "stuck"]

        await until(lambda: getattr(watch, "deferred", 0) or told(), timeout=30)
        assert told() == []
        assert one.service.stuck.searched + two.service.stuck.searched == 10
        two.clock.advance(60)
        assert (await ann.event("stuck", timeout=30))["game"] == gid
        assert watch.searched == 6


async def test_the_limits_and_the_games_kept_on_a_cluster(
    cluster: LocalCluster,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    """On a Redis Cluster too (a window's script touches one key, a game's keys are
    deleted a slot at a time): the registrations an hour, the new games a minute, a
    hint, and the solo games kept."""
    settings = with_settings(
        on_cluster(cluster, tmp_path), register_rate=1, register_burst=1, deal_rate=3
    )
    async with running(settings) as server:
        ann = await registered(server.url, "ann")
        assert ann["type"] == "registered"
        assert (await registered(server.url, "bob"))["code"] == "rate_limited"
        ann_client = await signed_in(server.url, ann["token"])
        dealt = [await ann_client.call("new_game", game="nestor", seed=n) for n in range(3)]
        refused = await ann_client.request("new_game", game="nestor")
        assert refused["code"] == "rate_limited"
        assert (await ann_client.call("hint"))["hints"] == 1
        assert await games_of(server, ann["player"]["id"]) == {dealt[-1]["game"]}
