"""The soak's fuzzing connections, and the players who dance through rooms.

A fuzzer is a signed-in player throwing frames at the server in batches of 1 to 16,
each batch followed by a ``ping`` whose ``pong`` says the batch was read: requests made
from the player's live state (a legal move of its game, its rooms' codes, its replays),
those requests mutated byte by byte, random maps and values (non-maps too), requests with
a field of a wrong type, random requests (near misses of move notation, random text),
random bytes, text frames, frames nested too deeply, allocation bombs (small frames whose
headers claim thousands of items or gigabytes) and frames over the size limit (see
``bench/fuzzing.py``). Every reply is checked against the frame it answers
(``bench/soak_conn.py``): a frame the server cannot decode (text, not msgpack, past the
decoding bounds, an allocation bomb) must get ``bad_request`` with a nil id, and what comes
behind it on the same connection is answered as usual (a bomb ends its batch, so that the
batch's ``ping`` comes right behind it). A frame over the size limit must close the
connection (1009): it ends its batch, and the fuzzer reconnects. Now and then it also
drops its own connection, closes it, or signs in from a second connection, which signs
the first one out (4001).

The dancers are pairs of players going through rooms: create, join, ready, start, a race
resigned, the results, a rematch, watch, leave; and crossed joins: each creates a room
and both join the other's at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from dataclasses import dataclass, field
from typing import Any

from bench import fuzzing
from bench.soak_conn import Conn, Ledger, Sent
from bench.soak_racers import Target
from server.engine import GAMES

BOARDS = ["races/all", "races/week", "daily/gate", "best/gate", "wins/nestor", "nope"]


@dataclass
class Budget:
    """The fuzz frames still to send, shared by the fuzzers."""

    left: int

    def take(self, n: int) -> int:
        n = min(n, self.left)
        self.left -= n
        return n


@dataclass
class World:
    """What the fuzzers know of the server: room codes and replay ids seen, names."""

    codes: list[str] = field(default_factory=list)
    replays: list[str] = field(default_factory=list)
    names: list[str] = field(default_factory=list)

    def saw(self, reply: dict[str, Any]) -> None:
        code = reply.get("code")
        if reply.get("type") == "room" and isinstance(code, str) and code not in self.codes:
            self.codes.append(code)
            del self.codes[:-50]
        gid = reply.get("game")
        kind = reply.get("type")
        if kind in ("game", "moved") and isinstance(gid, str) and gid not in self.replays:
            self.replays.append(gid)
            del self.replays[:-50]


@dataclass
class Fuzzer:
    name: str
    rng: random.Random
    ledger: Ledger
    target: Target
    world: World
    budget: Budget
    limit: int
    token: str = ""
    conn: Conn | None = None
    gid: str | None = None
    legal: list[str] = field(default_factory=list)
    kicks: int = 0
    reconnects: int = 0
    batches: int = 0
    #: allocation bombs sent, and those refused (``bad_request``, nil id) on a connection
    #: that carried on: a bomb ends its batch, whose ``ping`` behind it got its ``pong``
    bombs: int = 0
    bombs_refused: int = 0

    async def sign_in(self, register: bool = False) -> Conn | None:
        await self.target.up.wait()
        try:
            conn = await Conn.open(self.target.url, self.name, self.ledger, "fuzz")
        except (OSError, ConnectionError, TimeoutError):
            return None
        try:
            if register:
                await conn.call("hello", timeout=self.ledger.stall, protocol=1)
                reply = await conn.call("register", timeout=self.ledger.stall, name=self.name)
                if reply["type"] != "registered":
                    raise RuntimeError(f"register {self.name}: {reply}")
                self.token = reply["token"]
            else:
                reply = await conn.call(
                    "hello", timeout=self.ledger.stall, protocol=1, token=self.token
                )
                if reply["type"] != "welcome":
                    await conn.close()
                    return None
                solo = (reply.get("resume") or {}).get("solo")
                if solo:
                    self.gid, self.legal = solo["game"], list(solo["legal"])
        except (ConnectionError, TimeoutError):
            await conn.close()
            return None
        return conn

    # -- frames

    def live_request(self, conn: Conn) -> dict[str, Any]:
        """A request made from what this player knows now."""
        rnd = self.rng
        world = self.world
        rid = conn.take_id()
        pick = rnd.random()
        if pick < 0.45:
            if self.gid is None or not self.legal:
                return {
                    "type": "new_game",
                    "id": rid,
                    "game": rnd.choice([fuzzing.DOUBLES, *GAMES]),
                }
            return {"type": "move", "id": rid, "game": self.gid, "move": rnd.choice(self.legal)}
        if pick < 0.5:
            return {"type": "undo", "id": rid, "game": self.gid}
        if pick < 0.51:
            return {"type": "resign", "id": rid}
        if pick < 0.6:
            kind = rnd.choice(["room_create", "room_join", "room_watch", "room_leave"])
            kind = rnd.choice([kind, "ready", "start", "rematch"])
            message: dict[str, Any] = {"type": kind, "id": rid}
            if kind == "room_create":
                message["game"] = fuzzing.DOUBLES
                message["max_players"] = rnd.randrange(2, 5)
                if rnd.random() < 0.5:
                    message["time_limit"] = rnd.randrange(10, 40)
            elif kind in ("room_join", "room_watch"):
                message["code"] = rnd.choice(world.codes) if world.codes else "ABCDEF"
            elif kind == "ready":
                message["ready"] = rnd.random() < 0.8
            return message
        kind = rnd.choice(
            [
                *("ping", "games", "rules", "top", "board_watch", "board_unwatch", "daily"),
                *("follow", "unfollow", "replay", "replay_view", "new_game"),
            ]
        )
        message = {"type": kind, "id": rid}
        if kind in ("rules", "daily", "new_game"):
            message["game"] = rnd.choice([*GAMES, "chess"])
        elif kind in ("top", "board_watch", "board_unwatch"):
            message["board"] = rnd.choice(BOARDS)
            if kind == "top" and rnd.random() < 0.3:
                message["around"] = True
        elif kind in ("follow", "unfollow"):
            message["name"] = rnd.choice(world.names) if world.names else "nobody"
        elif kind in ("replay", "replay_view"):
            message["replay"] = rnd.choice(world.replays) if world.replays else "nope"
            if kind == "replay_view":
                message["step"] = rnd.randrange(0, 40)
        return message

    def frame(self, conn: Conn) -> tuple[str, fuzzing.Frame, dict[str, Any] | None]:
        """(what it is, the frame, the request when it is a live one)."""
        rnd = self.rng
        pick = rnd.random()
        if pick < 0.40:
            request = self.live_request(conn)
            return request["type"], fuzzing.pack(request), request
        if pick < 0.55:
            return "mutated", fuzzing.mutate(fuzzing.pack(self.live_request(conn)), rnd), None
        if pick < 0.72:
            value = fuzzing.random_map(rnd) if rnd.random() < 0.8 else fuzzing.random_value(rnd)
            return "structure", fuzzing.pack(value), None
        if pick < 0.84:
            return (
                "random_request",
                fuzzing.pack(fuzzing.random_request(rnd, rnd.randrange(1000))),
                None,
            )
        if pick < 0.94:
            return "wrong_field", fuzzing.pack(fuzzing.wrong_field(rnd, rnd.randrange(1000))), None
        if pick < 0.955:
            return "bomb", fuzzing.bomb(rnd, self.limit), None
        if pick < 0.97:
            kind = rnd.choice(["array", "map"])
            depth = rnd.choice([8, 9, 10, 50, 500, 1023, 1100])
            raw = fuzzing.nest(kind, depth)
            if len(raw) + 40 > self.limit:
                raw = fuzzing.nest(kind, 9)
            return "nested", fuzzing.ping_with(raw, rnd.randrange(1000)), None
        if pick < 0.985:
            return "bytes", fuzzing.random_bytes(rnd, self.limit), None
        if pick < 0.993:
            return "text", fuzzing.random_text(rnd, rnd.randrange(0, 40)), None
        size = rnd.choice([self.limit + 1, self.limit * 2, 1 << 16])
        return "oversized", b"\x81\xa1x" + bytes(size), None

    def took(self, request: dict[str, Any], reply: dict[str, Any]) -> None:
        """What a live request's reply says of this player's state."""
        self.world.saw(reply)
        kind = reply.get("type")
        if kind in ("game", "moved", "undone", "homed", "daily"):
            self.gid = reply.get("game")
            self.legal = list(reply.get("legal") or [])
        elif (kind == "resigned" or (kind == "error" and request["type"] in ("move", "undo"))) and (
            reply.get("code") in ("game_over", "no_such_game", "game_elsewhere", None)
        ):
            self.gid, self.legal = None, []

    async def batch(self, conn: Conn) -> None:
        """Frames, then a ping; returns once the pong (or the close) has come."""
        live: list[tuple[dict[str, Any], asyncio.Future[dict[str, Any]]]] = []
        bombs: list[asyncio.Future[dict[str, Any]]] = []
        closing: int | None = None
        carried_on = False
        for _ in range(self.rng.randrange(1, 17)):
            if not self.budget.take(1):
                break
            what, frame, request = self.frame(conn)
            closing = fuzzing.expected_close(frame, self.limit)
            now = time.monotonic()
            if closing == 1009:
                sent = Sent(what, now, None, expects=False)
            elif fuzzing.undecodable(frame):
                sent = Sent(what, now, None, code="bad_request")
                if what == "bomb":
                    sent.future = asyncio.get_running_loop().create_future()
                    bombs.append(sent.future)
            else:
                assert isinstance(frame, bytes)
                sent = Sent(what, now, fuzzing.usable_id(frame), int_id=fuzzing.any_int_id(frame))
                if request is not None:
                    sent.future = asyncio.get_running_loop().create_future()
                    live.append((request, sent.future))
            if what == "bomb" and not conn.closed:
                self.bombs += 1
            conn.send_frame(frame, sent)
            # (a bomb ends its batch too: the ping right behind it says whether its
            # connection carried on, which a frame over the size limit later in the
            # batch would hide, its close dropping the replies still on their way)
            if closing is not None or what == "bomb":
                break
        if closing is None:
            sync = conn.request("ping", who="sync")
            with contextlib.suppress(ConnectionError, TimeoutError):
                await asyncio.wait_for(asyncio.shield(sync), self.ledger.stall + 5)
                carried_on = True
        else:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(conn.ended), self.ledger.stall + 5)
            code = conn.close_code
            if not conn.closed:
                self.ledger.violation(
                    f"{self.name}: a frame ({what}, {len(frame)} bytes) that must close "
                    f"{closing} left its connection open"
                )
                conn.drop()
            elif (
                code != closing
                and code not in (1008, 1013, 4001)
                and conn.ended.result() != "server killed"  # (its process, by the soak)
            ):
                self.ledger.violation(
                    f"{self.name}: a frame ({what}, {len(frame)} bytes) that must close "
                    f"{closing} ended its connection with {conn.ended.result()} "
                    f"({conn.ws.error})"
                )
        for future in bombs:
            if future.done() and not future.cancelled() and future.exception() is None:
                reply = future.result()
                if carried_on and reply.get("code") == "bad_request" and reply["id"] is None:
                    self.bombs_refused += 1
            elif not future.done():
                future.cancel()
        for request, future in live:
            if future.done() and not future.cancelled() and future.exception() is None:
                self.took(request, future.result())
            elif not future.done():
                future.cancel()

    # -- the loop

    async def run(self, stop: asyncio.Event) -> None:
        rnd = self.rng
        while not stop.is_set() and self.budget.left > 0:
            if self.conn is None or self.conn.closed:
                self.conn = await self.sign_in()
                if self.conn is None:
                    await asyncio.sleep(0.2)
                    continue
                self.reconnects += 1
            conn = self.conn
            pick = rnd.random() if self.batches else 0.01  # the first: a sign-in elsewhere
            self.batches += 1
            if pick < 0.004:
                conn.drop()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(asyncio.shield(conn.ended), 5)
            elif pick < 0.008:
                await conn.close()
            elif pick < 0.014:
                # signing in again from a second connection signs the first one out, with
                # a batch of its frames still on their way
                await self.kick(conn)
            else:
                await self.batch(conn)
        if self.conn is not None:
            await self.conn.close()

    async def kick(self, conn: Conn) -> None:
        for _ in range(self.rng.randrange(1, 9)):
            if not self.budget.take(1):
                break
            request = self.live_request(conn)
            conn.send_frame(
                fuzzing.pack(request),
                Sent(request["type"], time.monotonic(), request["id"], int_id=request["id"]),
            )
        fresh = await self.sign_in()
        if fresh is None:
            return
        self.kicks += 1
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(conn.ended), self.ledger.stall + 5)
        if not conn.closed:
            self.ledger.violation(f"{self.name}: the connection signed in elsewhere stays open")
            await conn.close()
        elif conn.close_code != 4001:
            self.ledger.violation(f"{self.name}: signed out with {conn.close_code}, not 4001")
        self.conn = fresh


@dataclass
class Dancers:
    """Two players going through rooms together, and crossing their joins."""

    names: tuple[str, str]
    rng: random.Random
    ledger: Ledger
    target: Target
    world: World
    players: list[Fuzzer] = field(default_factory=list)
    crossed: int = 0
    sequences: int = 0

    async def call(self, who: Fuzzer, kind: str, **fields: Any) -> dict[str, Any] | None:
        conn = who.conn
        if conn is None or conn.closed:
            return None
        try:
            reply = await conn.call(kind, timeout=self.ledger.stall + 5, **fields)
        except (ConnectionError, TimeoutError):
            return None
        self.world.saw(reply)
        return reply

    async def ensure(self) -> bool:
        for player in self.players:
            if player.conn is None or player.conn.closed:
                player.conn = await player.sign_in()
                if player.conn is None:
                    return False
        return True

    async def cross(self) -> None:
        """Each creates a room; both join the other's at once."""
        a, b = self.players
        ra = await self.call(a, "room_create", game=fuzzing.DOUBLES, max_players=2)
        rb = await self.call(b, "room_create", game=fuzzing.DOUBLES, max_players=2)
        if not ra or not rb or ra["type"] != "room" or rb["type"] != "room":
            return
        await asyncio.gather(
            self.call(a, "room_join", code=rb["code"]), self.call(b, "room_join", code=ra["code"])
        )
        self.crossed += 1

    async def sequence(self) -> None:
        """A room from its lobby to a rematch, watched, and left."""
        a, b = self.players
        fields: dict[str, Any] = {"game": fuzzing.DOUBLES, "max_players": 3}
        if self.rng.random() < 0.5:
            fields["time_limit"] = 10
        room = await self.call(a, "room_create", **fields)
        if not room or room["type"] != "room":
            return
        code = room["code"]
        await self.call(b, "room_join", code=code)
        await self.call(b, "ready", ready=True)
        await self.call(a, "room_watch", code=code)
        started = await self.call(a, "start")
        if started and started["type"] == "room" and started.get("start_at"):
            await asyncio.sleep(max(0.0, started["start_at"] / 1000 - time.time()) + 0.05)
            for who in (a, b):
                await self.call(who, "resign")
            await asyncio.sleep(0.1)
            await self.call(a, "rematch")
            await self.call(b, "room_leave")
        await self.call(a, "room_leave")
        self.sequences += 1

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            if not await self.ensure():
                await asyncio.sleep(0.2)
                continue
            if self.crossed == 0 or self.rng.random() < 0.5:
                await self.cross()
            else:
                await self.sequence()
            await asyncio.sleep(0.05)
        for player in self.players:
            if player.conn is not None:
                await player.conn.close()
