"""Random and malformed frames from one player's connections, against a real server and Redis.

Every frame is followed by a ``ping`` on the same connection, so each frame's outcome is
known without waiting on a clock: the frames the server sent back before the ``pong``, or
the close. The outcome must be one of

- one reply, echoing the frame's id when it has a usable one: an ``error`` with a
  documented code (never ``internal_error``: that is a handler that failed), or, for a
  frame that happens to be a valid request, its ordinary reply;
- for a frame that is not one msgpack value (or is text): a ``bad_request`` error with a
  nil id, then close 1003;
- for a frame over the size limit: close 1009.

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

from server.engine import GAMES, new_game
from server.protocol import ErrorCode
from server.protocol.messages import MAX_ID, REQUESTS, Field

from .client import Client, player
from .conftest import Running

#: every code a fuzzed frame may be answered with: a handler failing is not one of them
DOCUMENTED = {code.value for code in ErrorCode} - {ErrorCode.INTERNAL_ERROR.value}
#: the replies a frame that happens to be a valid request may get
REPLIES = {"pong", "welcome", "registered", "games", "game", "moved", "undone", "resigned"}
REPLIES |= {"room", "left"}
#: what the server may send unasked: a mutated ``room_create`` can put the fuzzer in a room
EVENTS = {"room", "race_start", "progress", "results"}
DOUBLES = "doubles-and-quits"

Frame = bytes | str


def pack(value: Any) -> bytes:
    data: bytes = msgpack.packb(value, use_bin_type=True)
    return data


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


def expected_close(frame: Frame, limit: int) -> int | None:
    """How the server must close on this frame, worked out on this side: 1009 over the
    limit, 1003 for text or anything that is not exactly one msgpack value."""
    size = len(frame.encode()) if isinstance(frame, str) else len(frame)
    if size > limit:
        return 1009
    if isinstance(frame, str):
        return 1003
    try:
        msgpack.unpackb(frame, raw=False, strict_map_key=False)
    except Exception:
        return 1003
    return None


def usable_id(frame: bytes) -> int | None:
    """The id a reply to this (decodable) frame must echo, or None."""
    value = msgpack.unpackb(frame, raw=False, strict_map_key=False)
    if isinstance(value, dict):
        rid = value.get("id")
        if type(rid) is int and 0 <= rid <= MAX_ID:
            return rid
    return None


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
    if closing == 1003:
        assert reply["type"] == "error" and reply["code"] == "bad_request", reply
        assert reply["id"] is None, reply
        assert set(reply) == {"type", "id", "code", "message"}, reply
        return outcome
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


# -- generators ------------------------------------------------------------------------------


def random_text(rnd: random.Random, size: int) -> str:
    """Text of any code points but surrogates (msgpack text is UTF-8)."""
    out = []
    for _ in range(size):
        pick = rnd.random()
        if pick < 0.5:
            out.append(chr(rnd.randrange(32, 127)))
        elif pick < 0.6:
            out.append(rnd.choice("²³¹⁴½①٤٥\u0130ß\n\t\x00 +>"))
        else:
            cp = rnd.randrange(0x80, 0x110000)
            out.append(chr(cp if not 0xD800 <= cp <= 0xDFFF else 0xFFFD))
    return "".join(out)


#: every move notation of every game: near misses of these reach the engine's parser
NOTATIONS = sorted({text for gid in GAMES for text in new_game(gid, seed=1).MOVES})
#: the fuzzer mostly plays Doubles and Quits: its notations, to reach its parser often
DOUBLES_NOTATIONS = sorted(new_game(DOUBLES, seed=1).MOVES)


#: characters that look like digits, or are digits of other scripts, and other look-alikes
LOOKALIKES = "²³¹⁴½①٤٥０９߀𝟙ⅻ＋﹢>＞ \t"


def near_move(rnd: random.Random) -> str:
    """A real move's notation with a character or two changed, added or taken out."""
    text = list(rnd.choice(DOUBLES_NOTATIONS if rnd.random() < 0.5 else NOTATIONS))
    for _ in range(rnd.randrange(1, 3)):
        at = rnd.randrange(len(text) + 1)
        edit = rnd.randrange(3)
        char = rnd.choice(LOOKALIKES) if rnd.random() < 0.7 else random_text(rnd, 1)
        if edit == 0 and at < len(text):
            text[at] = char
        elif edit == 1:
            text.insert(at, char)
        elif at < len(text):
            del text[at]
    return "".join(text)


def random_value(rnd: random.Random, depth: int = 0) -> Any:
    pick = rnd.randrange(12 if depth < 4 else 9)
    if pick == 0:
        return None
    if pick == 1:
        return rnd.random() < 0.5
    if pick == 2:
        return rnd.randrange(-(2**63), 2**64)
    if pick == 3:
        return rnd.choice([0, 1, -1, 7, 2**31, 2**53, 2**53 + 1, -(2**63), 2**64 - 1])
    if pick == 4:
        return rnd.choice([0.0, -0.0, 1.5, 1e308, float("inf"), float("nan")])
    if pick in (5, 6):
        return random_text(rnd, rnd.randrange(0, 12))
    if pick == 7:
        return rnd.randbytes(rnd.randrange(0, 12))
    if pick == 8:
        return msgpack.ExtType(rnd.randrange(0, 128), rnd.randbytes(rnd.randrange(0, 6)))
    if pick == 9:
        return [random_value(rnd, depth + 1) for _ in range(rnd.randrange(0, 4))]
    return random_map(rnd, depth + 1)


def random_key(rnd: random.Random) -> Any:
    return rnd.choice(
        [
            "type",
            "id",
            "move",
            "game",
            "name",
            "code",
            "token",
            "protocol",
            "seed",
            "ready",
            random_text(rnd, 3),
            rnd.randrange(-5, 5),
            None,
            1.5,
            b"id",
            b"type",
        ]
    )


def random_map(rnd: random.Random, depth: int = 0) -> dict[Any, Any]:
    out: dict[Any, Any] = {}
    if rnd.random() < 0.7:
        out["type"] = rnd.choice([*REQUESTS, "x", ""]) if rnd.random() < 0.8 else None
    if rnd.random() < 0.7:
        out["id"] = rnd.randrange(0, 1000) if rnd.random() < 0.7 else random_value(rnd, 4)
    for _ in range(rnd.randrange(0, 4)):
        out[random_key(rnd)] = random_value(rnd, depth + 1)
    return out


def wrong_values(spec: Field) -> list[Any]:
    """Values of every wrong kind for a field, and out of its range."""
    ext = msgpack.ExtType(1, b"x")
    if spec.kind is int:
        values: list[Any] = ["1", "", 1.5, 1.0, True, False, [1], {"a": 1}, {1: 2}, b"1", ext]
        for bound in (spec.low - 1 if spec.low is not None else None, (spec.high or 0) + 1):
            if bound is not None and -(2**63) <= bound < 2**64:
                values.append(bound)
        if spec.high is not None and spec.high < 2**64 - 1:
            values.append(2**64 - 1)
        if spec.low is not None and spec.low > -(2**63):
            values.append(-(2**63))
        return values
    if spec.kind is str:
        return [
            1,
            -1,
            0,
            2**64 - 1,
            1.5,
            True,
            [],
            ["x"],
            {"k": "v"},
            {"nested": {"deeper": ["x"]}},
            b"x",
            ext,
            "x" * (spec.max_len + 1),
            "é" * (spec.max_len + 1),
        ]
    return [1, 0, "true", "", 1.5, [], {}, b"\x01", ext]


#: a valid value for every required field, so the wrong field is the only fault
REQUIRED = {
    "hello": {"protocol": 1},
    "register": {"name": "someone"},
    "new_game": {"game": DOUBLES},
    "move": {"move": "4+5"},
    "room_create": {"game": DOUBLES},
    "room_join": {"code": "ABCDEF"},
    "room_watch": {"code": "ABCDEF"},
    "rules": {"game": DOUBLES},
    "daily": {"game": DOUBLES},
    "top": {"board": "races/all"},
    "board_watch": {"board": "races/all"},
    "board_unwatch": {"board": "races/all"},
    "follow": {"name": "someone"},
    "unfollow": {"name": "someone"},
    "replay": {"replay": "abc"},
    "replay_view": {"replay": "abc", "step": 0},
}


def test_every_request_with_a_required_field_has_a_valid_value_here() -> None:
    needing = {
        kind for kind, cls in REQUESTS.items() if any(f.required for f in cls.FIELDS.values())
    }
    assert needing <= set(REQUIRED), needing - set(REQUIRED)


def fill_to(message: dict[str, Any], name: str, size: int, char: str = "x") -> bytes:
    """``message`` with text field ``name`` grown until the frame is exactly ``size`` bytes."""
    message = {**message, name: ""}
    base = len(pack(message))
    # a text of 256 bytes or more has a 3-byte header instead of the empty text's 1
    room = size - base - 2
    text = char * (room // len(char.encode()))
    text += "x" * (room - len(text.encode()))
    frame = pack({**message, name: text})
    assert len(frame) == size, (len(frame), size)
    return frame


def nest(kind: str, depth: int) -> bytes:
    """A msgpack array or map nested ``depth`` levels, without building it in Python."""
    head = b"\x91" if kind == "array" else b"\x81\xa1k"
    return head * depth + b"\x00"


def ping_with(raw_value: bytes, request_id: int) -> bytes:
    """A ``ping`` request whose field ``x`` is the given msgpack bytes."""
    return (
        b"\x83"
        + pack("type")
        + pack("ping")
        + pack("id")
        + pack(request_id)
        + pack("x")
        + (raw_value)
    )


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
    # most random bytes are no msgpack at all: each one closed its connection
    assert fuzzer.closes.get(1003, 0) > 200
    assert set(fuzzer.closes) == {1003}


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
    outcomes = {"reply": 0, "close": 0}
    for _ in range(4):
        for _ in range(60):
            frame = bytearray(rnd.choice(seeds))
            how = rnd.randrange(4)
            if how == 0:
                frame[rnd.randrange(len(frame))] = rnd.randrange(256)
            elif how == 1:
                del frame[rnd.randrange(len(frame)) :]
            elif how == 2:
                frame += rnd.randbytes(rnd.randrange(1, 6))
            else:
                for _ in range(3):
                    frame[rnd.randrange(len(frame))] ^= 1 << rnd.randrange(8)
            outcome = await check(scene.fuzzer, bytes(frame), scene.limit)
            outcomes["close" if outcome.close else "reply"] += 1
        await scene.after_burst()
    # both kinds of outcome were exercised
    assert outcomes["reply"] > 20 and outcomes["close"] > 20, outcomes


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
    await scene.after_burst()
    assert fuzzer.closes == {1003: 6, 1009: 5}


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
        assert (await check(fuzzer, raw, limit)).close == 1003
    await scene.after_burst()


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
            # and texts as long as the frame allows, of one- and two-byte characters
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
            if outcome.close is None and depth >= 9:
                assert outcome.replies[0]["code"] == "bad_request", outcome
                assert "nested too deeply" in outcome.replies[0]["message"]
            elif outcome.close is None:
                assert outcome.replies[0]["type"] == "pong", outcome
            # as the whole frame, and as the id
            await check(fuzzer, nest(kind, depth), limit)
            raw_id = b"\x82" + pack("type") + pack("ping") + pack("id") + nest(kind, depth)
            await check(fuzzer, raw_id, limit)
        await scene.after_burst()
    # past msgpack's own stack limit (1024 levels), the frame cannot be read at all
    assert fuzzer.closes.get(1003, 0) >= 6
    assert set(fuzzer.closes) == {1003}


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
    # resigning is rare: it ends the game, and moves in a game over get no further
    kinds = ["move"] * 12 + ["undo", "new_game", "room_join", "room_watch"]
    kinds += ["ready", "start", "rematch", "room_leave", "register", "hello", "games"]
    kinds += ["resign", "new_game"]
    games = [*GAMES, "chess", ""]
    for _ in range(3):
        for n in range(150):
            kind = rnd.choice(kinds)
            message: dict[str, Any] = {"type": kind, "id": n}
            if kind == "move":
                if rnd.random() < 0.5:
                    message["move"] = near_move(rnd)
                else:
                    message["move"] = random_text(rnd, rnd.randrange(0, 10))
                if rnd.random() < 0.2:
                    message["game"] = random_text(rnd, 16)
            elif kind == "new_game":
                message["game"] = DOUBLES if rnd.random() < 0.5 else rnd.choice(games)
                message["seed"] = rnd.randrange(0, 2**64)
            elif kind in ("room_join", "room_watch"):
                message["code"] = random_text(rnd, rnd.randrange(0, 16))
            elif kind == "register":
                message["name"] = random_text(rnd, rnd.randrange(0, 22))
            elif kind == "hello":
                message["protocol"] = rnd.choice([0, 1, 2, 1000])
                message["token"] = random_text(rnd, rnd.randrange(0, 40))
            elif kind == "ready":
                message["ready"] = rnd.random() < 0.5
            await check(fuzzer, pack(message), limit)
        await scene.after_burst()
    # the handlers were reached, with refusals of several kinds
    assert {"illegal_move", "no_such_game", "no_such_room", "bad_token"} <= set(fuzzer.codes)
    assert fuzzer.closes == {}
