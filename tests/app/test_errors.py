"""Every error code, provoked for real: real server, real Redis, real websocket clients.

Each refusal is checked the same way (:func:`refused`): the reply is exactly
``{"type": "error", "id": <the request's id>, "code": ..., "message": ...}`` with a message
that says what went wrong, the connection stays open and answers the next request, and the
refused request changed nothing (checked case by case, from the outside where possible:
the game plays on from where it was, the room still holds who it held, the name is free).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import re
from collections.abc import AsyncIterator
from typing import Any, cast

import msgpack
import pytest
from redis.asyncio import Redis
from redis.typing import EncodableT, FieldT
from websockets.protocol import State

from server.app import store
from server.app.settings import Settings
from server.engine import new_game
from server.protocol import ErrorCode

from .client import Client, player, signed_in
from .conftest import Running, running, with_settings

#: request ids for :func:`ask`: well away from the client's own counter
IDS = itertools.count(7_000_000)
#: Doubles and Quits, seed 1: "4+5" is legal at the start, "1+2" is not
DOUBLES = "doubles-and-quits"
#: Gate, seed 1: "deal" turns up hidden cards from the stock
GATE = "gate"


async def ask(client: Client, kind: str, **fields: Any) -> tuple[int, dict[str, Any]]:
    """Send a request with a fresh id; return (id, reply). The reply is the frame the server
    sent with that id."""
    request_id = next(IDS)
    future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
    client._pending[request_id] = future
    await client.send_raw(msgpack.packb({"type": kind, "id": request_id, **fields}))
    return request_id, await asyncio.wait_for(future, 10)


async def alive(client: Client) -> None:
    """The connection is open and answers: ``ping`` gets ``pong``."""
    reply = await client.request("ping")
    assert reply["type"] == "pong", reply
    assert isinstance(reply["time"], int)


async def refused(
    client: Client,
    kind: str,
    code: str,
    match: str,
    /,
    *,
    check_alive: bool = True,
    **fields: Any,
) -> str:
    """Send a request that must fail with ``code``, its message matching ``match``; check the
    reply's shape and id and that the connection is still usable. Returns the message."""
    request_id, reply = await ask(client, kind, **fields)
    assert reply == {
        "type": "error",
        "id": request_id,
        "code": code,
        "message": reply.get("message"),
    }, reply
    assert code in set(ErrorCode), code
    message = reply["message"]
    assert isinstance(message, str) and message, reply
    assert re.search(match, message), (match, message)
    assert client.ws.state is State.OPEN, "the server closed the connection"
    if check_alive:
        await alive(client)
    return message


@pytest.fixture
async def redis(server: Running) -> AsyncIterator[Redis]:
    """A Redis client of the test's own, apart from the server's."""
    assert server.settings.redis_url is not None
    client = Redis.from_url(server.settings.redis_url)
    yield client
    await client.aclose()


async def pid_of(redis: Redis, name: str) -> str:
    pid = await redis.get(f"pname:{name.lower()}")
    assert isinstance(pid, bytes)
    return str(pid.decode())


def after(game: str, seed: int, moves: list[str]) -> dict[str, Any]:
    """The view of a game after ``moves``, by the engine alone."""
    reference = new_game(game, seed=seed)
    for move in moves:
        reference.play(move)
    return reference.view()


# -- framing and sign-in ---------------------------------------------------------------------


async def test_bad_request(server: Running) -> None:
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game=DOUBLES, seed=1)
    # a field of the wrong type, a required field missing, a value out of range
    await refused(ann, "move", "bad_request", r"'move' must be text", move=5)
    await refused(ann, "move", "bad_request", r"'move' is required")
    await refused(ann, "move", "bad_request", r"'move' is longer than 64", move="4+5" * 30)
    await refused(ann, "new_game", "bad_request", r"'seed' must be from 0", game=DOUBLES, seed=-1)
    await refused(ann, "room_create", "bad_request", r"'max_players'", game=DOUBLES, max_players=1)
    await refused(ann, "ready", "bad_request", r"'ready' must be true or false", ready=1)
    await refused(ann, "hello", "bad_request", r"'protocol' must be an integer", protocol="1")
    # none of them touched the game: its first move is still to be played
    moved = await ann.call("move", move="4+5", game=game["game"])
    assert moved["view"] == after(DOUBLES, 1, ["4+5"])
    # no usable id: the reply carries a nil id (an event, to the client), and the
    # connection carries on
    for frame in ({"type": "ping"}, {"type": "ping", "id": "7"}, {"type": "ping", "id": -1}):
        await ann.send_raw(msgpack.packb(frame))
        event = await ann.event("error")
        assert event["id"] is None and event["code"] == "bad_request", event
        assert "integer 'id'" in event["message"]
    await ann.send_raw(msgpack.packb([1, 2, 3]))
    event = await ann.event("error")
    assert event == {
        "type": "error",
        "id": None,
        "code": "bad_request",
        "message": "a request is a map with 'type' and 'id'",
    }
    await alive(ann)


async def test_unknown_type_and_hello_errors(server: Running) -> None:
    client = await Client.connect(server.url)
    # before hello: unknown types and malformed requests are still told apart
    message = await refused(client, "fly", "unknown_type", r"'fly'", check_alive=False)
    assert message == "unknown request type 'fly'"
    await refused(client, "x" * 200, "unknown_type", r"\.\.\.'$", check_alive=False)
    await refused(client, "move", "bad_request", r"'move' is required", check_alive=False)
    # (as protocol.md says: its real fault first, hello_first only for a well-formed one)
    # anything but hello before hello
    await refused(client, "ping", "hello_first", "hello first", check_alive=False)
    await refused(client, "register", "hello_first", "hello first", check_alive=False, name="ann")
    # a protocol this server does not speak: not signed in, still hello first
    await refused(
        client, "hello", "bad_version", r"protocol 1, not 2", check_alive=False, protocol=2
    )
    await refused(client, "ping", "hello_first", "hello first", check_alive=False)
    # a token no player has
    await refused(
        client,
        "hello",
        "bad_token",
        "no player has this token",
        check_alive=False,
        protocol=1,
        token="not-a-token",
    )
    await refused(client, "ping", "hello_first", "hello first", check_alive=False)
    # and the register refused before hello did not happen: the name is free
    welcome = await client.call("hello", protocol=1)
    assert "player" not in welcome
    await alive(client)
    registered = await client.call("register", name="ann")
    assert registered["player"]["name"] == "ann"
    # after a good hello, a hello with a bad token is refused and changes nothing
    await refused(client, "hello", "bad_token", "no player has this token", protocol=1, token="x")
    await refused(client, "register", "already_registered", "already signed in as ann", name="b")
    await refused(client, "hello", "bad_version", "not 0", protocol=0)
    await refused(client, "fly", "unknown_type", "'fly'")


async def test_not_authenticated(server: Running) -> None:
    client = await Client.connect(server.url)
    await client.call("hello", protocol=1)
    need = "register or sign in"
    await refused(client, "new_game", "not_authenticated", need, game=DOUBLES)
    await refused(client, "move", "not_authenticated", need, move="4+5")
    await refused(client, "undo", "not_authenticated", need)
    await refused(client, "resign", "not_authenticated", need)
    await refused(client, "room_create", "not_authenticated", need, game=DOUBLES)
    await refused(client, "room_join", "not_authenticated", need, code="ABCDEF")
    # a spectator needs no player to stop watching: room_leave is answered, not refused
    assert (await client.call("room_leave"))["type"] == "left"
    await refused(client, "ready", "not_authenticated", need)
    await refused(client, "start", "not_authenticated", need)
    await refused(client, "rematch", "not_authenticated", need)
    # what needs no player still works
    assert (await client.call("games"))["games"]


async def test_names(server: Running) -> None:
    ann = await player(server.url, "Ann_1")
    other = await Client.connect(server.url)
    await other.call("hello", protocol=1)
    # taken, exactly and in another case
    for name in ("Ann_1", "ann_1", "ANN_1"):
        message = await refused(other, "register", "name_taken", "is taken", name=name)
        assert repr(name) in message
    # not a name: too short, too long, characters outside letters, digits, _ and -
    bad = ["", "a", "a" * 21, "a" * 65, "a" * 128, "an n", "ann!", "änn", "ann.", "ann\n"]
    bad += ["\nann", "ann\t", "名前"]
    # nor a first character other than a letter or a digit: "-h" and "--watch" were
    # registered, and the terminal could not name them (taken for options), "_-" nobody
    bad += ["-h", "--watch", "--", "_-", "_ann", "-x"]
    for name in bad:
        await refused(
            other,
            "register",
            "bad_name",
            r"2 to 20 letters \(A to Z\), digits, '_' or '-', the first a letter or a digit",
            name=name,
        )
    # the longest and shortest names are fine, and the refusals left the connection
    # unregistered: this register is its first
    await other.call("register", name="a" * 20)
    third = await Client.connect(server.url)
    await third.call("hello", protocol=1)
    await third.call("register", name="ab")
    # refusals created nothing in Redis under the bad names
    redis = server.redis
    assert await redis.get("pname:ann_1") is not None
    for name in bad:
        assert await redis.get(f"pname:{name.lower()}") is None, name
    # the first player is still who she was
    again = await signed_in(server.url, ann.token or "")
    assert again.name == "Ann_1"


# -- games -----------------------------------------------------------------------------------


async def test_illegal_move(server: Running) -> None:
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game=DOUBLES, seed=1)
    gid = game["game"]
    for text in ("zzz", "", "4+", "+5", "4 + + 5", "²+1", "1+²", "⁴+5", "٤+٥"):
        await refused(ann, "move", "illegal_move", "cannot read", move=text)
    message = await refused(ann, "move", "illegal_move", r"^illegal move '1\+2': ", move="1+2")
    assert "equal rank" in message
    # nothing was played: the game is as dealt, and "4+5" plays as the first move
    assert server.service.games[gid].game.moves == 0
    await refused(ann, "undo", "undo_refused", "nothing to undo")
    moved = await ann.call("move", move=" 5 + 4 ")
    assert moved["move"] == "4+5"
    assert moved["view"] == after(DOUBLES, 1, ["4+5"])
    assert await server.redis.llen(store.log_key(gid)) == 1


async def test_undo_refused(server: Running) -> None:
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game=GATE, seed=1)
    assert "deal" in game["legal"]
    await refused(ann, "undo", "undo_refused", "nothing to undo")
    dealt = await ann.call("move", move="deal")
    message = await refused(ann, "undo", "undo_refused", r"cannot undo 'deal'")
    assert "hidden cards" in message
    # the deal stands, in the game and in its log
    live = server.service.games[game["game"]]
    assert live.game.moves == 1 and live.game.view() == dealt["view"] == after(GATE, 1, ["deal"])
    entries = cast(list[bytes], await server.redis.lrange(store.log_key(game["game"]), 0, -1))
    assert [e.decode().split(" ", 1)[1] for e in entries] == ["deal"]
    # a move that showed nothing can be undone, once
    move = dealt["legal"][0]
    await ann.call("move", move=move)
    undone = await ann.call("undo")
    assert undone["move"] == move and undone["view"] == dealt["view"]
    await refused(ann, "undo", "undo_refused", r"cannot undo 'deal'")


async def test_no_such_game(server: Running) -> None:
    ann = await player(server.url, "ann")
    bob = await player(server.url, "bob")
    hint = "no such game of yours"
    # no game in play at all
    await refused(ann, "move", "no_such_game", hint, move="4+5")
    await refused(ann, "undo", "no_such_game", hint)
    await refused(ann, "resign", "no_such_game", hint)
    # games that do not exist
    every = r"no game 'chess': the games are gate, gate-narrow, .*, wedge"  # (the ids)
    await refused(ann, "new_game", "no_such_game", every, game="chess")
    await refused(ann, "room_create", "no_such_game", r"no game 'chess'", game="chess")
    assert not server.service.rooms
    # an unknown game id, and another player's game
    theirs = await bob.call("new_game", game=DOUBLES, seed=1)
    await refused(ann, "move", "no_such_game", hint, move="4+5", game="0123456789abcdef")
    await refused(ann, "move", "no_such_game", hint, move="4+5", game=theirs["game"])
    await refused(ann, "resign", "no_such_game", hint, game=theirs["game"])
    # bob's game was not touched by any of it
    moved = await bob.call("move", move="4+5")
    assert moved["game"] == theirs["game"] and moved["view"] == after(DOUBLES, 1, ["4+5"])
    # ann still has no solo game
    await refused(ann, "move", "no_such_game", hint, move="4+5")


async def test_game_over(server: Running) -> None:
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game=DOUBLES, seed=1)
    await ann.call("move", move="4+5")
    resigned = await ann.call("resign")
    assert resigned["status"] == "resigned"
    await refused(ann, "move", "game_over", r"the game is over \(resigned\)", move="6+11")
    await refused(ann, "undo", "game_over", r"over \(resigned\)")
    await refused(ann, "resign", "game_over", r"over \(resigned\)")
    await refused(ann, "move", "game_over", r"over", move="6+11", game=game["game"])
    live = server.service.games[game["game"]]
    assert live.game.moves == 1 and live.result == "resigned"
    entries = cast(list[bytes], await server.redis.lrange(store.log_key(game["game"]), 0, -1))
    assert [e.decode().split(" ", 1)[1] for e in entries] == ["4+5", "!resign"]
    # a new game plays
    fresh = await ann.call("new_game", game=DOUBLES, seed=1)
    assert (await ann.call("move", move="4+5"))["game"] == fresh["game"]


# -- rooms -----------------------------------------------------------------------------------


async def test_no_such_room_and_not_in_room(server: Running) -> None:
    ann = await player(server.url, "ann")
    await refused(ann, "room_join", "no_such_room", "no room ZZZZZZ", code="zzzzzz")
    await refused(ann, "room_watch", "no_such_room", "no room ABCDEF", code=" abcdef ")
    await refused(ann, "room_join", "no_such_room", "no room", code="")
    for kind in ("ready", "start", "rematch"):
        await refused(ann, kind, "not_in_room", "not in a room")
    # a room that closed is gone
    created = await ann.call("room_create", game=DOUBLES)
    await ann.call("room_leave")
    await refused(ann, "room_join", "no_such_room", created["code"], code=created["code"])
    await refused(ann, "ready", "not_in_room", "not in a room")
    assert not server.service.rooms


async def test_room_full(server: Running) -> None:
    ann, bob, cat = [await player(server.url, n) for n in ("ann", "bob", "cat")]
    created = await ann.call("room_create", game=DOUBLES, max_players=2)
    code = created["code"]
    await bob.call("room_join", code=code)
    await ann.event("room", lambda e: len(e["players"]) == 2)
    seen = len(ann.frames), len(bob.frames)
    await refused(cat, "room_join", "room_full", f"room {code} is full", code=code.lower())
    # cat is not in it, and nobody in it heard of her
    await refused(cat, "ready", "not_in_room", "not in a room")
    assert (len(ann.frames), len(bob.frames)) == seen
    room = await bob.call("ready")
    assert [p["name"] for p in room["players"]] == ["ann", "bob"]
    # once bob leaves, there is room for cat
    await bob.call("room_leave")
    joined = await cat.call("room_join", code=code)
    assert [p["name"] for p in joined["players"]] == ["ann", "cat"]


async def test_host_ready_and_started(server: Running) -> None:
    ann, bob, dan = [await player(server.url, n) for n in ("ann", "bob", "dan")]
    code = (await ann.call("room_create", game=DOUBLES, seed=1))["code"]
    await bob.call("room_join", code=code)
    # only the host starts, and only when everyone else is ready
    await refused(bob, "start", "not_host", "only the host starts the race")
    await refused(bob, "rematch", "not_host", "only the host calls a rematch")
    await refused(ann, "start", "not_ready", r"not ready yet: bob$")
    room = await bob.call("ready", ready=False)
    assert room["state"] == "lobby" and room["race"] == 0
    await refused(ann, "rematch", "race_started", "not over yet")
    await bob.call("ready")
    await ann.call("start")
    # counting down or racing: no joining, no readying, no second start
    await refused(
        dan,
        "room_join",
        "race_started",
        f"the race in room {code} has started; watch it",
        code=code,
    )
    await refused(dan, "ready", "not_in_room", "not in a room")
    await refused(bob, "ready", "race_started", "the race has started")
    await refused(ann, "start", "race_started", "the race has started")
    await refused(bob, "start", "not_host", "only the host")
    start = await bob.event("race_start")
    room = await dan.call("room_watch", code=code)
    assert [p["name"] for p in room["players"]] == ["ann", "bob"]
    assert room["race"] == 1
    # the race goes on: bob's first move is the deal's
    moved = await bob.call("move", move=start["legal"][0])
    assert moved["view"] == after(DOUBLES, 1, [start["legal"][0]])
    await refused(dan, "room_join", "race_started", f"room {code} has started", code=code)
    # the race over: a start had been told "the race has started"
    for racer in (ann, bob):
        await racer.call("resign")
    await ann.event("results")
    await refused(ann, "start", "race_started", "the race is over: rematch")
    await refused(bob, "ready", "race_started", "the race is over: the host may call a rematch")


# -- rate limit ------------------------------------------------------------------------------


async def test_rate_limited(settings: Settings) -> None:
    """A burst of two, then one request a second. Four frames in one write: the burst
    goes to ``hello`` and the first ``register``, the second is refused with
    ``rate_limited``, and the third is dropped unanswered (one ``rate_limited`` a second).
    In one write, nothing of the machine's pace comes between them but the first
    register's own handling: it would have to take a whole second to refill a token."""
    async with running(with_settings(settings, rate=1.0, burst=2)) as slow:
        client = await Client.connect(slow.url)
        loop = asyncio.get_running_loop()
        sent = []
        for kind in ("hello", "register", "register", "register"):
            request_id = next(IDS)
            future: asyncio.Future[dict[str, Any]] = loop.create_future()
            client._pending[request_id] = future
            sent.append((request_id, future))
            fields = {"protocol": 1} if kind == "hello" else {"name": f"name{len(sent) - 2}"}
            frame = msgpack.packb({"type": kind, "id": request_id, **fields})
            client.ws.protocol.send_binary(frame)
        client.ws.send_data()  # in one write
        assert (await asyncio.wait_for(sent[0][1], 10))["type"] == "welcome"
        assert (await asyncio.wait_for(sent[1][1], 10))["type"] == "registered"
        assert await asyncio.wait_for(sent[2][1], 10) == {
            "type": "error",
            "id": sent[2][0],
            "code": "rate_limited",
            "message": "more than 1 request a second: slow down",
        }
        # the connection carries on once the bucket has refilled (two short: it is full
        # again after 3 s; then a ping every 1.5 s, slower than it refills); replies come
        # in order, so by then the last register would have had its
        await asyncio.sleep(3.0)
        while True:
            with contextlib.suppress(TimeoutError):
                reply = await client.request("ping", timeout=1.0)
                if reply["type"] == "pong":
                    break
                assert reply["code"] == "rate_limited", reply
            await asyncio.sleep(1.5)
        assert not sent[3][1].done()
        assert client.ws.state is State.OPEN
        # the refused registers did nothing: their names are free
        assert await slow.redis.get("pname:name0")
        for n in (1, 2):
            assert await slow.redis.get(f"pname:name{n}") is None


# -- internal errors -------------------------------------------------------------------------


async def test_internal_error_new_game(server: Running, redis: Redis) -> None:
    """The player's hash made a string: writing the new solo game's id to it fails."""
    ann = await player(server.url, "ann")
    first = await ann.call("new_game", game=DOUBLES, seed=1)
    key = f"p:{await pid_of(redis, 'ann')}"
    saved = cast(dict[FieldT, EncodableT], await redis.hgetall(key))
    await redis.delete(key)
    await redis.set(key, "not a hash")
    message = await refused(
        ann,
        "new_game",
        "internal_error",
        "could not handle this request",
        game=GATE,
        seed=1,
    )
    assert message == "the server could not handle this request (it is logged)"
    await redis.delete(key)
    await redis.hset(key, mapping=saved)
    # the solo game is still the first one, where it was
    moved = await ann.call("move", move="4+5")
    assert moved["game"] == first["game"]
    assert moved["view"] == after(DOUBLES, 1, ["4+5"])


async def test_internal_error_move_undo_resign(server: Running, redis: Redis) -> None:
    """The game's log made a string: the move, undo or resign cannot be logged, so it is not
    played, taken back or applied."""
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game=DOUBLES, seed=1)
    log = store.log_key(game["game"])
    await redis.set(log, "not a list")
    await refused(ann, "move", "internal_error", "could not handle this request", move="4+5")
    await redis.delete(log)
    # the move was not played: nothing to undo, and it plays now
    await refused(ann, "undo", "undo_refused", "nothing to undo")
    moved = await ann.call("move", move="4+5")
    assert moved["view"] == after(DOUBLES, 1, ["4+5"])
    # undo: refused for Redis, so the move stands
    await redis.rename(log, "kept")
    await redis.set(log, "not a list")
    await refused(ann, "undo", "internal_error", "could not handle this request")
    # resign: refused for Redis, so the game is still on
    await refused(ann, "resign", "internal_error", "could not handle this request")
    await redis.delete(log)
    await redis.rename("kept", log)
    live = server.service.games[game["game"]]
    assert live.game.moves == 1 and not live.finished
    second = await ann.call("move", move=moved["legal"][0])
    assert second["status"] == "playing"
    assert second["view"] == after(DOUBLES, 1, ["4+5", moved["legal"][0]])
    entries = cast(list[bytes], await redis.lrange(log, 0, -1))
    assert [e.decode().split(" ", 1)[1] for e in entries] == ["4+5", moved["legal"][0]]
    undone = await ann.call("undo")
    assert undone["view"] == moved["view"]


async def test_internal_error_is_one_players_only(server: Running, redis: Redis) -> None:
    """Two players' moves written to Redis together: the one that fails does not take the
    other down with it, and the other's move is acknowledged exactly when it is stored."""
    ann = await player(server.url, "ann")
    bob = await player(server.url, "bob")
    a = (await ann.call("new_game", game=DOUBLES, seed=1))["game"]
    b = (await bob.call("new_game", game=DOUBLES, seed=1))["game"]
    await redis.set(store.log_key(a), "not a list")
    # both moves name their game, so neither waits on Redis before its write: they are
    # committed in the same pipeline
    (_, failed), (_, moved) = await asyncio.gather(
        ask(ann, "move", move="4+5", game=a), ask(bob, "move", move="4+5", game=b)
    )
    assert failed["code"] == "internal_error", failed
    assert moved["type"] == "moved", moved
    assert moved["view"] == after(DOUBLES, 1, ["4+5"])
    entries = cast(list[bytes], await redis.lrange(store.log_key(b), 0, -1))
    assert [e.decode().split(" ", 1)[1] for e in entries] == ["4+5"]
    assert server.service.games[b].game.moves == 1
    assert server.service.games[a].game.moves == 0
    await alive(ann)
    await alive(bob)


async def test_a_key_that_is_not_text_is_ignored_as_an_unknown_field(server: Running) -> None:
    """protocol.md, Transport: a field under a key of another type than text is no field
    the server knows: ignored, as an unknown one is (a third-party encoder's fault)."""
    client = await Client.connect(server.url)
    await client.send_raw(msgpack.packb({1: 2, "type": "hello", "id": 6, "protocol": 1}))
    welcome = await client.event("welcome")  # (the reply to id 6)
    assert welcome["id"] == 6
    await client.send_raw(msgpack.packb({b"type": "ping", "type": "games", "id": 7}))
    assert (await client.event("games"))["id"] == 7
    await alive(client)
