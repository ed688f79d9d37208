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
deploy/check.py [--keep]``. This file is the runner (the run's names, compose, the
report, the order of the steps); the steps themselves and the probes they use are in
``deploy/steps.py``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import shutil
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

DEPLOY = Path(__file__).resolve().parent
ROOT = DEPLOY.parent
# run as a script (python deploy/check.py) or loaded by path (tests/deploy), its steps
# are imported as deploy.steps, from the checkout's root
if str(ROOT) not in sys.path:
    sys.path.append(str(ROOT))

from deploy.steps import (  # noqa: E402
    Deployment,
    Failed,
    browser_client,
    free_port,
    inspect,
    no_metrics,
    run,
)

#: the label on every container and volume a check makes, its value the check's run id
LABEL = "patience-race.check"
#: the compose file's services and volumes
SERVICES = ("redis", "server", "haproxy")
VOLUMES = ("redis-data",)


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
    "ls /opt/patience/lib/python3.11/site-packages/rulebook/pages/gate.txt >/dev/null "
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
