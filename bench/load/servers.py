"""What the benchmarks start and stop: Redis, the race server (of this checkout or of
another, ``--server-tree``), the echo server, each on loopback, and :class:`Children`
stopping them whatever happens; :func:`alternate` for the benchmarks that compare
checkouts; :func:`pin` keeps a process on some CPUs.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[2]
T = TypeVar("T")


@dataclass
class Children:
    """Everything started, stopped in reverse order whatever happens."""

    popen: list[subprocess.Popen[bytes]] = field(default_factory=list)
    procs: list[Any] = field(default_factory=list)
    redis: Any = None
    tmp: str | None = None

    def stop_popen(self, proc: subprocess.Popen[bytes]) -> None:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc in self.popen:
            self.popen.remove(proc)

    def stop_all(self) -> None:
        for p in self.procs:
            if p.is_alive():
                p.terminate()
            p.join(5)
            if p.is_alive():
                p.kill()
        self.procs.clear()
        for proc in list(reversed(self.popen)):
            self.stop_popen(proc)
        if self.redis is not None:
            self.redis.stop()
            self.redis = None
        if self.tmp:
            shutil.rmtree(self.tmp, ignore_errors=True)
            self.tmp = None


def _start_listening(
    children: Children, argv: list[str], env: dict[str, str], marker: str, log: Path
) -> tuple[subprocess.Popen[bytes], str]:
    proc = subprocess.Popen(
        argv, env=env, stdout=subprocess.PIPE, stderr=log.open("ab"), stdin=subprocess.DEVNULL
    )
    children.popen.append(proc)
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline().decode()
        if not line:
            raise RuntimeError(f"{argv[0]} exited; see {log}:\n{log.read_text()[-2000:]}")
        if marker in line:
            return proc, line.split(marker, 1)[1].strip()
    raise RuntimeError(f"{argv[0]} did not start")


def move_path(tree: str | Path | None = None) -> str:
    """Whether the server of ``tree`` (else this checkout) runs its move path compiled
    (``server/native.py``): ``compiled``, or ``source (why)``."""
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = str(Path(tree).resolve())
    code = "from server import native; s = native.status(); print(s['mode'], s['why'])"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, cwd=tree or ROOT
    )
    mode, _, why = out.stdout.strip().partition(" ")
    return f"{mode} ({why})" if why else mode or "unknown"


def tree_options(parser: argparse.ArgumentParser) -> None:
    """``--runs`` and ``--server-tree`` (repeatable), for the benchmarks that compare
    checkouts by alternating them."""
    parser.add_argument("--runs", type=int, default=2, help="runs per tree")
    parser.add_argument(
        "--server-tree",
        action="append",
        default=[],
        metavar="DIR",
        help="a checkout whose server to measure (repeat to compare; default: this one)",
    )


def alternate(
    args: argparse.Namespace, prefix: str, measure: Callable[[Path | None, str, Path], T]
) -> dict[Path | None, list[T]]:
    """``measure(tree, redis_url, tmp)`` for each ``--server-tree`` (None: this checkout),
    ``--runs`` times, alternating, against one Redis of its own."""
    from server.app.embedded_redis import EmbeddedRedis

    trees: list[Path | None] = [Path(t).resolve() for t in args.server_tree] or [None]
    results: dict[Path | None, list[T]] = {tree: [] for tree in trees}
    with tempfile.TemporaryDirectory(prefix=prefix) as name:
        tmp = Path(name)
        redis = EmbeddedRedis(tmp / "redis")
        redis_url = redis.start()
        try:
            for _ in range(args.runs):
                for tree in trees:
                    results[tree].append(measure(tree, redis_url, tmp))
        finally:
            redis.stop()
    return results


def server_env(redis_url: str, tmp: Path, tree: str | Path | None = None) -> dict[str, str]:
    """A benchmarked server's environment: a free port on loopback, the given Redis, no
    rate limit, rematches at once; with ``tree``, another checkout's server on this
    virtualenv (before/after comparisons)."""
    env = dict(os.environ)
    if tree:
        env["PYTHONPATH"] = str(Path(tree).resolve())
    env.update(
        PATIENCE_HOST="127.0.0.1",
        PATIENCE_PORT="0",
        PATIENCE_REDIS_URL=redis_url,
        PATIENCE_DATA_DIR=str(tmp / "server"),
        PATIENCE_RATE="1000000",
        PATIENCE_BURST="1000000",
        PATIENCE_MAX_CONNECTIONS="0",
        PATIENCE_MAX_CONNECTIONS_PER_IP="0",
        PATIENCE_REGISTER_RATE="0",
        PATIENCE_DEAL_RATE="0",
        PATIENCE_COUNTDOWN="0",
        PATIENCE_CERTIFY_AHEAD="0",
    )
    return env


def start_server(
    children: Children, redis_url: str, tmp: Path, tree: str | None = None
) -> tuple[Any, str]:
    env = server_env(redis_url, tmp, tree)
    binary = Path(sys.executable).parent / "patience-race-server"
    proc, url = _start_listening(children, [str(binary)], env, "listening on ", tmp / "server.log")
    return proc, url


def start_echo(children: Children, tmp: Path, lean: bool = False) -> tuple[Any, str]:
    argv = [sys.executable, str(ROOT / "bench" / "echo.py"), *(["--lean"] if lean else [])]
    return _start_listening(children, argv, dict(os.environ), "listening on ", tmp / "echo.log")


def pin(pid: int | None, cpus: list[int] | None) -> None:
    """Keep a process on these CPUs (``--pin``)."""
    if pid and cpus:
        import psutil

        psutil.Process(pid).cpu_affinity(cpus)
