"""Connections to Redis that died without a word (Redis restarted behind a network that
does not tell: a container's bridge, a NAT, a load balancer): the server finds them dead
before it trusts them with a request, and the bus finds its own dead and subscribes
again. A real Redis behind a real TCP relay (``relay.py``) that severs its connections."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest

from server.app.settings import Settings
from server.app.store.commit import IDLE_CHECK

from .client import player
from .conftest import running, with_settings
from .relay import Relay
from .test_redis_outage import tracebacks

#: how soon the bus must hear again after its connection died silently, at the latest
#: (it looks every second or so; the test allows for a slow machine)
HEARS_AGAIN_S = 8.0


@pytest.fixture
async def relay(redis_url: str) -> AsyncIterator[Relay]:
    relay = Relay(redis_url)
    await relay.start()
    yield relay
    await relay.stop()


async def test_requests_after_the_connections_died_silently_are_answered(
    relay: Relay, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    own = with_settings(settings, redis_url=relay.url)
    async with running(own) as server:
        players = [await player(server.url, f"p{n}") for n in range(4)]
        games = await asyncio.gather(*(p.call("new_game", game="gate", seed=3) for p in players))
        await asyncio.gather(*(p.call("top", board="daily/gate") for p in players))
        moved = await asyncio.gather(
            *(p.call("move", move=g["legal"][0]) for p, g in zip(players, games, strict=True))
        )
        games = [{**g, "legal": m["legal"]} for g, m in zip(games, moved, strict=True)]
        await relay.quiet(IDLE_CHECK + 0.2)  # each connection stands idle past its check
        relay.sever()
        # a move first: the group commit's own connection
        moves = await asyncio.gather(
            *(
                p.request("move", game=g["game"], move=g["legal"][0])
                for p, g in zip(players, games, strict=True)
            )
        )
        assert [m["type"] for m in moves] == ["moved"] * len(players), moves
        replies = await asyncio.gather(
            *(p.request("top", board="daily/gate") for p in players),
            *(p.request("new_game", game="nestor", seed=5) for p in players),
        )
        failed = [r for r in replies if r["type"] == "error"]
        assert not failed, failed
        dealt = replies[len(players) :]  # (the Gate games they replace are let go)
        moves = await asyncio.gather(
            *(
                p.request("move", game=g["game"], move=g["legal"][0])
                for p, g in zip(players, dealt, strict=True)
            )
        )
        assert [m["type"] for m in moves] == ["moved"] * len(players), moves
    assert tracebacks(caplog) == []


async def test_the_bus_finds_its_connection_dead_and_hears_again(
    relay: Relay, settings: Settings
) -> None:
    own = with_settings(settings, redis_url=relay.url)
    async with running(own) as one, running(own) as two:
        ann = await player(one.url, "ann")
        bob = await player(two.url, "bob")
        code = (await ann.call("room_create", game="gate", seed=3))["code"]
        await bob.call("room_join", code=code)
        await ann.event("room", lambda e: any(p["name"] == "bob" for p in e["players"]))
        relay.sever()
        severed = time.monotonic()
        # nothing tells either process; bob readies through his
        while (reply := await bob.request("ready"))["type"] == "error":
            assert time.monotonic() - severed < HEARS_AGAIN_S, reply
            await asyncio.sleep(0.1)
        await ann.event(
            "room",
            lambda e: any(p["name"] == "bob" and p["ready"] for p in e["players"]),
            timeout=HEARS_AGAIN_S,
        )
        assert one.service.bus.recovered >= 1
