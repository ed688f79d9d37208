"""The embedded Redis in a data directory whose path is too long for a unix socket: its
socket goes to a private directory of /tmp named after the data directory, rather than
being cut short by Redis (where two deep directories' sockets met: "Address already in
use")."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from redis import Redis as SyncRedis

from server.app.embedded_redis import MAX_SOCKET_PATH, EmbeddedRedis, socket_path


def deep(base: Path, tail: str) -> Path:
    """A directory under ``base`` whose ``redis.sock`` would be too long by some way."""
    path = base / ("d" * 60) / ("e" * 60) / tail
    assert len(os.fsencode(path / "redis.sock")) > MAX_SOCKET_PATH
    return path


def test_a_short_data_directory_keeps_its_socket(tmp_path: Path) -> None:
    assert socket_path(tmp_path) == tmp_path / "redis.sock"


def test_deep_data_directories_get_sockets_of_their_own_that_work(tmp_path: Path) -> None:
    one, two = deep(tmp_path, "one"), deep(tmp_path, "two")
    assert socket_path(one) != socket_path(two)
    assert socket_path(one) == socket_path(one)  # (the same at every start)
    servers = [EmbeddedRedis(one), EmbeddedRedis(two)]
    try:
        for n, server in enumerate(servers):
            server.start()
            assert len(os.fsencode(server.socket)) <= MAX_SOCKET_PATH
            mode = stat.S_IMODE(server.socket.parent.stat().st_mode)
            assert mode == 0o700, oct(mode)
            client = SyncRedis.from_url(server.url)
            client.set("which", n)
            client.close()
        for n, server in enumerate(servers):
            client = SyncRedis.from_url(server.url)
            assert client.get("which") == str(n).encode()
            client.close()
        assert (one / "appendonly.aof").exists()  # (the data where it was asked for)
    finally:
        for server in servers:
            server.stop()


def test_a_socket_moved_to_tmp_leaves_nothing_there_once_stopped(tmp_path: Path) -> None:
    """Every test's data directory is new, so a folder left behind a stop would pile up in
    /tmp; a stop takes it away (and the next start makes it again)."""
    server = EmbeddedRedis(deep(tmp_path, "gone"))
    folder = server.socket.parent
    for _ in range(2):
        server.start()
        assert folder.is_dir()
        server.stop()
        assert not folder.exists()
