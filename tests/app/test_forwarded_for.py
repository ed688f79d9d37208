"""The client's address behind a proxy (``client_ip_header``) when the header comes in
several lines: a client that sends its own ``X-Forwarded-For`` through a proxy that adds
one more line (HAProxy's ``option forwardfor``) is let in, and counted at the address in
the last line, the one the proxy wrote. ``tests/deploy/test_haproxy.py`` does the same
through a real HAProxy."""

from __future__ import annotations

from server.app.settings import Settings

from .client import Client
from .conftest import Running, running, until, with_settings


def _proxied(settings: Settings) -> Settings:
    return with_settings(settings, max_connections_per_ip=1, client_ip_header="X-Forwarded-For")


async def _with_lines(server: Running, *lines: str) -> Client:
    """A connection whose request carries ``X-Forwarded-For`` once per line given."""
    headers = [("X-Forwarded-For", line) for line in lines]
    return await Client.connect(server.url, additional_headers=headers)


async def test_two_header_lines_the_address_is_the_last(settings: Settings) -> None:
    async with running(_proxied(settings)) as server:
        ann = await _with_lines(server, "9.9.9.9", "203.0.113.7")
        welcome = await ann.request("hello", protocol=1)
        assert welcome["type"] == "welcome", welcome
        assert server.web.per_address == {"203.0.113.7": 1}
        # the same last line from another client is the same address: past the cap of 1
        again = await _with_lines(server, "8.8.8.8", "203.0.113.7")
        reason = "too many connections from your address (max_connections_per_ip 1)"
        assert await again.closed() == (1013, reason)
        # the client's own line alone does not make it another address
        other = await _with_lines(server, "203.0.113.7", "198.51.100.2")
        assert (await other.request("hello", protocol=1))["type"] == "welcome"
        await until(lambda: server.web.per_address == {"203.0.113.7": 1, "198.51.100.2": 1})


async def test_lines_of_comma_joined_values_the_last_of_the_last_line(
    settings: Settings,
) -> None:
    async with running(_proxied(settings)) as server:
        ann = await _with_lines(server, "1.1.1.1, 2.2.2.2", "3.3.3.3 , 4.4.4.4")
        assert (await ann.request("hello", protocol=1))["type"] == "welcome"
        assert server.web.per_address == {"4.4.4.4": 1}
        # an empty last value (a trailing comma) names no address: the socket's is used
        bob = await _with_lines(server, "5.5.5.5,")
        assert (await bob.request("hello", protocol=1))["type"] == "welcome"
        await until(lambda: server.web.per_address == {"4.4.4.4": 1, "127.0.0.1": 1})
