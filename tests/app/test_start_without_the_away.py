"""A lobby's start does not wait on a member who is away and never pressed ready.

An outside probe (three processes on one Redis) found a lobby nobody could ever start:
the host closed the page without coming back, the part passed to a member after the
host grace, and every ``start`` of the new host was refused ``not_ready`` naming the old
host, who had never had to press ready and was still listed (``present: false``). No
request takes an absent member out of a lobby, so it stood until everyone left. The same
held for any member who closed the page before pressing ready.

The rule now: at the start, a member who is not ready and not connected (to any
process) is taken out of the lobby, as leaving it does; one connected and not ready
still holds the start (``not_ready``)."""

from __future__ import annotations

from server.app.settings import Settings

from .client import player
from .conftest import Running, running


async def test_a_member_away_and_not_ready_is_left_out_of_the_start(server: Running) -> None:
    ann, bob, cid = [await player(server.url, name) for name in ("ann", "bob", "cid")]
    code = (await ann.call("room_create", game="nestor", seed=7))["code"]
    for who in (bob, cid):
        await who.call("room_join", code=code)
    await bob.call("ready")
    refused = await ann.request("start")  # cid is here, and not ready: the start waits
    assert refused["code"] == "not_ready" and "cid" in refused["message"], refused
    await cid.close()
    await ann.event(
        "room", lambda e: any(p["name"] == "cid" and not p["present"] for p in e["players"])
    )
    started = await ann.call("start")
    assert started["state"] == "countdown"
    assert [p["name"] for p in started["players"]] == ["ann", "bob"]
    for who in (ann, bob):
        await who.event("race_start")


async def test_the_host_gone_for_good_holds_no_lobby(settings: Settings) -> None:
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        bob = await player(two.url, "bob")
        cid = await player(one.url, "cid")
        code = (await ann.call("room_create", game="nestor", seed=7))["code"]
        for who in (bob, cid):
            await who.call("room_join", code=code)
            await who.call("ready")
        await ann.close()  # and never comes back
        await bob.event("room", lambda e: not e["players"][0]["present"])  # (ann's)
        for server in (one, two):
            server.clock.advance(settings.host_grace + 1)
        for server in (one, two):
            await server.service.housekeeping.sweep()
            await server.service.housekeeping.sweep()
        handed = await bob.event("room", lambda e: e["host"] != "ann")
        host = bob if handed["host"] == "bob" else cid
        started = await host.call("start")
        assert started["state"] == "countdown", started
        assert [p["name"] for p in started["players"]] == ["bob", "cid"]
        for who in (bob, cid):
            await who.event("race_start")
