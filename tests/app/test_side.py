"""A connection signed in beside the player's own (``hello``'s ``side``, the terminal
client's one-shot commands): it takes nothing over, and cannot play.

Before it, ``patience-race devices`` in a second terminal signed the player's racing
connection out (4001, "signed in on another device"), as any sign-in does."""

from __future__ import annotations

from typing import Any

from redis.asyncio import Redis

from server.app import store

from .client import Client, player, racing
from .conftest import Running, ServerProcess


async def beside(url: str, token: str) -> tuple[Client, dict[str, Any]]:
    client = await Client.connect(url)
    welcome = await client.call("hello", protocol=1, token=token, side=True, device="one-shot")
    return client, welcome


async def test_a_side_connection_takes_nothing_over_and_cannot_play(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    await racing(ann, bob)
    assert ann.token is not None
    side, welcome = await beside(server.url, ann.token)
    assert welcome["side"] is True and welcome["player"]["name"] == "ann"
    assert "resume" not in welcome

    # the account's requests are answered
    devices = await side.call("devices")
    assert any(d["this"] and d["label"] == "one-shot" for d in devices["devices"])
    assert (await side.call("profile"))["type"] == "profile"
    assert (await side.call("group_create", name="desk"))["type"] == "group"
    # a finished game's review, as its replay (the terminal's review ID): no playing
    reviewed = await side.request("review", game="0" * 16)
    assert reviewed["code"] == "no_such_game", reviewed

    # playing is not
    tries: tuple[tuple[str, dict[str, Any]], ...] = (
        ("move", {"move": "deal"}),
        ("new_game", {"game": "gate"}),
        ("room_create", {"game": "gate"}),
        ("daily", {"game": "gate"}),
        ("quick", {"game": "gate"}),
        ("hint", {}),
        ("resign", {}),
    )
    for kind, fields in tries:
        refused = await side.request(kind, **fields)
        assert refused["type"] == "error" and refused["code"] == "side_connection", kind
        assert refused["message"].startswith(f"{kind}: this connection is signed in beside")
        assert refused["message"].endswith(
            "cannot play: play on a connection signed in without side"
        )
    # signing in as a player is not either, and is not called playing (it was)
    signing_in: tuple[tuple[str, dict[str, Any]], ...] = (
        ("register", {"name": "sid"}),
        ("link", {"code": "K7QX-3MHD"}),
    )
    for kind, fields in signing_in:
        refused = await side.request(kind, **fields)
        assert refused["code"] == "side_connection", kind
        assert refused["message"].endswith(
            "cannot sign in as a player: send it on a connection without side"
        ), refused

    # ann's own connection raced on through all of it, and goes on after the side one closes
    await side.close()
    assert not [e for e in ann.events if e["type"] == "signed_out"]
    moved = await ann.call("move", move="deal")
    assert moved["type"] == "moved"
    assert server.service.sessions[welcome["player"]["id"]] is not None
    redis = Redis.from_url(server.settings.redis_url or "")
    try:
        assert await redis.get(store.online_key(welcome["player"]["id"])) is not None
    finally:
        await redis.aclose()


async def test_a_side_connection_on_another_process_kicks_no_one(
    server: Running, server_process: ServerProcess
) -> None:
    """The kick crosses processes on the bus: a side sign-in sends none."""
    ann = await player(server.url, "ann")
    await ann.call("new_game", game="gate", seed=3)
    assert ann.token is not None
    side, _ = await beside(server_process.url, ann.token)
    assert (await side.call("devices"))["type"] == "devices"
    await side.close()
    moved = await ann.call("move", move="deal")
    assert moved["type"] == "moved"
    assert not [e for e in ann.events if e["type"] == "signed_out"]


async def test_a_side_hello_is_no_sign_in_of_its_own_without_a_token(server: Running) -> None:
    """``side`` without a token changes nothing: an anonymous connection, as before."""
    client = await Client.connect(server.url)
    welcome = await client.call("hello", protocol=1, side=True)
    assert "player" not in welcome and "side" not in welcome
    refused = await client.request("new_game", game="gate")
    assert refused["code"] == "not_authenticated"
    await client.close()
