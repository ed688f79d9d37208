"""Keeping connections alive: the server pings every open connection every
``ping_interval`` seconds and fails one whose ping is still unanswered after
``ping_timeout`` (1011 "keepalive ping timeout"), as websockets' keepalive does, with one
task for every connection instead of a task (and its timer) each."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from websockets.frames import Opcode

from server.app.settings import Settings
from server.app.transport.ws import RaceConnection, WebServer

from .client import player
from .conftest import Running, running, until
from .raw import RawClient, close_frame


@pytest.fixture
async def quick(settings: Settings, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Running]:
    monkeypatch.setattr(WebServer, "ping_interval", 0.2)
    monkeypatch.setattr(WebServer, "ping_timeout", 0.3)
    async with running(settings) as server:
        yield server


def _held(server: Running) -> list[RaceConnection]:
    assert server.web.server is not None
    return [ws for ws in server.web.server.connections if isinstance(ws, RaceConnection)]


async def test_a_client_that_answers_pings_stays(quick: Running) -> None:
    ann = await player(quick.url, "ann")
    try:
        await asyncio.sleep(1.5)  # several rounds of pings, each answered
        assert (await ann.call("ping"))["type"] == "pong"
        (ws,) = _held(quick)
        assert ws.latency > 0  # a pong came back
        assert ws.keepalive_task is None  # no task of its own
    finally:
        await ann.close()


async def test_a_client_that_answers_no_ping_is_failed_1011(quick: Running) -> None:
    raw = await RawClient.connect(quick.web.port)
    try:
        pings = 0
        async with asyncio.timeout(5):
            while True:
                opcode, payload = await raw.frame()
                if opcode is Opcode.PING:
                    pings += 1
                    continue
                assert opcode is Opcode.CLOSE
                assert close_frame(payload) == (1011, "keepalive ping timeout")
                break
        assert pings >= 1
        await raw.hung_up(5)
        await until(lambda: not _held(quick))
    finally:
        raw.close()
