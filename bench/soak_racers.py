"""The soak's racers: rooms of 2 or 3 players racing real games, each move drawn from the
``legal`` list of the last reply, rematching when a race ends; they reconnect (``hello``
with their token, and go on from ``welcome.resume``) whenever their connection ends.

Every ``moved`` reply a racer gets is kept (its game and move) for the check that no
acknowledged move is lost (:func:`lost_moves`). A racer waiting for its race to start
(``race_start``) or end (``results``) that hears nothing of its room for ``stall``
seconds (not counting a Redis or server outage, nor the time before the race's
``end_at``) counts its room as *stranded*.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from redis.asyncio import Redis

from bench.soak_conn import Conn, Ledger
from server.app import store

GAMES = ["gate", "doubles-and-quits", "nestor", "wedge"]
#: moves after which a racer resigns its race game (drawn per racer and race)
CAP = (40, 120)


@dataclass
class Target:
    """Where the server is: its URL changes at each start; ``up`` is clear while it is
    down."""

    url: str = ""
    up: asyncio.Event = field(default_factory=asyncio.Event)


@dataclass
class Weather:
    """Outages, so that a wait is not counted against the server while it is down."""

    down: bool = False
    recovered_at: float = 0.0

    def outage(self) -> None:
        self.down = True

    def recovered(self) -> None:
        self.down = False
        self.recovered_at = time.monotonic()


@dataclass
class Acks:
    """Every acknowledged move, by game."""

    moves: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def count(self) -> int:
        return sum(len(v) for v in self.moves.values())


async def lost_moves(redis_url: str, acks: Acks) -> tuple[int, int, list[str]]:
    """(acknowledged moves found in their games' logs in Redis, acknowledged, samples of
    the lost): each game's acknowledged moves must appear in its log, in order (the log
    may hold more: a move whose reply was lost with its connection, or that failed after
    Redis may have kept it)."""
    redis = Redis.from_url(redis_url)
    found = 0
    sent = 0
    samples: list[str] = []
    try:
        for gid, moves in list(acks.moves.items()):
            moves = list(moves)
            raw = await redis.lrange(store.log_key(gid), 0, -1)
            lines = [line.decode() if isinstance(line, bytes) else line for line in raw]
            entries = [line.partition(" ")[2] for line in lines]
            at = 0
            matched = 0
            for move in moves:
                while at < len(entries) and entries[at] != move:
                    at += 1
                if at == len(entries):
                    break
                matched += 1
                at += 1
            found += matched
            sent += len(moves)
            if matched < len(moves) and len(samples) < 5:
                samples.append(
                    f"game {gid}: {len(moves)} acknowledged, {matched} in its log of "
                    f"{len(entries)} (first missing: {moves[matched]!r})"
                )
    finally:
        await redis.aclose()
    return found, sent, samples


@dataclass
class Plan:
    """One room: its racers (the host first), what it is known to be doing, and whether
    the soak holds its starts (``hold``: the chaos rooms)."""

    name: str
    game: str
    time_limit: int | None
    racers: list[Racer] = field(default_factory=list)
    code: str = ""
    state: str = "lobby"
    race: int = 0
    start_at: int | None = None
    end_at: int | None = None
    results: int = 0  # the last race whose results were heard
    hold: bool = False
    #: racers stop moving after this many moves of a race (None: they play to the cap)
    max_moves: int | None = None
    pace: float = 0.04
    stranded: bool = False
    heard: float = field(default_factory=time.monotonic)

    def took(self, message: dict[str, Any]) -> None:
        """A ``room`` message (reply or event)."""
        if message.get("code") != self.code:
            return
        if message.get("race", 0) >= self.race:
            self.race = message.get("race", self.race)
            self.state = message.get("state", self.state)
            self.start_at = message.get("start_at")
            self.end_at = message.get("end_at")
        self.heard = time.monotonic()

    async def go(self) -> dict[str, Any]:
        """The host starts the race (in the lobby) or calls a rematch."""
        host = self.racers[0]
        assert host.conn is not None
        kind = "start" if self.state == "lobby" else "rematch"
        reply = await host.conn.call(kind)
        if reply.get("type") == "room":
            self.took(reply)
        return reply


@dataclass
class Racer:
    name: str
    plan: Plan
    rng: random.Random
    ledger: Ledger
    target: Target
    weather: Weather
    acks: Acks
    token: str = ""
    conn: Conn | None = None
    gid: str | None = None
    race: int = 0
    legal: list[str] = field(default_factory=list)
    status: str = "none"
    moves: int = 0
    cap: int = 0
    starts: list[dict[str, Any]] = field(default_factory=list)
    rematched: int = 0
    waiting_since: float | None = None
    reconnects: int = 0
    #: the first move of each race game tried: ``moved``, or the error's code (with " in
    #: an outage" while the soak has a server or Redis down)
    first_moves: Counter[str] = field(default_factory=Counter)
    #: ``race_start`` of a race heard again on the same connection, and those heard
    duplicate_starts: int = 0
    _starts_heard: set[tuple[int, str, int]] = field(default_factory=set)

    # -- connection

    def on_event(self, conn: Conn, message: dict[str, Any]) -> None:
        if conn is not self.conn:
            return
        plan = self.plan
        kind = message["type"]
        if kind == "room":
            plan.took(message)
        elif kind == "race_start" and message.get("code") == plan.code:
            heard = (id(conn), plan.code, message.get("race", 0))
            if heard in self._starts_heard:
                self.duplicate_starts += 1
                self.ledger.note("duplicate starts", f"{self.name}: race {heard[2]} of {heard[1]}")
            self._starts_heard.add(heard)
            self.starts.append(message)
            plan.heard = time.monotonic()
        elif kind == "results" and message.get("code") == plan.code:
            plan.results = max(plan.results, message.get("race", 0))
            plan.heard = time.monotonic()
        elif kind == "progress":
            plan.heard = time.monotonic()

    async def open(self, register: bool) -> bool:
        """A new connection, signed in; False if it failed (the server or Redis down)."""
        await self.target.up.wait()
        try:
            conn = await Conn.open(self.target.url, self.name, self.ledger, "racers", self.on_event)
        except (OSError, ConnectionError, TimeoutError):
            return False
        self.conn = conn
        try:
            if register:
                await conn.call("hello", timeout=self.ledger.stall, protocol=1, client="soak/1")
                reply = await conn.call("register", timeout=self.ledger.stall, name=self.name)
                if reply["type"] != "registered":
                    raise RuntimeError(f"register {self.name}: {reply}")
                self.token = reply["token"]
                return True
            reply = await conn.call(
                "hello", timeout=self.ledger.stall, protocol=1, token=self.token
            )
        except (ConnectionError, TimeoutError):
            await conn.close()
            return False
        if reply["type"] != "welcome":
            await conn.close()
            return False
        self.resumed(reply.get("resume") or {})
        return True

    def resumed(self, resume: dict[str, Any]) -> None:
        if "room" in resume:
            self.plan.took(resume["room"])
        race = resume.get("race")
        if race is not None and race.get("code") == self.plan.code:
            self.take_game(race)

    def take_game(self, snapshot: dict[str, Any]) -> None:
        race = snapshot.get("race", 0)
        if race < self.race:
            return
        if race > self.race or snapshot["game"] != self.gid:
            self.moves = 0
            self.cap = self.rng.randint(*CAP)
        self.race = race
        self.gid = snapshot["game"]
        self.legal = list(snapshot.get("legal") or [])
        self.status = snapshot.get("status", "playing")

    async def resync(self) -> None:
        """Sign in again on the same connection: its ``resume`` says where the game is."""
        conn = self.conn
        if conn is None or conn.closed:
            return
        with contextlib.suppress(ConnectionError, TimeoutError):
            reply = await conn.call(
                "hello", timeout=self.ledger.stall, protocol=1, token=self.token
            )
            if reply["type"] == "welcome":
                self.resumed(reply.get("resume") or {})

    # -- the loop

    def playing(self) -> bool:
        plan = self.plan
        if self.status != "playing" or not self.legal or self.gid is None:
            return False
        if plan.results >= self.race:
            return False
        return plan.max_moves is None or self.moves < plan.max_moves

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set() and not self.plan.stranded:
            if self.conn is None or self.conn.closed:
                if not await self.open(register=False):
                    await asyncio.sleep(0.1 + self.rng.random() * 0.3)
                    continue
                self.reconnects += 1
            while self.starts:
                self.take_game(self.starts.pop(0))
            if self.playing():
                self.waiting_since = None
                await self.play()
                await asyncio.sleep(self.plan.pace * (0.5 + self.rng.random()))
            else:
                await self.wait()

    async def play(self) -> None:
        conn = self.conn
        assert conn is not None and self.gid is not None
        gid = self.gid
        first = self.moves == 0 and self.moves < self.cap
        try:
            if self.moves >= self.cap:
                reply = await conn.call("resign", game=gid)
            else:
                reply = await conn.call("move", game=gid, move=self.rng.choice(self.legal))
        except ConnectionError:
            return
        kind = reply["type"]
        if first:
            what = reply["code"] if kind == "error" else kind
            self.first_moves[what + (" in an outage" if self.weather.down else "")] += 1
        if kind == "moved":
            self.acks.moves[reply["game"]].append(reply["move"])
            if gid == self.gid:
                self.moves += 1
                self.legal = reply["legal"]
                self.status = reply["status"]
        elif kind == "resigned":
            self.status = "resigned"
        elif kind == "error":
            code = reply["code"]
            if code == "game_over":
                self.status = "over"
            elif code == "not_started":
                await asyncio.sleep(0.1)
            elif code in ("internal_error", "illegal_move", "game_elsewhere", "no_such_game"):
                await asyncio.sleep(0.1)
                await self.resync()

    async def wait(self) -> None:
        """Nothing to play: the host calls the rematch once the results are in; everyone
        waits for the next race's start, or this race's end."""
        plan = self.plan
        now = time.monotonic()
        if self.waiting_since is None:
            self.waiting_since = now
        host = plan.racers[0] is self
        if (
            host
            and not plan.hold
            and plan.state == "finished"
            and plan.results >= plan.race
            and self.rematched < plan.race
        ):
            self.rematched = plan.race
            with contextlib.suppress(ConnectionError):
                reply = await plan.go()
                if reply["type"] == "error" and reply["code"] != "race_started":
                    # e.g. Redis down: again, after a pause, as a client would (asked
                    # again at once, thousands a second, the rate limit drops one
                    # unanswered, as the protocol says: a frame past it gets no reply)
                    self.rematched = 0
                    await asyncio.sleep(1.0 if reply["code"] == "rate_limited" else 0.2)
            return
        await asyncio.sleep(0.1)
        if plan.hold or self.weather.down:
            return
        since = max(self.waiting_since, plan.heard, self.weather.recovered_at)
        if plan.end_at is not None and plan.state == "racing":
            # the race's time limit ends it: not a stall before then
            left = plan.end_at / 1000 - time.time()
            since = max(since, now + left)
        if now - since > self.ledger.stall and not plan.stranded:
            plan.stranded = True
            awaited = "results" if plan.state == "racing" else "race_start"
            self.ledger.note(
                "stranded",
                f"room {plan.code} ({plan.name}): no {awaited} of race {plan.race} for "
                f"{now - since:.0f} s (state {plan.state}, {self.name} waiting)",
            )


async def open_room(plan: Plan, start: bool) -> None:
    """Register the plan's racers, gather them in a room (the host creates it, the others
    join and say ready), and start its first race unless ``start`` is False."""
    for racer in plan.racers:
        if not await racer.open(register=True):
            raise RuntimeError(f"{racer.name} could not register")
    host = plan.racers[0]
    assert host.conn is not None
    fields: dict[str, Any] = {"game": plan.game, "max_players": len(plan.racers)}
    if plan.time_limit is not None:
        fields["time_limit"] = plan.time_limit
    reply = await host.conn.call("room_create", **fields)
    if reply["type"] != "room":
        raise RuntimeError(f"room_create: {reply}")
    plan.code = reply["code"]
    plan.took(reply)
    for racer in plan.racers[1:]:
        assert racer.conn is not None
        for kind, extra in (("room_join", {"code": plan.code}), ("ready", {"ready": True})):
            reply = await racer.conn.call(kind, **extra)
            if reply["type"] != "room":
                raise RuntimeError(f"{kind}: {reply}")
    if start:
        reply = await plan.go()
        if reply["type"] != "room":
            raise RuntimeError(f"start: {reply}")
