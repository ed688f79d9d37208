"""The Kubernetes Deployment's pod as the kubelet makes it, on this machine: the real
server process in a mount namespace of its own whose root file system is read-only
(``readOnlyRootFilesystem``), with a fresh empty tmpfs at every path the manifest mounts
an ``emptyDir`` (``/data``, which the image's ``PATIENCE_DATA_DIR`` names, at /srv here:
the root has no /data to mount on). It must certify the daily deals: its worker
processes need a temporary directory, and without a writable /tmp every day went
uncertified. Needs root and ``unshare`` (Linux); skipped otherwise."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.app.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
#: where the pod's /data (the image's PATIENCE_DATA_DIR) is mounted here
DATA_HERE = "/srv"
#: where the test's Redis socket is reached from within the namespace
REDIS_HERE = "/media"
#: where the checkout is kept in sight while an emptyDir's tmpfs covers the folder it is
#: in (a clone under /tmp), to be bound back at its own path inside that tmpfs
STASH = "/mnt"

pytestmark = pytest.mark.skipif(
    sys.platform != "linux" or os.geteuid() != 0 or shutil.which("unshare") is None,
    reason="needs root and unshare for a mount namespace",
)


def pod() -> tuple[dict, dict]:
    """The Deployment's pod spec and its one container."""
    deployment = yaml.safe_load((DEPLOY / "k8s" / "deployment.yaml").read_text())
    spec = deployment["spec"]["template"]["spec"]
    (container,) = spec["containers"]
    return spec, container


def mounts() -> list[str]:
    """The paths the container mounts an emptyDir at."""
    spec, container = pod()
    empty = {v["name"] for v in spec["volumes"] if "emptyDir" in v}
    return [m["mountPath"] for m in container["volumeMounts"] if m["name"] in empty]


def test_the_root_is_read_only_and_data_an_empty_dir() -> None:
    _, container = pod()
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert "/data" in mounts()


def test_a_read_only_pod_certifies_the_daily_deals(redis_url: str, tmp_path: Path) -> None:
    port = free_port()
    # the test's Redis listens on a unix socket under /tmp, which a tmpfs may cover: its
    # folder is reached at /media instead
    assert redis_url.startswith("unix://")
    socket = Path(redis_url.removeprefix("unix://"))
    steps = ["set -e", f"mount --bind {shlex.quote(str(socket.parent))} {REDIS_HERE}"]
    steps.append(f"mount -t tmpfs -o mode=0700 tmpfs {DATA_HERE}")
    for path in mounts():
        if path == "/data":
            continue
        inside = ROOT.is_relative_to(path)
        if inside:  # the checkout itself is under it (a clone in /tmp): kept in sight
            steps.append(f"mount --bind {shlex.quote(str(ROOT))} {STASH}")
        steps.append(f"mount -t tmpfs -o mode=1777 tmpfs {shlex.quote(path)}")
        if inside:
            steps.append(f"mkdir -p {shlex.quote(str(ROOT))}")
            steps.append(f"mount --bind {STASH} {shlex.quote(str(ROOT))}")
    steps += [
        "mount -o remount,bind,ro /",
        "cd /",
        f"exec {shlex.quote(sys.executable)} -m server.cli",
    ]
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "PATIENCE_HOST": "127.0.0.1",
        "PATIENCE_PORT": str(port),
        "PATIENCE_REDIS_URL": f"unix://{REDIS_HERE}/{socket.name}",
        "PATIENCE_DATA_DIR": DATA_HERE,
        "PATIENCE_SECRET": "a-test-secret",
        # today's and tomorrow's deals, quickly: one candidate each, a short search
        "PATIENCE_CERTIFY_AHEAD": "1",
        "PATIENCE_CERTIFY_BUDGET": "0.2",
        "PATIENCE_CERTIFY_CANDIDATES": "1",
    }
    env.pop("TMPDIR", None)
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            ["unshare", "--mount", "--propagation", "private", "sh", "-c", "\n".join(steps)],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=out,
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            lines = [
                json.loads(line) for line in log.read_text().splitlines() if line.startswith("{")
            ]
            failed = [e for e in lines if "failed" in e.get("msg", "")]
            assert not failed, failed
            if any(e.get("msg") == "daily deals certified" for e in lines):
                break
            assert process.poll() is None, log.read_text()
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        (done,) = [e for e in lines if e.get("msg") == "daily deals certified"]
        assert done["certified"] + done["uncertified"] > 0, done
    finally:
        process.terminate()
        process.wait(30)
