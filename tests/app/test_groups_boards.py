"""A group's boards beyond the first look (tests/app/test_groups.py): a result held for
review stays off them until an operator clears it, as off the public boards; the week
board sums a member's dailies across the days of one ISO week, and only that week's; and
groups on a Redis Cluster (a group's keys on one slot, the players' indexes and the
boards on others)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from server.app.domain.daily import DAY_MS, day_of, iso_week
from server.app.settings import Settings

from .client import Client, player
from .cluster import LocalCluster
from .conftest import Running, running, with_settings
from .test_cluster import cluster, local_cluster, on_cluster  # noqa: F401
from .test_groups import key_of, make
from .test_pace import paced, review, scripted, secret_the_script_wins


async def group_of(owner: Client, *others: Client) -> str:
    gid, key = key_of(await make(owner))
    for other in others:
        await other.call("group_join", group=gid, key=key)
    return gid


async def board(client: Client, gid: str, name: str) -> list[dict[str, Any]]:
    entries: list[dict[str, Any]] = (await client.call("group_board", group=gid, board=name))[
        "entries"
    ]
    return entries


async def test_a_held_result_is_on_no_group_board_until_cleared(settings: Settings) -> None:
    day = day_of(settings.clock.now_ms())
    secret, line = secret_the_script_wins(day)
    async with running(with_settings(settings, secret=secret)) as server:
        ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
        gid = await group_of(ann, bob)
        held = await scripted(ann, line)
        assert held["review"]["state"] == "held"
        won = await paced(bob, line, server)
        assert won["status"] == "won" and "review" not in won
        for name in ("daily/gate", "best/gate", "wins/gate", "week/gate"):
            assert [e["player"] for e in await board(ann, gid, name)] == ["bob"], name
        [week] = await board(ann, gid, "week/gate")
        assert (week["wins"], week["played"]) == (1, 1) and week["time_ms"] == (
            await board(ann, gid, "daily/gate")
        )[0]["time_ms"] > 0

        cleared = review(server.settings, "clear", held["game"], "--reason", "a fast player")
        assert cleared.returncode == 0, cleared.stderr
        # in its place: ann won in less time
        for name in ("daily/gate", "best/gate", "wins/gate", "week/gate"):
            assert [e["player"] for e in await board(bob, gid, name)] == ["ann", "bob"], name


async def resigned_daily(client: Client, game: str = "nestor") -> None:
    await client.call("daily", game=game)
    await client.call("resign")
    await client.event("daily_result")


async def test_the_week_board_sums_the_weeks_dailies_across_days(server: Running) -> None:
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    gid = await group_of(ann, bob)
    first_week = iso_week(server.clock.now_ms())
    await resigned_daily(ann)
    await resigned_daily(bob)
    # the next day: ann plays again, bob does not
    server.clock.advance(DAY_MS / 1000)
    second_week = iso_week(server.clock.now_ms())
    await resigned_daily(ann)
    this_week = {e["player"]: e["played"] for e in await board(ann, gid, "week/nestor")}
    if first_week == second_week:  # both days in one ISO week: ann has played two
        assert this_week == {"ann": 2, "bob": 1}
    else:  # a Monday since: this week has ann's second only, last week the first two
        assert this_week == {"ann": 1}
        last = await board(ann, gid, f"week/nestor/{first_week}")
        assert {e["player"]: e["played"] for e in last} == {"ann": 1, "bob": 1}
    # ann played more, with no wins on either side: she ranks first
    assert (await board(bob, gid, "week/nestor"))[0]["player"] == "ann"


async def test_a_groups_rating_board_says_who_is_on_it(server: Running) -> None:
    """A group's rating board left out members rated too few times without a word of why:
    ``top`` says ``min_races`` (ratings.md), ``group_board`` said nothing, and the
    terminal printed "None of the group's members is on this board yet." alone."""
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    gid = await group_of(ann, bob)
    whole = await ann.call("top", board="rating/wedge")
    among = await ann.call("group_board", group=gid, board="rating/wedge")
    assert whole["min_races"] == among["min_races"] == server.settings.rating_board_races
    assert among["entries"] == []
    # (only a rating board has one)
    assert "min_races" not in await ann.call("group_board", group=gid, board="wins/wedge")


async def test_groups_on_a_redis_cluster(cluster: LocalCluster, tmp_path: Path) -> None:  # noqa: F811
    async with running(on_cluster(cluster, tmp_path)) as server:
        ann, bob, cy = [await player(server.url, n) for n in ("ann", "bob", "cy")]
        for client in (ann, bob, cy):
            await resigned_daily(client)
        gid = await group_of(ann, bob)
        assert {e["player"] for e in await board(ann, gid, "daily/nestor")} == {
            "ann",
            "bob",
        }
        assert {e["player"] for e in await board(bob, gid, "week/nestor")} == {"ann", "bob"}
        game = await bob.call("new_game", game="nestor", seed=5)
        await bob.call("resign")
        await bob.call("challenge_create", replay=game["game"])
        shown = await ann.call("group_show", group=gid)
        assert [c["challenge"]["player"] for c in shown["challenges"]] == ["bob"]
        assert shown["group"]["online"] == 2
        await ann.call("group_remove", group=gid, name="bob")
        assert (await bob.call("groups"))["groups"] == []
        assert (await ann.call("group_delete", group=gid))["groups"] == []
        assert (await ann.request("group_show", group=gid))["code"] == "no_such_group"
