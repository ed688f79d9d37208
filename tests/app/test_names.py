"""A change of name (``rename``) on the real server and Redis: shown on boards, replays
and in a room; once in ``rename_days``; a former name kept for its player; bad input
refused with nothing changed; two players racing for one name across processes."""

from __future__ import annotations

import asyncio
import json
import logging
import signal
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from redis.asyncio import Redis

from server.app.domain.room import RoomConflict
from server.app.settings import Settings
from server.app.store.codec import text
from server.app.store.keys import name_key, player_key

from .client import Client, player, signed_in
from .cluster import LocalCluster
from .conftest import Running, ServerProcess, running, with_settings
from .test_challenges import made, solo_won
from .test_cluster import cluster, local_cluster, on_cluster  # noqa: F401 (fixtures)
from .test_pages import fetch

DAY_S = 86_400


def seat(room: dict[str, Any], name: str) -> dict[str, Any]:
    return next(r for r in room["players"] if r["name"] == name)


def racers_are(names: list[str], room: dict[str, Any]) -> bool:
    return [r["name"] for r in room["players"]] == names


async def pid_of(client: Client) -> str:
    welcome = await client.call("hello", protocol=1, token=client.token)
    return str(welcome["player"]["id"])


async def keys_of(server: Running, *names: str) -> dict[str, object]:
    """What the name keys hold (to show nothing changed)."""
    return {name: await server.redis.get(name_key(name)) for name in names}


async def test_a_new_name_shows_on_boards_replays_and_in_the_room(server: Running) -> None:
    ann = await player(server.url, "ann")
    bob = await player(server.url, "bob")
    dealt = await ann.call("daily", game="gate")
    await ann.call("move", move=dealt["legal"][0])
    await ann.call("resign")
    await ann.event("daily_result")
    code = (await ann.call("room_create", game="gate"))["code"]
    await bob.call("room_join", code=code)
    bob.events.clear()

    renamed = await ann.call("rename", name="Annika")
    assert renamed["player"]["name"] == "Annika" and renamed["was"] == "ann"
    # the room: its racers, told to everyone in it
    room = await bob.event("room", lambda e: "Annika" in [r["name"] for r in e["players"]])
    assert sorted(r["name"] for r in room["players"]) == ["Annika", "bob"]
    assert room["host"] == "Annika"
    # the boards: read by anyone, the page, around, friends, the HTML page's JSON
    top = await bob.call("top", board="daily/gate")
    assert [e["player"] for e in top["entries"]] == ["Annika"]
    assert top["leader"]["player"] == "Annika"
    assert (await ann.call("top", around=True))["entries"][0]["player"] == "Annika"
    await bob.call("follow", name="Annika")
    friends = await bob.call("top", board="daily/gate", friends=True)
    assert [e["player"] for e in friends["entries"]] == ["Annika"]
    base = f"http://127.0.0.1:{server.web.port}/leaderboard/daily/gate"
    status, _, body = await fetch(f"{base}.json")
    assert status == 200 and [e["player"] for e in json.loads(body)["entries"]] == ["Annika"]
    status, _, html = await fetch(base)
    assert status == 200 and "Annika" in html and ">ann<" not in html
    # the replay: the name it was played under, and the name now
    replay = (await ann.call("replay", replay=dealt["game"]))["replay"]
    assert replay["player"] == "ann" and replay["player_now"] == "Annika"
    # a connection signed in afresh, and follows, know the new name
    again = await signed_in(server.url, str(ann.token))
    assert again.name == "Annika"
    assert (await bob.call("follow", name="bob"))["names"] == ["Annika"]


async def test_once_in_thirty_days_and_the_old_name_stays_its_players(server: Running) -> None:
    ann = await player(server.url, "ann")
    bob = await player(server.url, "bob")
    await ann.call("rename", name="anna")
    before = await keys_of(server, "ann", "anna", "annie")
    refused = await ann.request("rename", name="annie")
    assert refused["code"] == "rate_limited"
    assert "once in 30 days: the next change is allowed from " in refused["message"]
    assert await keys_of(server, "ann", "anna", "annie") == before
    # nobody else may take the old name, by registering or renaming
    cat = await Client.connect(server.url)
    await cat.call("hello", protocol=1)
    refused = await cat.request("register", name="ANN")
    assert refused["code"] == "name_taken"
    assert "kept for the player who had it until" in refused["message"]
    refused = await bob.request("rename", name="ann")
    assert refused["code"] == "name_taken" and "kept for the player" in refused["message"]
    assert (await bob.request("rename", name="anna"))["message"] == "the name 'anna' is taken"
    assert await server.redis.hget(player_key(await pid_of(bob)), "name") == b"bob"
    assert await keys_of(server, "ann", "anna", "annie") == before
    # 30 days on, its owner takes it back; the name between is theirs for a while too
    server.clock.advance(30 * DAY_S)
    assert (await ann.call("rename", name="ann"))["player"]["name"] == "ann"
    assert (await bob.request("rename", name="anna"))["code"] == "name_taken"
    # 90 days on, a name kept is free for anyone
    server.clock.advance(90 * DAY_S)
    assert (await bob.call("rename", name="anna"))["player"]["name"] == "anna"
    assert (await cat.request("register", name="anna"))["code"] == "name_taken"


async def test_bad_names_and_requests_change_nothing(server: Running) -> None:
    ann = await player(server.url, "ann")
    await player(server.url, "bob")
    pid = await pid_of(ann)
    names = ("ann", "bob", "zed", "z", "x" * 20)
    before = await keys_of(server, *names), await server.redis.hgetall(player_key(pid))
    assert before[0]["ann"] == pid.encode() and before[0]["zed"] is None
    stranger = await Client.connect(server.url)
    await stranger.call("hello", protocol=1)
    refused = await stranger.request("rename", name="zed")
    assert refused["code"] == "not_authenticated"
    for bad in ("z", "ann bob", "ann\n", "é" * 4, "x" * 21, "x" * 65, "x" * 128, "", "-h", "_z"):
        refused = await ann.request("rename", name=bad)
        assert refused["code"] == "bad_name", (bad, refused)
    assert (await ann.request("rename", name=7))["code"] == "bad_request"
    assert (await ann.request("rename"))["code"] == "bad_request"
    assert (await ann.request("rename", name="Bob"))["code"] == "name_taken"
    same = await ann.call("rename", name="ann")  # one's own name: nothing to change
    assert same["player"]["name"] == "ann"
    after = await keys_of(server, *names), await server.redis.hgetall(player_key(pid))
    assert after == before
    # none of them counted: the change of name is still there to make
    assert (await ann.call("rename", name="zed"))["player"]["name"] == "zed"


async def test_a_change_of_case_keeps_the_one_name(server: Running) -> None:
    ann = await player(server.url, "ann")
    await ann.call("rename", name="Ann")
    assert await server.redis.get(name_key("ann")) == (await pid_of(ann)).encode()
    assert (await signed_in(server.url, str(ann.token))).name == "Ann"


async def test_two_players_racing_for_one_name_across_processes(
    redis_url: str, tmp_path: Path
) -> None:
    """Ten rounds, two players in two server processes asking for one name at once:
    exactly one gets it each time, and the other keeps their name."""
    procs = []
    for n in range(2):
        folder = tmp_path / f"p{n}"
        folder.mkdir()
        procs.append(
            ServerProcess(redis_url, folder, PATIENCE_RENAME_DAYS="0", PATIENCE_SECRET="s3cret")
        )
    try:
        for proc in procs:
            await asyncio.to_thread(proc.start)
        ann = await player(procs[0].url, "ann")
        bob = await player(procs[1].url, "bob")
        pids = {await pid_of(ann): ann, await pid_of(bob): bob}
        redis = Redis.from_url(redis_url)
        for n in range(10):
            wanted = f"name{n}"
            replies = await asyncio.gather(
                ann.request("rename", name=wanted), bob.request("rename", name=wanted)
            )
            assert sorted(r["type"] for r in replies) == ["error", "renamed"], replies
            assert [r["code"] for r in replies if r["type"] == "error"] == ["name_taken"]
            winner = ann if replies[0]["type"] == "renamed" else bob
            holder = text(await redis.get(name_key(wanted)) or b"")
            assert pids[holder] is winner
            names = {p: text(await redis.hget(player_key(p), "name") or b"") for p in pids}
            assert names[holder] == wanted and list(names.values()).count(wanted) == 1
        await redis.aclose()
    finally:
        for proc in procs:
            if proc.process is not None:
                proc.stop(signal.SIGKILL)


async def test_rename_days_is_a_setting(settings: Settings) -> None:
    quick = with_settings(settings, rename_days=1)
    async with running(quick) as server:
        ann = await player(server.url, "ann")
        await ann.call("rename", name="anna")
        refused = await ann.request("rename", name="annie")
        assert "once a day: the next change is allowed from " in refused["message"]
        server.clock.advance(DAY_S)
        assert (await ann.call("rename", name="annie"))["player"]["name"] == "annie"


async def test_a_challenge_shows_its_player_and_takers_under_their_names_now(
    server: Running,
) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    gid = await solo_won(ann)
    cid = (await made(ann, gid))["id"]
    taken = await bob.call("challenge_take", challenge=cid)
    start = await bob.event("challenge_start")
    await bob.call("resign", game=start["game"])
    await bob.event("challenge_result")
    assert taken["challenge"]["player"] == "ann"
    await ann.call("rename", name="Annika")
    await bob.call("rename", name="Bobby")
    for viewer in (ann, bob):
        shown = await viewer.call("challenge_show", challenge=cid)
        assert shown["challenge"]["player"] == "Annika"
        assert [(e["player"], e["ghost"]) for e in shown["table"]] == [
            ("Annika", True),
            ("Bobby", False),
        ]
    listed = (await ann.call("challenges"))["challenges"]
    assert [c["player"] for c in listed] == ["Annika"]
    assert listed[0]["share"].startswith("Beat my ")


async def test_a_change_of_name_on_a_cluster(
    cluster: LocalCluster,  # noqa: F811 (the fixture)
    tmp_path: Path,
) -> None:
    """On a Redis Cluster too: each script touches one key (the name keys and the
    player's hash are in different slots), and a board's page reads its names in one
    pipeline split by node."""
    async with running(on_cluster(cluster, tmp_path)) as server:
        ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
        dealt = await ann.call("daily", game="gate")
        await ann.call("move", move=dealt["legal"][0])
        await ann.call("resign")
        await ann.event("daily_result")
        await ann.call("rename", name="Annika")
        assert (await bob.request("rename", name="ann"))["code"] == "name_taken"
        assert (await ann.request("rename", name="anna"))["code"] == "rate_limited"
        top = await bob.call("top", board="daily/gate")
        assert [e["player"] for e in top["entries"]] == ["Annika"]
        replay = (await ann.call("replay", replay=dealt["game"]))["replay"]
        assert (replay["player"], replay["player_now"]) == ("ann", "Annika")


async def test_a_change_from_another_device_reaches_the_players_connection(
    settings: Settings,
) -> None:
    """A name changed from a one-shot command beside the player's connection (the
    terminal's ``name``), on this process or another: that connection is told
    (``renamed``) and joins rooms under the new name, not the one it signed in with, and
    the room it is in shows the new name."""
    settings = with_settings(settings, rename_days=0)
    async with running(settings) as here, running(settings) as there:
        ann = await player(here.url, "ann")
        bob = await player(here.url, "bob")
        for server, new in ((here, "Annika"), (there, "Anneke")):
            code = (await ann.call("room_create", game="gate"))["code"]
            await bob.call("room_join", code=code)
            side = await Client.connect(server.url)
            await side.call("hello", protocol=1, token=ann.token, side=True)
            await side.call("rename", name=new)
            await side.close()
            told = await ann.event("renamed")
            assert told["player"]["name"] == new and "id" not in told, told
            # the room ann is in, as bob sees it
            await bob.event("room", partial(racers_are, [new, "bob"]))
            await bob.call("room_leave")
            await ann.call("room_leave")
            # a room ann makes now: under the new name
            code = (await ann.call("room_create", game="gate"))["code"]
            joined = await bob.call("room_join", code=code)
            assert [r["name"] for r in joined["players"]] == [new, "bob"], joined
            await bob.call("room_leave")
            await ann.call("room_leave")
        await ann.close()
        await bob.close()


async def test_a_player_connected_nowhere_is_renamed_in_their_room(settings: Settings) -> None:
    """bob makes a room through one process, ann joins through another, and bob goes (a
    room keeps a member who drops their link); he renames himself later with a one-shot
    command through a third process, which does not hold the room: the room shows his
    new name, told to ann, and to anyone who looks (it kept "bob" as host and racer:
    only a room held where the rename was asked was renamed)."""
    async with running(settings) as one, running(settings) as two, running(settings) as three:
        bob = await player(one.url, "bob")
        code = (await bob.call("room_create", game="gate"))["code"]
        ann = await player(two.url, "ann")
        await ann.call("room_join", code=code)
        await bob.close()
        await ann.event("room", lambda e: not seat(e, "bob")["present"])
        await one.service.housekeeping.sweep()  # (nobody needs the room there now)
        assert code not in three.service.rooms
        side = await signed_in(three.url, str(bob.token), side=True)  # (the terminal's `name`)
        await side.call("rename", name="Robert")
        room = await ann.event("room", partial(racers_are, ["Robert", "ann"]))
        assert room["host"] == "Robert"
        dot = await player(three.url, "dot")
        watched = await dot.call("room_watch", code=code)
        assert racers_are(["Robert", "ann"], watched) and watched["host"] == "Robert"


async def test_a_room_step_met_by_another_change_tries_again_without_an_error(
    server: Running, caplog: pytest.LogCaptureFixture
) -> None:
    """A step of a room that another change reached first (``RoomConflict``: a rename
    asked through one process while the room changed in another) reads the room again
    and tries once more: the way it is meant to go, logged as such, not as an ERROR with
    a traceback (an outside tester's log showed "a racer's new name failed")."""
    ann = await player(server.url, "ann")
    code = (await ann.call("room_create", game="gate"))["code"]
    room = server.service.rooms[code]
    tries: list[int] = []

    async def step(held: Any) -> None:
        tries.append(1)
        if len(tries) == 1:
            raise RoomConflict(held.code)

    caplog.set_level(logging.INFO, logger="patience.service")
    await server.service.host.until_done("a racer's new name", room, step)
    assert len(tries) == 2
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "changed elsewhere first" in caplog.text, caplog.text
