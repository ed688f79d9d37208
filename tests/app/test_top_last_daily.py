"""``top`` with ``around`` or ``friends`` and no board: the board of the last daily the
player played on this server (the reply names it). Real Redis, real websocket
connections, real server."""

from __future__ import annotations

from server.app.domain.daily import day_of

from .client import Client, player
from .conftest import Running
from .test_daily import next_day


async def test_the_last_daily_played_is_the_board(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    for kind in ("around", "friends"):
        none_yet = await ann.request("top", **{kind: True})
        assert none_yet["code"] == "no_such_board"
        assert none_yet["message"] == "you have played no daily on this server yet; name a board"
    day = day_of(server.clock.now_ms())
    for client in (ann, bob):
        await client.call("daily", game="nestor")
        await client.call("resign")
    await ann.call("follow", name="bob")
    friends = await ann.call("top", friends=True)
    assert friends["board"] == f"daily/nestor/{day}"
    assert sorted(e["player"] for e in friends["entries"]) == ["ann", "bob"]
    around = await bob.call("top", around=True)
    assert around["board"] == f"daily/nestor/{day}" and around["rank"] in (1, 2)

    # a daily just started is the last one played, before it is on its board
    await ann.call("daily", game="gate")
    mine = await ann.call("top", around=True)
    assert mine["board"] == f"daily/gate/{day}" and mine["rank"] is None
    assert (await bob.call("top", around=True))["board"] == f"daily/nestor/{day}"
    # the practice attempt of a daily is that daily too
    await bob.call("daily", game="nestor")
    assert (await bob.call("top", friends=True))["board"] == f"daily/nestor/{day}"

    # the next day, nothing played yet: still the day it was played
    next_day(server.clock)
    assert (await ann.call("top", friends=True))["board"] == f"daily/gate/{day}"
    # a board named is the board, as ever
    named = await ann.call("top", board="daily/nestor", friends=True)
    assert named["board"] == f"daily/nestor/{day_of(server.clock.now_ms())}"


async def test_without_around_or_friends_a_board_is_needed(server: Running) -> None:
    ann = await player(server.url, "ann")
    await ann.call("daily", game="nestor")
    missing = await ann.request("top")
    assert missing["code"] == "bad_request"
    assert missing["message"] == "top: field 'board' is required"
    anonymous = await Client.connect(server.url)
    await anonymous.call("hello", protocol=1)
    refused = await anonymous.request("top", friends=True)
    assert refused["code"] == "not_authenticated"
