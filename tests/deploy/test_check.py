"""``make deploy-check`` where it cannot run: it says why and stops with status 0
(it is run by hand, with Docker; deploy/README.md). And its table of results."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
CHECK = ROOT / "deploy" / "check.py"


def check(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CHECK)], env=env, capture_output=True, text=True, timeout=120
    )


def test_it_skips_without_docker(tmp_path: Path) -> None:
    done = check({**os.environ, "PATH": str(tmp_path)})  # no docker command there
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("deploy-check skipped: no docker command on PATH")


@pytest.mark.skipif(shutil.which("docker") is None, reason="no docker command")
def test_it_skips_without_a_daemon(tmp_path: Path) -> None:
    env = {**os.environ, "DOCKER_HOST": f"unix://{tmp_path}/no-daemon.sock"}
    done = check(env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("deploy-check skipped: no Docker daemon answers")
    assert "deploy/README.md" in done.stdout


def test_the_report_says_what_passed() -> None:
    spec = importlib.util.spec_from_file_location("deploy_check", CHECK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    report = module.Report()
    report.add("build the image", True, "in 75 s")
    assert report.passed
    report.add("resume through HAProxy", False, "bob could not come back")
    assert not report.passed
    lines = report.table().splitlines()
    assert lines[0].split() == ["step", "result", "detail"]
    assert lines[2].split()[:4] == ["build", "the", "image", "pass"]
    assert "FAIL" in lines[3] and lines[3].endswith("bob could not come back")


# -- a check beside a live deployment: its own project, ports, image and labels ------


def load() -> Any:
    spec = importlib.util.spec_from_file_location("deploy_check_run", CHECK)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


COMPOSE = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
V2 = (["docker", "compose"], "Docker Compose version v2.40.3", False)
V1 = (["/usr/bin/docker-compose"], "1.29.2", True)


def test_the_check_never_uses_the_deployments_project_name() -> None:
    check = load()
    assert getattr(check, "PROJECT", None) != COMPOSE["name"]
    one, two = check.Run.new(), check.Run.new()
    assert one.project != two.project and one.id != two.id
    for run in (one, two):
        assert run.project.startswith("patience-race-check-")
        assert run.project != COMPOSE["name"]


def test_every_compose_command_names_the_checks_project_and_files(tmp_path: Path) -> None:
    check = load()
    run = check.Run.new()
    for program in (V2, V1):
        compose = check.Compose(run, {}, program)
        try:
            for args in (("up", "-d", "--no-build"), ("down", "-v", "--remove-orphans")):
                command = compose.command(*args)
                at = command.index("-p")
                assert command[at + 1] == run.project, command
                files = [command[i + 1] for i, arg in enumerate(command) if arg == "-f"]
                assert len(files) == 2 and files[1] == str(compose.override), command
            if program is V1:  # a copy without name:, which v1 rejects, made for this run
                (copy,) = [Path(f) for f in files if f != str(compose.override)]
                assert run.id in copy.name
                assert "name:" not in [line[:5] for line in copy.read_text().splitlines()]
        finally:
            compose.clean()
        assert not compose.override.exists()


def test_the_checks_containers_carry_its_label_and_its_own_image() -> None:
    """Every service's containers, and the Redis volume, carry the check's label; its
    replicas run the image it built (not the deployment's patience-race:latest); the
    host port is its own."""
    check = load()
    run = check.Run.new()
    override = yaml.safe_load(run.override())
    assert set(override["services"]) == set(COMPOSE["services"])
    for service in override["services"].values():
        assert service["labels"] == {check.LABEL: run.id}
    assert override["services"]["server"]["image"] == run.image
    assert run.image != COMPOSE["services"]["server"]["image"]
    for volume in COMPOSE["volumes"]:
        assert override["volumes"][volume]["labels"] == {check.LABEL: run.id}
    env = check.environment(run, {"PATIENCE_SECRET": "the deployment's"})
    assert env["PATIENCE_PUBLISHED_PORT"] == str(run.port) != "8765"
    assert env["PATIENCE_SECRET"] != "the deployment's"


def test_only_the_checks_containers_are_counted() -> None:
    """Containers are found by the check's own label: a plain ``docker run`` of an image
    compose built carries the compose project and service labels (images inherit them),
    never this one."""
    check = load()
    run = check.Run.new()
    compose = check.Compose(run, {}, V2)
    try:
        filters = compose.filters("server")
    finally:
        compose.clean()
    assert filters == [
        "--filter",
        f"label={check.LABEL}={run.id}",
        "--filter",
        "label=com.docker.compose.service=server",
    ]
    assert not any("com.docker.compose.project" in f for f in filters)
