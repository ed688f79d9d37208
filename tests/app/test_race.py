"""Races end to end: real server, real Redis, real websocket clients."""

from __future__ import annotations

from typing import Any

from server.engine import new_game

from .client import Client, player
from .conftest import Running

#: a Doubles and Quits deal that "always the first legal move" wins in 26 moves
WINNING_SEED = 1


async def lobby(server: Running, names: list[str], **room: Any) -> tuple[list[Client], str]:
    clients = [await player(server.url, name) for name in names]
    created = await clients[0].call("room_create", **room)
    code = created["code"]
    for client in clients[1:]:
        await client.call("room_join", code=code)
        await client.call("ready")
    return clients, code


async def start(clients: list[Client]) -> list[dict[str, Any]]:
    """The host starts; every racer gets the deal when the countdown ends."""
    await clients[0].call("start")
    return [await c.event("race_start") for c in clients]


async def play_first_moves(client: Client, legal: list[str], limit: int = 10_000) -> dict:
    reply: dict[str, Any] = {"status": "playing", "legal": legal}
    for _ in range(limit):
        if not reply["legal"]:
            break
        reply = await client.call("move", move=reply["legal"][0])
    return reply


async def test_three_racers_race_to_results(server: Running) -> None:
    (ann, bob, cat), code = await lobby(
        server, ["ann", "bob", "cat"], game="doubles-and-quits", seed=WINNING_SEED
    )
    starts = await start([ann, bob, cat])
    countdown = await bob.event("room", lambda e: e["state"] == "countdown")
    assert countdown["start_at"] > countdown["now"]
    assert [p["name"] for p in countdown["players"]] == ["ann", "bob", "cat"]
    assert all(s["start_at"] == countdown["start_at"] for s in starts)
    # the same deal for everyone, and the one the seed names
    expected = new_game("doubles-and-quits", seed=WINNING_SEED).view()["piles"]
    for s in starts:
        assert s["view"]["piles"] == expected
        assert s["code"] == code
    # bob plays two moves and resigns; cat plays one move, then ann wins
    bob_reply = await bob.call("move", move=starts[1]["legal"][0])
    await bob.call("move", move=bob_reply["legal"][0])
    await bob.call("resign")
    await cat.call("move", move=starts[2]["legal"][0])
    final = await play_first_moves(ann, starts[0]["legal"])
    assert final["status"] == "won"
    # cat is still racing: the race is not over until she finishes
    progress = await bob.event("progress", lambda e: e["player"] == "ann" and e["status"] == "won")
    assert progress["home"] == 52
    await cat.call("resign")
    results = await ann.event("results")
    table = results["results"]
    assert [r["player"] for r in table] == ["ann", "bob", "cat"]
    assert table[0]["status"] == "won" and table[0]["time_ms"] >= 0
    assert table[0]["moves"] == 26
    assert table[1]["home"] == 4 and table[1]["status"] == "resigned"
    assert table[2]["home"] == 2
    for client in (bob, cat):
        assert (await client.event("results"))["results"] == table
    room = await ann.event("room", lambda e: e["state"] == "finished")
    assert room["results"] == table
