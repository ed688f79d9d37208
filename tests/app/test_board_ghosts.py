"""Practice against the board: after a player's ranked daily, ``daily`` with ghosts deals
practice of the day's deal with ghosts of those they follow who have finished it and of
the day's leaders (up to eight, never themselves, no replay ids), and ranks the practice
among them when it ends."""

from __future__ import annotations

from typing import Any

from server.app.handlers.ghosts import GHOSTS

from .client import Client, player
from .conftest import Running, until
from .test_fair_play import assert_fair


async def ranked_daily(client: Client, moves: int) -> dict[str, Any]:
    """Today's ranked daily of The Gate: ``moves`` moves, then resigned."""
    game = await client.call("daily", game="gate")
    legal = game["legal"]
    for _ in range(moves):
        if not legal:
            break
        reply = await client.call("move", game=game["game"], move=legal[0])
        if reply["status"] != "playing":
            return game
        legal = reply["legal"]
    await client.call("resign", game=game["game"])
    return game


async def test_practice_races_those_followed_then_the_leaders(server: Running) -> None:
    others = [await player(server.url, f"p{n}") for n in range(GHOSTS + 2)]
    for n, other in enumerate(others):
        await ranked_daily(other, n)
        await other.event("daily_result")
    dee = await player(server.url, "dee")
    await dee.call("follow", name="p0")  # the one with the fewest moves: last on the board
    ranked = await dee.call("daily", game="gate", ghosts=True)
    assert ranked["ranked"] is True and "ghosts" not in ranked  # no ghosts in a ranked game
    await dee.call("resign", game=ranked["game"])
    await dee.event("daily_result")
    practice = await dee.call("daily", game="gate", ghosts=True)
    assert practice["ranked"] is False
    names = [g["name"] for g in practice["ghosts"]]
    assert len(names) == GHOSTS and names[0] == "p0" and "dee" not in names
    assert len(set(names)) == GHOSTS
    assert all("replay" not in g for g in practice["ghosts"])
    assert_fair([{"ghosts": practice["ghosts"]}], None, "dee's ghosts")
    await dee.call("resign", game=practice["game"])
    result = await dee.event("ghosts_result")
    assert result["game"] == practice["game"]
    assert len(result["table"]) == GHOSTS + 1
    assert sorted(e["rank"] for e in result["table"]) == list(range(1, GHOSTS + 2))
    assert [e["player"] for e in result["table"] if not e["ghost"]] == ["dee"]
    # (when a ghost's player started the day's deal is not told; dee's start is hers)
    assert [e["taken_ms"] for e in result["table"] if e["ghost"]] == [0] * GHOSTS
    assert result["you"]["taken_ms"] > 0


async def test_practice_without_ghosts_asked_has_none(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    await ranked_daily(ann, 3)
    await ranked_daily(bob, 2)
    await until(lambda: any(e["type"] == "daily_result" for e in bob.events))
    practice = await bob.call("daily", game="gate")
    assert "ghosts" not in practice
    await bob.call("resign", game=practice["game"])
    again = await bob.call("daily", game="gate", ghosts=True)
    assert [g["name"] for g in again["ghosts"]] == ["ann"]


async def test_a_ghost_goes_by_its_players_name_now(server: Running) -> None:
    """A ghost was named as its game was played ("bob (ghost)") after bob had become
    Bobby, while the board beside it said Bobby."""
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    await ranked_daily(bob, 2)
    await bob.event("daily_result")
    await bob.call("rename", name="Bobby")
    await ranked_daily(ann, 3)
    await ann.event("daily_result")
    practice = await ann.call("daily", game="gate", ghosts=True)
    assert [g["name"] for g in practice["ghosts"]] == ["Bobby"]
    await ann.call("resign", game=practice["game"])
    result = await ann.event("ghosts_result")
    assert [e["player"] for e in result["table"] if e["ghost"]] == ["Bobby"]
