"""The limits every server process on one Redis shares, counted in Redis over a sliding
window of server time: registrations from one address, a player's new games, hints and
stuck checks. Several servers here are several ``Service`` instances in this process on
one Redis and one clock (each keeps its own memory, as a process does), or real server
processes where a test needs them."""

from __future__ import annotations

from server.app.settings import Settings

from .client import Client
from .conftest import running, with_settings

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
