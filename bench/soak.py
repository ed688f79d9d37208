"""A bounded soak of the race server: fuzzing, flooding, racing, and kills, with the
figures that must stay at zero and the checks that must hold.

    .venv/bin/python bench/soak.py [--frames 200000] [--racers 8] [--fuzzers 6]
                                   [--seed 1] [--seconds 900] [--stall 30]
                                   [--ballast 60] [--server-tree DIR] [--no-kills]
                                   [--certify-ahead DAYS] [--quick] [--json-out FILE]
                                   [--keep]

It starts a Redis of its own (append-only, fsynced before each answer, on a unix socket in a
temporary directory), fills it with ``--ballast`` MB of junk keys (written to its
append-only file, so that each restart spends about a second loading them; 0: none),
and starts the race server (``python -m server.cli``) on it, then:

1. **Fuzz**: ``--fuzzers`` players throw ``--frames`` frames (``bench/soak_fuzz.py``),
   allocation bombs among them (small frames whose headers claim thousands of items or
   gigabytes: ``bad_request``, and the connection carries on); two more go through rooms
   and cross their joins, while ``--racers`` racers race in rooms of 2 or 3 (some with a
   time limit), rematching at each end (``bench/soak_racers.py``). The server's RSS is
   read before and after.
2. **Limits**, beside the fuzz (``bench/soak_limits.py``): a flooder not signed in writes
   20,000 pings at once and must be closed 1008 while a probe's pings (and everyone
   else's requests) are answered; 70 connections from 127.0.0.9, the 6 past
   ``max_connections_per_ip`` (64) must be closed 1013 with the documented reason, and
   once all are closed one more must be let in; then a flooder signed in.
3. **Server kill**: with races under way, the server is killed (SIGKILL) and started
   again on the same Redis; every racer reconnects and goes on from ``resume``; every
   acknowledged move is looked for in its game's log in Redis.
4. **Redis kill**: with races under way, Redis is killed (SIGKILL) and started again on
   its files a few seconds later; while it loads its data (the ballast) a watcher's
   requests and the racers' are answered once it has (the server sends again what is
   answered LOADING). Two rooms are timed so that the outage spans the end of one's
   countdown and the other's time limit (``end_at``): once Redis is back the server
   must start the one and end the other on its own, ``race_start`` and ``results``
   reaching their racers. Acknowledged moves are looked for again.
5. **Both restarted** (when ``--seconds`` leaves time for it): the server and Redis
   killed mid-race, Redis started and the server at once, while Redis loads: the server
   must wait for it and come up, the racers resume, no acknowledged move be lost.
6. The racers stop, every request still on its way is awaited, and the server's log is
   read for tracebacks.

Every phase has a deadline and the whole run ``--seconds``; whatever it started is
killed at the end, also on Ctrl-C. It prints a table (``bench/soak_report.py``) and
exits with status 1 if a must-be-zero figure is not zero (tracebacks in the server's
log, Redis outages included; requests never answered; acknowledged moves lost; races
stranded; protocol violations), a must-hold check failed (a flooder not closed 1008;
the cap per address not as documented) or a phase did not complete, saying which.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.soak_args import parse  # noqa: E402
from bench.soak_conn import Conn, Ledger, run_within  # noqa: E402
from bench.soak_fuzz import Budget, Dancers, Fuzzer, World  # noqa: E402
from bench.soak_limits import cap_per_address, flood  # noqa: E402
from bench.soak_procs import RedisProc, ServerProc, tracebacks  # noqa: E402
from bench.soak_racers import (  # noqa: E402
    Acks,
    Plan,
    Racer,
    Target,
    Weather,
    lost_moves,
    open_room,
)
from bench.soak_report import Figures, table  # noqa: E402

COUNTDOWN = 1.5
#: seconds after Redis is back in which a traceback is reported as the outage's
GRACE = 5.0


class PhaseFailed(Exception):
    pass


@dataclass
class Soak:
    args: argparse.Namespace
    redis: RedisProc
    server: ServerProc
    figures: Figures
    ledger: Ledger
    rng: random.Random
    deadline: float
    target: Target = field(default_factory=Target)
    weather: Weather = field(default_factory=Weather)
    acks: Acks = field(default_factory=Acks)
    world: World = field(default_factory=World)
    plans: list[Plan] = field(default_factory=list)
    racers: list[Racer] = field(default_factory=list)
    fuzzers: list[Fuzzer] = field(default_factory=list)
    dancers: list[Dancers] = field(default_factory=list)
    outages: list[tuple[float, float]] = field(default_factory=list)
    stop_racers: asyncio.Event = field(default_factory=asyncio.Event)
    stop_fuzz: asyncio.Event = field(default_factory=asyncio.Event)
    budget: Budget = field(default_factory=lambda: Budget(0))
    #: the token of the player the signed-in flooder signs in as
    flooder_token: str = ""
    _xy: tuple[Plan, Plan] | None = None

    def left(self) -> float:
        return self.deadline - time.monotonic()

    async def phase(self, name: str, seconds: float, coro: object) -> bool:
        """Run one phase within its deadline (and the run's); False if it did not finish."""
        budget = min(seconds, self.left())
        try:
            async with asyncio.timeout(max(budget, 0.1)):
                await coro  # type: ignore[misc]
            return True
        except TimeoutError:
            self.figures.incomplete.append(f"{name}: past its deadline of {budget:.0f} s")
        except PhaseFailed as exc:
            self.figures.incomplete.append(f"{name}: {exc}")
        return False

    # -- setting up

    def racer(self, plan: Plan, name: str) -> Racer:
        racer = Racer(
            name, plan, random.Random(self.rng.random()), self.ledger, self.target,
            self.weather, self.acks,
        )  # fmt: skip
        plan.racers.append(racer)
        self.racers.append(racer)
        return racer

    def plan_rooms(self) -> tuple[Plan, Plan]:
        """Rooms of 2 and 3 for ``--racers``, every other one with a time limit; and the
        two rooms whose starts the Redis kill is timed by."""
        rng = self.rng
        left, n = self.args.racers, 0
        while left > 0:
            size = 3 if left in (3, 5) or (left > 3 and rng.random() < 0.5) else min(2, left)
            limit = rng.randrange(15, 40) if n % 2 else None
            plan = Plan(f"room{n}", rng.choice(["gate", "doubles-and-quits", "nestor"]), limit)
            for k in range(size):
                self.racer(plan, f"r{n}x{k}")
            self.plans.append(plan)
            left -= size
            n += 1
        # X: its countdown ends in the outage; Y: its time limit does
        x = Plan("countdown", "gate", 10, hold=True)
        y = Plan("time-limit", "gate", 10, hold=True, max_moves=5, pace=0.3)
        for plan in (x, y):
            for k in range(2):
                self.racer(plan, f"{plan.name[0]}{k}")
        return x, y

    async def setup(self) -> tuple[Plan, Plan]:
        x, y = self.plan_rooms()
        await asyncio.gather(*(open_room(p, start=True) for p in self.plans))
        await asyncio.gather(*(open_room(p, start=False) for p in (x, y)))
        limit = 4096
        self.world.names = [r.name for r in self.racers]
        for n in range(self.args.fuzzers):
            fuzzer = Fuzzer(
                f"fz{n}", random.Random(self.rng.random()), self.ledger, self.target,
                self.world, self.budget, limit,
            )  # fmt: skip
            fuzzer.conn = await fuzzer.sign_in(register=True)
            self.fuzzers.append(fuzzer)
        pair = Dancers(
            ("da", "db"), random.Random(self.rng.random()), self.ledger, self.target, self.world
        )
        for name in pair.names:
            player = Fuzzer(
                name, random.Random(), self.ledger, self.target, self.world, Budget(0), limit
            )
            player.conn = await player.sign_in(register=True)
            pair.players.append(player)
        self.dancers.append(pair)
        self.world.names += [f.name for f in self.fuzzers] + ["nobody"]
        conn = await Conn.open(self.target.url, "flooder", self.ledger, "flood")
        await conn.call("hello", timeout=self.ledger.stall, protocol=1)
        reply = await conn.call("register", timeout=self.ledger.stall, name="flooder")
        if reply["type"] != "registered":
            raise RuntimeError(f"register flooder: {reply}")
        self.flooder_token = reply["token"]
        await conn.close()
        return x, y

    # -- the phases

    async def fuzz(self) -> None:
        tasks = [asyncio.create_task(f.run(self.stop_fuzz)) for f in self.fuzzers]
        try:
            await asyncio.gather(*tasks)
        finally:
            self.stop_fuzz.set()
            await asyncio.gather(*tasks, return_exceptions=True)

    async def limits(self) -> None:
        """Beside the fuzz: a flooder not signed in, the cap per address, a flooder signed
        in (``bench/soak_limits.py``), each a phase of its own."""
        f = self.figures

        async def flooding(token: str | None) -> None:
            name = "flooder" if token else "flood-guest"
            f.floods.append(await flood(self.target, self.ledger, name, token))

        async def capping() -> None:
            f.caps = await cap_per_address(self.target, self.ledger)

        await asyncio.sleep(0.5)
        await self.phase("flooding, not signed in", 30, flooding(None))
        await self.phase("the cap per address", 40, capping())
        await self.phase("flooding, signed in", 30, flooding(self.flooder_token))

    async def mid_race(self, plans: list[Plan]) -> Plan:
        """A room whose race is under way with a move acknowledged in the last second."""
        while True:
            for plan in plans:
                if plan.state == "racing" and not plan.stranded and plan.results < plan.race:
                    before = self.acks.count()
                    await asyncio.sleep(0.3)
                    if self.acks.count() > before:
                        return plan
            await asyncio.sleep(0.1)

    async def check_lost(self, after: str) -> None:
        found, sent, samples = await lost_moves(self.redis.url, self.acks)
        self.figures.checks.append({"after": after, "found": found, "sent": sent})
        self.figures.lost = max(self.figures.lost, sent - found)
        for text in samples:
            self.ledger.note("lost", f"after {after}: {text}")

    async def kill_server(self, y: Plan) -> None:
        """Kill the server mid-race (Y's race, which the Redis kill needs, runs across
        it), start it again, and look for every acknowledged move."""
        reply = await y.go()
        if reply["type"] != "room":
            raise PhaseFailed(f"starting the time-limited room: {reply}")
        plan = await self.mid_race(self.plans)
        self.weather.outage()
        self.target.up.clear()
        self.server.kill()
        self.ledger.generation += 1
        took = self.server.start(deadline=min(30.0, self.left()))
        self.target.url = self.server.url
        self.target.up.set()
        self.weather.recovered()
        self.figures.restarts.append(
            f"server: killed in room {plan.code}'s race {plan.race}; up again in {took:.2f} s"
        )
        await self.check_lost("the server's restart")
        # every racer back, and moves acknowledged again
        before = self.acks.count()
        while self.acks.count() < before + 20:
            await asyncio.sleep(0.1)

    async def kill_redis(self, x: Plan, y: Plan) -> None:
        """Kill Redis so that its outage spans X's countdown's end and Y's time limit."""
        while True:
            if y.state == "finished" and y.results >= y.race:
                reply = await y.go()  # too late for this race's end: the next one
                if reply["type"] != "room":
                    raise PhaseFailed(f"rematch in the time-limited room: {reply}")
            ahead = (y.end_at or 0) / 1000 - time.time()
            if y.state == "racing" and y.end_at is not None and ahead > COUNTDOWN + 0.2:
                break
            await asyncio.sleep(0.05)
        # X's countdown (1.5 s) ends half a second after Y's time limit
        assert y.end_at is not None
        await asyncio.sleep(max(0.0, y.end_at / 1000 - time.time() - COUNTDOWN + 0.5))
        reply = await x.go()
        if reply["type"] != "room" or reply.get("state") != "countdown":
            raise PhaseFailed(f"starting the countdown room: {reply}")
        busy = [p.code for p in self.plans if p.state == "racing"]
        self.weather.outage()
        down_at = time.time()
        self.redis.kill()
        x_race, y_race = x.race, y.race
        back_after = max(x.start_at or 0, y.end_at or 0) / 1000 + 2.0
        await asyncio.sleep(max(2.0, back_after - time.time()))
        # started on a thread of its own: the racers and a watcher go on while it loads
        # (with ballast, a second or more), the server sending again what it is answered
        # LOADING
        watcher = await self.loading_watcher()
        starting = asyncio.wrap_future(self.redis.start_soon(deadline=min(30.0, self.left())))
        load = await self.watch_loading(starting, watcher)
        took = load["seconds"]
        up_at = time.time()
        self.outages.append((down_at, up_at + GRACE))
        self.weather.recovered()
        self.figures.redis_loads.append({"after": "the Redis kill", **load})
        self.figures.restarts.append(
            f"redis: down {up_at - down_at:.1f} s across room {x.code}'s start and room "
            f"{y.code}'s end_at, rooms racing at the kill: {len(busy)}; loaded in {took:.2f} s"
        )
        await self.check_lost("Redis's restart")
        recovered = time.monotonic()
        stall = self.ledger.stall
        while True:
            started = all(r.race >= x_race for r in x.racers)
            ended = y.results >= y_race
            if started and ended:
                break
            if time.monotonic() - recovered > stall:
                for what, done, plan, race in (
                    ("race_start", started, x, x_race),
                    ("results", ended, y, y_race),
                ):
                    if not done:
                        plan.stranded = True
                        self.ledger.note(
                            "stranded",
                            f"room {plan.code} ({plan.name}): no {what} of race {race} "
                            f"{stall:.0f} s after Redis came back (state {plan.state})",
                        )
                break
            await asyncio.sleep(0.1)
        for plan in (x, y):
            plan.hold, plan.max_moves, plan.pace = False, None, 0.04

    async def loading_watcher(self) -> Conn | None:
        """A guest connection whose requests read Redis while it loads its data."""
        try:
            conn = await Conn.open(self.target.url, "loading-watch", self.ledger, "watch")
            await conn.call("hello", timeout=self.ledger.stall, protocol=1)
        except (OSError, ConnectionError, TimeoutError):
            return None
        return conn

    async def watch_loading(
        self, starting: asyncio.Future[float], watcher: Conn | None
    ) -> dict[str, Any]:
        """Until Redis has loaded its data: once its socket is there (it answers LOADING),
        the watcher asks the server for a replay (read from Redis) every 0.1 s; the
        replies say whether the server rode through LOADING (``no_such_replay``) or gave
        up (``internal_error``)."""
        asked: list[asyncio.Future[dict[str, Any]]] = []
        loading_for = None
        while not starting.done():
            if self.redis.socket_ready and watcher is not None and not watcher.closed:
                if loading_for is None:
                    loading_for = time.monotonic()
                asked.append(watcher.request("replay", replay="soak-nope"))
            await asyncio.sleep(0.1)
        took = await starting
        listened = None if loading_for is None else time.monotonic() - loading_for
        replies: Counter[str] = Counter()
        for future in asked:
            try:
                reply = await asyncio.wait_for(asyncio.shield(future), self.ledger.stall)
            except (ConnectionError, TimeoutError):
                replies["no reply"] += 1
                continue
            code = reply.get("code")
            replies[f"error:{code}" if reply["type"] == "error" else reply["type"]] += 1
        if watcher is not None:
            await watcher.close()
        return {
            "seconds": round(took, 3),
            "logged": self.redis.logged_load(),
            "loading_seen": None if listened is None else round(listened, 3),
            "asked_while_loading": len(asked),
            "replies": dict(replies),
        }

    async def restart_both(self) -> None:
        """Kill the server and Redis mid-race; start Redis, and the server as soon as
        Redis takes connections, while it is still loading its data: the server waits
        for it (``waiting for redis to load its data`` in its log when the load outlasts
        the server's own start), the racers resume, no acknowledged move is lost."""
        plan = await self.mid_race(self.plans)
        self.weather.outage()
        self.target.up.clear()
        self.server.kill()
        self.ledger.generation += 1
        down_at = time.time()
        self.redis.kill()
        since = self.server.log_size()
        deadline = min(30.0, self.left())
        t0 = time.monotonic()
        starting = asyncio.wrap_future(self.redis.start_soon(deadline=deadline))
        while not self.redis.socket_ready:
            if starting.done():
                await starting  # its failure
                raise PhaseFailed("redis came up and went")
            await asyncio.sleep(0.005)
        listening = time.monotonic() - t0
        up = await asyncio.to_thread(self.server.start, deadline)
        redis_took = await starting
        self.target.url = self.server.url
        self.target.up.set()
        self.outages.append((down_at, time.time() + GRACE))
        self.weather.recovered()
        entries = self.server.log_entries(since)
        waited = [e for e in entries if e.get("msg") == "waiting for redis to load its data"]
        loaded = [e.get("waited") for e in entries if e.get("msg") == "redis loaded its data"]
        self.figures.redis_loads.append(
            {
                "after": "the restart of both",
                "seconds": round(redis_took, 3),
                "logged": self.redis.logged_load(),
            }
        )
        self.figures.both = {
            "room": plan.code,
            "redis_socket_after": round(listening, 3),
            "redis_loaded_after": round(redis_took, 3),
            "server_up_after": round(up + listening, 3),
            "server_waited": bool(waited),
            "server_logged_wait": loaded[-1] if loaded else None,
        }
        self.figures.restarts.append(
            f"both: killed in room {plan.code}'s race {plan.race}; redis took connections "
            f"after {listening:.2f} s, loaded in {redis_took:.2f} s; the server, started "
            f"then, up {up:.2f} s later"
            + (f", having waited {loaded[-1]} s for Redis" if loaded else "")
        )
        await self.check_lost("the restart of both")
        before = self.acks.count()
        while self.acks.count() < before + 20:
            await asyncio.sleep(0.1)

    async def drain(self) -> None:
        """Stop the racers and await what is still on its way (unanswered after ``stall``)."""
        self.stop_racers.set()
        await self.ledger.drain()

    # -- the whole run

    async def run(self) -> None:
        args, f = self.args, self.figures
        ledger = self.ledger

        async def sweep() -> None:
            while True:
                await asyncio.sleep(1)
                ledger.sweep()

        sweeper = asyncio.create_task(sweep())
        tasks: list[asyncio.Task[None]] = []
        try:
            self.target.url = self.server.url
            self.target.up.set()
            x, y = None, None
            if await self.phase("setting up", 60, self._setup_into()):
                assert self._xy is not None
                x, y = self._xy
                tasks = [asyncio.create_task(r.run(self.stop_racers)) for r in self.racers]
                # the dancers go on through the kills, with the racers
                tasks += [asyncio.create_task(d.run(self.stop_racers)) for d in self.dancers]
                await asyncio.sleep(1)
                f.rss_before_kib = self.server.rss_kib()
                reserve = 10 if args.no_kills else ledger.stall + 30
                await asyncio.gather(
                    self.phase("fuzzing", self.left() - reserve, self.fuzz()), self.limits()
                )
                f.rss_after_kib = self.server.rss_kib()
                if not args.no_kills:
                    await self.kills(x, y)
                    await asyncio.sleep(2)
            await self.phase("draining", ledger.stall + 10, self.drain())
            for racer in self.racers:
                if racer.conn is not None:
                    await racer.conn.close()
            await asyncio.gather(*tasks, return_exceptions=True)
            if not args.no_kills and self.redis.alive:
                await self.check_lost("the run")
            f.rss_end_kib = self.server.rss_kib()
        finally:
            sweeper.cancel()
            for task in tasks:
                task.cancel()
            self.stop_fuzz.set()

    async def kills(self, x: Plan, y: Plan) -> None:
        """The server killed, then Redis, then both (if there is time left for it)."""
        if not await self.phase("killing the server", 40, self.kill_server(y)):
            return
        if not await self.phase("killing Redis", 60, self.kill_redis(x, y)):
            return
        if self.left() > self.ledger.stall + 25:
            await self.phase("restarting both", 60, self.restart_both())
        else:
            self.figures.notes.append("no time left for the restart of both")

    async def _setup_into(self) -> None:
        self._xy = await self.setup()


def figures_of(soak: Soak, started: float) -> None:
    f, ledger = soak.figures, soak.ledger
    f.seconds = time.monotonic() - started
    f.fuzz_frames = f.frames_asked - soak.budget.left
    f.frames = dict(ledger.frames)
    f.replies = dict(ledger.replies)
    f.closes = dict(ledger.closes)
    f.dropped = dict(ledger.dropped)
    f.connections = ledger.connections
    f.kicks = sum(z.kicks for z in soak.fuzzers)
    f.bombs_sent = sum(z.bombs for z in soak.fuzzers)
    f.bombs_refused = sum(z.bombs_refused for z in soak.fuzzers)
    f.crossed_joins = sum(d.crossed for d in soak.dancers)
    f.room_sequences = sum(d.sequences for d in soak.dancers)
    f.races_finished = sum(p.results for p in soak.plans)
    f.racer_moves = soak.acks.count()
    f.server_kills, f.redis_kills = soak.server.kills, soak.redis.kills
    f.unanswered = ledger.unanswered
    f.violations = ledger.violations
    f.stranded = sum(p.stranded for p in {id(r.plan): r.plan for r in soak.racers}.values())
    found = tracebacks(soak.server.log)
    kinds: Counter[str] = Counter()
    for tb in found:
        # every one counts: a Redis outage is logged a line every few seconds, without one
        inside = tb.during(soak.outages)
        kinds[f"{tb.msg} ({'in an outage' if inside else 'outside outages'})"] += 1
        f.tracebacks += 1
        ledger.note("tracebacks", f"{tb.level} {tb.msg}: {tb.first}")
    f.traceback_kinds = dict(kinds)
    f.samples = {k: v for k, v in ledger.samples.items() if v}


def commit_of(tree: Path) -> str:
    out = subprocess.run(
        ["git", "-C", str(tree), "describe", "--always", "--dirty"],
        capture_output=True, text=True,
    )  # fmt: skip
    return out.stdout.strip()


def main(argv: list[str] | None = None) -> int:
    args = parse(argv, __doc__.split("\n\n")[0])
    started = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="patience-soak-"))
    tree = args.server_tree.resolve() if args.server_tree else None
    redis = RedisProc(tmp / "redis")
    env = {
        "PATIENCE_RATE": "1000",
        "PATIENCE_BURST": "2000",
        "PATIENCE_REGISTER_RATE": "0",  # (every fuzzing connection comes from one address)
        "PATIENCE_COUNTDOWN": str(COUNTDOWN),
        "PATIENCE_SWEEP_INTERVAL": "2",
        "PATIENCE_LOG_LEVEL": "INFO",
    }
    if args.certify_ahead is not None:
        env["PATIENCE_CERTIFY_AHEAD"] = str(args.certify_ahead)
    server = ServerProc(redis.url, tmp, env, tree)
    figures = Figures(frames_asked=args.frames, commit=commit_of(tree or ROOT))
    signal.signal(signal.SIGTERM, signal.default_int_handler)  # stop as on Ctrl-C
    soak: Soak | None = None
    try:
        redis.start()
        if args.ballast > 0:
            figures.ballast = redis.ballast(args.ballast)
        server.start()
        soak = Soak(
            args, redis, server, figures, Ledger(stall=args.stall), random.Random(args.seed),
            time.monotonic() + args.seconds - (time.monotonic() - started),
        )  # fmt: skip
        soak.budget = Budget(args.frames)
        late = run_within(soak.run(), args.seconds + args.stall + 20)
        if late is not None:
            figures.incomplete.append(late)
    except KeyboardInterrupt:
        figures.incomplete.append("interrupted")
    except Exception as exc:
        figures.incomplete.append(f"{type(exc).__name__}: {exc}")
    finally:
        with contextlib.suppress(Exception):
            server.stop()
        with contextlib.suppress(Exception):
            redis.stop()
    if soak is not None:
        figures_of(soak, started)
    print(table(figures))
    if args.json_out:
        args.json_out.write_text(json.dumps(figures.json(), indent=1))
    if args.keep:
        print(f"kept {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if figures.failures() else 0


if __name__ == "__main__":
    sys.exit(main())
