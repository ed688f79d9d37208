"""How a connection's frames are handled: in order, one at a time, whether a request takes
the move path without a coroutine (a move on a game held here) or the connection's
coroutine (everything else), however many come at once and however they are split."""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

import msgpack
import pytest
from websockets.frames import Frame, Opcode
from websockets.protocol import State

from server.app.domain import games as g
from server.app.store.games import Games
from server.app.transport.session import frame_head
from server.engine import IllegalMove, UndoRefused, new_game

from .client import Client, player, racing, signed_in
from .conftest import Running
from .raw import RawClient, close_frame, masked

IDS = itertools.count(9_000_000)


def _frame(kind: str, request_id: int, **fields: Any) -> bytes:
    data: bytes = msgpack.packb({"type": kind, "id": request_id, **fields})
    return data


async def _send_at_once(client: Client, frames: list[bytes]) -> dict[int, asyncio.Future[Any]]:
    """Queue every frame and write them in one go, so the server reads many in one pass;
    the futures get the replies."""
    loop = asyncio.get_running_loop()
    futures: dict[int, asyncio.Future[Any]] = {}
    for data in frames:
        request_id = msgpack.unpackb(data)["id"]
        futures[request_id] = client._pending[request_id] = loop.create_future()
        client.ws.protocol.send_binary(data)
    client.ws.send_data()
    return futures


def _replies_in_order(client: Client, ids: list[int]) -> list[dict[str, Any]]:
    """The replies to ``ids`` as the client received them, checked to be in sending order."""
    wanted = set(ids)
    got = [f for f in client.frames if f.get("id") in wanted]
    assert [f["id"] for f in got] == ids
    return got


async def test_pipelined_requests_are_answered_in_order_as_if_one_by_one(
    server: Running,
) -> None:
    """Moves naming their game (the path without a coroutine), moves naming none, undos,
    pings and illegal moves, all sent at once: each is answered in order, and each reply is
    what the engine alone gives when the requests are applied one after another."""
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game="gate", seed=3)
    gid = game["game"]
    reference = new_game("gate", seed=3)
    frames: list[bytes] = []
    expected: list[tuple[str, Any]] = []
    for n in range(60):
        request_id = next(IDS)
        if n % 7 == 6:
            frames.append(_frame("undo", request_id, game=gid))
            try:
                reference.undo()
                expected.append(("undone", reference.view()))
            except UndoRefused:
                expected.append(("error", "undo_refused"))
        elif n % 11 == 10:
            frames.append(_frame("ping", request_id))
            expected.append(("pong", None))
        elif n % 9 == 8:
            frames.append(_frame("move", request_id, move="l>w", game=gid))
            try:
                reference.play("l>w")
                expected.append(("moved", reference.view()))
            except IllegalMove:
                expected.append(("error", "illegal_move"))
        else:
            legal = reference.legal_moves()
            move = legal[n % len(legal)].text
            # every fifth names no game: the coroutine's path, between the others
            fields = {"move": move} if n % 5 == 4 else {"move": move, "game": gid}
            frames.append(_frame("move", request_id, **fields))
            reference.play(move)
            expected.append(("moved", reference.view()))
    ids = [msgpack.unpackb(f)["id"] for f in frames]
    futures = await _send_at_once(ann, frames)
    await asyncio.wait_for(asyncio.gather(*futures.values()), 10)
    replies = _replies_in_order(ann, ids)
    for reply, (kind, detail) in zip(replies, expected, strict=True):
        assert reply["type"] == kind, (reply, kind, detail)
        if kind in ("moved", "undone"):
            assert reply["view"] == detail
        elif kind == "error":
            assert reply["code"] == detail, reply
    # the log holds the game as the engine has it
    log = await Games(server.redis).read_log(gid)
    assert sum(1 for _, what in log if what == g.UNDO) == sum(
        1 for kind, _ in expected if kind == "undone"
    )
    assert server.service.games[gid].game.view() == reference.view()
    assert {"illegal_move", "undo_refused"} >= {d for k, d in expected if k == "error"}
    assert any(k == "error" for k, _ in expected) and any(k == "undone" for k, _ in expected)


async def test_a_flood_of_frames_is_read_in_turn_and_reading_goes_on(server: Running) -> None:
    """Far more frames at once than a connection keeps unread (it stops reading from the
    socket meanwhile): every one is answered, in order, and the connection carries on."""
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game="gate", seed=3)
    gid = game["game"]
    reference = new_game("gate", seed=3)
    frames = []
    kinds = []
    for n in range(400):
        if n % 2 == 0 and reference.status == "playing" and reference.moves < 150:
            move = reference.legal_moves()[0].text
            reference.play(move)
            frames.append(_frame("move", next(IDS), move=move, game=gid))
            kinds.append("moved")
        else:
            frames.append(_frame("ping", next(IDS)))
            kinds.append("pong")
    ids = [msgpack.unpackb(f)["id"] for f in frames]
    futures = await _send_at_once(ann, frames)
    await asyncio.wait_for(asyncio.gather(*futures.values()), 20)
    replies = _replies_in_order(ann, ids)
    assert [r["type"] for r in replies] == kinds
    assert server.service.games[gid].game.view() == reference.view()
    assert (await ann.request("ping"))["type"] == "pong"
    assert ann.ws.state is State.OPEN


async def test_a_move_split_into_fragments(server: Running) -> None:
    """A request sent as a fragmented message is put together and played."""
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game="gate", seed=3)
    move = game["legal"][0]
    request_id = next(IDS)
    data = _frame("move", request_id, move=move, game=game["game"])
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    ann._pending[request_id] = future
    await ann.ws.send([data[:3], data[3:9], data[9:]])
    reply = await asyncio.wait_for(future, 10)
    assert reply["type"] == "moved", reply
    reference = new_game("gate", seed=3)
    reference.play(move)
    assert reply["view"] == reference.view()


async def test_a_fragmented_text_message_is_refused_and_the_connection_carries_on(
    server: Running,
) -> None:
    """A text message (here in two fragments) is answered ``bad_request`` with no id, and
    the connection stays open: the next request is answered as usual."""
    ann = await player(server.url, "ann")
    await ann.ws.send(["not ", "msgpack"])
    error = await ann.event("error")
    assert (error["code"], error["id"]) == ("bad_request", None), error
    assert error["message"] == "frames are binary msgpack, not text"
    assert (await ann.request("ping"))["type"] == "pong"
    assert ann.ws.state is State.OPEN


async def test_frames_after_an_undecodable_one_are_handled(server: Running) -> None:
    """A move sent right behind a frame that is not msgpack, in the same write, is played
    and answered after the undecodable frame's ``bad_request``; the other racer in the
    game carries on too."""
    ann, bob = await player(server.url, "ann"), await player(server.url, "bob")
    await racing(ann, bob)
    start = next(f for f in ann.frames if f.get("type") == "race_start")
    gid, legal = start["game"], start["legal"]
    request_id = next(IDS)
    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
    ann._pending[request_id] = future
    ann.ws.protocol.send_binary(b"\xc1")  # never used in msgpack
    ann.ws.protocol.send_binary(_frame("move", request_id, move=legal[0], game=gid))
    ann.ws.send_data()
    moved = await asyncio.wait_for(future, 10)
    assert moved["type"] == "moved", moved
    error = await ann.event("error")
    assert (error["code"], error["id"]) == ("bad_request", None), error
    assert ann.frames.index(error) < ann.frames.index(moved)
    assert server.service.games[gid].game.moves == 1
    assert (await ann.request("ping"))["type"] == "pong"
    # bob hears of ann's move and plays on in the same race
    await bob.event("progress", lambda e: e["player"] == "ann" and e["moves"] == 1)
    mine = next(f for f in bob.frames if f.get("type") == "race_start")
    reply = await bob.call("move", move=mine["legal"][0])
    assert reply["type"] == "moved"
    assert ann.ws.state is State.OPEN and bob.ws.state is State.OPEN


def test_frame_heads_are_websockets_own() -> None:
    """The server frames its messages itself: byte for byte what websockets would send."""
    for size in (0, 1, 125, 126, 127, 4096, 65535, 65536, 70000):
        data = bytes(range(256)) * (size // 256) + bytes(size % 256)
        ours = frame_head(size) + data
        assert ours == Frame(Opcode.BINARY, data).serialize(mask=False, extensions=[]), size


async def test_frames_split_anyhow_between_reads(server: Running) -> None:
    """Masked frames written in pieces cut anywhere (inside a header, a mask, a payload),
    long ones (a 16-bit length) and pings between them (for websockets' own parser):
    every request is answered, in order, and the connection carries on."""
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game="gate", seed=3)
    gid = game["game"]
    reference = new_game("gate", seed=3)
    stream = b""
    ids = []
    for n in range(12):
        move = reference.legal_moves()[0].text
        reference.play(move)
        request_id = next(IDS)
        ids.append(request_id)
        fields: dict[str, Any] = {"move": move, "game": gid}
        if n % 3 == 1:
            fields["padding"] = "x" * 300  # unknown fields are ignored; a longer frame
        data = _frame("move", request_id, **fields)
        stream += Frame(Opcode.BINARY, data).serialize(mask=True, extensions=[])
        if n % 4 == 2:
            stream += Frame(Opcode.PING, b"p%d" % n).serialize(mask=True, extensions=[])
    futures = {}
    for request_id in ids:
        futures[request_id] = ann._pending[request_id] = asyncio.get_running_loop().create_future()
    cuts = [0, 1, 5, 7, 40, 41, 400, 401, 402, 900, len(stream)]
    for start, end in itertools.pairwise(cuts):
        ann.ws.transport.write(stream[start:end])
        await asyncio.sleep(0.01)
    ann.ws.transport.write(stream[cuts[-1] :])
    await asyncio.wait_for(asyncio.gather(*futures.values()), 10)
    replies = _replies_in_order(ann, ids)
    assert all(r["type"] == "moved" for r in replies), replies
    assert replies[-1]["view"] == reference.view()
    assert (await ann.request("ping"))["type"] == "pong"


async def test_a_frame_past_the_decoding_bounds_is_refused_and_the_connection_carries_on(
    server: Running,
) -> None:
    """A frame whose list is longer than any request has (here a field the server does not
    know, which it would otherwise ignore) is not decoded: ``bad_request`` with no id, and
    the connection stays open."""
    ann = await player(server.url, "ann")
    await ann.send_raw(_frame("ping", next(IDS), padding=[0] * 100))
    error = await ann.event("error")
    assert (error["code"], error["id"]) == ("bad_request", None), error
    assert "past the decoding bounds" in error["message"], error
    assert (await ann.request("ping"))["type"] == "pong"
    assert ann.ws.state is State.OPEN


async def test_a_signed_out_connection_plays_no_more(server: Running) -> None:
    """A connection signed out by a second sign-in is sent ``signed_out`` and a 4001 close.
    Moves it sends while it withholds its answer to the close are not played: the game is
    as the new connection finds it."""
    ann = await player(server.url, "ann")
    assert ann.token is not None
    gid = (await ann.call("new_game", game="gate", seed=3))["game"]
    await ann.close()
    reference = new_game("gate", seed=3)
    moves = []
    for _ in range(50):
        moves.append(reference.legal_moves()[0].text)
        reference.play(moves[-1])
    old = await RawClient.connect(server.web.port)
    old.send({"type": "hello", "id": 1, "protocol": 1, "token": ann.token})
    assert (await old.message())["type"] == "welcome"
    new = await signed_in(server.url, ann.token)
    assert (await old.message())["type"] == "signed_out"
    opcode, payload = await old.frame()
    assert opcode is Opcode.CLOSE and close_frame(payload) == (4001, "signed in elsewhere")
    # 50 moves, then (only then) the answer to the close, which lets the server hang up
    old.send(
        *({"type": "move", "id": 10 + n, "move": move, "game": gid} for n, move in enumerate(moves))
    )
    old.write(masked(payload[:2], Opcode.CLOSE))
    assert await old.hung_up() == b""  # and not one reply came
    assert server.service.games[gid].game.moves == 0
    moved = await new.call("move", move=moves[0], game=gid)
    assert moved["view"]["moves"] == 1
    assert len(await Games(server.redis).read_log(gid)) == 1


async def test_at_a_ping_every_request_before_it_is_answered(
    server: Running, caplog: pytest.LogCaptureFixture
) -> None:
    """The session counts the frames it takes to answer and the replies it sends: a ping
    finds them level whatever came before it (moves held here and not, requests of the
    coroutine, refusals, a frame that is no request); a request lost would be logged."""
    caplog.set_level(logging.WARNING)
    ann = await player(server.url, "ann")
    game = await ann.call("new_game", game="gate", seed=3)
    await ann.call("move", game=game["game"], move=game["legal"][0])
    await ann.request("move", game=game["game"], move="zz")
    await ann.request("move", game="nosuch", move="zz")
    await ann.request("frobnicate")
    await ann.send_raw(msgpack.packb([1, 2]))
    await ann.call("ping")
    await ann.call("games")
    await ann.call("ping")
    assert not [r for r in caplog.records if "unanswered" in r.getMessage()]
