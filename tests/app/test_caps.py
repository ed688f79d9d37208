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
