"""The limits every server process on one Redis shares, counted in Redis over a sliding
window of server time: registrations from one address, a player's new games, hints and
stuck checks. Several servers here are several ``Service`` instances in this process on
one Redis and one clock (each keeps its own memory, as a process does), or real server
processes where a test needs them."""

from __future__ import annotations

from server.app.settings import Settings

from .client import Client, player, signed_in
from .conftest import Running, running, with_settings

HOUR_MS = 3_600_000


async def registered(url: str, name: str) -> dict:
    client = await Client.connect(url)
    await client.call("hello", protocol=1)
    return await client.request("register", name=name)


async def test_registrations_are_counted_over_the_last_hour_not_the_clock_hour(
    settings: Settings,
) -> None:
    """Three an hour from one address, across two processes: three at 00:59 leave none
    for 01:01 (counted by the clock hour, three more fitted in two minutes), and one
    comes free an hour after the first."""
    limited = with_settings(settings, register_rate=3)
    clock = limited.clock
    async with running(limited) as one, running(limited) as two:
        # 00:59:00 of an hour
        clock.advance((HOUR_MS - 60_000 - clock.now_ms() % HOUR_MS) / 1000)
        for url, name in ((one.url, "ann"), (two.url, "bob"), (one.url, "cat")):
            assert (await registered(url, name))["type"] == "registered"
            clock.advance(1)
        refused = await registered(two.url, "dan")
        assert refused["code"] == "rate_limited"
        assert "no more than 3 new players an hour from one address" in refused["message"]
        clock.advance(120)  # 01:01:03, the next clock hour
        refused = await registered(one.url, "dan")
        assert refused.get("code") == "rate_limited", refused
        assert "try again in 58 min" in refused["message"], refused["message"]
        clock.advance(HOUR_MS / 1000 - 123)  # an hour after ann's
        assert (await registered(two.url, "dan"))["type"] == "registered"
        assert (await registered(one.url, "eve"))["code"] == "rate_limited"


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
