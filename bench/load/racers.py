"""The racers: each registers, gathers in a room with the others (:func:`open_room`), and
plays race games, solo games between races, resignations and rematches (:class:`Racer`).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from bench.wsclient import LeanWebSocket

from .client import WAIT, Conn, Stats, dial, unpack

GAME = "gate"
#: moves after which a racer resigns a game, drawn for each race (the same for the room's
#: racers, who finish together, so the share of race moves stays high) and each solo
#: game, so that the rooms' races end at different times, as real ones do
CAP = (100, 200)


def race_cap(code: str, race: int) -> int:
    """A race's resignation point, the same for each of its racers."""
    return random.Random(f"{code}:{race}").randint(*CAP)


class Racer(Conn):
    """A racer in a room (or alone, with rooms of 1)."""

    __slots__ = ("cap", "host", "in_race", "moves_in_game", "pending_race", "rematch")

    def __init__(self, ws: LeanWebSocket, rng: random.Random, stats: Stats) -> None:
        super().__init__(ws, rng, stats)
        self.host = False
        self.in_race = False
        self.moves_in_game = 0
        self.cap = self.rng.randint(*CAP)
        self.pending_race: tuple[str, list[str], int] | None = None
        self.rematch = False

    def on_event(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "progress":
            if self.stats.recording:
                self.stats.progress += 1
        elif kind == "race_start":
            cap = race_cap(message["code"], message["race"])
            self.pending_race = (message["game"], message["legal"], cap)
        elif kind == "results" and self.host:
            self.rematch = True

    async def wait_race(self) -> None:
        while self.pending_race is None:
            try:
                payload = await self.ws.recv(WAIT)
            except TimeoutError:
                raise RuntimeError(f"no race_start in {WAIT:g} s (host: {self.host})") from None
            message = unpack(payload, raw=False)
            if "id" not in message:
                self.on_event(message)

    async def prepare(self) -> bool:
        stats = self.stats
        between = False
        while True:
            if self.rematch:
                self.rematch = False
                await self.call("rematch")  # refused if already called: harmless
                stats.other += 1
                between = True
                continue
            if self.pending_race is not None:
                self.gid, self.legal, self.cap = self.pending_race
                self.pending_race = None
                self.in_race = True
                self.moves_in_game = 0
                between = True
            if self.legal and self.moves_in_game < self.cap:
                return between
            if self.legal:
                await self.call("resign", game=self.gid)
                stats.other += 1
            reply = await self.must("new_game", game=GAME)
            stats.other += 1
            self.gid, self.legal = reply["game"], reply["legal"]
            self.in_race = False
            self.moves_in_game = 0
            self.cap = self.rng.randint(*CAP)
            between = True

    def ready(self) -> bool:
        return (
            not self.rematch
            and self.pending_race is None
            and bool(self.legal)
            and self.moves_in_game < self.cap
        )

    def after(self, reply: dict[str, Any]) -> None:
        self.moves_in_game += 1
        if reply["type"] == "moved" and "view" in reply:
            self.legal = reply["legal"]
            if self.stats.recording:
                self.stats.moves += 1
        else:
            # e.g. game_over: the race ended while this move was on its way
            self.legal = []
            if self.stats.recording:
                self.stats.errors += 1


async def open_room(
    url: str, names: list[str], rng: random.Random, stats: Stats, sem: asyncio.Semaphore
) -> list[Racer]:
    """Racers named ``names``, registered, in one room (its host first), race started."""
    racers = []
    for name in names:
        async with sem:
            racer = Racer(await dial(url), random.Random(rng.random()), stats)
            await racer.must("hello", protocol=1, client="bench/1")
            await racer.must("register", name=name)
        racers.append(racer)
    if len(racers) == 1:
        return racers
    host = racers[0]
    host.host = True
    room = await host.must("room_create", game=GAME, max_players=len(racers))
    for racer in racers[1:]:
        await racer.must("room_join", code=room["code"])
    for racer in racers[1:]:
        await racer.must("ready", ready=True)
    await host.must("start")
    for racer in racers:
        await racer.wait_race()
    return racers
