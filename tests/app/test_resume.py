"""Nothing lost: reconnects, restarts (in process and of the real server process),
takeovers, time limits, hosts leaving, and the move log in Redis.

Real Redis, real websocket connections, real server (in process, or the
``patience-race-server`` child process). Server times are compared for order and
consistency only, never for speed.
"""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path
from typing import Any

import msgpack
import pytest
from redis.asyncio import Redis

from server.app import store
from server.app.settings import Settings
from server.app.store.games import Games
from server.engine import new_game

from .client import Client, player, signed_in
from .conftest import Running, ServerProcess, running, with_settings

GAME = "doubles-and-quits"
#: a deal that "always the first legal move" wins in 26 moves, two cards home a move
WINNING_SEED = 1


def wire(value: Any) -> Any:
    """A value as it comes out of a msgpack frame."""
    return msgpack.unpackb(msgpack.packb(value), raw=False)


def first_move_line(seed: int = WINNING_SEED) -> tuple[list[str], list[Any]]:
    """The moves "always the first legal move" plays on the deal, and the view before the
    first and after each, as a client receives them."""
    game = new_game(GAME, seed=seed)
    moves: list[str] = []
    views = [wire(game.view())]
    while legal := game.legal_moves():
        moves.append(game.play(legal[0].text).text)
        views.append(wire(game.view()))
    assert game.status == "won"
    return moves, views


MOVES, VIEWS = first_move_line()


def entry(room: dict[str, Any], name: str) -> dict[str, Any]:
    """A player's line in a ``room`` message."""
    return next(p for p in room["players"] if p["name"] == name)


async def lobby(url: str, names: list[str], **room: Any) -> tuple[list[Client], str]:
    """Registered players in one room: the first is the host, the others ready."""
    clients = [await player(url, name) for name in names]
    code = (await clients[0].call("room_create", **room))["code"]
    for client in clients[1:]:
        await client.call("room_join", code=code)
        await client.call("ready")
    return clients, code


async def start(clients: list[Client]) -> list[dict[str, Any]]:
    await clients[0].call("start")
    return [await c.event("race_start") for c in clients]


async def play(client: Client, moves: list[str]) -> dict[str, Any]:
    reply: dict[str, Any] = {}
    for move in moves:
        reply = await client.call("move", move=move)
    return reply


async def game_log(redis: store.RedisClient, gid: str) -> list[tuple[int, str]]:
    """A game's move log, read straight from Redis: (server ms, entry) pairs."""
    out = []
    for raw in await redis.lrange(store.log_key(gid), 0, -1):
        assert isinstance(raw, bytes)
        at, _, what = raw.decode().partition(" ")
        out.append((int(at), what))
    return out


async def stored(redis: store.RedisClient, key: str) -> Any:
    """A msgpack value the server keeps in Redis, read straight from Redis."""
    data = await redis.get(key)
    assert isinstance(data, bytes), key
    return store.unpack(data)


def resume_of(client: Client) -> dict[str, Any]:
    """The ``resume`` field of the ``welcome`` a :func:`signed_in` client got."""
    resume: dict[str, Any] = client.welcome["resume"]  # type: ignore[attr-defined]
    return resume


async def drained(client: Client) -> list[dict[str, Any]]:
    """Every event the server sent this client before answering a ping sent now."""
    await client.call("ping")
    return client.events


# -- 1. reconnect mid-race -----------------------------------------------------------


async def test_reconnect_mid_race_resumes_at_the_last_acknowledged_move(server: Running) -> None:
    (ann, bob), code = await lobby(server.url, ["ann", "bob"], game=GAME, seed=WINNING_SEED)
    _, bob_start = await start([ann, bob])
    last = await play(bob, MOVES[:3])
    await bob.close()
    gone = await ann.event("room", lambda e: not entry(e, "bob")["present"])
    assert gone["state"] == "racing"
    server.clock.advance(60)  # bob is away a minute: the race clock keeps running

    bob = await signed_in(server.url, bob.token or "")
    resume = resume_of(bob)
    race = resume["race"]
    assert race["type"] == "race_start" and race["code"] == code and race["race"] == 1
    assert race["game"] == bob_start["game"] and race["kind"] == "race"
    assert race["start_at"] == bob_start["start_at"]
    assert race["view"] == last["view"] == VIEWS[3]
    assert race["legal"] == last["legal"]
    assert race["status"] == "playing"
    room = resume["room"]
    assert room["code"] == code and room["state"] == "racing"
    assert room["start_at"] == bob_start["start_at"]
    assert entry(room, "bob")["present"] and entry(room, "bob")["moves"] == 3
    assert entry(room, "bob")["home"] == 6
    assert "solo" not in resume

    final = await play(bob, MOVES[3:])
    assert final["status"] == "won" and final["game"] == bob_start["game"]
    await ann.call("resign")
    results = (await bob.event("results"))["results"]
    assert [r["player"] for r in results] == ["bob", "ann"]
    won_at, won_move = (await game_log(server.redis, bob_start["game"]))[-1]
    assert won_move == MOVES[-1]
    assert results[0]["time_ms"] == won_at - bob_start["start_at"]
    assert results[0]["time_ms"] >= 60_000  # the minute away counted
    assert results[0]["moves"] == len(MOVES)
    assert (await ann.event("results"))["results"] == results


async def test_reconnect_to_a_second_server_on_the_same_redis(server: Running) -> None:
    (ann,), code = await lobby(server.url, ["ann"], game=GAME, seed=WINNING_SEED)
    (began,) = await start([ann])
    last = await play(ann, MOVES[:5])
    await ann.close()
    server.clock.advance(30)  # the clock is shared: both servers read the same time

    async with running(server.settings) as other:
        ann = await signed_in(other.url, ann.token or "")
        race = resume_of(ann)["race"]
        assert race["game"] == began["game"] and race["start_at"] == began["start_at"]
        assert race["code"] == code
        assert race["view"] == last["view"] == VIEWS[5]
        assert race["legal"] == last["legal"]
        assert resume_of(ann)["room"]["state"] == "racing"
        final = await play(ann, MOVES[5:])
        assert final["status"] == "won"
        results = (await ann.event("results"))["results"]
        won_at, _ = (await game_log(other.redis, began["game"]))[-1]
        assert results[0]["player"] == "ann" and results[0]["status"] == "won"
        assert results[0]["time_ms"] == won_at - began["start_at"] >= 30_000


# -- 2. solo game resume ---------------------------------------------------------------


async def test_solo_game_resumes_after_reconnect_and_on_another_server(server: Running) -> None:
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game=GAME, seed=WINNING_SEED)
    assert game["view"] == VIEWS[0]
    await play(ann, MOVES[:2])
    undone = await ann.call("undo")
    assert undone["move"] == MOVES[1] and undone["view"] == VIEWS[1]
    last = await play(ann, MOVES[1:3])
    await ann.close()

    ann = await signed_in(server.url, ann.token or "")
    resume = resume_of(ann)
    solo = resume["solo"]
    assert solo == {
        "game": game["game"],
        "kind": "solo",
        "rules": GAME,
        "rules_version": 1,
        "view": last["view"],
        "legal": last["legal"],
        "status": "playing",
        "started_at": game["started_at"],
    }
    assert solo["view"] == VIEWS[3]
    assert "race" not in resume and "room" not in resume
    last = await ann.call("move", move=MOVES[3])
    assert last["game"] == game["game"] and last["view"] == VIEWS[4]
    await ann.close()

    # another server rebuilds the game from its move log alone
    async with running(server.settings) as other:
        ann = await signed_in(other.url, ann.token or "")
        assert resume_of(ann)["solo"] == {**solo, "view": VIEWS[4], "legal": last["legal"]}
        final = await play(ann, MOVES[4:])
        assert final["game"] == game["game"] and final["status"] == "won"


# -- 3. restarts -------------------------------------------------------------------------


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["sigterm", "sigkill"])
async def test_server_restart_mid_race_loses_no_acknowledged_move(
    server_process: ServerProcess, redis_url: str, sig: signal.Signals
) -> None:
    url = server_process.url
    (ann, bob), code = await lobby(url, ["ann", "bob"], game=GAME, seed=WINNING_SEED)
    ann_start, bob_start = await start([ann, bob])
    bob_last = await play(bob, MOVES[:2])
    # ann sends a stream of moves without waiting; the server stops while it may be
    # handling them: every one acknowledged must survive, and what survives is a prefix
    sent = MOVES[:20]
    pending = [asyncio.create_task(ann.request("move", move=mv)) for mv in sent]
    await asyncio.wait(pending[:4])
    exit_code = await asyncio.to_thread(server_process.stop, sig)
    replies = await asyncio.gather(*pending, return_exceptions=True)
    acked = 0
    for reply in replies:
        if not isinstance(reply, dict):
            break
        assert reply["type"] == "moved", reply
        acked += 1
    assert acked >= 4
    closes = [await c.closed() for c in (ann, bob)]
    if sig == signal.SIGTERM:
        assert exit_code == 0
        assert [c[0] for c in closes] == [1012, 1012]
    else:
        assert exit_code == -signal.SIGKILL
        assert [c[0] for c in closes] == [None, None]  # no drain: no close frame

    await asyncio.to_thread(server_process.start)
    ann = await signed_in(url, ann.token or "")
    bob = await signed_in(url, bob.token or "")
    race = resume_of(ann)["race"]
    assert race["game"] == ann_start["game"] and race["start_at"] == ann_start["start_at"]
    survived = VIEWS.index(race["view"])
    assert acked <= survived <= len(sent)
    redis = Redis.from_url(redis_url)
    try:
        assert [what for _, what in await game_log(redis, ann_start["game"])] == sent[:survived]
        bob_race = resume_of(bob)["race"]
        assert bob_race["view"] == bob_last["view"] and bob_race["legal"] == bob_last["legal"]
        assert bob_race["start_at"] == bob_start["start_at"]
        room = resume_of(bob)["room"]
        assert room["code"] == code and room["state"] == "racing"
        assert entry(room, "ann")["present"] and entry(room, "bob")["present"]

        await bob.call("resign")
        final = await play(ann, MOVES[survived:])
        assert final["status"] == "won"
        results = (await ann.event("results"))["results"]
        assert (await bob.event("results"))["results"] == results
        assert [(r["player"], r["status"]) for r in results] == [
            ("ann", "won"),
            ("bob", "resigned"),
        ]
        log = await game_log(redis, ann_start["game"])
        assert [what for _, what in log] == MOVES
        assert results[0]["time_ms"] == log[-1][0] - ann_start["start_at"]
        assert results[1]["home"] == 4
    finally:
        await redis.aclose()


async def test_restart_during_the_countdown_starts_the_race_at_its_start_at(
    settings: Settings,
) -> None:
    settings = with_settings(settings, countdown=30.0)
    async with running(settings) as first:
        (ann, bob), code = await lobby(first.url, ["ann", "bob"], game=GAME, seed=WINNING_SEED)
        counting = await ann.call("start")
        assert counting["state"] == "countdown"
        start_at = counting["start_at"]
    assert (await ann.closed())[0] == 1012

    async with running(settings) as second:
        ann = await signed_in(second.url, ann.token or "")
        bob = await signed_in(second.url, bob.token or "")
        for client in (ann, bob):
            resume = resume_of(client)
            assert "race" not in resume
            assert resume["room"]["state"] == "countdown"
            assert resume["room"]["start_at"] == start_at
            assert resume["room"]["code"] == code
        # nothing to move yet: the race has not started
        early = await ann.request("move", move=MOVES[0])
        assert early["type"] == "error"
        assert "race_start" not in [e["type"] for e in await drained(bob)]
        # the clock set to the start itself and held there: moved on 30 s from a restart
        # that took over a second on a loaded machine, the start was late, and the race
        # started from then (as a start Redis kept waiting does: room.countdown_due)
        second.clock.freeze()
        second.clock.advance((start_at - second.clock.now_ms()) / 1000)
        try:
            starts = [await c.event("race_start") for c in (ann, bob)]
        finally:
            second.clock.frozen_ms = None
            second.clock.advance(0.1)
        assert [s["start_at"] for s in starts] == [start_at, start_at]
        assert starts[0]["view"] == starts[1]["view"] == VIEWS[0]
        racing = await ann.event("room", lambda e: e["state"] == "racing")
        assert racing["now"] >= start_at
        await ann.call("move", move=MOVES[0])


# -- 4. takeover -------------------------------------------------------------------------


async def test_signing_in_elsewhere_takes_over_the_connection(server: Running) -> None:
    (ann, bob), code = await lobby(server.url, ["ann", "bob"], game=GAME, seed=WINNING_SEED)
    (await drained(bob)).clear()

    ann2 = await signed_in(server.url, ann.token or "")
    out = await ann.event("signed_out")
    assert "another connection" in out["reason"]
    assert (await ann.closed())[0] == 4001
    room = resume_of(ann2)["room"]
    assert room["code"] == code and room["host"] == "ann"
    assert entry(room, "ann")["present"]
    rooms = [e for e in await drained(bob) if e["type"] == "room"]
    assert rooms and entry(rooms[-1], "ann")["present"] and rooms[-1]["host"] == "ann"

    # the new connection works, as the host still
    assert (await ann2.call("ping"))["type"] == "pong"
    await ann2.call("start")
    began = await ann2.event("race_start")
    assert (await ann2.call("move", move=MOVES[0]))["view"] == VIEWS[1]
    assert began["code"] == code


# -- 7. health check ---------------------------------------------------------------------


def http_get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=5) as response:
        return response.status, response.read()


async def test_healthz_answers_ok_on_the_websocket_port(server: Running) -> None:
    status, body = await asyncio.to_thread(http_get, f"http://127.0.0.1:{server.web.port}/healthz")
    assert status == 200 and body.decode().strip() == "ok"
    client = await player(server.url, "ann")  # the same port still speaks websocket
    assert (await client.call("ping"))["type"] == "pong"


# -- 8. the log in Redis -------------------------------------------------------------


async def test_every_acknowledged_move_is_in_the_redis_log_in_order(server: Running) -> None:
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game=GAME, seed=WINNING_SEED)
    acknowledged: list[str] = []
    for move in MOVES[:3]:
        acknowledged.append((await ann.call("move", move=move))["move"])
    illegal = await ann.request("move", move="1+20")
    assert illegal["type"] == "error" and illegal["code"] == "illegal_move"
    await ann.call("undo")
    acknowledged.append("!undo")
    acknowledged.append((await ann.call("move", move=MOVES[2]))["move"])
    await ann.call("resign")
    acknowledged.append("!resign")

    redis = Redis.from_url(server.settings.redis_url or "")
    try:
        log = await game_log(redis, game["game"])
        assert (
            [what for _, what in log] == acknowledged == [*MOVES[:3], "!undo", MOVES[2], "!resign"]
        )
        times = [at for at, _ in log]
        welcome = ann.frames[0]
        assert welcome["type"] == "welcome"
        assert times == sorted(times) and times[0] >= welcome["time"]
        meta = await redis.hgetall(store.game_key(game["game"]))
        assert meta[b"owner"] and meta[b"kind"] == b"solo" and meta[b"seed"] == b"1"
    finally:
        await redis.aclose()


# -- a restart changes nothing in a lobby ------------------------------------------------


async def test_a_restart_keeps_the_lobby_host(settings: Settings) -> None:
    async with running(settings) as first:
        (ann, bob, _), code = await lobby(first.url, ["ann", "bob", "cat"], game=GAME)
    assert (await ann.closed())[0] == 1012

    async with running(settings) as second:
        bob = await signed_in(second.url, bob.token or "")
        room = resume_of(bob)["room"]
        assert room["code"] == code and room["state"] == "lobby"
        assert [p["name"] for p in room["players"]] == ["ann", "bob", "cat"]
        assert room["host"] == "ann"


async def test_a_game_taken_by_another_process_refuses_the_old_copy(server: Running) -> None:
    """The fencing token: once another process loads a game to play it, appends from the
    copy that had it before are refused, and nothing of theirs lands in the log."""
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game="gate", seed=3)
    legal = game["legal"]
    legal = (await ann.call("move", move=legal[0]))["legal"]
    # another process (here: a load as it does) takes the game
    other = await Games(server.redis).load(game["game"])
    assert other is not None and other.game.moves == 1
    reply = await ann.request("move", move=legal[0])
    assert reply["code"] == "game_elsewhere", reply
    assert server.service.fenced == 1
    assert len(await Games(server.redis).read_log(game["game"])) == 1
    # the stale copy is dropped: the next request takes the game back from the log, with
    # the one move that was acknowledged, and plays on
    retry = await ann.call("move", move=legal[0])
    assert retry["view"]["moves"] == 2
    assert len(await Games(server.redis).read_log(game["game"])) == 2


async def test_a_request_naming_anothers_game_on_another_process_takes_nothing(
    settings: Settings,
) -> None:
    """Another player naming one's game id from another process is refused, and takes
    nothing: an outside tester found each of the playing requests there (``move``,
    ``undo``, ``resign``, ``hint``, ``home``) took the game under a new fencing token
    before it was refused, so the owner's next request was refused ``game_elsewhere``."""
    async with running(settings) as one, running(settings) as two:
        ann = await player(one.url, "ann")
        bob = await player(two.url, "bob")
        game = await ann.call("new_game", game="gate", seed=3)
        gid = game["game"]
        legal = (await ann.call("move", move=game["legal"][0]))["legal"]
        for kind, fields in [
            ("move", {"move": legal[0]}),
            ("undo", {}),
            ("resign", {}),
            ("hint", {}),
            ("home", {}),
        ]:
            refused = await bob.request(kind, game=gid, **fields)
            assert refused["code"] == "no_such_game", (kind, refused)
            # the owner plays on, refused nothing
            reply = await ann.call("move", move=legal[0])
            legal = reply["legal"]
        assert one.service.fenced == 0 and two.service.fenced == 0
        assert len(await Games(one.redis).read_log(gid)) == 6


def test_a_server_that_cannot_listen_exits(redis_url: str, tmp_path: Path) -> None:
    """Starting fails after the service has started (its bus, its housekeeping): the
    process stops them and exits with an error instead of hanging."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        env = {
            **os.environ,
            "PATIENCE_PORT": str(taken.getsockname()[1]),
            "PATIENCE_REDIS_URL": redis_url,
            "PATIENCE_DATA_DIR": str(tmp_path),
        }
        done = subprocess.run(
            [sys.executable, "-m", "server.cli"],
            env=env,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    assert done.returncode != 0
    assert "address already in use" in done.stderr.lower()
