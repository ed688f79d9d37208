"""Groups on the real server and Redis: making one, joining by its link, the owner's
changes, the caps, every refusal changing nothing, the boards among its members (the week
board included), its challenges, who is online, and two processes sharing one Redis."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from server.app.settings import Settings

from . import rawhttp
from .client import Client, player
from .conftest import Running, ServerProcess, running


def key_of(group: dict[str, Any]) -> tuple[str, str]:
    """The group's id and join key, from its link as a member passes it on."""
    link: str = group["link"]
    path, key = link.split("?k=")
    return path.removeprefix("/g/"), key


async def make(owner: Client, name: str = "Friday Club") -> dict[str, Any]:
    return (await owner.call("group_create", name=name))["group"]


async def test_a_group_is_made_joined_by_its_link_and_left(server: Running) -> None:
    ann, bob, cat = [await player(server.url, n) for n in ("ann", "bob", "cat")]
    group = await make(ann)
    gid, key = key_of(group)
    assert group["owner"] and [m["name"] for m in group["members"]] == ["ann"]
    joined = (await bob.call("group_join", group=gid, key=key))["group"]
    assert [m["name"] for m in joined["members"]] == ["ann", "bob"] and not joined["owner"]
    assert joined["online"] == 2
    # joining again changes nothing
    again = (await bob.call("group_join", group=gid, key=key))["group"]
    assert len(again["members"]) == 2
    listed = await bob.call("groups")
    assert listed["groups"] == [{"id": gid, "name": "Friday Club", "owner": False, "members": 2}]
    # not a member: nothing of the group is shown
    assert (await cat.request("group_show", group=gid))["code"] == "not_a_member"
    assert (await cat.request("group_board", group=gid, board="races/all"))[
        "code"
    ] == "not_a_member"
    assert (await bob.call("group_leave", group=gid))["groups"] == []
    shown = (await ann.call("group_show", group=gid))["group"]
    assert [m["name"] for m in shown["members"]] == ["ann"]


async def test_the_owner_removes_renews_the_link_and_hands_over_by_leaving(
    server: Running,
) -> None:
    ann, bob, cat, dan = [await player(server.url, n) for n in ("ann", "bob", "cat", "dan")]
    gid, key = key_of(await make(ann))
    await bob.call("group_join", group=gid, key=key)
    await cat.call("group_join", group=gid, key=key)
    # only the owner changes the group
    assert (await bob.request("group_remove", group=gid, name="cat"))["code"] == "not_group_owner"
    assert (await bob.request("group_link", group=gid))["code"] == "not_group_owner"
    assert (await bob.request("group_delete", group=gid))["code"] == "not_group_owner"
    removed = (await ann.call("group_remove", group=gid, name="CAT"))["group"]
    assert [m["name"] for m in removed["members"]] == ["ann", "bob"]
    assert (await cat.call("groups"))["groups"] == []
    # a removed player is kept out, even with the link
    assert (await cat.request("group_join", group=gid, key=key))["code"] == "removed_from_group"
    # a new link: the old one no longer joins
    renewed = (await ann.call("group_link", group=gid))["group"]
    _, new_key = key_of(renewed)
    assert new_key != key
    assert (await dan.request("group_join", group=gid, key=key))["code"] == "bad_group_link"
    await dan.call("group_join", group=gid, key=new_key)
    # a member with the old link is in the group: joining again changes nothing (it told
    # them to ask for a new link)
    kept = (await bob.call("group_join", group=gid, key=key))["group"]
    assert [m["name"] for m in kept["members"]] == ["ann", "bob", "dan"]
    # the owner leaving hands the group to who joined first after them
    await ann.call("group_leave", group=gid)
    shown = (await bob.call("group_show", group=gid))["group"]
    assert shown["owner"] and [m["name"] for m in shown["members"]] == ["bob", "dan"]
    # deleting it takes it from every member's list
    assert (await bob.call("group_delete", group=gid))["groups"] == []
    assert (await dan.call("groups"))["groups"] == []
    assert (await dan.request("group_show", group=gid))["code"] == "no_such_group"


async def test_leaving_says_who_owns_the_group_now(server: Running) -> None:
    """``group_leave``'s reply names the group left and who owns it now: the owner
    leaving was told only the groups still theirs, not whom the group had passed to."""
    ann, bob, cat = [await player(server.url, n) for n in ("ann", "bob", "cat")]
    gid, key = key_of(await make(ann))
    for friend in (bob, cat):
        await friend.call("group_join", group=gid, key=key)
    # a member leaving: the owner is who owned it already
    left = await cat.call("group_leave", group=gid)
    assert left["left"] == {"id": gid, "name": "Friday Club", "owner": "ann"}
    assert left["groups"] == []
    # the owner leaving: who joined first after them owns it now
    left = await ann.call("group_leave", group=gid)
    assert left["left"] == {"id": gid, "name": "Friday Club", "owner": "bob"}
    # the last member leaving: no one owns it, it is gone
    left = await bob.call("group_leave", group=gid)
    assert left["left"] == {"id": gid, "name": "Friday Club", "owner": None}
    assert (await bob.request("group_show", group=gid))["code"] == "no_such_group"
    # the other replies of kind groups carry no left
    assert "left" not in await bob.call("groups")


async def test_bad_input_is_refused_and_changes_nothing(settings: Settings, tmp_path: Path) -> None:
    async with running(replace(settings, group_members=2, player_groups=2)) as server:
        ann, bob, cat = [await player(server.url, n) for n in ("ann", "bob", "cat")]
        for name in ("x", " Club", "Club ", "two  spaces", "a" * 33, "no/slash", "é-club"):
            assert (await ann.request("group_create", name=name))["code"] == "bad_group_name"
        assert (await ann.call("groups"))["groups"] == []
        gid, key = key_of(await make(ann))
        assert (await bob.request("group_join", group="nope", key=key))["code"] == "no_such_group"
        assert (await bob.request("group_join", group="abcdefghij", key=key))[
            "code"
        ] == "no_such_group"
        assert (await bob.request("group_join", group=gid, key="short"))["code"] == "bad_group_link"
        assert (await bob.request("group_join", group=gid, key="A" * 16))[
            "code"
        ] == "bad_group_link"
        assert (await bob.request("group_join", group=gid))["code"] == "bad_request"
        await bob.call("group_join", group=gid, key=key)
        # full: two members at most here
        assert (await cat.request("group_join", group=gid, key=key))["code"] == "group_full"
        assert (await cat.call("groups"))["groups"] == []
        # too many: two groups at most here
        await make(ann, "Second")
        refused = await ann.request("group_create", name="Third")
        assert refused["code"] == "too_many_groups"
        # (what to do about it, too)
        assert refused["message"] == "you are in 2 groups, the most one may be in: leave one first"
        assert len((await ann.call("groups"))["groups"]) == 2
        assert (await ann.request("group_remove", group=gid, name="nobody"))[
            "code"
        ] == "no_such_player"
        # (the owner is told who is not a member: "not a member of the group" read as if
        # the owner were not)
        outside = await ann.request("group_remove", group=gid, name="cat")
        assert outside["code"] == "not_a_member"
        assert outside["message"] == "cat is not a member of 'Friday Club'", outside
        assert (await ann.request("group_board", group=gid, board="week/nope"))[
            "code"
        ] == "no_such_board"
        assert (await ann.request("group_board", group=gid, board="week/gate/2999-W01"))[
            "code"
        ] == "no_such_board"
        assert (await ann.request("group_board", group=gid, board="bogus"))[
            "code"
        ] == "no_such_board"
        anon = await Client.connect(server.url)
        await anon.call("hello", protocol=1)
        assert (await anon.request("groups"))["code"] == "not_authenticated"
        shown = (await ann.call("group_show", group=gid))["group"]
        assert [m["name"] for m in shown["members"]] == ["ann", "bob"]


async def test_a_groups_boards_show_its_members_only(server: Running) -> None:
    names = ["ann", "bob", "cat"]
    ann, bob, cat = [await player(server.url, n) for n in names]
    for client in (ann, bob, cat):  # each plays today's Nestor and resigns at once
        await client.call("daily", game="nestor")
        await client.call("resign")
    gid, key = key_of(await make(ann))
    await cat.call("group_join", group=gid, key=key)
    page = await ann.call("group_board", group=gid, board="daily/nestor")
    assert {e["player"] for e in page["entries"]} == {"ann", "cat"}
    assert [e["place"] for e in page["entries"]] == [1, 2] and page["size"] == 3
    assert page["group"] == gid and page["members"] == 2
    # Nestor's cards come off in pairs: the page says so, as ``top``'s does (a client
    # counted its results in cards)
    assert page["unit"] == "pairs"
    assert (await ann.call("group_board", group=gid, board="daily/gate"))["unit"] == "cards"
    whole = await ann.call("top", board="daily/nestor")
    ranks = {e["player"]: e["rank"] for e in whole["entries"]}
    assert all(e["rank"] == ranks[e["player"]] for e in page["entries"])
    # the week board: each member's dailies of this week, none of bob's
    week = await ann.call("group_board", group=gid, board="week/nestor")
    assert week["kind"] == "week" and {e["player"] for e in week["entries"]} == {"ann", "cat"}
    assert all(e["played"] == 1 and e["wins"] == 0 for e in week["entries"])
    for board in ("races/all", "races/week", "wins/nestor", "best/nestor"):
        assert (await cat.call("group_board", group=gid, board=board))["entries"] == []
    assert (await cat.call("group_board", group=gid, board="best/nestor"))["unit"] == "pairs"
    assert "unit" not in (await cat.call("group_board", group=gid, board="races/all"))


async def test_a_groups_challenges_and_who_is_online(server: Running) -> None:
    ann, bob = [await player(server.url, n) for n in ("ann", "bob")]
    gid, key = key_of(await make(ann))
    await bob.call("group_join", group=gid, key=key)
    game = await bob.call("new_game", game="nestor", seed=5)
    await bob.call("resign")
    made = await bob.call("challenge_create", replay=game["game"])
    shown = await ann.call("group_show", group=gid)
    assert [c["challenge"]["id"] for c in shown["challenges"]] == [made["challenge"]["id"]]
    assert shown["challenges"][0]["table"][0]["player"] == "bob"
    # renamed, bob is shown under his name now, as his challenge's own page shows him
    # (the group's list kept the name the challenge was made under)
    await bob.call("rename", name="Bobby")
    shown = await ann.call("group_show", group=gid)
    assert shown["challenges"][0]["challenge"]["player"] == "Bobby"
    assert shown["challenges"][0]["table"][0]["player"] == "Bobby"
    page = await ann.call("challenge_show", challenge=made["challenge"]["id"])
    assert page["challenge"]["player"] == "Bobby"
    await bob.close()
    # bob's connection closed: he is shown offline once his mark is taken away
    for _ in range(100):
        shown = await ann.call("group_show", group=gid)
        if shown["group"]["online"] == 1:
            break
    assert {m["name"]: m["online"] for m in shown["group"]["members"]} == {
        "ann": True,
        "Bobby": False,
    }


async def test_groups_across_two_processes(redis_url: str, tmp_path: Path) -> None:
    one = ServerProcess(redis_url, tmp_path / "one", PATIENCE_SECRET="s3cret")
    two = ServerProcess(redis_url, tmp_path / "two", PATIENCE_SECRET="s3cret")
    for process in (one, two):
        process.data_dir.mkdir()
        process.start()
    try:
        ann = await player(one.url, "ann")
        bob = await player(two.url, "bob")
        gid, key = key_of(await make(ann))
        joined = (await bob.call("group_join", group=gid, key=key))["group"]
        assert joined["online"] == 2  # ann is connected to the other process
        renewed = (await ann.call("group_link", group=gid))["group"]
        assert renewed["link"] != joined["link"]
        cat = await player(two.url, "cat")
        assert (await cat.request("group_join", group=gid, key=key))["code"] == "bad_group_link"
        await ann.call("group_remove", group=gid, name="bob")
        assert (await bob.call("groups"))["groups"] == []
        for client in (ann, bob, cat):
            # (closed here: a server stopping waits for its connections' closing
            # handshakes, which a client on this blocked loop could not answer)
            await client.close()
    finally:
        for process in (one, two):
            process.stop()


async def test_a_group_link_is_the_browser_clients_page_and_a_bad_one_is_404(
    server: Running,
) -> None:
    ann = await player(server.url, "ann")
    link = (await make(ann))["link"]
    good = await rawhttp.get(server.web.port, link)
    assert good.status in (200, 503)  # (503: the browser client is not installed here)
    for bad in ("/g/NOT-AN-ID", "/g/abc", "/g/abcdefghijk"):
        assert (await rawhttp.get(server.web.port, bad)).status == 404, bad


async def test_a_players_groups_are_listed_by_name_numbers_by_value(server: Running) -> None:
    """A group "Filler 2" comes before "Filler 10" (they came as text: 1, 10, 11, ..., 2)."""
    ann = await player(server.url, "ann")
    for name in ("Filler 10", "Filler 2", "filler 1", "Club"):
        await ann.call("group_create", name=name)
    listed = (await ann.call("groups"))["groups"]
    assert [g["name"] for g in listed] == ["Club", "filler 1", "Filler 2", "Filler 10"]
