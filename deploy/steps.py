"""The steps of ``make deploy-check`` (``deploy/check.py``, the runner), and the probes
they use: the command every step runs through (:func:`run`), the small probes of a
container or of HTTP through HAProxy, a protocol client (:class:`Player`), and
:class:`Deployment`, whose methods are the steps run against the compose deployment.

It does not import the runner: what a step needs of the runner's report and compose
project is said here as :class:`Reporting` and :class:`Project`.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

ROOT = Path(__file__).resolve().parents[1]
#: how long the containers have to become healthy, seconds
HEALTHY_WITHIN = 90


class Failed(Exception):
    """A step did not do what it should (its message says what it did)."""


def run(*args: str, env: dict[str, str] | None = None, timeout: float = 900) -> str:
    """A command's standard output; :class:`Failed` with its output when it fails."""
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=timeout, cwd=ROOT)
    if done.returncode != 0:
        raise Failed(f"{' '.join(args[:4])} ...: {(done.stderr or done.stdout).strip()[-600:]}")
    return done.stdout


class Reporting(Protocol):
    """Where a step's result goes (the runner's ``Report``)."""

    def add(self, step: str, ok: bool, detail: str) -> None: ...


class Naming(Protocol):
    """What a step uses of the run (the runner's ``Run``): its label and its image."""

    @property
    def label(self) -> str: ...

    @property
    def image(self) -> str: ...


class Project(Protocol):
    """What a step uses of the run's compose project (the runner's ``Compose``)."""

    @property
    def run(self) -> Naming: ...

    def filters(self, service: str | None = None) -> list[str]: ...

    def running(self, service: str | None = None) -> list[str]: ...


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
    """The deployment under check, reached through HAProxy on ``port``: its methods are
    the steps, each putting what it found in ``report``."""

    compose: Project
    port: int
    report: Reporting

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
