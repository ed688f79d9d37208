"""What one player can keep in Redis is bounded: a game's log holds at most ``log_limit``
entries (moves and undos), and the daily's practice games count against ``deal_rate`` as
``new_game``'s do. Without them, moving a card back and forth grew one game's log by
about 55 MB a day a connection, and a finished practice game dealt another at once."""

from __future__ import annotations

from server.app.settings import Settings

from .client import player
from .conftest import running, with_settings


async def test_a_games_log_holds_at_most_log_limit_entries(settings: Settings) -> None:
    async with running(with_settings(settings, log_limit=12)) as server:
        ann = await player(server.url, "ann")
        game = await ann.call("new_game", game="gate", seed=3)
        gid, legal = game["game"], game["legal"]
        for _ in range(6):  # a move and its undo, six times: twelve entries
            await ann.call("move", game=gid, move=legal[0])
            await ann.call("undo", game=gid)
        refused = await ann.request("move", game=gid, move=legal[0])
        assert refused["type"] == "error" and refused["code"] == "rate_limited", refused
        assert "12" in refused["message"] and "resign" in refused["message"], refused
        undo = await ann.request("undo", game=gid)
        assert undo["type"] == "error" and undo["code"] == "rate_limited", undo
        assert await server.redis.llen(f"g:{{{gid}}}:log") == 12
        # resigning still ends it, and a new game plays as before
        assert (await ann.call("resign", game=gid))["status"] == "resigned"
        fresh = await ann.call("new_game", game="gate", seed=4)
        await ann.call("move", game=fresh["game"], move=fresh["legal"][0])


async def test_practice_games_count_against_the_deal_rate(settings: Settings) -> None:
    async with running(with_settings(settings, deal_rate=3)) as server:
        ann = await player(server.url, "ann")
        await ann.call("daily", game="nestor")  # the ranked attempt: not a deal of hers
        await ann.call("resign")
        for _ in range(3):  # three practice games, each resigned
            practice = await ann.call("daily", game="nestor")
            await ann.call("resign", game=practice["game"])
        refused = await ann.request("daily", game="nestor")
        assert refused["type"] == "error" and refused["code"] == "rate_limited", refused
        assert "new games a minute" in refused["message"], refused


async def test_practice_games_are_kept_as_solo_games_are(settings: Settings) -> None:
    """The last ten finished (with the solo games), older ones deleted."""
    async with running(settings) as server:
        ann = await player(server.url, "ann")
        await ann.call("daily", game="nestor")
        await ann.call("resign")
        dealt = []
        for _ in range(13):
            practice = await ann.call("daily", game="nestor")
            dealt.append(practice["game"])
            await ann.call("resign", game=practice["game"])
        kept = [gid for gid in dealt if await server.redis.exists(f"g:{{{gid}}}")]
        assert kept == dealt[-11:], (len(kept), len(dealt))
