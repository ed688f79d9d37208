"""What one connection sending too much can cost the server, and everyone else: frames past
its rate are dropped unread but for one ``rate_limited`` a second, a connection that keeps
on is closed (1008), and however many frames come in one read, one pass of the event loop
handles a bounded share of them."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from typing import Any

from websockets.frames import Opcode

from server.app.settings import Settings
from server.app.transport.ws import FRAMES_PER_PASS

from .client import Client
from .conftest import running, with_settings
from .raw import RawClient, close_frame, request


async def test_a_connection_that_keeps_past_its_rate_is_closed_1008(settings: Settings) -> None:
    """A client sending pings as fast as it can is closed with 1008 once its bucket is
    ``burst`` requests short; another client's pings are answered all along."""
    async with running(with_settings(settings, rate=10.0, burst=20)) as server:
        other = await Client.connect(server.url)
        await other.call("hello", protocol=1)
        flood = await RawClient.connect(server.web.port)
        pings = b"".join(request("ping", n) for n in range(100))

        async def flooding() -> None:
            with contextlib.suppress(ConnectionError):
                while True:
                    flood.write(pings)
                    await flood.writer.drain()

        async def closed() -> tuple[int, str]:
            while True:
                opcode, payload = await flood.frame()
                if opcode is Opcode.CLOSE:
                    return close_frame(payload)

        writer = asyncio.get_running_loop().create_task(flooding())
        try:
            for _ in range(5):
                assert (await other.request("ping"))["type"] == "pong"
            assert await closed() == (1008, "rate limit exceeded")
        finally:
            writer.cancel()
        await flood.hung_up()  # the server hangs up, without waiting for an answer
        flood.close()  # (else the server's stop waits 10 s for this end to close)
        for _ in range(5):
            assert (await other.request("ping"))["type"] == "pong"


async def test_past_the_limit_one_frame_is_answered_and_the_rest_dropped(
    settings: Settings,
) -> None:
    """18 requests at once against a bucket of 10 (of an unknown type: each is refused as
    soon as it is read, with no coroutine to wait for): 10 are answered ``unknown_type``,
    the first past the limit ``rate_limited``, and the 7 after it get nothing at all (they
    are not read). Once the bucket has refilled, requests are answered again."""
    async with running(with_settings(settings, rate=10.0, burst=10)) as server:
        raw = await RawClient.connect(server.web.port)
        raw.send(*({"type": "nosuch", "id": n} for n in range(1, 19)))
        replies: list[dict[str, Any]] = []
        # one more every little while until one is read: every reply to the 18 has come
        for poll in itertools.count(100):
            if any(r["id"] >= 100 and r["code"] == "unknown_type" for r in replies):
                break
            assert poll < 200, replies
            raw.send({"type": "nosuch", "id": poll})
            with contextlib.suppress(TimeoutError):
                while True:
                    replies.append(await raw.message(timeout=0.3))
        burst = [r for r in replies if r["id"] < 100]
        assert [r["code"] for r in burst] == ["unknown_type"] * 10 + ["rate_limited"], burst
        assert [r["id"] for r in burst] == list(range(1, 12))
        assert burst[-1]["message"] == "more than 10 requests a second: slow down"
        raw.close()  # (else the server's stop waits 10 s for it to answer its close)


async def test_one_write_of_many_frames_is_handled_a_share_a_pass(settings: Settings) -> None:
    """3000 requests of an unknown type in one write, each refused as soon as it is read:
    counted between two turns of a callback that puts itself back with ``call_soon`` (once
    a pass of the event loop), no pass handles more than ``FRAMES_PER_PASS`` of them; all
    are answered, in order."""
    async with running(with_settings(settings, rate=1e6, burst=10**6)) as server:
        raw = await RawClient.connect(server.web.port)
        metrics = server.web.metrics
        loop = asyncio.get_running_loop()
        counts: list[int] = []
        ticking = True

        def tick() -> None:
            counts.append(metrics.requests)
            if ticking:
                loop.call_soon(tick)

        tick()
        raw.write(b"".join(request("nosuch", n) for n in range(3000)))
        for n in range(3000):
            reply = await raw.message()
            assert (reply["id"], reply["code"]) == (n, "unknown_type"), reply
        ticking = False
        handled = [after - before for before, after in itertools.pairwise(counts)]
        assert sum(handled) >= 3000
        assert max(handled) <= FRAMES_PER_PASS, max(handled)
        raw.close()
