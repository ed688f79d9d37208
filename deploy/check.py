"""The deployment, checked for real with Docker: ``make deploy-check``.

Builds the image from ``deploy/Dockerfile``, brings ``deploy/compose.yaml`` up (Redis,
three server replicas, HAProxy), waits for every container to be healthy, races two
players through HAProxy on two different replicas, stops one of those replicas in the
middle of the race and checks its racer comes back through the balancer to the race as
it stood, then tears everything down and prints a table of what passed.

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
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEPLOY = Path(__file__).resolve().parent
ROOT = DEPLOY.parent
IMAGE = "patience-race:latest"
PROJECT = "patience-race"
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


class Compose:
    """``docker compose`` (v2) on deploy/compose.yaml, or ``docker-compose`` (v1) on a
    copy without the top-level ``name:``, which v1 rejects (its project named with
    ``-p`` instead, and its three replicas asked for with ``--scale``)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.copy: Path | None = None
        v2 = subprocess.run(["docker", "compose", "version"], capture_output=True, text=True)
        if v2.returncode == 0:
            self.base = ["docker", "compose", "-f", str(DEPLOY / "compose.yaml")]
            self.version = v2.stdout.strip()
            self.scale: list[str] = []
            return
        v1 = shutil.which("docker-compose")
        if v1 is None:
            raise Failed("neither docker compose (v2) nor docker-compose (v1) is installed")
        # beside the original, so its relative paths (the build context, haproxy.cfg) hold
        self.copy = DEPLOY / ".compose-check-v1.yaml"
        text = (DEPLOY / "compose.yaml").read_text()
        self.copy.write_text(
            "".join(line for line in text.splitlines(True) if not line.startswith("name:"))
        )
        self.base = [v1, "-p", PROJECT, "-f", str(self.copy)]
        self.version = run(v1, "version", "--short").strip() + " (v1, on a copy without name:)"
        self.scale = ["--scale", "server=3"]

    def __call__(self, *args: str, timeout: float = 900) -> str:
        return run(*self.base, *args, env=self.env, timeout=timeout)

    def up(self) -> None:
        self("up", "-d", "--no-build", *self.scale)

    def running(self, service: str | None = None) -> list[str]:
        """The ids of the project's running containers (of one service)."""
        labels = [f"label=com.docker.compose.project={PROJECT}"]
        if service is not None:
            labels.append(f"label=com.docker.compose.service={service}")
        args = [arg for label in labels for arg in ("--filter", label)]
        return run("docker", "ps", "-q", "--no-trunc", *args).split()

    def down(self) -> None:
        try:
            self("down", "-v", "--remove-orphans", "-t", "30")
        finally:
            if self.copy is not None:
                self.copy.unlink(missing_ok=True)


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
    async def connect(cls, url: str, name: str, token: str = "") -> tuple[Player, dict[str, Any]]:
        from websockets.asyncio.client import connect

        player = cls(await connect(url, open_timeout=10), name)
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
        import msgpack

        self.next_id += 1
        await self.ws.send(msgpack.packb({"type": kind, "id": self.next_id, **fields}))
        while True:
            frame = msgpack.unpackb(await asyncio.wait_for(self.ws.recv(), 15), raw=False)
            if frame.get("id") == self.next_id:
                if frame.get("type") == "error":
                    raise Failed(f"{self.name}'s {kind}: {frame.get('message')}")
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
        done = subprocess.run(
            ["docker", "run", "--rm", "--network", network, *env, IMAGE],
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
        labels = [f"label=com.docker.compose.project={PROJECT}"]
        labels.append(f"label=com.docker.compose.service={service}")
        args = [arg for label in labels for arg in ("--filter", label)]
        found = run("docker", "ps", "-aq", *args).split()
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


def build() -> str:
    began = time.monotonic()
    run("docker", "build", "-f", str(DEPLOY / "Dockerfile"), "-t", IMAGE, str(ROOT))
    took = time.monotonic() - began
    size = int(inspect(IMAGE, "{{.Size}}"))
    user = inspect(IMAGE, "{{.Config.User}}")
    return f"{IMAGE} in {took:.0f} s, {size / 1e6:.0f} MB, runs as {user}"


def check(keep: bool) -> Report:
    report = Report()
    port = free_port()
    env = {
        **os.environ,
        "PATIENCE_SECRET": secrets.token_hex(32),
        "PATIENCE_PUBLISHED_PORT": str(port),
    }
    compose = Compose(env)
    report.add("compose", True, compose.version)
    deployment = Deployment(compose, port, report)
    try:
        step(report, "build the image", build)

        def up() -> str:
            compose.up()
            began = time.monotonic()
            deployment.wait_healthy()
            return (
                f"redis, 3 replicas healthy, /healthz 200 through HAProxy on :{port} "
                f"({time.monotonic() - began:.0f} s)"
            )

        step(report, "up and healthy", up)
        step(report, "the browser client", lambda: browser_client(port))
        step(report, "a server with another secret", deployment.another_secret)
        asyncio.run(guarded(report, deployment.race))
    except Failed:
        pass
    finally:
        if keep:
            report.add("tear down", True, "kept (--keep): docker compose down -v when done")
        else:
            try:
                compose.down()
                left = compose.running()
                report.add(
                    "tear down",
                    not left,
                    f"down -v ({len(left)} containers left)",
                )
            except Failed as exc:
                report.add("tear down", False, str(exc))
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
