"""Who is online, live: a member watching their group (``group_show`` with ``watch``) is
sent the group again each time a member comes online or goes, joins or leaves, whichever
of three server processes on one Redis they are connected to (``docs/protocol.md``,
"Groups")."""

from __future__ import annotations

from typing import Any

from server.app.settings import Settings
from server.app.store.keys import name_key, online_key

from .client import player, signed_in
from .conftest import running


def online(event: dict[str, Any]) -> dict[str, bool]:
    return {m["name"]: m["online"] for m in event["group"]["members"]}


async def test_a_watched_group_is_pushed_as_members_come_and_go(settings: Settings) -> None:
    async with running(settings) as one, running(settings) as two, running(settings) as three:
        ann = await player(one.url, "ann")
        made = await ann.call("group_create", name="Friday Club")
        gid, key = made["group"]["id"], made["group"]["key"]
        bob = await player(two.url, "bob")
        await bob.call("group_join", group=gid, key=key)
        cat = await player(three.url, "cat")
        await cat.call("group_join", group=gid, key=key)
        shown = await ann.call("group_show", group=gid, watch=True)
        assert shown["watching"] and online(shown) == {"ann": True, "bob": True, "cat": True}

        # bob goes (process two): ann's screen hears of it
        await bob.close()
        pushed = await ann.event("group", lambda e: not online(e)["bob"])
        assert "id" not in pushed and pushed["watching"] and pushed["group"]["online"] == 2
        assert [m["you"] for m in pushed["group"]["members"]] == [True, False, False]

        # and comes back, through process three
        back = await signed_in(three.url, bob.token or "")
        pushed = await ann.event("group", lambda e: online(e)["bob"])
        assert pushed["group"]["online"] == 3

        # a new member joins through process two; cat leaves through three
        dan = await player(two.url, "dan")
        await dan.call("group_join", group=gid, key=key)
        pushed = await ann.event("group", lambda e: "dan" in online(e))
        assert online(pushed)["dan"]
        await cat.call("group_leave", group=gid)
        pushed = await ann.event("group", lambda e: "cat" not in online(e))
        assert sorted(online(pushed)) == ["ann", "bob", "dan"]

        # watching was asked for: the others were pushed nothing
        assert not [e for e in back.events + dan.events if e.get("type") == "group"]

        # dan changes his name (process two) and bob his through a connection beside his
        # own (process one): ann's screen shows the new names (it kept the old until the
        # group was opened again)
        await dan.call("rename", name="Daniel")
        pushed = await ann.event("group", lambda e: "Daniel" in online(e))
        assert sorted(online(pushed)) == ["Daniel", "ann", "bob"]
        side = await signed_in(one.url, bob.token or "", side=True)
        await side.call("rename", name="Robert")
        pushed = await ann.event("group", lambda e: "Robert" in online(e))
        assert sorted(online(pushed)) == ["Daniel", "Robert", "ann"]


async def test_watching_a_group_stops_when_asked_and_needs_a_member(server: Any) -> None:
    ann = await player(server.url, "ann")
    made = await ann.call("group_create", name="Club")
    gid, key = made["group"]["id"], made["group"]["key"]
    assert (await ann.call("group_show", group=gid, watch=True))["watching"]
    assert not (await ann.call("group_show", group=gid, watch=False))["watching"]
    bob = await player(server.url, "bob")
    # (one process: a push would be sent before bob's reply)
    await bob.call("group_join", group=gid, key=key)
    await ann.call("ping")
    assert not [e for e in ann.events if e.get("type") == "group"]
    stranger = await player(server.url, "cat")
    refused = await stranger.request("group_show", group=gid, watch=True)
    assert refused["code"] == "not_a_member"
    # a member removed is sent nothing more, and the watch ends
    assert (await bob.call("group_show", group=gid, watch=True))["watching"]
    await ann.call("group_remove", group=gid, name="bob")
    await bob.call("ping")
    assert not [e for e in bob.events if e.get("type") == "group"]
    assert server.service.grouping.watching == {}


async def test_a_process_that_heard_nothing_for_a_while_sends_the_group_again(
    settings: Settings,
) -> None:
    """A member gone while a process could not hear the bus: once it hears again, each of
    its watchers is sent the group as it stands."""
    async with running(settings) as server:
        ann = await player(server.url, "ann")
        made = (await ann.call("group_create", name="Club"))["group"]
        bob = await player(server.url, "bob")
        await bob.call("group_join", group=made["id"], key=made["key"])
        assert online(await ann.call("group_show", group=made["id"], watch=True))["bob"]
        # bob's mark lapses with no notice on the bus (his process died, say)
        raw = await server.redis.get(name_key("bob"))
        assert isinstance(raw, bytes)
        bob_id = raw.decode()
        server.service.sessions.pop(bob_id)
        await server.redis.delete(online_key(bob_id))
        await server.service.on_bus_back()
        pushed = await ann.event("group", lambda e: not online(e)["bob"])
        assert pushed["group"]["online"] == 1


async def test_a_watcher_removed_or_whose_group_is_deleted_is_told(settings: Settings) -> None:
    """A member watching their group who is removed from it, or whose group its owner
    deletes, is told so (``group_gone``), in whichever process: their screen went on
    showing them a member, its join link and **Leave the group**."""
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        made = await ann.call("group_create", name="Friday Club")
        gid, key = made["group"]["id"], made["group"]["key"]
        bob, cat = await player(two.url, "bob"), await player(one.url, "cat")
        for member in (bob, cat):
            await member.call("group_join", group=gid, key=key)
            await member.call("group_show", group=gid, watch=True)
        await ann.call("group_remove", group=gid, name="bob")
        gone = await bob.event("group_gone")
        assert gone == {"type": "group_gone", "group": gid, "name": "Friday Club",
                        "why": "not_member"}  # fmt: skip
        await ann.call("group_delete", group=gid)
        gone = await cat.event("group_gone")
        assert gone["why"] == "deleted" and gone["name"] == "Friday Club"
        await ann.call("ping")
        assert not [e for e in ann.events if e.get("type") == "group_gone"]
