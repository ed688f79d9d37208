"""A ranked daily's replay before the day's reset: its own player steps through its
boards (the positions they saw, from the deal), still without its seed; anyone else is
refused until the reset. Real Redis, real websocket connections, real server."""

from __future__ import annotations

from .client import Client, player
from .conftest import Running
from .test_daily import next_day


async def test_the_owner_sees_the_boards_of_their_daily_before_the_reset(
    server: Running,
) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    dealt = await ann.call("daily", game="gate")
    first = await ann.call("move", move=dealt["legal"][0])
    second = await ann.call("move", move=first["legal"][0])
    await ann.call("resign")
    await ann.event("daily_result")
    gid = dealt["game"]

    own = (await ann.call("replay", replay=gid))["replay"]
    assert own["seed"] is None  # the seed stays secret: it would tell the hidden cards
    zero = await ann.call("replay_view", replay=gid, step=0)
    assert zero["view"] == {**dealt["view"], "can_undo": zero["view"]["can_undo"]}
    one = await ann.call("replay_view", replay=gid, step=1)
    assert one["view"] == {**first["view"], "can_undo": one["view"]["can_undo"]}
    two = await ann.call("replay_view", replay=gid, step=2)
    assert two["view"]["piles"] == second["view"]["piles"]
    three = await ann.call("replay_view", replay=gid, step=3)  # the resignation
    assert three["view"]["piles"] == second["view"]["piles"]
    too_far = await ann.request("replay_view", replay=gid, step=4)
    assert too_far["code"] == "bad_request"

    # anyone else, signed in or not, waits for the reset
    for other in (bob, await anonymous(server.url)):
        for kind, fields in (("replay", {}), ("replay_view", {"step": 0})):
            refused = await other.request(kind, replay=gid, **fields)
            assert refused["code"] == "not_public", refused
    next_day(server.clock)
    public = await bob.call("replay_view", replay=gid, step=1)
    assert public["view"] == one["view"]


async def anonymous(url: str) -> Client:
    client = await Client.connect(url)
    await client.call("hello", protocol=1)
    return client
