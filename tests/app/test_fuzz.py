"""Random and malformed frames from one player's connections, against a real server and Redis.

Every frame is followed by a ``ping`` on the same connection, so each frame's outcome is
known without waiting on a clock: the frames the server sent back before the ``pong``, or
the close. The outcome must be one of

- one reply, echoing the frame's id when it has a usable one: an ``error`` with a
  documented code (never ``internal_error``: that is a handler that failed), or, for a
  frame that happens to be a valid request, its ordinary reply;
- for a frame that is not one msgpack value within the decoding bounds (or is text), an
  allocation bomb among them: a ``bad_request`` error with a nil id, and the connection
  carries on (the ``ping`` behind it gets its ``pong``);
- for a frame over the size limit: close 1009 (the only frame that closes the connection).

Meanwhile a second player is in the middle of a game on the same server: after every burst
their next move must be answered as the rules say, and they must have been sent nothing but
the replies to their own requests. The server must log no error throughout.

Every case is generated from a seeded :class:`random.Random`: the run is the same each time.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import random
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bench.fuzzing import (
    DOCUMENTED,
    DOUBLES,
    EVENTS,
    REPLIES,
    REQUIRED,
    Frame,
    bomb,
    expected_close,
    fill_to,
    mutate,
    nest,
    pack,
    ping_with,
    random_map,
    random_request,
    random_value,
    undecodable,
    usable_id,
    wrong_values,
)
from server.app.settings import Settings
from server.engine import new_game
from server.protocol.messages import MAX_ID, REQUESTS

from .client import Client, player
from .conftest import Running, with_settings

# -- the fuzzing connection ------------------------------------------------------------------


@dataclass
class Outcome:
    #: frames with an id (every reply has one, nil when the request had none usable)
    replies: list[dict[str, Any]]
    close: int | None


@dataclass
class Fuzzer:
    """A signed-in player's connection that frames are thrown at; it reconnects (with the
    player's token) whenever the server has closed it."""

    url: str
    token: str
    ws: ClientConnection | None = None
    connections: int = 0
    closes: dict[int, int] = field(default_factory=dict)
    codes: dict[str, int] = field(default_factory=dict)
    #: frames the server could not decode, each answered ``bad_request`` with a nil id
    #: on a connection that carried on
    undecoded: int = 0
    #: ids of the ``ping`` after each frame: above any id the cases use themselves
    sync: Iterator[int] = field(default_factory=lambda: itertools.count(2**52))

    async def connect(self) -> ClientConnection:
        ws = await connect(self.url, max_size=None, compression=None)
        await ws.send(pack({"type": "hello", "id": 0, "protocol": 1, "token": self.token}))
        while True:
            welcome = msgpack.unpackb(await asyncio.wait_for(ws.recv(), 10), raw=False)
            if "id" in welcome:
                break
            assert welcome["type"] in EVENTS, welcome
        assert welcome["type"] == "welcome" and welcome["id"] == 0, welcome
        self.connections += 1
        return ws

    async def throw(self, frame: Frame) -> Outcome:
        if self.ws is None:
            self.ws = await self.connect()
        ws = self.ws
        sync = next(self.sync)
        # a frame over the limit may be cut short by the server closing: its close is read
        # below all the same
        with contextlib.suppress(ConnectionClosed):
            await ws.send(frame)
        with contextlib.suppress(ConnectionClosed):
            await ws.send(pack({"type": "ping", "id": sync}))
        replies: list[dict[str, Any]] = []
        try:
            while True:
                data = await asyncio.wait_for(ws.recv(), 10)
                assert isinstance(data, bytes), "the server sent a text frame"
                message = msgpack.unpackb(data, raw=False)
                if "id" not in message:
                    assert message["type"] in EVENTS, message
                    continue
                if message["id"] == sync:
                    assert message["type"] == "pong", message
                    return Outcome(replies, None)
                replies.append(message)
        except ConnectionClosed:
            pass
        rcvd = ws.protocol.close_rcvd
        self.ws = None
        code = rcvd.code if rcvd is not None else None
        assert code is not None, "the connection dropped without a close frame"
        self.closes[code] = self.closes.get(code, 0) + 1
        return Outcome(replies, code)

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()


async def check(
    fuzzer: Fuzzer, frame: Frame, limit: int, code: str | None = None, match: str = ""
) -> Outcome:
    """Throw one frame and check its outcome (and, when given, the error code and a piece of
    its message)."""
    outcome = await fuzzer.throw(frame)
    closing = expected_close(frame, limit)
    assert outcome.close == closing, (frame[:80], outcome)
    if closing == 1009:
        assert outcome.replies == [], outcome
        return outcome
    assert len(outcome.replies) == 1, (frame[:80], outcome)
    reply = outcome.replies[0]
    if undecodable(frame):
        assert reply["type"] == "error" and reply["code"] == "bad_request", reply
        assert reply["id"] is None, reply
        fuzzer.undecoded += 1
    else:
        assert isinstance(frame, bytes)
        assert reply.get("id") == usable_id(frame), (frame[:80], reply)
    if reply["type"] == "error":
        assert set(reply) == {"type", "id", "code", "message"}, reply
        assert reply["code"] in DOCUMENTED, (frame[:80], reply)
        assert isinstance(reply["message"], str) and reply["message"], reply
        fuzzer.codes[reply["code"]] = fuzzer.codes.get(reply["code"], 0) + 1
    else:
        assert reply["type"] in REPLIES, (frame[:80], reply)
    if code is not None:
        assert reply.get("code") == code, (frame[:80], reply)
        assert match in reply.get("message", ""), (match, reply)
    return outcome


# -- the player minding their own game -------------------------------------------------------


@dataclass
class Bystander:
    client: Client
    seed: int
    game: str
    legal: list[str]
    moves: list[str] = field(default_factory=list)
    sent: int = 3  # hello, register, new_game

    async def check(self) -> None:
        """Their game answers the next move as the rules say, and they were sent nothing
        but replies to their own requests."""
        if not self.legal:
            reply = await self.client.call("new_game", game=DOUBLES, seed=self.seed)
            self.sent += 1
            self.game, self.legal, self.moves = reply["game"], reply["legal"], []
        move = self.legal[0]
        reply = await self.client.call("move", move=move)
        self.sent += 1
        self.moves.append(move)
        reference = new_game(DOUBLES, seed=self.seed)
        for played in self.moves:
            reference.play(played)
        assert reply["game"] == self.game
        assert reply["view"] == reference.view()
        assert reply["legal"] == [m.text for m in reference.legal_moves()]
        self.legal = reply["legal"]
        assert self.client.events == [], self.client.events
        assert len(self.client.frames) == self.sent
        assert all(f["type"] != "error" for f in self.client.frames)


@dataclass
class Scene:
    server: Running
    fuzzer: Fuzzer
    bob: Bystander
    caplog: pytest.LogCaptureFixture

    @property
    def limit(self) -> int:
        return self.server.settings.max_frame

    async def after_burst(self) -> None:
        await self.bob.check()
        errors = [r for r in self.caplog.records if r.levelno >= logging.ERROR]
        assert not errors, [r.getMessage() for r in errors]
        # the server still knows the bystander, and no session but theirs and the fuzzer's
        sessions = self.server.service.sessions
        assert self.bob_pid in sessions and len(sessions) <= 2

    @property
    def bob_pid(self) -> str:
        pid = self.server.service.games[self.bob.game].owner
        return pid


@pytest.fixture
def settings(settings: Settings) -> Settings:
    """Room for every burst under the rate limit: a burst of every field of every request
    is more than a thousand frames (the limit itself is tested in test_flood.py)."""
    return with_settings(settings, rate=10_000.0, burst=10_000)


@pytest.fixture
async def scene(server: Running, caplog: pytest.LogCaptureFixture) -> AsyncIterator[Scene]:
    caplog.set_level(logging.WARNING)
    bob = await player(server.url, "bob")
    game = await bob.call("new_game", game=DOUBLES, seed=1)
    moved = await bob.call("move", move=game["legal"][0])  # mid-game
    bystander = Bystander(bob, 1, game["game"], moved["legal"], [moved["move"]], sent=4)
    fuzz = await player(server.url, "fuzz")
    await fuzz.call("new_game", game=DOUBLES, seed=2)
    assert fuzz.token is not None
    await fuzz.close()
    fuzzer = Fuzzer(server.url, fuzz.token)
    yield Scene(server, fuzzer, bystander, caplog)
    await fuzzer.close()
    await bob.close()


# -- the generators (bench/fuzzing.py) ------------------------------------------------------


def test_every_request_with_a_required_field_has_a_valid_value_here() -> None:
    needing = {
        kind for kind, cls in REQUESTS.items() if any(f.required for f in cls.FIELDS.values())
    }
    assert needing <= set(REQUIRED), needing - set(REQUIRED)


# -- the bursts ------------------------------------------------------------------------------


async def test_random_bytes(scene: Scene) -> None:
    rnd = random.Random(20240501)
    fuzzer = scene.fuzzer
    for _ in range(3):
        for _ in range(100):
            size = rnd.choice(
                [rnd.randrange(0, 8), rnd.randrange(8, 300), rnd.randrange(300, 4097)]
            )
            await check(fuzzer, rnd.randbytes(size), scene.limit)
        await scene.after_burst()
    # most random bytes are no msgpack at all: each one was refused, on one connection
    assert fuzzer.undecoded > 200
    assert fuzzer.closes == {} and fuzzer.connections == 1


async def test_mutated_requests(scene: Scene) -> None:
    """Valid requests with bytes flipped, cut short or added: near misses of the format."""
    rnd = random.Random(77)
    seeds = [
        pack({"type": "move", "id": 5, "move": "4+5"}),
        pack({"type": "hello", "id": 1, "protocol": 1, "token": "abc"}),
        pack({"type": "room_create", "id": 9, "game": DOUBLES, "max_players": 4, "seed": 3}),
        pack({"type": "ready", "id": 2, "ready": True}),
        pack({"type": "new_game", "id": 3, "game": "gate", "seed": 2**64 - 1}),
    ]
    outcomes = {"reply": 0, "undecodable": 0}
    for _ in range(4):
        for _ in range(60):
            frame = mutate(rnd.choice(seeds), rnd)
            await check(scene.fuzzer, frame, scene.limit)
            outcomes["undecodable" if undecodable(frame) else "reply"] += 1
        await scene.after_burst()
    # both kinds of outcome were exercised, on one connection
    assert outcomes["reply"] > 20 and outcomes["undecodable"] > 20, outcomes
    assert scene.fuzzer.closes == {} and scene.fuzzer.connections == 1


async def test_text_and_oversized_frames(scene: Scene) -> None:
    fuzzer, limit = scene.fuzzer, scene.limit
    for text in ["", "hello", '{"type": "ping", "id": 1}', "\x00" * 10, "é" * 100, "x" * 4000]:
        await check(fuzzer, text, limit)
    await scene.after_burst()
    # exactly at the limit is read; one byte over closes
    at_limit = fill_to({"type": "move", "id": 11}, "move", limit)
    await check(fuzzer, at_limit, limit, "bad_request", "'move' is longer than 64")
    over = fill_to({"type": "move", "id": 12}, "move", limit + 1)
    assert (await check(fuzzer, over, limit)).close == 1009
    for size in (limit + 1, limit * 4, 1 << 20):
        await check(fuzzer, b"\x00" * size, limit)
    await check(fuzzer, "x" * (limit + 1), limit)
    # within the size limit, but past the decoding bounds: a text, a list
    for value in ({"type": "move", "id": 13, "move": "x" * 513}, {"type": "ping", "x": [0] * 33}):
        await check(fuzzer, pack(value), limit, "bad_request", "past the decoding bounds")
    await scene.after_burst()
    # only the frames over the size limit closed a connection
    assert fuzzer.closes == {1009: 5} and fuzzer.undecoded == 8
    assert fuzzer.connections == 1 + 5


async def test_wrong_shapes(scene: Scene) -> None:
    fuzzer, limit = scene.fuzzer, scene.limit
    ext = msgpack.ExtType(3, b"abc")
    not_maps = [[], [1, 2], [{"type": "ping", "id": 1}], 0, 1, -1, 2**64 - 1, -(2**63), "ping"]
    not_maps += ["", None, True, False, 1.5, float("nan"), b"\x00", ext]
    for value in not_maps:
        await check(fuzzer, pack(value), limit, "bad_request", "a request is a map")
    # maps without a usable id: the reply's id is nil
    bad_ids: list[Any] = ["1", 1.0, True, False, None, -1, -(2**63), MAX_ID + 1, 2**64 - 1]
    bad_ids += [[1], {"id": 1}, b"1", ext]
    for value in [{}, {"id": None}, {"type": "ping"}, {"ID": 1, "type": "ping"}]:
        await check(fuzzer, pack(value), limit, "bad_request", "integer 'id'")
    for rid in bad_ids:
        await check(fuzzer, pack({"type": "ping", "id": rid}), limit, "bad_request", "'id'")
    # the widest ids are fine
    for rid in (0, MAX_ID):
        outcome = await check(fuzzer, pack({"type": "ping", "id": rid}), limit)
        assert outcome.replies[0]["type"] == "pong"
    await scene.after_burst()
    # a type that is not text, or no type this server knows
    for kind in [1, None, True, 1.5, [], ["ping"], {"ping": 1}, b"ping", ext]:
        await check(fuzzer, pack({"type": kind, "id": 21}), limit, "bad_request", "text 'type'")
    unknown = ["", "PING", "ping ", " ping", "\x00", "移動", "x" * 60]
    for kind in unknown:
        await check(fuzzer, pack({"type": kind, "id": 22}), limit, "unknown_type", "unknown")
    huge = fill_to({"id": 23, "a": 1}, "type", limit)
    await check(fuzzer, huge, limit, "unknown_type", "...'")
    # keys that are not text: nothing is found under them
    for value in [
        {1: "ping", 2: 1},
        {b"type": "ping", b"id": 1},
        {None: "ping", 1.5: 1, True: 2},
        {-1: {}, 0: []},
    ]:
        await check(fuzzer, pack(value), limit, "bad_request", "'id'")
    odd_keys = {"type": "ping", "id": 24, 5: "x", None: 1, 2.5: 2, b"k": 1, False: 0}
    assert (await check(fuzzer, pack(odd_keys), limit)).replies[0]["type"] == "pong"
    # keys that cannot be keys at all (an array, a map): not a frame the server can read
    for raw in [b"\x81\x92\x01\x02\x01", b"\x81\x80\x01", b"\x82\xa4type\xa4ping\x91\x00\x01"]:
        assert undecodable(raw)
        await check(fuzzer, raw, limit, "bad_request")
    await scene.after_burst()
    assert fuzzer.closes == {} and fuzzer.connections == 1


async def test_every_field_of_the_wrong_type(scene: Scene) -> None:
    fuzzer, limit = scene.fuzzer, scene.limit
    request_ids = itertools.count(100)
    cases = 0
    for kind, cls in REQUESTS.items():
        for name, spec in cls.FIELDS.items():
            base = {"type": kind, "id": 0, **REQUIRED.get(kind, {})}
            for value in wrong_values(spec):
                message = {**base, "id": next(request_ids), name: value}
                frame = pack(message)
                assert len(frame) <= limit, (kind, name, len(frame))
                await check(fuzzer, frame, limit, "bad_request", f"{kind}: field {name!r}")
                cases += 1
            # and texts as long as the bounds allow, in frames as long as the limit allows,
            # of one- and two-byte characters
            if spec.kind is str:
                for size, char in ((limit, "x"), (limit - 1, "é")):
                    frame = fill_to({**base, "id": next(request_ids)}, name, size, char)
                    await check(fuzzer, frame, limit, "bad_request", f"field {name!r} is longer")
                    cases += 1
        await scene.after_burst()
    # required fields missing (or nil, which is the same)
    for kind, required in REQUIRED.items():
        for name in required:
            if not REQUESTS[kind].FIELDS[name].required:
                continue
            rest = {k: v for k, v in required.items() if k != name}
            for message in (
                {"type": kind, "id": 1, **rest},
                {"type": kind, "id": 2, **rest, name: None},
            ):
                await check(fuzzer, pack(message), limit, "bad_request", f"{name!r} is required")
                cases += 1
    await scene.after_burst()
    assert cases > 150
    assert fuzzer.closes == {}


async def test_deep_nesting(scene: Scene) -> None:
    fuzzer, limit = scene.fuzzer, scene.limit
    for kind in ("array", "map"):
        for depth in (1, 5, 9, 10, 50, 500, 1000, 1023, 1024, 1300):
            if len(nest(kind, depth)) + 40 > limit:
                continue
            # as a field of a valid request: too deep is refused, shallow is fine
            frame = ping_with(nest(kind, depth), 31)
            outcome = await check(fuzzer, frame, limit)
            if undecodable(frame):
                pass  # (past msgpack's own stack limit: see below)
            elif depth >= 9:
                assert outcome.replies[0]["code"] == "bad_request", outcome
                assert "nested too deeply" in outcome.replies[0]["message"]
            else:
                assert outcome.replies[0]["type"] == "pong", outcome
            # as the whole frame, and as the id
            await check(fuzzer, nest(kind, depth), limit)
            raw_id = b"\x82" + pack("type") + pack("ping") + pack("id") + nest(kind, depth)
            await check(fuzzer, raw_id, limit)
        await scene.after_burst()
    # past msgpack's own stack limit (1024 levels), the frame cannot be read at all: refused,
    # and the connection carried on
    assert fuzzer.undecoded >= 6
    assert fuzzer.closes == {} and fuzzer.connections == 1


async def test_allocation_bombs(scene: Scene) -> None:
    """Small frames whose headers claim thousands of items or gigabytes, nested, as the
    whole frame, a field or the id: each is refused at its first header past the bounds,
    ``bad_request`` with a nil id, and the connection carries on."""
    fuzzer, limit = scene.fuzzer, scene.limit
    fixed = [
        b"\x91" * 5 + b"\xdc\x0b\xb8" * 1000,  # arrays of 3,000 in arrays of 3,000
        b"\xde\xff\xff" + b"\xa1k\x00",  # a map claiming 65,535 entries
        ping_with(b"\xdd\xff\xff\xff\xff", 41),  # an array claiming 2**32 - 1 items
        ping_with(b"\xdb\xff\xff\xff\xff" + b"x" * 10, 42),  # a text claiming 4 GiB
        ping_with(b"\xc6\x7f\xff\xff\xff", 43),  # binary
        ping_with(b"\xc9\x00\x10\x00\x00\x01", 44),  # an extension value of 1 MiB
    ]
    for frame in fixed:
        assert undecodable(frame) and expected_close(frame, limit) is None
        await check(fuzzer, frame, limit, "bad_request")
    await scene.after_burst()
    rnd = random.Random(3000)
    for _ in range(2):
        for _ in range(40):
            frame = bomb(rnd, limit)
            assert len(frame) <= limit and undecodable(frame)
            await check(fuzzer, frame, limit, "bad_request")
        await scene.after_burst()
    # every bomb refused, and the one connection carried on
    assert fuzzer.undecoded == len(fixed) + 80
    assert fuzzer.closes == {} and fuzzer.connections == 1


async def test_random_structures(scene: Scene) -> None:
    """Random msgpack values, mostly maps with request-like keys: whatever the shape, a
    reply with a documented code or the reply of a valid request."""
    rnd = random.Random(4242)
    fuzzer, limit = scene.fuzzer, scene.limit
    for _ in range(3):
        for _ in range(100):
            value = random_map(rnd) if rnd.random() < 0.8 else random_value(rnd)
            frame = pack(value)
            if len(frame) > limit:
                continue
            await check(fuzzer, frame, limit)
        await scene.after_burst()
    assert "bad_request" in fuzzer.codes


async def test_random_requests(scene: Scene) -> None:
    """Well-formed requests with random contents reach the handlers: moves of random text,
    unknown games, rooms and tokens. None of them may fail inside the server."""
    rnd = random.Random(99)
    fuzzer, limit = scene.fuzzer, scene.limit
    for _ in range(3):
        for n in range(150):
            message = random_request(rnd, n)
            await check(fuzzer, pack(message), limit)
        await scene.after_burst()
    # the handlers were reached, with refusals of several kinds
    assert {"illegal_move", "no_such_game", "no_such_room", "bad_token"} <= set(fuzzer.codes)
    assert fuzzer.closes == {}
