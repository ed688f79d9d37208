"""Asking about today's ranked attempt without starting it (``daily`` with ``"start":
false``): what a ``daily`` would do now, pending, being played or ended, with no game
dealt and no clock started. Real Redis, real websocket connections, real server."""

from __future__ import annotations

from redis.asyncio import Redis

from server.app import store
from server.app.domain.daily import day_of

from .client import Client, player
from .conftest import Running


async def player_id(redis: Redis, name: str) -> str:
    pid = await redis.get(store.name_key(name))
    assert isinstance(pid, bytes)
    return pid.decode()


async def test_a_pending_ranked_attempt_is_told_and_not_started(server: Running) -> None:
    ann = await player(server.url, "ann")
    day = day_of(server.clock.now_ms())
    status = await ann.call("daily", game="nestor", start=False)
    assert status["type"] == "daily_status"
    assert status["day"] == day and status["rules"] == "nestor"
    # the streaks show before the attempt as after it (they showed only in its result)
    nothing = {"current": 0, "best": 0}
    assert status["streak"] == {"game": nothing, "all": nothing}
    assert status["par"] is None and status["par_shortest"] is None  # (not before the end)
    assert status["ranked_attempt"] == "pending"
    assert status["game"] is None and status["started_at"] is None
    assert status["ranked_result"] is None
    assert status["reset_at"] - status["reset_in_ms"] <= server.clock.now_ms()
    # nothing was dealt: no ranked game, no current solo game
    redis: Redis = server.redis  # type: ignore[assignment]
    pid = await player_id(redis, "ann")
    assert await redis.get(store.daily_key(day, "nestor", pid)) is None
    assert await redis.hget(store.player_key(pid), "solo") is None
    # asked again later, still pending; the clock starts when the daily is dealt
    server.clock.advance(5)
    again = await ann.call("daily", game="nestor", start=False)
    assert again["ranked_attempt"] == "pending"
    asked = server.clock.now_ms()
    dealt = await ann.call("daily", game="nestor")
    assert dealt["ranked"] and dealt["started_at"] >= asked


async def test_a_ranked_attempt_in_play_then_ended(server: Running) -> None:
    ann = await player(server.url, "ann")
    dealt = await ann.call("daily", game="gate")
    moved = await ann.call("move", move=dealt["legal"][0])
    status = await ann.call("daily", game="gate", start=False)
    assert status["ranked_attempt"] == "playing"
    assert status["game"] == dealt["game"] and status["started_at"] == dealt["started_at"]
    assert status["ranked_result"] is None
    # asking changed nothing: the game goes on where it was
    again = await ann.call("move", move=moved["legal"][0])
    assert again["type"] == "moved"
    await ann.call("resign")
    result = await ann.event("daily_result")
    ended = await ann.call("daily", game="gate", start=False)
    assert ended["ranked_attempt"] == "ended"
    assert ended["game"] == dealt["game"] and ended["started_at"] == dealt["started_at"]
    assert ended["ranked_result"] == result["line"]
    # the screen after the attempt says the same when it is opened again: the streaks,
    # par and the deal's difficulty, as the result carried them (the par and the streak
    # were only in the result, the difficulty only here)
    for field in ("streak", "par", "par_shortest", "difficulty"):
        assert ended[field] == result[field], field
    # no practice game was dealt by asking
    redis: Redis = server.redis  # type: ignore[assignment]
    pid = await player_id(redis, "ann")
    assert await redis.get(store.practice_key(ended["day"], "gate", pid)) is None
    practice = await ann.call("daily", game="gate")
    assert not practice["ranked"] and practice["kind"] == "practice"
    # the other games' attempts are their own
    other = await ann.call("daily", game="nestor", start=False)
    assert other["ranked_attempt"] == "pending"


async def test_start_false_is_refused_as_daily_is(server: Running) -> None:
    ann = await player(server.url, "ann")
    bad = await ann.request("daily", game="gate", start="no")
    assert bad["code"] == "bad_request"
    assert bad["message"] == "daily: field 'start' must be true or false"
    unknown = await ann.request("daily", game="chess", start=False)
    assert unknown["code"] == "no_such_game"
    anonymous = await Client.connect(server.url)
    await anonymous.call("hello", protocol=1)
    refused = await anonymous.request("daily", game="gate", start=False)
    assert refused["code"] == "not_authenticated"
    # start: true is the daily as before
    dealt = await ann.call("daily", game="gate", start=True)
    assert dealt["type"] == "daily" and dealt["ranked"]
