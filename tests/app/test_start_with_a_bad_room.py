"""A live room that cannot be taken up (its record unreadable, or its race's end failing
to settle: ratings past what the rating model can count) is one error in the log, and
the process starts and serves: it had stopped every process from starting, every time."""

from __future__ import annotations

import logging

import pytest

from server.app import store
from server.app.settings import Settings
from server.app.store.keys import LIVE_ROOMS, room_key

from .client import player
from .conftest import running


async def test_a_process_starts_past_a_room_it_cannot_take_up(
    settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    async with running(settings) as first:
        await first.redis.sadd(LIVE_ROOMS, "BADONE")
        await first.redis.set(room_key("BADONE"), store.pack({"code": "BADONE"}))
    with caplog.at_level(logging.ERROR):
        async with running(settings) as second:
            ann = await player(second.url, "ann")
            game = await ann.call("new_game", game="gate", seed=1)
            await ann.call("move", game=game["game"], move=game["legal"][0])
            # and the housekeeping's passes, which take up rooms nobody holds, go on
            await second.service.housekeeping.sweep()
    assert any("BADONE" in r.getMessage() or "BADONE" in str(r.__dict__) for r in caplog.records)
