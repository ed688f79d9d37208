"""A soak of three race server processes on one Redis, as a deployment runs them: fuzzing,
racing across the processes, one process killed and Redis killed mid-race, with the
figures that must stay at zero and the checks that must hold.

    .venv/bin/python bench/soak_many.py [--frames 200000] [--rooms 9] [--fuzzers 6]
                                        [--seed 1] [--seconds 900] [--stall 30]
                                        [--ballast 20] [--server-tree DIR] [--quick]
                                        [--json-out FILE] [--keep]

It starts a Redis of its own (``bench/soak_procs.py``, with ``--ballast`` MB for it to
load at its restart) and three servers on it with one secret, then:

1. **Rooms across the processes**: ``--rooms`` rooms of three racers, each racer on
   another process than the others (the host on one, the guests on the two others), so
   that every race's start reaches two processes that did not deal it; they race and
   rematch as in ``bench/soak.py`` (``bench/soak_racers.py``). Every racer's first move
   of each race is counted, and every ``race_start`` heard twice on one connection.
2. **Fuzz**: ``--fuzzers`` players spread over the processes throw ``--frames`` frames
   (``bench/soak_fuzz.py``) while the racers race.
3. **A process killed**: a third of the way through the fuzz, with races under way, the
   third process is killed (SIGKILL); its players reconnect to the first (as a load
   balancer sends them), go on from ``resume``, and it is started again; every
   acknowledged move is looked for in its game's log.
4. **Redis killed**: two thirds of the way, Redis is killed and started again on its
   files three seconds later. Then three probes, each a pair of players in a room on two
   processes: the one on the second process says ready again and again until the one on
   the first hears it; that must be within :data:`HEAR_AGAIN_S` of Redis being back.
   Acknowledged moves are looked for again.
5. The fuzz ends, the racers stop, every request still on its way is awaited, and the
   three servers' logs are read for tracebacks.

It prints a table and exits with status 1 if a must-be-zero figure is not zero
(tracebacks, requests never answered, acknowledged moves lost, races stranded, protocol
violations, a first move refused outside an outage, a ``race_start`` sent twice) or a
must-hold check failed (the processes heard each other again in time) or a phase did not
complete.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.soak_conn import Conn, Ledger, run_within  # noqa: E402
from bench.soak_fuzz import Budget, Fuzzer, World  # noqa: E402
from bench.soak_procs import RedisProc, ServerProc, tracebacks  # noqa: E402
from bench.soak_racers import Acks, Plan, Racer, Target, Weather, lost_moves, open_room  # noqa: E402

COUNTDOWN = 1.5
#: how soon after Redis is back the processes must hear each other again, at the latest
HEAR_AGAIN_S = 2.0
PROCS = 3


class PhaseFailed(Exception):
    pass


@dataclass
class Probe:
    """Two players in a lobby, on two processes: ``b`` says ready, ``a`` hears it (or
    not) through the bus."""

    a: Conn
    b: Conn
    code: str
    b_ready: list[tuple[float, bool]] = field(default_factory=list)

    def heard(self, conn: Conn, message: dict[str, Any]) -> None:
        if message.get("type") != "room" or message.get("code") != self.code:
            return
        for player in message.get("players", ()):
            if player.get("name") == self.b.name:
                self.b_ready.append((time.monotonic(), bool(player.get("ready"))))


@dataclass
class Many:
    args: argparse.Namespace
    redis: RedisProc
    servers: list[ServerProc]
    ledger: Ledger
    rng: random.Random
    deadline: float
    targets: list[Target] = field(default_factory=lambda: [Target() for _ in range(PROCS)])
    weather: Weather = field(default_factory=Weather)
    acks: Acks = field(default_factory=Acks)
    world: World = field(default_factory=World)
    budget: Budget = field(default_factory=lambda: Budget(0))
    plans: list[Plan] = field(default_factory=list)
    racers: list[Racer] = field(default_factory=list)
    fuzzers: list[Fuzzer] = field(default_factory=list)
    stop: asyncio.Event = field(default_factory=asyncio.Event)
    figures: dict[str, Any] = field(default_factory=dict)
    incomplete: list[str] = field(default_factory=list)
    checks: list[dict[str, Any]] = field(default_factory=list)
    lost: int = 0
    heard_again: list[float | None] = field(default_factory=list)
    restarts: list[str] = field(default_factory=list)

    def left(self) -> float:
        return self.deadline - time.monotonic()

    async def phase(self, name: str, seconds: float, coro: Any) -> bool:
        budget = min(seconds, self.left())
        try:
            async with asyncio.timeout(max(budget, 0.1)):
                await coro
            return True
        except TimeoutError:
            self.incomplete.append(f"{name}: past its deadline of {budget:.0f} s")
        except PhaseFailed as exc:
            self.incomplete.append(f"{name}: {exc}")
        return False

    # -- setting up

    async def setup(self) -> None:
        rng = self.rng
        for n in range(self.args.rooms):
            limit = rng.randrange(20, 45) if n % 3 == 2 else None
            plan = Plan(f"room{n}", rng.choice(["gate", "doubles-and-quits", "nestor"]), limit)
            for k in range(PROCS):
                target = self.targets[(n + k) % PROCS]
                racer = Racer(
                    f"m{n}x{k}", plan, random.Random(rng.random()), self.ledger, target,
                    self.weather, self.acks,
                )  # fmt: skip
                plan.racers.append(racer)
                self.racers.append(racer)
            self.plans.append(plan)
        await asyncio.gather(*(open_room(p, start=True) for p in self.plans))
        self.world.names = [r.name for r in self.racers]
        for n in range(self.args.fuzzers):
            fuzzer = Fuzzer(
                f"mf{n}", random.Random(rng.random()), self.ledger, self.targets[n % PROCS],
                self.world, self.budget, 4096,
            )  # fmt: skip
            fuzzer.conn = await fuzzer.sign_in(register=True)
            self.fuzzers.append(fuzzer)

    # -- the phases

    async def fuzz(self) -> None:
        tasks = [asyncio.create_task(f.run(self.stop)) for f in self.fuzzers]
        try:
            await asyncio.gather(*tasks)
        finally:
            await asyncio.gather(*tasks, return_exceptions=True)

    async def at_fraction(self, fraction: float) -> None:
        """Until that much of the fuzz's frames are sent, and a move acknowledged in the
        last half second (races under way)."""
        frames = self.args.frames
        while self.budget.left > frames * (1 - fraction):
            await asyncio.sleep(0.1)
        before = self.acks.count()
        while self.acks.count() == before:
            await asyncio.sleep(0.5)

    async def check_lost(self, after: str) -> None:
        found, sent, samples = await lost_moves(self.redis.url, self.acks)
        self.checks.append({"after": after, "found": found, "sent": sent})
        self.lost = max(self.lost, sent - found)
        for text in samples:
            self.ledger.note("lost", f"after {after}: {text}")

    async def kill_process(self) -> None:
        """The third process killed mid-race; its players go to the first; started again."""
        victim, refuge = self.servers[2], self.servers[0]
        target = self.targets[2]
        self.weather.outage()
        target.up.clear()
        self.ledger.dead_urls.add(victim.url)
        victim.kill()
        self.ledger.generation += 1
        target.url = refuge.url  # the balancer sends its players elsewhere
        target.up.set()
        self.weather.recovered()
        await asyncio.sleep(2)
        took = await asyncio.to_thread(victim.start, min(30.0, self.left()))
        target.url = victim.url  # new connections go to it again
        self.restarts.append(f"process 3 killed mid-race, its players resumed on process 1; "
                             f"started again in {took:.2f} s")  # fmt: skip
        await self.check_lost("a process's kill")

    async def probes(self) -> list[Probe]:
        out = []
        for n in range(PROCS):
            here, there = self.targets[n], self.targets[(n + 1) % PROCS]
            a = await self.player(here.url, f"pa{n}")
            b = await self.player(there.url, f"pb{n}")
            reply = await a.call("room_create", timeout=self.ledger.stall, game="gate")
            if reply.get("type") != "room":
                raise PhaseFailed(f"a probe's room: {reply}")
            probe = Probe(a, b, reply["code"])
            a.on_event = probe.heard
            reply = await b.call("room_join", timeout=self.ledger.stall, code=probe.code)
            if reply.get("type") != "room":
                raise PhaseFailed(f"a probe's join: {reply}")
            out.append(probe)
        return out

    async def player(self, url: str, name: str) -> Conn:
        conn = await Conn.open(url, name, self.ledger, "probe")
        await conn.call("hello", timeout=self.ledger.stall, protocol=1)
        reply = await conn.call("register", timeout=self.ledger.stall, name=name)
        if reply.get("type") != "registered":
            raise PhaseFailed(f"register {name}: {reply}")
        return conn

    async def kill_redis(self) -> None:
        probes = await self.probes()
        self.weather.outage()
        down = time.monotonic()
        self.redis.kill()
        await asyncio.sleep(3)
        took = await asyncio.to_thread(self.redis.start, min(30.0, self.left()))
        back = time.monotonic()
        self.weather.recovered()
        self.heard_again = list(await asyncio.gather(*(self.hear(p, back) for p in probes)))
        self.restarts.append(
            f"redis down {back - down:.1f} s (loaded in {took:.2f} s); the processes heard "
            "each other again after "
            + ", ".join("never" if h is None else f"{h:.2f} s" for h in self.heard_again)
        )
        for probe in probes:
            await probe.a.close()
            await probe.b.close()
        await self.check_lost("Redis's kill")

    async def hear(self, probe: Probe, back: float) -> float | None:
        """Seconds after ``back`` at which ``a`` heard ``b`` ready, ``b`` saying so again
        every 0.1 s from ``back`` on (None: not within the stall)."""
        ready = True
        while time.monotonic() - back < self.ledger.stall:
            asked = time.monotonic()
            with contextlib.suppress(ConnectionError, TimeoutError):
                await probe.b.call("ready", timeout=5, ready=ready)
            for at, seen in probe.b_ready:
                if at >= asked and seen == ready:
                    return at - back
            await asyncio.sleep(0.1)
            for at, seen in probe.b_ready:
                if at >= asked and seen == ready:
                    return at - back
        return None

    async def chaos(self) -> None:
        """The kills, each once its share of the fuzz is sent (the wait has no deadline
        of its own: the run's is enough), each with its deadline."""
        await self.at_fraction(1 / 3)
        if not await self.phase("killing a process", 120, self.kill_process()):
            return
        await self.at_fraction(2 / 3)
        await self.phase("killing Redis", 120, self.kill_redis())

    async def run(self) -> None:
        ledger = self.ledger

        async def sweep() -> None:
            while True:
                await asyncio.sleep(1)
                ledger.sweep()

        sweeper = asyncio.create_task(sweep())
        tasks: list[asyncio.Task[None]] = []
        try:
            for target, server in zip(self.targets, self.servers, strict=True):
                target.url = server.url
                target.up.set()
            if not await self.phase("setting up", 90, self.setup()):
                return
            tasks = [asyncio.create_task(r.run(self.stop)) for r in self.racers]
            chaos = asyncio.create_task(self.chaos())
            await self.phase("fuzzing", self.left() - ledger.stall - 20, self.fuzz())
            await self.phase("the kills", 250, chaos)
            await asyncio.sleep(2)
            self.stop.set()
            await ledger.drain(linger=ledger.stall * 3)
            for racer in self.racers:
                if racer.conn is not None:
                    await racer.conn.close()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self.check_lost("the run")
        finally:
            sweeper.cancel()
            self.stop.set()
            for task in tasks:
                task.cancel()


def figures_of(many: Many, seconds: float) -> dict[str, Any]:
    ledger = many.ledger
    first: Counter[str] = Counter()
    for racer in many.racers:
        first.update(racer.first_moves)
    refused = sum(n for what, n in first.items() if what != "moved" and "outage" not in what)
    found = [tb for server in many.servers for tb in tracebacks(server.log)]
    for tb in found:
        ledger.note("tracebacks", f"{tb.level} {tb.msg}: {tb.first}")
    heard = many.heard_again
    return {
        "seconds": round(seconds, 1),
        "frames": dict(ledger.frames),
        "fuzz_frames": many.args.frames - many.budget.left,
        "replies": dict(ledger.replies.most_common(8)),
        "closes": dict(ledger.closes),
        "connections": ledger.connections,
        "races_finished": sum(p.results for p in many.plans),
        "racer_moves": many.acks.count(),
        "first_moves": dict(first),
        "restarts": many.restarts,
        "checks": many.checks,
        "heard_again": heard,
        # must be zero
        "tracebacks": len(found),
        "unanswered": ledger.unanswered,
        "lost": many.lost,
        "stranded": sum(p.stranded for p in many.plans),
        "violations": ledger.violations,
        "first_moves_refused": refused,
        "duplicate_starts": sum(r.duplicate_starts for r in many.racers),
        # must hold
        "heard_in_time": bool(heard) and all(h is not None and h <= HEAR_AGAIN_S for h in heard),
        "incomplete": many.incomplete,
        "samples": {k: v for k, v in ledger.samples.items() if v},
    }


MUST_BE_ZERO = (
    ("tracebacks", "tracebacks in the servers' logs"),
    ("unanswered", "requests never answered"),
    ("lost", "acknowledged moves lost"),
    ("stranded", "races stranded"),
    ("violations", "protocol violations"),
    ("first_moves_refused", "racers' first moves refused (outside outages)"),
    ("duplicate_starts", "race_start sent twice to a connection"),
)


def failures(f: dict[str, Any]) -> list[str]:
    out = [f"{label}: {f[key]}" for key, label in MUST_BE_ZERO if f[key]]
    if not f["heard_in_time"]:
        out.append(f"the processes did not hear each other within {HEAR_AGAIN_S} s of Redis")
    return out + [f"incomplete: {text}" for text in f["incomplete"]]


def table(f: dict[str, Any]) -> str:
    rows = [
        ("run", f"{f['seconds']} s"),
        ("frames by sender", ", ".join(f"{k} {v:,}" for k, v in f["frames"].items())),
        ("fuzz frames", f"{f['fuzz_frames']:,}"),
        ("connections opened", f"{f['connections']:,}"),
        ("races finished, racer moves acknowledged",
         f"{f['races_finished']:,}, {f['racer_moves']:,}"),
        ("replies (the largest)", ", ".join(f"`{k}` {v:,}" for k, v in f["replies"].items())),
        ("closes by code", ", ".join(f"{k}: {v:,}" for k, v in f["closes"].items())),
        ("racers' first moves", ", ".join(f"{k} {v:,}" for k, v in f["first_moves"].items())),
        ("kills", "; ".join(f["restarts"]) or "none"),
        ("acked moves found after each check",
         ", ".join(f"{c['after']}: {c['found']:,} of {c['sent']:,}" for c in f["checks"])),
    ]  # fmt: skip
    for key, label in MUST_BE_ZERO:
        rows.append((f"**{label}**", f"**{f[key]}**"))
    heard = ", ".join("never" if h is None else f"{h:.2f} s" for h in f["heard_again"])
    said = "yes" if f["heard_in_time"] else "NO"
    rows.append(
        (
            f"**processes heard again within {HEAR_AGAIN_S} s of Redis**",
            f"**{said}** ({heard or 'not measured'})",
        )
    )
    lines = ["| figure | value |", "|---|---|"] + [f"| {a} | {b} |" for a, b in rows]
    for what, samples in f["samples"].items():
        lines.append(f"\n{what}:")
        lines += [f"  {s}" for s in samples]
    bad = failures(f)
    lines.append("\nFAILED: " + "; ".join(bad) if bad else "\nall must-be-zero figures are zero")
    return "\n".join(lines)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=int, default=200_000, help="fuzz frames to send")
    parser.add_argument("--rooms", type=int, default=9, help="rooms of three racers")
    parser.add_argument("--fuzzers", type=int, default=6, help="fuzzing connections")
    parser.add_argument("--seed", type=int, default=1, help="the run's random seed")
    parser.add_argument("--seconds", type=float, default=900, help="the whole run's cap")
    parser.add_argument("--stall", type=float, default=30, help="seconds before a request "
                        "with no reply counts as unanswered, or a race as stranded")  # fmt: skip
    parser.add_argument("--ballast", type=float, default=20, metavar="MB",
                        help="junk keys for Redis to load at its restart (0: none)")  # fmt: skip
    parser.add_argument("--server-tree", type=Path, help="a checkout whose server to run")
    parser.add_argument(
        "--quick",
        action="store_true",
        help="a short run: 6,000 frames, 4 rooms, --stall 10, no ballast",
    )
    parser.add_argument("--json-out", type=Path, help="write the figures as JSON here")
    parser.add_argument("--keep", action="store_true", help="keep the temporary directory")
    args = parser.parse_args(argv)
    if args.quick:
        args.frames, args.rooms, args.fuzzers = min(args.frames, 6000), 4, 3
        args.stall, args.seconds, args.ballast = min(args.stall, 10), min(args.seconds, 120), 0
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    started = time.monotonic()
    tmp = Path(tempfile.mkdtemp(prefix="patience-soak-many-"))
    redis = RedisProc(tmp / "redis")
    env = {
        "PATIENCE_RATE": "1000",
        "PATIENCE_BURST": "2000",
        "PATIENCE_REGISTER_RATE": "0",  # (every connection comes from one address)
        "PATIENCE_COUNTDOWN": str(COUNTDOWN),
        "PATIENCE_SWEEP_INTERVAL": "2",
        "PATIENCE_LOG_LEVEL": "DEBUG",
        "PATIENCE_CERTIFY_AHEAD": "0",
        "PATIENCE_SECRET": "soak-many-secret",
        # a request in hand this long is logged with where it waits (none should be)
        "PATIENCE_SLOW_REQUEST": "5",
    }
    servers = []
    for n in range(PROCS):
        folder = tmp / f"p{n + 1}"
        folder.mkdir()
        tree = args.server_tree.resolve() if args.server_tree else None
        servers.append(ServerProc(redis.url, folder, env, tree))
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    many: Many | None = None
    incomplete: list[str] = []
    try:
        redis.start()
        if args.ballast > 0:
            redis.ballast(args.ballast)
        for server in servers:
            server.start()
        many = Many(
            args, redis, servers, Ledger(stall=args.stall), random.Random(args.seed),
            time.monotonic() + args.seconds - (time.monotonic() - started),
        )  # fmt: skip
        many.budget = Budget(args.frames)
        late = run_within(many.run(), args.seconds + 4 * args.stall + 20)
        if late is not None:
            incomplete.append(late)
    except KeyboardInterrupt:
        incomplete.append("interrupted")
    except Exception as exc:
        incomplete.append(f"{type(exc).__name__}: {exc}")
    finally:
        for server in servers:
            with contextlib.suppress(Exception):
                server.stop()
        with contextlib.suppress(Exception):
            redis.stop()
    if many is None:
        print("\n".join(incomplete))
        return 1
    many.incomplete += incomplete
    figures = figures_of(many, time.monotonic() - started)
    print(table(figures))
    if args.json_out:
        args.json_out.write_text(json.dumps(figures, indent=1))
    if args.keep:
        print(f"kept {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    return 1 if failures(figures) else 0


if __name__ == "__main__":
    sys.exit(main())
