"""The processes on one Redis agree the daily deals' secret: the first records its
fingerprint (never the secret), one with the same secret starts beside it, and one with
another refuses to start, saying why and what to do; real server processes on a real
Redis."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from redis import Redis as SyncRedis

from server.app.store import SECRET_FINGERPRINT
from server.app.store.secret import fingerprint

from .conftest import ServerProcess


def healthz_status(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as response:
        return int(response.status)


def refused(redis_url: str, folder: Path, **env: str) -> tuple[int, str]:
    """The exit status and standard error of a server that is expected not to start."""
    proc = ServerProcess(redis_url, folder, **env)
    with pytest.raises(RuntimeError, match="server exited") as exc:
        proc.start()
    assert proc.process is not None
    return proc.process.wait(10), str(exc.value)


def test_a_process_with_another_secret_refuses_to_start(redis_url: str, tmp_path: Path) -> None:
    folders = [tmp_path / name for name in ("one", "two", "three", "four")]
    for folder in folders:
        folder.mkdir()
    one = ServerProcess(redis_url, folders[0], PATIENCE_SECRET="the-shared-one")
    two = ServerProcess(redis_url, folders[1], PATIENCE_SECRET="the-shared-one")
    one.start()
    try:
        two.start()  # the same secret: it starts beside the first
        assert healthz_status(two.port) == 200
        redis = SyncRedis.from_url(redis_url)
        recorded = redis.get(SECRET_FINGERPRINT)
        assert recorded == fingerprint(b"the-shared-one").encode()
        assert b"the-shared-one" not in recorded
        # another secret, given or made in its own data directory: refused, with the fix
        code, log = refused(redis_url, folders[2], PATIENCE_SECRET="another-one")
        assert code == 1
        assert "not the one the other processes on this Redis use" in log
        assert "give every process the same PATIENCE_SECRET" in log
        assert SECRET_FINGERPRINT in log and "Traceback" not in log
        code, log = refused(redis_url, folders[3])
        assert code == 1 and "PATIENCE_SECRET" in log
        # the processes running carry on; the fingerprint is the first one's still
        assert healthz_status(one.port) == 200
        assert redis.get(SECRET_FINGERPRINT) == recorded
        redis.close()
    finally:
        for proc in (one, two):
            if proc.process is not None:
                proc.stop()


def test_the_first_process_records_its_own_secret(redis_url: str, tmp_path: Path) -> None:
    """Without PATIENCE_SECRET, the one made in the data directory is the one recorded,
    and the same process started again with it starts."""
    proc = ServerProcess(redis_url, tmp_path)
    proc.start()
    assert proc.stop() == 0
    made = (tmp_path / "secret").read_bytes().strip()
    redis = SyncRedis.from_url(redis_url)
    assert redis.get(SECRET_FINGERPRINT) == fingerprint(made).encode()
    redis.close()
    proc.start()
    assert proc.stop() == 0


def test_the_message_names_the_fix_in_the_cli(redis_url: str, tmp_path: Path) -> None:
    """Through the command itself: one line on standard error, status 1."""
    redis = SyncRedis.from_url(redis_url)
    redis.set(SECRET_FINGERPRINT, fingerprint(b"someone else's"))
    redis.close()
    env = {
        **os.environ,
        "PATIENCE_REDIS_URL": redis_url,
        "PATIENCE_DATA_DIR": str(tmp_path),
        "PATIENCE_PORT": "0",
    }
    done = subprocess.run(
        [sys.executable, "-m", "server.cli"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert done.returncode == 1
    assert done.stderr.startswith("patience-race-server: error: this process's secret")
