"""The room's one entry (``RoomSteps.step``) driven by Hypothesis with the rules of the
pure machine's test (``test_room_machine.py``): joins, leaves, readies, starts,
rematches, the countdown falling due, racers resigning and the time running out, sent as
requests over real websockets to a real server on a real Redis (the server's clock a
manual one). Beside it the same steps run on a model room through the pure machine
(``server.app.domain.room``), and after every step the room a watcher is told agrees with
the model: its state, race, host, who is in and who is ready, and every refusal's code.

Each example is a fresh room on a server of its own (the Redis is shared)."""

from __future__ import annotations

import asyncio
import itertools
from collections import Counter
from collections.abc import Coroutine
from typing import Any, ClassVar, TypeVar

import hypothesis
import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from server.app.domain import room as rm
from server.app.domain.room import COUNTDOWN, FINISHED, LOBBY, RACING, Racer, Room
from server.app.settings import Settings
from server.protocol import ErrorCode, ProtocolError

from .client import Client, player
from .conftest import Running, running

PLAYERS = ("ann", "bob", "cid", "dee")
who = st.sampled_from(PLAYERS)
TIME_LIMIT = 60
T = TypeVar("T")
#: examples so far: the players' names are new in each (the Redis is shared)
EXAMPLES = itertools.count()


class RealRoom(RuleBasedStateMachine):
    #: set by the test: the settings of the server each example starts
    settings: Settings
    #: how long a watcher's view of the room may take to agree with the model's
    patience: float = 10.0
    #: what the examples did, over all of them (the test checks they did it all)
    done: ClassVar[Counter[str]] = Counter()

    def __init__(self) -> None:
        super().__init__()
        self.loop = asyncio.new_event_loop()
        self.handle: Running | None = None
        self.server_cm: Any = None
        self.clients: dict[str, Client] = {}
        self.watcher: Client | None = None
        self.model: Room | None = None
        self.code = ""
        self.now = 0
        self.finished: dict[str, bool] = {}
        self.closed = False

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        return self.loop.run_until_complete(coro)

    def teardown(self) -> None:
        async def close() -> None:
            for client in [*self.clients.values(), self.watcher]:
                if client is not None:
                    await client.close()
            if self.server_cm is not None:
                await self.server_cm.__aexit__(None, None, None)

        try:
            self.run(close())
        finally:
            self.loop.close()

    # -- the two rooms ----------------------------------------------------------------

    @initialize(host=who, max_players=st.integers(2, 4))
    def create(self, host: str, max_players: int) -> None:
        async def start() -> None:
            self.server_cm = running(self.settings)
            self.handle = await self.server_cm.__aenter__()
            url = self.handle.url
            # names unique across examples: the Redis is shared
            tag = f"x{next(EXAMPLES)}"
            for pid in PLAYERS:
                self.clients[pid] = await player(url, f"{pid}{tag}")
            self.watcher = await player(url, f"w{tag}")

        self.run(start())
        assert self.handle is not None
        self.now = self.handle.clock.now_ms()
        reply = self.run(
            self.clients[host].call(
                "room_create", game="gate", max_players=max_players, time_limit=TIME_LIMIT
            )
        )
        self.code = reply["code"]
        self.model = Room(
            code=self.code,
            game_id="gate",
            host=host,
            max_players=max_players,
            time_limit=TIME_LIMIT,
            created_ms=self.now,
        )
        rm.create(self.model, host, host, self.now)
        self.agree(reply)
        self.agree()  # (the watcher watches from now on: it hears the room close)

    def name(self, pid: str) -> str:
        name = self.clients[pid].name
        assert name is not None
        return name

    def step(self, change: Any, *args: Any) -> tuple[list[rm.Effect] | None, ErrorCode | None]:
        """The model's step: its effects, or the code it refuses with."""
        assert self.model is not None
        try:
            return change(self.model, *args), None
        except ProtocolError as exc:
            self.model.roll_back()
            return None, exc.code

    def request(self, pid: str, kind: str, **fields: Any) -> dict[str, Any]:
        return self.run(self.clients[pid].request(kind, **fields))

    def seen(self) -> dict[str, Any]:
        """The room as a watcher is told it now."""
        assert self.watcher is not None
        return self.run(self.watcher.call("room_watch", code=self.code))

    def expected(self) -> tuple[Any, ...]:
        assert self.model is not None
        model = self.model
        members = model.members()
        return (
            model.state,
            model.race,
            self.name(model.host) if model.host in model.racers else None,
            [(self.name(r.pid), r.ready) for r in members],
        )

    @staticmethod
    def told(message: dict[str, Any]) -> tuple[Any, ...]:
        players = [(p["name"], p["ready"]) for p in message["players"]]
        return (message["state"], message["race"], message["host"], players)

    def agree(self, message: dict[str, Any] | None = None) -> None:
        """The room as told (``message``, else as a watcher is told it, once what comes
        after the step has run) is the model's."""
        if self.closed:
            return
        if message is not None:
            assert self.told(message) == self.expected()
            return
        want = self.expected()
        got: list[tuple[Any, ...]] = []

        async def same() -> None:
            async def look() -> bool:
                assert self.watcher is not None
                got[:] = [self.told(await self.watcher.call("room_watch", code=self.code))]
                return got[0] == want

            deadline = asyncio.get_running_loop().time() + self.patience
            while not await look():
                if asyncio.get_running_loop().time() > deadline:
                    raise AssertionError(f"the room as told {got[0]} is not the model's {want}")
                await asyncio.sleep(0.02)

        self.run(same())

    def members(self) -> set[str]:
        assert self.model is not None
        return {r.pid for r in self.model.members()}

    # -- the rules: each sent to the server and run on the model ------------------------

    @precondition(lambda self: not self.closed)
    @rule(pid=who)
    def join(self, pid: str) -> None:
        _, error = self.step(rm.join, pid, pid, self.now)
        reply = self.request(pid, "room_join", code=self.code)
        if error is not None:
            assert reply == {**reply, "type": "error", "code": error.value}
            return
        assert reply["type"] == "room"
        self.persisted()
        self.agree()

    def persisted(self) -> None:
        assert self.model is not None
        self.model.persisted = self.model.to_dict()

    @precondition(lambda self: not self.closed)
    @rule(pid=who)
    def leave(self, pid: str) -> None:
        if pid not in self.members():
            return
        online = self.members() - {pid}
        effects, error = self.step(rm.leave, pid, online)
        assert error is None and effects is not None
        assert self.request(pid, "room_leave")["type"] == "left"
        self.persisted()
        if any(isinstance(e, rm.Close) for e in effects):
            self.closed = True
            self.done["closed"] += 1
            assert self.watcher is not None
            self.run(self.watcher.event("room", lambda e: e.get("state") == "closed"))
            return
        if any(isinstance(e, rm.Resign) for e in effects):
            for effect in effects:
                if isinstance(effect, rm.Resign):
                    self.finished[effect.gid] = True
            self.maybe_end()
        self.agree()

    @precondition(lambda self: not self.closed)
    @rule(pid=who, value=st.booleans())
    def ready(self, pid: str, value: bool) -> None:
        if pid not in self.members():
            return
        _, error = self.step(rm.ready, pid, value)
        reply = self.request(pid, "ready", ready=value)
        if error is not None:
            assert reply["type"] == "error" and reply["code"] == error.value
            return
        self.persisted()
        self.agree(reply)

    @precondition(lambda self: not self.closed)
    @rule(pid=who)
    def start(self, pid: str) -> None:
        if pid not in self.members():
            return
        # (every player here stays connected: nobody is left out as away)
        _, error = self.step(rm.start, pid, self.now, 300, 1, set(self.clients))
        reply = self.request(pid, "start")
        if error is not None:
            assert reply["type"] == "error" and reply["code"] == error.value, reply
            return
        assert reply["state"] == COUNTDOWN
        self.done["started"] += 1
        self.dealt()
        self.agree(reply)

    def dealt(self) -> None:
        """The model's racers get their games, named as the server named them."""
        assert self.model is not None and self.handle is not None
        held = self.handle.service.rooms[self.code]
        gids = {r.name: r.gid for r in held.racers.values()}
        for racer in self.model.members():
            gid = gids[self.name(racer.pid)]
            assert gid is not None
            racer.gid = gid
            self.finished[gid] = False
        self.persisted()

    @precondition(lambda self: not self.closed)
    @rule(pid=who)
    def rematch(self, pid: str) -> None:
        if pid not in self.members():
            return
        _, error = self.step(rm.rematch, pid, self.now, 300, 1)
        reply = self.request(pid, "rematch")
        if error is not None:
            assert reply["type"] == "error" and reply["code"] == error.value, reply
            return
        self.done["rematched"] += 1
        self.dealt()
        self.agree(reply)

    @precondition(lambda self: not self.closed and self.model.state == COUNTDOWN)
    @rule()
    def countdown_falls_due(self) -> None:
        assert self.model is not None and self.handle is not None
        self.handle.clock.advance(1)
        self.now = self.handle.clock.now_ms()
        self.step(rm.countdown_due, self.now)
        self.done["raced"] += 1
        self.persisted()
        self.agree()

    @precondition(lambda self: not self.closed and self.model.state == RACING)
    @rule(pid=who)
    def racer_resigns(self, pid: str) -> None:
        assert self.model is not None
        racer = self.model.racers.get(pid)
        if racer is None or racer.gid is None or racer.left or self.finished[racer.gid]:
            return
        assert self.request(pid, "resign", game=racer.gid)["type"] == "resigned"
        self.finished[racer.gid] = True
        self.maybe_end()
        self.agree()

    @precondition(lambda self: not self.closed and self.model.state == RACING)
    @rule()
    def time_runs_out(self) -> None:
        assert self.model is not None and self.handle is not None
        self.handle.clock.advance(TIME_LIMIT + 1)
        self.now = self.handle.clock.now_ms()
        for gid in rm.time_up(self.model):
            self.finished[gid] = True
        self.end()
        self.agree()

    @precondition(lambda self: not self.closed and self.model.state == LOBBY)
    @rule()
    def a_whole_race(self) -> None:
        """Everyone ready, the host starts, the countdown falls due, the time runs out
        (the rules above in a row: a finished race comes sooner, and a rematch after it)."""
        assert self.model is not None
        for racer in self.model.members():
            if racer.pid != self.model.host:
                self.ready(racer.pid, True)
        self.start(self.model.host)
        self.countdown_falls_due()
        self.time_runs_out()

    @precondition(lambda self: not self.closed and self.model.state == FINISHED)
    @rule()
    def the_host_calls_a_rematch(self) -> None:
        assert self.model is not None
        if self.model.host in self.members():
            self.rematch(self.model.host)

    def maybe_end(self) -> None:
        assert self.model is not None
        if self.model.state != RACING:
            return
        dealt = [r for r in self.model.racers.values() if r.gid is not None]
        if all(self.finished[r.gid] for r in dealt if r.gid):
            self.end()

    def end(self) -> None:
        assert self.model is not None
        racers = [r for r in self.model.racers.values() if r.gid]
        rm.end(self.model, [{"player": r.name} for r in racers], self.members())
        self.done["ended"] += 1
        self.persisted()

    @precondition(lambda self: self.closed)
    @rule()
    def closed_for_good(self) -> None:
        """The one step left once the room has closed: it stays closed."""
        assert self.watcher is not None
        reply = self.run(self.watcher.request("room_watch", code=self.code))
        assert reply["code"] == ErrorCode.NO_SUCH_ROOM.value

    @invariant()
    def one_host_in_the_room(self) -> None:
        if self.model is None or self.closed or not self.model.members():
            return
        assert self.model.host in self.members()
        assert self.model.state in (LOBBY, COUNTDOWN, RACING, FINISHED)


@pytest.mark.timeout(600)
def test_the_real_entry_keeps_the_machines_rules(settings: Settings) -> None:
    RealRoom.settings = settings
    RealRoom.TestCase.settings = hypothesis.settings(
        max_examples=12,
        stateful_step_count=20,
        deadline=None,
        suppress_health_check=list(hypothesis.HealthCheck),
        derandomize=True,
        # (no shrinking: each step is a round trip to a server; the steps are printed)
        phases=[hypothesis.Phase.explicit, hypothesis.Phase.generate],
    )
    case = RealRoom.TestCase("runTest")
    case.runTest()
    # every part of a room's life was gone through, refusals aside
    assert set(RealRoom.done) == {"started", "rematched", "closed", "raced", "ended"}, RealRoom.done


def test_a_step_the_server_refuses_leaves_the_model_agreeing(settings: Settings) -> None:
    """The comparison can fail: a model told a step the server never took disagrees."""
    machine = RealRoom()
    machine.settings = settings
    machine.patience = 1.0  # (the disagreement lasts: no need to wait the 10 s out)
    try:
        machine.create("ann", 2)
        assert machine.model is not None
        machine.model.racers["bob"] = Racer("bob", "bob", machine.now)  # a join never sent
        with pytest.raises(AssertionError, match="is not the model's"):
            machine.agree()
    finally:
        machine.teardown()
