"""Frames for fuzzing the race server: random values and maps shaped like requests, near
misses of move notations, wrong field types, mutated and oversized frames, allocation
bombs (small frames whose headers claim thousands of items or gigabytes), and what the
server must do with each (close 1009 for a frame over the size limit; for any other, one
reply: ``bad_request`` with a nil id for a frame it cannot decode, else a reply echoing a
usable id; either way the connection carries on).

Shared by the fuzz tests (``tests/app/test_fuzz.py``) and the soak (``bench/soak.py``).
Everything is drawn from a :class:`random.Random` the caller seeds: a run is the same each
time.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import msgpack

from server.engine import GAMES, new_game
from server.protocol import ErrorCode
from server.protocol.messages import MAX_ID, REQUESTS, Field

#: every code a fuzzed frame may be answered with: a handler failing is not one of them
DOCUMENTED = {code.value for code in ErrorCode} - {ErrorCode.INTERNAL_ERROR.value}
#: the replies a frame that happens to be a valid request may get
REPLIES = {"pong", "welcome", "registered", "games", "game", "moved", "undone", "resigned"}
REPLIES |= {"room", "left", "homed", "hint", "challenges", "challenge_taken", "renamed"}
#: what the server may send unasked: a mutated ``room_create`` can put the fuzzer in a room,
#: and a game it plays may come to a stuck position
EVENTS = {"room", "race_start", "progress", "results", "stuck"}
#: the replies of the devices' requests (link codes, devices, signing out)
REPLIES |= {"link_code", "linked", "devices"}
REPLIES |= {"group", "groups"}  # the groups' requests (handlers/groups.py)
#: the reply of the weekly events' requests (event_join, event), and the event a watched
#: league's standings come again in (event with watch)
REPLIES |= {"event"}
EVENTS |= {"event", "group"}  # (a watched league, a watched group)
#: the reply of a player's ratings (profile)
REPLIES |= {"profile"}
#: the quick race's: a fuzzer waiting in its queue may be matched, or race ghosts
REPLIES |= {"quick_waiting", "quick_left"}
EVENTS |= {"quick_waiting", "quick_matched", "quick_ghosts", "quick_ghosts_start"}
EVENTS |= {"quick_ghosts_result"}
#: a finished game's review
REPLIES |= {"review"}
DOUBLES = "doubles-and-quits"

Frame = bytes | str


def pack(value: Any) -> bytes:
    data: bytes = msgpack.packb(value, use_bin_type=True)
    return data


#: the bounds a frame is decoded within (protocol.md, limits: "Decoding bounds")
MAX_ITEMS, MAX_BYTES = 32, 512
BOUNDS = {"max_array_len": MAX_ITEMS, "max_map_len": MAX_ITEMS, "max_str_len": MAX_BYTES}
BOUNDS |= {"max_bin_len": MAX_BYTES, "max_ext_len": MAX_BYTES}


def expected_close(frame: Frame, limit: int) -> int | None:
    """How the server must close on this frame: 1009 over the size limit (websockets
    refuses such a frame on its header and cannot skip it); None for any other, which is
    answered and the connection carries on."""
    size = len(frame.encode()) if isinstance(frame, str) else len(frame)
    return 1009 if size > limit else None


def undecodable(frame: Frame) -> bool:
    """Whether the server cannot decode this frame (text, or anything that is not exactly
    one msgpack value within the bounds): it answers ``bad_request`` with a nil id and
    reads the next frame as usual. The frame is decoded within the bounds here too, so
    that an allocation bomb (:func:`bomb`) is refused at its first header past them, as
    the server refuses it, rather than costing this side what it would have cost the
    server."""
    if isinstance(frame, str):
        return True
    try:
        msgpack.unpackb(frame, raw=False, strict_map_key=False, **BOUNDS)
    except Exception:
        return True
    return False


def usable_id(frame: bytes) -> int | None:
    """The id a reply to this (decodable) frame must echo, or None."""
    value = msgpack.unpackb(frame, raw=False, strict_map_key=False)
    if isinstance(value, dict):
        rid = value.get("id")
        if type(rid) is int and 0 <= rid <= MAX_ID:
            return rid
    return None


def any_int_id(frame: bytes) -> int | None:
    """The id a ``rate_limited`` reply to this (decodable) frame echoes: any integer."""
    value = msgpack.unpackb(frame, raw=False, strict_map_key=False)
    if isinstance(value, dict):
        rid = value.get("id")
        if type(rid) is int:
            return rid
    return None


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
REQUIRED: dict[str, dict[str, Any]] = {
    "hello": {"protocol": 1},
    "register": {"name": "someone"},
    "link": {"code": "ABCD-EFGH"},
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
    "challenge_create": {"replay": "abc"},
    "challenge_show": {"challenge": "abcdefghijklmnop"},
    "rename": {"name": "someone"},
    "group_create": {"name": "Some Club"},
    "group_join": {"group": "abcdefghij", "key": "ABCDEFGHIJKLMNOP"},
    "group_leave": {"group": "abcdefghij"},
    "group_remove": {"group": "abcdefghij", "name": "someone"},
    "group_link": {"group": "abcdefghij"},
    "group_delete": {"group": "abcdefghij"},
    "group_show": {"group": "abcdefghij"},
    "group_board": {"group": "abcdefghij", "board": "races/all"},
    "quick": {"game": DOUBLES},
    "review": {"game": "abcdefghijklmnop"},
}


def fill_to(message: dict[str, Any], name: str, size: int, char: str = "x") -> bytes:
    """``message`` with text field ``name`` as long as a text may be (``MAX_BYTES``), then
    fields the server does not know, of texts within the bounds too, until the frame is
    exactly ``size`` bytes."""

    def text(size: int) -> str:  # exactly ``size`` bytes, of ``char`` as far as it goes
        made = char * (size // len(char.encode()))
        return made + "x" * (size - len(made.encode()))

    for longest in range(MAX_BYTES, MAX_BYTES - 8, -1):
        filled = {**message, name: text(longest)}
        pads = itertools.count()
        while len(pack(filled)) + MAX_BYTES + 100 < size:
            filled[f"pad{next(pads)}"] = text(MAX_BYTES)
        room = size - len(pack(filled))
        key = f"pad{next(pads)}"
        # the length of a text's header steps at 32 and 256 bytes: some sizes it cannot
        # make, which a name one byte shorter can
        for length in range(min(room, MAX_BYTES), -1, -1):
            frame = pack({**filled, key: text(length)})
            if len(frame) == size:
                return frame
    raise AssertionError(f"cannot make a frame of {size} bytes")


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


def _claims(rnd: random.Random, room: int) -> bytes:
    """A msgpack value of at most ``room`` bytes (16 or more) whose headers claim far more
    than it holds."""
    pick = rnd.randrange(5)
    if pick == 0:
        # arrays in arrays, each claiming 3,000 items (msgpack would set aside 24 KB for
        # each, before reading any), under a few arrays of one
        ones = rnd.randrange(0, 9)
        return b"\x91" * ones + b"\xdc\x0b\xb8" * rnd.randrange(1, (room - ones) // 3 + 1)
    if pick == 1:
        # maps claiming 65,535 entries, each the value of the last one's first key
        return b"\xde\xff\xff\xa1k" * rnd.randrange(1, (room - 1) // 5 + 1) + b"\x00"
    if pick == 2:
        # an array or a map claiming 2**32 - 1 items
        head = rnd.choice([b"\xdd", b"\xdf"]) + b"\xff\xff\xff\xff"
        return head + bytes(rnd.randrange(0, room - 4))
    if pick == 3:
        # a text, binary or extension value claiming up to 4 GiB
        size = rnd.choice([MAX_BYTES + 1, 1 << 20, 2**32 - 1, rnd.randrange(MAX_BYTES, 2**32)])
        head = rnd.choice([b"\xdb", b"\xc6", b"\xc9"]) + size.to_bytes(4, "big")
        if head[0] == 0xC9:
            head += b"\x01"  # the extension's type
        return head + rnd.randbytes(rnd.randrange(0, room - len(head) + 1))
    # 16-bit headers claiming the most they can: arrays of 65,535 arrays of 65,535
    return b"\xdc\xff\xff" * rnd.randrange(1, room // 3 + 1)


def bomb(rnd: random.Random, limit: int) -> bytes:
    """An allocation bomb: a frame within ``limit`` bytes whose array, map, text, binary or
    extension headers claim thousands of items or gigabytes, as the whole frame, as a field
    of a ``ping``, or as its ``id``. Past the decoding bounds: ``bad_request`` (id null),
    and the connection carries on."""
    room = rnd.choice([16, 64, 600, limit - 40])
    value = _claims(rnd, room)
    pick = rnd.randrange(3)
    if pick == 0:
        return value
    if pick == 1:
        return ping_with(value, rnd.randrange(1000))
    return b"\x82" + pack("type") + pack("ping") + pack("id") + value


def mutate(frame: bytes, rnd: random.Random) -> bytes:
    """A frame with a byte changed, cut short, bytes added, or bits flipped: near misses
    of the format."""
    out = bytearray(frame)
    how = rnd.randrange(4)
    if how == 0:
        out[rnd.randrange(len(out))] = rnd.randrange(256)
    elif how == 1:
        del out[rnd.randrange(len(out)) :]
    elif how == 2:
        out += rnd.randbytes(rnd.randrange(1, 6))
    else:
        for _ in range(3):
            out[rnd.randrange(len(out))] ^= 1 << rnd.randrange(8)
    return bytes(out)


#: the kinds of request :func:`random_request` makes; resigning is rare: it ends the game,
#: and moves in a game over get no further
RANDOM_KINDS = ["move"] * 12 + ["undo", "new_game", "room_join", "room_watch"]
RANDOM_KINDS += ["ready", "start", "rematch", "room_leave", "register", "hello", "games"]
RANDOM_KINDS += ["resign", "new_game"]
_GAMES = [*GAMES, "chess", ""]


def random_request(rnd: random.Random, request_id: int) -> dict[str, Any]:
    """A well-formed request with random contents, to reach the handlers: moves of random
    text, unknown games, rooms and tokens."""
    kind = rnd.choice(RANDOM_KINDS)
    message: dict[str, Any] = {"type": kind, "id": request_id}
    if kind == "move":
        if rnd.random() < 0.5:
            message["move"] = near_move(rnd)
        else:
            message["move"] = random_text(rnd, rnd.randrange(0, 10))
        if rnd.random() < 0.2:
            message["game"] = random_text(rnd, 16)
    elif kind == "new_game":
        message["game"] = DOUBLES if rnd.random() < 0.5 else rnd.choice(_GAMES)
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
    return message


def wrong_field(rnd: random.Random, request_id: int) -> dict[str, Any]:
    """A request with one field of a wrong type or out of range, the others valid."""
    kind = rnd.choice([k for k, cls in REQUESTS.items() if cls.FIELDS])
    cls = REQUESTS[kind]
    name = rnd.choice(sorted(cls.FIELDS))
    value = rnd.choice(wrong_values(cls.FIELDS[name]))
    return {"type": kind, "id": request_id, **REQUIRED.get(kind, {}), name: value}


def random_bytes(rnd: random.Random, limit: int) -> bytes:
    """Random bytes of a size up to ``limit``: almost never one msgpack value."""
    size = rnd.choice([rnd.randrange(0, 8), rnd.randrange(8, 300), rnd.randrange(300, limit + 1)])
    return rnd.randbytes(size)
