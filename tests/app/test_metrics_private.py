"""``/metrics`` is for the processes' own network, not for players: behind a proxy
(``client_ip_header`` set), a request that came through it, naming a client's address in
that header, is refused (403); a scrape straight to the process is answered."""

from __future__ import annotations

from server.app.settings import Settings

from . import rawhttp
from .conftest import running, with_settings


async def test_metrics_through_the_proxy_are_refused(settings: Settings) -> None:
    proxied = with_settings(settings, client_ip_header="X-Forwarded-For")
    async with running(proxied) as server:
        port = server.web.port
        direct = await rawhttp.get(port, "/metrics")
        assert direct.status == 200 and "patience_connections" in direct.text
        for header in ("X-Forwarded-For: 203.0.113.7", "x-forwarded-for: 10.0.0.1, 10.0.0.2"):
            through = await rawhttp.request(port, "GET", "/metrics", header)
            assert (through.status, through.content_type) == (403, "text/plain; charset=utf-8")
            assert "patience_" not in through.text
        # the probes are answered all the same (a proxy's checks go through it)
        assert (
            await rawhttp.request(port, "GET", "/healthz", "X-Forwarded-For: 1.2.3.4")
        ).status == 200
        assert (
            await rawhttp.request(port, "GET", "/livez", "X-Forwarded-For: 1.2.3.4")
        ).status == 200


async def test_without_a_proxy_metrics_are_answered(settings: Settings) -> None:
    async with running(settings) as server:
        answer = await rawhttp.request(
            server.web.port, "GET", "/metrics", "X-Forwarded-For: 1.2.3.4"
        )
        assert answer.status == 200
