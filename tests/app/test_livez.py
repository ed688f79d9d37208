"""``GET /livez``, the liveness probe: the event loop answers it, whatever Redis does, so
that an orchestrator restarts a process that is stuck, not every process while Redis is
away. ``/healthz`` (readiness) still answers 503 then."""

from __future__ import annotations

from server.app.settings import Settings

from . import rawhttp
from .conftest import Outage, running, with_settings

PLAIN = "text/plain; charset=utf-8"


async def test_livez_answers_while_redis_is_away(outage: Outage, settings: Settings) -> None:
    async with running(with_settings(settings, redis_url=outage.redis.url)) as server:
        port = server.web.port
        live = await rawhttp.get(port, "/livez")
        assert (live.status, live.content_type, live.text) == (200, PLAIN, "ok\n")
        assert (await rawhttp.get(port, "/healthz")).status == 200
        outage.kill()
        try:
            ready = await rawhttp.get(port, "/healthz")
            assert (ready.status, ready.text) == (503, "redis unavailable\n")
            live = await rawhttp.get(port, "/livez")
            assert (live.status, live.text) == (200, "ok\n")
        finally:
            outage.restart()


async def test_livez_is_a_probe_like_healthz(outage: Outage, settings: Settings) -> None:
    """HEAD, no query string, no websocket on its path, other methods 405."""
    async with running(with_settings(settings, redis_url=outage.redis.url)) as server:
        port = server.web.port
        head = await rawhttp.request(port, "HEAD", "/livez")
        assert (head.status, head.body, head.header("Content-Length")) == (200, b"", "3")
        for target in ("/livez?x=1", "/livez/", "/livez/x"):
            assert (await rawhttp.get(port, target)).status == 404, target
        upgrade = await rawhttp.request(
            port,
            "GET",
            "/livez",
            "Connection: Upgrade",
            "Upgrade: websocket",
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
            "Sec-WebSocket-Version: 13",
        )
        assert (upgrade.status, upgrade.text) == (200, "ok\n")
        posted = await rawhttp.request(port, "POST", "/livez", "Content-Length: 0")
        assert (posted.status, posted.header("Allow")) == (405, "GET, HEAD")
