"""Caps on open connections, overall (``max_connections``) and per client address
(``max_connections_per_ip``): a connection over one is opened, then closed at once with
1013 and a reason naming the cap; once a connection closes, a new one is let in."""

from __future__ import annotations

import socket

from server.app.settings import Settings

from .client import Client
from .conftest import Running, running, until, with_settings


async def _open(server: Running, address: str = "127.0.0.1") -> Client:
    """A connection from ``address`` (any of 127.0.0.0/8 reaches the loopback)."""
    sock = socket.socket()
    sock.bind((address, 0))
    sock.connect(("127.0.0.1", server.web.port))
    return await Client.connect(server.url, sock=sock)


async def _admitted(client: Client) -> None:
    assert (await client.request("hello", protocol=1))["type"] == "welcome"


async def test_past_the_cap_per_address_a_connection_is_closed_1013(settings: Settings) -> None:
    async with running(with_settings(settings, max_connections_per_ip=2)) as server:
        first, second = await _open(server), await _open(server)
        for client in (first, second):
            await _admitted(client)
        third = await _open(server)
        reason = "too many connections from your address (max_connections_per_ip 2)"
        assert await third.closed() == (1013, reason)
        # another address is not counted with this one
        elsewhere = await _open(server, "127.0.0.2")
        await _admitted(elsewhere)
        # once one of the two has gone, a new one from the address is let in
        await first.close()
        await until(lambda: server.web.connections == 2)
        fourth = await _open(server)
        await _admitted(fourth)
        await _admitted(second)
        assert server.web.connections == 3


async def test_past_the_cap_overall_a_connection_is_closed_1013(settings: Settings) -> None:
    capped = with_settings(settings, max_connections=2, max_connections_per_ip=0)
    async with running(capped) as server:
        first, second = await _open(server), await _open(server, "127.0.0.2")
        for client in (first, second):
            await _admitted(client)
        third = await _open(server, "127.0.0.3")
        assert await third.closed() == (1013, "server full (max_connections 2)")
        await second.close()
        await until(lambda: server.web.connections == 1)
        fourth = await _open(server, "127.0.0.3")
        await _admitted(fourth)
        await _admitted(first)


async def _via_proxy(server: Running, forwarded: str) -> Client:
    """A connection through a proxy that says the client is ``forwarded`` (the header a
    client sends itself comes first: the proxy appends the address it saw)."""
    header = {"X-Forwarded-For": f"6.6.6.6, {forwarded}"}
    return await Client.connect(server.url, additional_headers=header)


async def test_behind_a_proxy_the_address_is_the_one_it_says(settings: Settings) -> None:
    proxied = with_settings(settings, max_connections_per_ip=1, client_ip_header="X-Forwarded-For")
    async with running(proxied) as server:
        ann = await _via_proxy(server, "10.0.0.1")
        bob = await _via_proxy(server, "10.0.0.2")  # the same socket address, not counted
        for client in (ann, bob):
            await _admitted(client)
        again = await _via_proxy(server, "10.0.0.1")
        reason = "too many connections from your address (max_connections_per_ip 1)"
        assert await again.closed() == (1013, reason)


async def test_registering_is_limited_per_address_an_hour(settings: Settings) -> None:
    limited = with_settings(
        settings, register_rate=2, register_burst=2, client_ip_header="X-Forwarded-For"
    )
    async with running(limited) as server:
        for name in ("ann", "bob"):
            client = await _via_proxy(server, "10.0.0.1")
            await client.call("hello", protocol=1)
            await client.call("register", name=name)
        third = await _via_proxy(server, "10.0.0.1")
        await third.call("hello", protocol=1)
        refused = await third.request("register", name="cat")
        assert refused["code"] == "rate_limited"
        assert "no more than 2 new players at once from one address" in refused["message"]
        taken = await third.request("register", name="x")  # a bad name is no registration
        assert taken["code"] == "bad_name"
        elsewhere = await _via_proxy(server, "10.0.0.2")
        await elsewhere.call("hello", protocol=1)
        assert (await elsewhere.call("register", name="cat"))["type"] == "registered"
        server.clock.advance(1800)  # one more comes back every half hour
        assert (await third.call("register", name="dan"))["type"] == "registered"
