"""Hints end to end: the real server, its worker processes and a real Redis."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path
from typing import cast

import pytest

from server.app import store
from server.app.domain import games as g
from server.app.domain import replays
from server.app.domain.daily import daily_seed
from server.app.domain.room import Room
from server.app.handlers.hints import PER_MINUTE, hint_seed
from server.app.settings import Settings
from server.engine import GAMES
from server.protocol import ErrorCode, ProtocolError
from server.solver.hints import suggest

from .client import Client, player, signed_in
from .conftest import Running, running
from .test_race import lobby, start

HANDLER = Path(__file__).resolve().parents[2] / "server" / "app" / "handlers" / "hints.py"


async def test_a_hint_in_every_game(server: Running) -> None:
    ann = await player(server.url, "ann")
    for game_id in GAMES:
        dealt = await ann.call("new_game", game=game_id, seed=3)
        reply = await ann.call("hint", game=dealt["game"])
        assert reply["type"] == "hint" and reply["game"] == dealt["game"]
        assert reply["move"] in dealt["legal"], game_id
        assert isinstance(reply["reason"], str) and reply["reason"]
        assert reply["hints"] == 1
        # the hint plays, and the next one counts on
        moved = await ann.call("move", game=dealt["game"], move=reply["move"])
        if moved["status"] == "playing":
            again = await ann.call("hint")  # the current game, as move names it
            assert again["game"] == dealt["game"] and again["hints"] == 2
            assert again["move"] in moved["legal"]
        server.clock.advance(60)  # the limit a minute (two hints a game here)


async def test_the_server_hints_what_the_view_alone_gives(server: Running) -> None:
    """The hint a player gets is the hint of the view they were sent: the same for
    anyone who sees that position, whatever the order of the stock.

    A position whose hint searches a few ms of CPU (three moves, 32 cards face down):
    the worker's hint is capped by the wall clock too, and on a loaded machine a search
    of tens of ms (The Gate's deal) was cut short there and not here."""
    ann = await player(server.url, "ann")
    dealt = await ann.call("new_game", game="doubles-and-quits", seed=4)
    assert len(dealt["legal"]) == 3
    reply = await ann.call("hint")
    view = dealt["view"]
    found = suggest(view, "doubles-and-quits", hint_seed(view))
    assert (reply["move"], reply["reason"]) == found


async def test_hints_are_logged_before_they_are_given_and_survive_a_restart(
    settings: Settings,
) -> None:
    async with running(settings) as server:
        ann = await player(server.url, "ann")
        gid = (await ann.call("new_game", game="gate", seed=1))["game"]
        assert (await ann.call("hint"))["hints"] == 1
        assert (await ann.call("hint"))["hints"] == 2
        log = cast(list[bytes], await server.redis.lrange(store.log_key(gid), 0, -1))
        assert [entry.split()[1] for entry in map(bytes.decode, log)] == ["!hint", "!hint"]
        token = ann.token
        await ann.close()
    async with running(settings) as server:
        assert token is not None
        ann = await signed_in(server.url, token)
        reply = await ann.call("hint", game=gid)
        assert reply["hints"] == 3
        await ann.call("move", game=gid, move=reply["move"])  # hints change no position


async def test_bad_hint_requests_get_documented_errors(server: Running) -> None:
    anon = await Client.connect(server.url)
    await anon.call("hello", protocol=1)
    assert (await anon.request("hint"))["code"] == ErrorCode.NOT_AUTHENTICATED
    ann = await player(server.url, "ann")
    bad = await ann.request("hint", game=5)
    assert bad["code"] == ErrorCode.BAD_REQUEST and "'game' must be text" in bad["message"]
    long = await ann.request("hint", game="x" * 65)
    assert long["code"] == ErrorCode.BAD_REQUEST
    assert (await ann.request("hint"))["code"] == ErrorCode.NO_SUCH_GAME  # none yet
    assert (await ann.request("hint", game="0123456789abcdef"))["code"] == ErrorCode.NO_SUCH_GAME
    bob = await player(server.url, "bob")
    bobs = (await bob.call("new_game", game="gate", seed=1))["game"]
    assert (await ann.request("hint", game=bobs))["code"] == ErrorCode.NO_SUCH_GAME
    await bob.call("resign")
    over = await bob.request("hint")
    assert over["code"] == ErrorCode.GAME_OVER and "resigned" in over["message"]
    # the connection carries on
    assert (await ann.call("ping"))["type"] == "pong"


async def test_ten_hints_a_minute_one_at_a_time(server: Running) -> None:
    ann = await player(server.url, "ann")
    await ann.call("new_game", game="gate", seed=1)
    for n in range(PER_MINUTE):
        assert (await ann.call("hint"))["hints"] == n + 1
    limited = await ann.request("hint")
    assert limited["code"] == ErrorCode.RATE_LIMITED
    assert f"at most {PER_MINUTE} hints a minute" in limited["message"]
    server.clock.advance(61)
    assert (await ann.call("hint"))["hints"] == PER_MINUTE + 1
    # one at a time: while a player's hint is worked out, another is refused
    hints = server.service.hints
    pid = next(iter(server.service.solo_of))  # ann's: the only player here
    server.clock.advance(61)
    claim, use = await hints.take_turn(pid)
    assert use.used == 1
    with pytest.raises(ProtocolError) as refused:
        await hints.take_turn(pid)
    assert refused.value.code == ErrorCode.RATE_LIMITED
    assert "being worked out" in refused.value.message
    await hints.let_go(pid, claim)
    assert (await ann.call("hint"))["hints"] == PER_MINUTE + 2


async def test_race_rooms_choose_hints_at_creation(server: Running) -> None:
    (ann, bob), code = await lobby(server, ["ann", "bob"], game="gate", seed=1)
    room = await ann.call("room_watch", code=code)
    assert room["hints"] is False
    await start([ann, bob])
    off = await ann.request("hint")
    assert off["code"] == ErrorCode.HINTS_OFF
    # and a solo game is not a race: hints there are always allowed
    await ann.call("room_leave")

    (cat, dan), code = await lobby(server, ["cat", "dan"], game="gate", seed=1, hints=True)
    assert (await cat.call("room_watch", code=code))["hints"] is True
    await cat.call("start")
    early = await cat.request("hint")
    assert early["code"] == ErrorCode.NOT_STARTED
    race = await cat.event("race_start")
    await dan.event("race_start")
    given = await cat.call("hint", game=race["game"])
    assert given["move"] in race["legal"] and given["hints"] == 1
    await cat.call("move", game=race["game"], move=given["move"])
    await cat.call("resign")
    await dan.call("resign")
    results = (await cat.event("results"))["results"]
    assert {r["player"]: r["hints"] for r in results} == {"cat": 1, "dan": 0}
    over = await cat.request("hint", game=race["game"])
    assert over["code"] == ErrorCode.GAME_OVER


async def test_the_daily_allows_hints_and_shows_them(server: Running) -> None:
    ann = await player(server.url, "ann")
    daily = await ann.call("daily", game="nestor")
    assert daily["ranked"]
    await ann.call("hint")
    await ann.call("hint")
    await ann.call("resign")
    result = await ann.event("daily_result")
    assert result["line"].endswith(" · 2 hints")
    entry = (await ann.call("top", board="daily/nestor"))["entries"][0]
    assert entry["hints"] == 2
    replay = await ann.call("replay", replay=daily["game"])
    assert [what for _, what in replay["replay"]["moves"]] == ["!hint", "!hint", "!resign"]
    assert replay["replay"]["result"]["hints"] == 2
    # its seed is published at the reset; the server's secret gives it now
    seed = daily_seed(server.service.daily.secret, daily["day"], "nestor")
    played = {**replay["replay"], "seed": seed}
    assert replays.verify(played)["hints"] == 2
    # a replay file that hides its hints does not verify
    hidden = {**played, "result": {**played["result"], "hints": 0}}
    with pytest.raises(replays.Tampered, match="hints"):
        replays.verify(hidden)
    # the board page shows them
    from .test_pages import fetch, http

    _, _, page = await fetch(f"{http(server)}/leaderboard/daily/nestor")
    assert "2 hints" in page


def test_the_hint_handler_gives_the_worker_the_view_and_never_the_game() -> None:
    """What runs the search is handed the view the client is sent and plain values: the
    handler's one call into the worker pool, read from its source."""
    tree = ast.parse(HANDLER.read_text())
    runs = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "self.workers.run"
    ]
    assert len(runs) == 1
    assert [ast.unparse(arg) for arg in runs[0].args] == [
        "POOL",
        "suggest",
        "view",
        "rules",
        "hint_seed(view)",
        "BUDGET_S",
    ]
    work_out = next(
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.AsyncFunctionDef) and node.name == "work_out"
    )
    assert [ast.unparse(a.annotation) for a in work_out.args.args[1:] if a.annotation] == [
        "dict[str, Any]",
        "str",
    ]
    # the view given is the game's view (as the client gets it), the rules its id
    calls = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "self.work_out"
    ]
    assert [[ast.unparse(a) for a in call.args] for call in calls] == [["view", "live.game.id"]]
    views = [
        ast.unparse(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and [ast.unparse(t) for t in node.targets] == ["view"]
    ]
    assert views == ["live.view()"]
    # nothing else of the game is read: live.game appears only as live.game.id
    games = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and ast.unparse(node) == "live.game"
    ]
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    assert games and all(ast.unparse(parents[node]) == "live.game.id" for node in games)


async def test_a_hint_waits_for_no_one_else(server: Running) -> None:
    """The search runs in a worker process: other players' moves are answered while it
    runs."""
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    await ann.call("new_game", game="blockade", seed=2)
    bobs = await bob.call("new_game", game="nestor", seed=1)
    asking = asyncio.ensure_future(ann.request("hint"))
    moved = await bob.call("move", move=bobs["legal"][0])
    assert moved["type"] == "moved"
    assert (await asking)["type"] == "hint"


def test_a_room_kept_before_hints_existed_has_them_off() -> None:
    room = Room(
        code="ABCDEF",
        game_id="gate",
        host="p1",
        max_players=2,
        time_limit=None,
        created_ms=0,
        hints=True,
    )
    data = room.to_dict()
    assert Room.from_dict(data).hints is True
    del data["hints"]
    assert Room.from_dict(data).hints is False


def test_a_hint_entry_is_counted_and_changes_nothing() -> None:
    live = g.dealt("gate", 1, "p1", g.SOLO, 0)
    before = live.game.view()
    live.apply_entry(g.HINT, 5)
    live.apply_entry(g.HINT, 6)
    assert live.hints == 2 and live.game.view() == before and not live.finished
    replay = {
        "game": "gate",
        "seed": 1,
        "rules_version": 2,
        "start_ms": 0,
        "moves": [[5, g.HINT], [6, "deal"]],
    }
    assert replays.view_after(replay, 1) == before
