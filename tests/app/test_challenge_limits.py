"""What challenges keep and allow: a solo game's replay kept ``replay_ttl``, as long as a
challenge made from it lives, a race's for good; challenges a player may make an hour;
the replays of a daily deal's challenge games secret until the reset, over the websocket
and over HTTP."""

from __future__ import annotations

from server.app.settings import Settings
from server.app.store.keys import log_key, replay_key

from . import rawhttp
from .client import player
from .conftest import Running, running, with_settings
from .test_challenges import made, solo_won


async def test_a_solo_replay_lives_a_week_and_as_long_as_its_challenge(server: Running) -> None:
    # a finished solo game is kept replay_ttl, its replay made from its log when asked
    # for (nothing more kept at its end); a challenge made of it keeps the replay as long
    # as the challenge
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    gid = await solo_won(ann)
    redis = server.redis
    assert not await redis.exists(replay_key(gid))
    ttl = await redis.ttl(log_key(gid))
    assert server.settings.replay_ttl - 60 < ttl <= server.settings.replay_ttl
    replay = (await bob.call("replay", replay=gid))["replay"]
    assert replay["kind"] == "solo" and replay["player"] == "ann" and replay["seed"] == 3
    assert replay["result"]["status"] == "won"
    assert not await redis.exists(replay_key(gid))  # (made, not kept)
    await made(ann, gid)
    ttl = await redis.ttl(replay_key(gid))
    assert server.settings.challenge_ttl - 60 < ttl <= server.settings.challenge_ttl
    assert (await bob.call("replay", replay=gid))["replay"] == replay


async def test_making_challenges_is_limited_an_hour(settings: Settings) -> None:
    async with running(with_settings(settings, challenge_rate=2)) as server:
        ann = await player(server.url, "ann")
        games = [await solo_won(ann) for _ in range(3)]
        await made(ann, games[0])
        await made(ann, games[1])
        await made(ann, games[0])  # the same challenge again: not a new one
        refused = await ann.request("challenge_create", replay=games[2])
        assert refused["code"] == "rate_limited", refused
        assert refused["message"].startswith("at most 2 new challenges an hour")
        server.clock.advance(3601)
        await made(ann, games[2])


async def test_a_daily_challenge_games_replay_is_secret_until_the_reset(server: Running) -> None:
    ann, bob, cy = [await player(server.url, n) for n in ("ann", "bob", "cy")]
    daily = await ann.call("daily", game="gate")
    await ann.call("resign", game=daily["game"])
    challenge = await made(ann, daily["game"])
    mine = await bob.call("daily", game="gate")
    await bob.call("resign", game=mine["game"])
    taken = await bob.call("challenge_take", challenge=challenge["id"])
    await bob.event("challenge_start")
    await bob.call("resign", game=taken["game"])
    await bob.event("challenge_result")
    # cy has not played today's daily: neither replay, nor its page
    for replay in (taken["game"], daily["game"]):
        refused = await cy.request("replay", replay=replay)
        assert refused["code"] == "not_public", refused
        page = await rawhttp.get(server.web.port, f"/replay/{replay}.json")
        assert page.status == 403, page.status
    # the day over, both are anyone's
    server.clock.advance(86_400)
    assert (await cy.call("replay", replay=taken["game"]))["replay"]["kind"] == "challenge"
    assert (await rawhttp.get(server.web.port, f"/replay/{taken['game']}.json")).status == 200
