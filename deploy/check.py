"""The deployment, checked for real with Docker: ``make deploy-check``.

Builds the image from ``deploy/Dockerfile``, brings ``deploy/compose.yaml`` up (Redis,
three server replicas, HAProxy), waits for every container to be healthy, lets in a
client that sends its own ``X-Forwarded-For`` through HAProxy, races two players through
HAProxy on two different replicas, stops one of those replicas in the middle of the race
and checks its racer comes back through the balancer to the race as it stood, restarts
Redis under two running races and checks every racer hears its results, then tears
everything down and prints a table of what passed.

A deployment already on the host is never touched: each run is a compose project of its
own (``patience-race-check-<id>``, never the file's ``patience-race``), with its own
image tag, a free host port, and a label (``patience-race.check=<id>``) on every
container and on its Redis volume; containers are counted by that label alone, and
teardown (``down -v``) names that project alone. The check says, last, that every
container and volume that was not its own is still there.

It needs a Docker daemon, Compose (v2, ``docker compose``; Compose v1, which rejects the
file's top-level ``name:``, is given a copy without it) and the images the files name
(``deploy/testing/`` makes stand-ins where no registry is reachable). Without a daemon
it says so and stops, with status 0: it is a check to run by hand, not part of ``make
test``. Status 1 when a step failed.

Runs with the project's virtualenv (websockets and msgpack): ``.venv/bin/python
deploy/check.py [--keep]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEPLOY = Path(__file__).resolve().parent
ROOT = DEPLOY.parent
#: the label on every container and volume a check makes, its value the check's run id
LABEL = "patience-race.check"
#: the compose file's services and volumes
SERVICES = ("redis", "server", "haproxy")
VOLUMES = ("redis-data",)
#: how long the containers have to become healthy, seconds
HEALTHY_WITHIN = 90


class Failed(Exception):
    """A step did not do what it should (its message says what it did)."""


@dataclass
class Report:
    """The steps run, each with whether it passed and a line about it."""

    rows: list[tuple[str, bool, str]] = field(default_factory=list)

    def add(self, step: str, ok: bool, detail: str) -> None:
        self.rows.append((step, ok, detail))
        print(f"  {'ok  ' if ok else 'FAIL'} {step}: {detail}", flush=True)

    def table(self) -> str:
        width = max(len(step) for step, _, _ in self.rows)
        lines = [f"{'step'.ljust(width)}  result  detail", f"{'-' * width}  ------  ------"]
        for step, ok, detail in self.rows:
            lines.append(f"{step.ljust(width)}  {'pass' if ok else 'FAIL':6}  {detail}")
        return "\n".join(lines)

    @property
    def passed(self) -> bool:
        return all(ok for _, ok, _ in self.rows)


def run(*args: str, env: dict[str, str] | None = None, timeout: float = 900) -> str:
    """A command's standard output; :class:`Failed` with its output when it fails."""
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=timeout, cwd=ROOT)
    if done.returncode != 0:
        raise Failed(f"{' '.join(args[:4])} ...: {(done.stderr or done.stdout).strip()[-600:]}")
    return done.stdout


def why_not() -> str | None:
    """Why the check cannot run here (no docker command, no daemon), or None."""
    if shutil.which("docker") is None:
        return "no docker command on PATH"
    done = subprocess.run(
        ["docker", "info", "--format", "{{.ServerVersion}}"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if done.returncode != 0 or not done.stdout.strip():
        reason = (done.stderr or done.stdout).strip().splitlines()
        return "no Docker daemon answers" + (f" ({reason[-1]})" if reason else "")
    return None


@dataclass(frozen=True)
class Run:
    """One run of the check: what it names so as to touch nothing it did not make."""

    id: str
    #: the host port HAProxy is published on
    port: int

    @classmethod
    def new(cls) -> Run:
        return cls(secrets.token_hex(4), free_port())

    @property
    def project(self) -> str:
        """The compose project: never the compose file's own name."""
        return f"patience-race-check-{self.id}"

    @property
    def image(self) -> str:
        """The image the check builds and runs (the deployment's tag is left alone)."""
        return f"patience-race:check-{self.id}"

    @property
    def label(self) -> str:
        return f"{LABEL}={self.id}"

    def override(self) -> str:
        """A compose file laid over compose.yaml: the check's label on every service's
        containers and on the volumes, and its image for the replicas (with no limit on
        registrations, its players all coming from one address)."""
        lines = ["services:"]
        for service in SERVICES:
            lines += [f"  {service}:", "    labels:", f'      {LABEL}: "{self.id}"']
            if service == "server":
                lines.append(f"    image: {self.image}")
                # every player of the check comes from this host's one address, through
                # HAProxy: more than the 5 registrations an hour it allows one address
                lines += ["    environment:", '      PATIENCE_REGISTER_RATE: "0"']
        lines.append("volumes:")
        for volume in VOLUMES:
            lines += [f"  {volume}:", "    labels:", f'      {LABEL}: "{self.id}"']
        return "\n".join(lines) + "\n"


def environment(run: Run, base: dict[str, str]) -> dict[str, str]:
    """The environment compose runs in: a fresh secret (whatever the deployment's) and
    the run's own host port."""
    return {
        **base,
        "PATIENCE_SECRET": secrets.token_hex(32),
        "PATIENCE_PUBLISHED_PORT": str(run.port),
    }


#: how compose is run: the command, its version, and whether it is v1 (docker-compose)
Program = tuple[list[str], str, bool]


def compose_program() -> Program:
    """``docker compose`` (v2), else ``docker-compose`` (v1)."""
    v2 = subprocess.run(["docker", "compose", "version"], capture_output=True, text=True)
    if v2.returncode == 0:
        return ["docker", "compose"], v2.stdout.strip(), False
    v1 = shutil.which("docker-compose")
    if v1 is None:
        raise Failed("neither docker compose (v2) nor docker-compose (v1) is installed")
    return [v1], run(v1, "version", "--short").strip() + " (v1, on a copy without name:)", True


class Compose:
    """Compose on deploy/compose.yaml and the run's override, as the run's own project
    (``-p``, which beats the file's ``name:``); for v1 (``docker-compose``), which rejects
    the top-level ``name:``, on a copy without it, its replicas asked for with
    ``--scale``. The copy and the override sit beside compose.yaml (its relative paths
    hold) under names of the run's own, removed by :meth:`clean`."""

    def __init__(self, run: Run, env: dict[str, str], program: Program | None = None) -> None:
        self.run = run
        self.env = env
        prefix, self.version, v1 = program or compose_program()
        self.override = DEPLOY / f".compose-check-{run.id}.override.yaml"
        self.override.write_text(run.override())
        self.copy: Path | None = None
        main = DEPLOY / "compose.yaml"
        if v1:
            self.copy = DEPLOY / f".compose-check-{run.id}.yaml"
            text = main.read_text()
            self.copy.write_text(
                "".join(line for line in text.splitlines(True) if not line.startswith("name:"))
            )
            main = self.copy
        self.scale = ["--scale", "server=3"] if v1 else []
        self.base = [*prefix, "-p", run.project, "-f", str(main), "-f", str(self.override)]

    def command(self, *args: str) -> list[str]:
        return [*self.base, *args]

    def __call__(self, *args: str, timeout: float = 900) -> str:
        return run(*self.command(*args), env=self.env, timeout=timeout)

    def up(self) -> None:
        self("up", "-d", "--no-build", *self.scale)

    def filters(self, service: str | None = None) -> list[str]:
        """``docker ps`` filters for the run's containers (of one service): by the run's
        label, which no container the check did not start carries."""
        labels = [self.run.label]
        if service is not None:
            labels.append(f"com.docker.compose.service={service}")
        return [arg for label in labels for arg in ("--filter", f"label={label}")]

    def running(self, service: str | None = None) -> list[str]:
        """The ids of the run's running containers (of one service)."""
        return run("docker", "ps", "-q", "--no-trunc", *self.filters(service)).split()

    def down(self) -> None:
        """The run's project down, its volumes with it (no other project's)."""
        assert self.run.project.startswith("patience-race-check-"), self.run.project
        self("down", "-v", "--remove-orphans", "-t", "30")

    def clean(self) -> None:
        for made in (self.override, self.copy):
            if made is not None:
                made.unlink(missing_ok=True)


def inspect(container: str, template: str) -> str:
    return run("docker", "inspect", "--format", template, container).strip()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def healthz(port: int) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=3) as answer:
            return int(answer.status)
    except OSError:
        return 0


def browser_client(port: int) -> str:
    """The browser client through HAProxy: its page and its msgpack library (the image's
    web stage) answer 200."""
    for path in ("/play", "/web/vendor/msgpack/index.mjs", "/web/app/main.js"):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as answer:
                if answer.status != 200:
                    raise Failed(f"{path} answered {answer.status}")
        except OSError as exc:
            raise Failed(f"{path}: {exc}") from exc
    return "/play, its modules and msgpack's build: 200 through HAProxy"


def no_metrics(port: int) -> str:
    """HAProxy refuses /metrics, however spelt."""
    for path in ("/metrics", "/%6Detrics"):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as got:
                raise Failed(f"{path} answered {got.status}")
        except urllib.error.HTTPError as refused:
            if refused.code != 403:
                raise Failed(f"{path} answered {refused.code}") from refused
    return "/metrics and /%6Detrics: 403 from HAProxy"


CONNECTIONS = (
    "import urllib.request; print(next(line.split()[1] for line in urllib.request.urlopen("
    "'http://127.0.0.1:8765/metrics').read().decode().splitlines() "
    "if line.startswith('patience_connections ')))"
)


def connections(container: str) -> int:
    """The websocket connections a replica holds (its ``/metrics``, asked inside it)."""
    return int(run("docker", "exec", container, "python", "-c", CONNECTIONS).strip())


# the protocol, as a small client: msgpack frames over a websocket (docs/protocol.md)


class Player:
    """One player's connection: requests matched to replies by id, events kept."""

    def __init__(self, ws: Any, name: str) -> None:
        self.ws = ws
        self.name = name
        self.token = ""
        self.events: list[dict[str, Any]] = []
        self.next_id = 0

    @classmethod
    async def connect(
        cls, url: str, name: str, token: str = "", headers: dict[str, str] | None = None
    ) -> tuple[Player, dict[str, Any]]:
        from websockets.asyncio.client import connect

        ws = await connect(url, open_timeout=10, additional_headers=headers)
        player = cls(ws, name)
        hello: dict[str, Any] = {"protocol": 1}
        if token:
            hello["token"] = token
        welcome = await player.call("hello", **hello)
        if token:
            player.token = token
        else:
            player.token = (await player.call("register", name=name))["token"]
        return player, welcome

    async def call(self, kind: str, **fields: Any) -> dict[str, Any]:
        reply = await self.request(kind, **fields)
        if reply.get("type") == "error":
            raise Failed(f"{self.name}'s {kind}: {reply.get('message')}")
        return reply

    async def request(self, kind: str, **fields: Any) -> dict[str, Any]:
        """A request's reply, an ``error`` too."""
        import msgpack

        self.next_id += 1
        await self.ws.send(msgpack.packb({"type": kind, "id": self.next_id, **fields}))
        while True:
            frame = msgpack.unpackb(await asyncio.wait_for(self.ws.recv(), 15), raw=False)
            if frame.get("id") == self.next_id:
                return dict(frame)
            self.events.append(frame)

    async def event(
        self, kind: str, test: Callable[[dict[str, Any]], bool] = lambda e: True
    ) -> dict[str, Any]:
        import msgpack

        deadline = time.monotonic() + 20
        while True:
            for seen in self.events:
                if seen.get("type") == kind and test(seen):
                    self.events.remove(seen)
                    return seen
            left = deadline - time.monotonic()
            if left <= 0:
                raise Failed(f"{self.name} had no {kind} event")
            frame = await asyncio.wait_for(self.ws.recv(), left)
            self.events.append(msgpack.unpackb(frame, raw=False))

    async def close_code(self) -> int | None:
        """Wait for the server to close the connection; its close code."""
        from websockets.exceptions import ConnectionClosed

        try:
            while True:
                await asyncio.wait_for(self.ws.recv(), 30)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None


@dataclass
class Deployment:
    compose: Compose
    port: int
    report: Report

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def replicas(self) -> list[str]:
        return self.compose.running("server")

    def wait_healthy(self) -> None:
        deadline = time.monotonic() + HEALTHY_WITHIN
        while True:
            servers = self.replicas()
            states = [inspect(c, "{{.State.Health.Status}}") for c in servers]
            through = healthz(self.port)
            if len(servers) == 3 and set(states) == {"healthy"} and through == 200:
                return
            if time.monotonic() > deadline:
                raise Failed(
                    f"replicas {states}, /healthz through HAProxy {through}; "
                    f"HAProxy: {self.last_words('haproxy')}"
                )
            time.sleep(2)

    def another_secret(self) -> str:
        """A fourth server on the same network and Redis, with another secret: it must
        refuse to start, saying why."""
        replica = self.replicas()[0]
        network = inspect(replica, "{{range $k, $v := .NetworkSettings.Networks}}{{$k}}{{end}}")
        env = ["-e", "PATIENCE_REDIS_URL=redis://redis:6379/0"]
        env += ["-e", f"PATIENCE_SECRET={secrets.token_hex(32)}"]
        # labelled as the check's, but not as a replica (no compose service label)
        label = ["--label", self.compose.run.label]
        done = subprocess.run(
            ["docker", "run", "--rm", *label, "--network", network, *env, self.compose.run.image],
            capture_output=True,
            text=True,
            timeout=120,
        )
        said = done.stderr.strip().splitlines()[-1:] or [""]
        if done.returncode != 1 or "is not the one the other processes" not in said[0]:
            raise Failed(f"it exited with {done.returncode}: {said[0][:200]}")
        return f"exit 1: {said[0][:70]}..."

    def last_words(self, service: str) -> str:
        """A service's state and the last line it logged (why it is not up)."""
        found = run("docker", "ps", "-aq", *self.compose.filters(service)).split()
        if not found:
            return "no container"
        state = inspect(found[0], "{{.State.Status}} (restarts: {{.RestartCount}})")
        logs = subprocess.run(
            ["docker", "logs", "--tail", "1", found[0]], capture_output=True, text=True
        )
        return f"{state}: {(logs.stderr or logs.stdout).strip()[-200:]}"

    def holding(self) -> dict[str, int]:
        return {c: connections(c) for c in self.replicas()}

    async def on_another_replica(self, taken: str) -> tuple[Player, str]:
        """Bob, connected through HAProxy to a replica other than ``taken``."""
        for _ in range(20):
            bob, _ = await Player.connect(self.url, f"bob{secrets.token_hex(3)}")
            now = {c: n for c, n in self.holding().items() if n and c != taken}
            if now:
                return bob, next(iter(now))
            await bob.ws.close()
            await asyncio.sleep(1)
        raise Failed("every connection landed on ann's replica")

    async def reconnect(self, player: Player) -> tuple[Player, dict[str, Any]]:
        """The player signed in again through HAProxy, trying for a while as the
        terminal client does (HAProxy may take a few seconds to drop a stopped replica)."""
        deadline = time.monotonic() + 20
        while True:
            try:
                return await Player.connect(self.url, player.name, player.token)
            except Exception as exc:  # refused, a 503 while HAProxy drops it, a timeout
                if time.monotonic() > deadline:
                    raise Failed(f"{player.name} could not come back: {exc}") from exc
                await asyncio.sleep(0.5)

    async def forwarded_for(self) -> None:
        """A client that sends its own X-Forwarded-For through HAProxy, which adds a line
        of its own: let in, registered, and playing."""
        headers = {"X-Forwarded-For": "9.9.9.9"}
        name = f"xff{secrets.token_hex(3)}"
        player, welcome = await Player.connect(self.url, name, headers=headers)
        dealt = await player.call("new_game", game="gate")
        await player.call("move", game=dealt["game"], move=dealt["legal"][0])
        await player.ws.close()
        self.report.add(
            "own X-Forwarded-For through HAProxy",
            welcome.get("type") == "welcome",
            f"{name} sent X-Forwarded-For: 9.9.9.9: welcome, registered, a game dealt and a move",
        )

    async def redis_restart(self) -> None:
        """Redis restarted under two running races (four racers through HAProxy): once
        it is back every racer resigns (a request meanwhile fails and is sent again) and
        every racer hears its race's results."""
        racers: list[Player] = []
        for n in range(2):
            host, _ = await Player.connect(self.url, f"r{n}a{secrets.token_hex(3)}")
            guest, _ = await Player.connect(self.url, f"r{n}b{secrets.token_hex(3)}")
            code = (await host.call("room_create", game="gate", seed=11 + n))["code"]
            await guest.call("room_join", code=code)
            await guest.call("ready")
            await host.call("start")
            for player in (host, guest):
                started = await player.event("race_start")
                await player.call("move", move=started["legal"][0])
            racers += [host, guest]
        (redis,) = self.compose.running("redis")
        began = time.monotonic()
        await asyncio.to_thread(run, "docker", "restart", "-t", "10", redis)
        restarted = time.monotonic() - began
        tries = 0
        for player in racers:
            deadline = time.monotonic() + 60
            while True:
                tries += 1
                reply = await player.request("resign")
                code = reply.get("code")
                if reply.get("type") != "error" or code == "game_over":
                    break
                if code not in ("internal_error", "room_busy") or time.monotonic() > deadline:
                    raise Failed(f"{player.name}'s resign after the restart: {reply}")
                await asyncio.sleep(0.5)
        heard = 0
        for player in racers:
            results = (await player.event("results"))["results"]
            heard += len(results) == 2
            await player.ws.close()
        self.report.add(
            "Redis restart mid-race",
            heard == len(racers),
            f"docker restart redis took {restarted:.1f} s under 2 races; "
            f"{heard} of {len(racers)} racers heard results ({tries} resigns sent)",
        )

    async def race(self) -> None:
        report = self.report
        ann, _ = await Player.connect(self.url, f"ann{secrets.token_hex(3)}")
        (ann_at,) = [c for c, n in self.holding().items() if n]
        bob, bob_at = await self.on_another_replica(ann_at)
        report.add(
            "two players, two replicas",
            True,
            f"through HAProxy: {ann.name} on {ann_at[:12]}, {bob.name} on {bob_at[:12]}",
        )
        code = (await ann.call("room_create", game="gate", seed=3))["code"]
        await bob.call("room_join", code=code)
        await bob.call("ready")
        await ann.call("start")
        ann_start = await ann.event("race_start")
        bob_start = await bob.event("race_start")
        if ann_start["view"] != bob_start["view"]:
            raise Failed("the racers were dealt different deals")
        await ann.call("move", move=ann_start["legal"][0])
        await bob.call("move", move=bob_start["legal"][0])
        await ann.event("progress", lambda e: e.get("player") == bob.name)
        report.add("race across replicas", True, f"room {code}: one move each, progress relayed")
        # bob's replica stops in the middle of the race
        began = time.monotonic()
        closing = asyncio.ensure_future(bob.close_code())
        await asyncio.to_thread(run, "docker", "stop", "-t", "30", bob_at)
        took = time.monotonic() - began
        close = await closing
        report.add(
            "stop bob's replica mid-race",
            close == 1012,
            f"docker stop took {took:.1f} s; bob's connection closed with {close}",
        )
        # bob comes back through the balancer, to the race as it stood
        bob, welcome = await self.reconnect(bob)
        (bob_now,) = [c for c, n in self.holding().items() if n and c != ann_at] or [ann_at]
        resumed = welcome.get("resume", {})
        race, room = resumed.get("race") or {}, resumed.get("room") or {}
        moves = race.get("view", {}).get("moves")
        if room.get("state") != "racing" or moves != 1:
            raise Failed(f"bob's resume: room {room.get('state')}, moves {moves}")
        await bob.call("move", move=race["legal"][0])
        await ann.event("progress", lambda e: e.get("player") == bob.name and e.get("moves") == 2)
        report.add(
            "resume through HAProxy",
            bob_now != bob_at,
            f"bob back on {bob_now[:12]}: racing, 1 move kept, his 2nd move reached ann",
        )
        await ann.call("resign")
        await bob.call("resign")
        results = (await bob.event("results"))["results"]
        standing = sorted((r["player"] == ann.name, r["moves"], r["status"]) for r in results)
        report.add(
            "race results",
            standing == [(False, 2, "resigned"), (True, 1, "resigned")],
            ", ".join(f"{r['player']} {r['moves']} moves {r['status']}" for r in results),
        )
        for player in (ann, bob):
            await player.ws.close()


def step(report: Report, name: str, work: Callable[[], str]) -> None:
    """Run a step, put it in the report; a failure ends the check (after tearing down)."""
    try:
        detail = work()
    except Failed as exc:
        report.add(name, False, str(exc))
        raise
    report.add(name, True, detail)


def build(image: str) -> str:
    began = time.monotonic()
    run("docker", "build", "-f", str(DEPLOY / "Dockerfile"), "-t", image, str(ROOT))
    took = time.monotonic() - began
    size = int(inspect(image, "{{.Size}}"))
    user = inspect(image, "{{.Config.User}}")
    found = run("docker", "run", "--rm", "--entrypoint", "sh", image, "-c", IMAGE_CONTENTS)
    if found.split() != ["no-pip", "no-client", "rules"]:
        raise Failed(f"in the image: {found.strip()!r}")
    return (
        f"{image} in {took:.0f} s, {size / 1e6:.0f} MB, runs as {user}; "
        "no pip, no patience-race command, the rules pages there"
    )


#: what the image must not have (pip, the terminal client's command) and must have (the
#: players' rules pages the server serves), asked inside it
IMAGE_CONTENTS = (
    "python -m pip --version >/dev/null 2>&1 || echo no-pip; "
    "command -v patience-race >/dev/null || echo no-client; "
    "ls /opt/patience/lib/python3.11/site-packages/client_cli/rules/gate.txt >/dev/null "
    "&& echo rules"
)


def others() -> tuple[set[str], set[str]]:
    """Every container (running or not) and volume on the host, by id and name."""
    containers = set(run("docker", "ps", "-aq", "--no-trunc").split())
    volumes = set(run("docker", "volume", "ls", "-q").split())
    return containers, volumes


def check(keep: bool) -> Report:
    report = Report()
    runs = Run.new()
    before = others()
    compose = Compose(runs, environment(runs, dict(os.environ)))
    report.add("compose", True, f"{compose.version}; project {runs.project}, port {runs.port}")
    deployment = Deployment(compose, runs.port, report)
    try:
        step(report, "build the image", lambda: build(runs.image))

        def up() -> str:
            compose.up()
            began = time.monotonic()
            deployment.wait_healthy()
            return (
                f"redis, 3 replicas healthy, /healthz 200 through HAProxy on :{runs.port} "
                f"({time.monotonic() - began:.0f} s)"
            )

        step(report, "up and healthy", up)
        step(report, "the browser client", lambda: browser_client(runs.port))
        step(report, "no /metrics through HAProxy", lambda: no_metrics(runs.port))
        step(report, "a server with another secret", deployment.another_secret)
        asyncio.run(guarded(report, deployment.forwarded_for))
        asyncio.run(guarded(report, deployment.redis_restart))
        asyncio.run(guarded(report, deployment.race))
    except Failed:
        pass
    finally:
        try:
            if keep:
                report.add(
                    "tear down",
                    True,
                    f"kept (--keep): {' '.join(compose.command('down', '-v'))} when done",
                )
            else:
                try:
                    compose.down()
                    left = compose.running()
                    subprocess.run(["docker", "rmi", runs.image], capture_output=True)
                    report.add(
                        "tear down",
                        not left,
                        f"down -v of {runs.project} ({len(left)} of its containers left)",
                    )
                except Failed as exc:
                    report.add("tear down", False, str(exc))
            containers, volumes = others()
            gone = (before[0] - containers, before[1] - volumes)
            report.add(
                "the rest left alone",
                not any(gone),
                f"{len(before[0])} containers and {len(before[1])} volumes not the check's: "
                f"{len(gone[0])} and {len(gone[1])} gone",
            )
        finally:
            if not keep:
                compose.clean()
    return report


async def guarded(report: Report, work: Callable[[], Awaitable[None]]) -> None:
    try:
        await work()
    except Exception as exc:  # a step's failure, or the connection's
        report.add("race", False, f"{type(exc).__name__}: {exc}")
        raise Failed(str(exc)) from exc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="leave the deployment up")
    args = parser.parse_args(argv)
    reason = why_not()
    if reason is not None:
        print(f"deploy-check skipped: {reason}; it needs Docker (deploy/README.md)")
        return 0
    print("deploy-check: building and running deploy/ with Docker", flush=True)
    report = check(args.keep)
    print()
    print(report.table())
    print(json.dumps({"passed": report.passed}))
    return 0 if report.passed else 1


if __name__ == "__main__":
    sys.exit(main())
