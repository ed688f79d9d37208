"""The data directory holds every game's seed (the embedded Redis's append-only file) and
the secret of the daily seeds: nobody but the server's user may read anything in it,
whether the server makes it or finds it open."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from .client import player
from .conftest import ServerProcess


def open_to_others(root: Path) -> list[str]:
    """Every path at or under ``root`` that others than its owner may use, with its mode."""
    found = []
    for path in [root, *root.rglob("*")]:
        mode = stat.S_IMODE(path.lstat().st_mode)
        if mode & 0o077:
            found.append(f"{path.relative_to(root.parent)} {oct(mode)}")
    return found


async def run_server_on(data: Path, log_dir: Path) -> str:
    """Start the server process with its embedded Redis on ``data``, register a player
    (so Redis writes to its file), stop it; its log."""
    proc = ServerProcess("", log_dir, PATIENCE_DATA_DIR=str(data))
    proc.start()
    try:
        client = await player(proc.url, "ann")
        await client.call("new_game", game="gate", seed=1)
        await client.close()
    finally:
        assert proc.stop() == 0
    return proc.log.read_text()


async def test_a_new_data_directory_is_the_server_users_alone(tmp_path: Path) -> None:
    old = os.umask(0o022)  # as most systems start a service
    try:
        data = tmp_path / "srv" / "data"
        await run_server_on(data, tmp_path)
    finally:
        os.umask(old)
    assert (data / "secret").exists() and (data / "redis" / "redis.log").exists()
    aof = data / "redis" / "appendonly.aof"
    assert aof.exists() or (data / "redis" / "appendonlydir").is_dir()
    assert open_to_others(data) == []


async def test_an_open_data_directory_is_tightened_and_logged(tmp_path: Path) -> None:
    data = tmp_path / "data"
    (data / "redis").mkdir(parents=True)
    (data / "secret").write_text("s3cret\n")
    (data / "redis" / "redis.log").write_text("an old log\n")
    for path, mode in [
        (data, 0o755),
        (data / "redis", 0o755),
        (data / "secret", 0o644),
        (data / "redis" / "redis.log", 0o644),
    ]:
        path.chmod(mode)
    log = await run_server_on(data, tmp_path)
    assert open_to_others(data) == []
    assert (data / "secret").read_text() == "s3cret\n"  # kept, not made again
    for name in (data, data / "redis", data / "secret", data / "redis" / "redis.log"):
        assert f'"path": "{name}", "was": "0o' in log, (name, log)


def test_a_secret_empty_or_blank_is_refused_and_one_made_is_whole(tmp_path: Path) -> None:
    """Keyed with nothing, every day's deal could be worked out by anyone: a secret file
    found empty (a full disk, a restore gone wrong) or a blank PATIENCE_SECRET was taken
    without a word. One made is named only once written (a second process starting
    beside the first read it half written: empty)."""
    from server.app.datadir import BadSecret, load_secret

    made = load_secret(None, tmp_path / "new")
    assert len(made) == 64 and load_secret(None, tmp_path / "new") == made
    assert [p.name for p in (tmp_path / "new").iterdir()] == ["secret"]  # (no scraps)
    empty = tmp_path / "empty"
    empty.mkdir(mode=0o700)
    for text in ("", "\n", "  \n"):
        (empty / "secret").write_text(text)
        with pytest.raises(BadSecret, match=r"the secret in .*secret is empty"):
            load_secret(None, empty)
    with pytest.raises(BadSecret, match="PATIENCE_SECRET is blank"):
        load_secret("   ", empty)
    assert load_secret("a secret", empty) == b"a secret"


def test_the_server_will_not_start_on_an_empty_secret(tmp_path: Path) -> None:
    data = tmp_path / "data"
    data.mkdir(mode=0o700)
    (data / "secret").write_text("")
    (data / "secret").chmod(0o600)
    server = Path(sys.executable).with_name("patience-race-server")
    done = subprocess.run(
        [str(server), "--port", "0", "--data-dir", str(data), "--certify-ahead", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PATIENCE_REDIS_URL": ""},
    )
    assert done.returncode == 1, done
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("patience-race-server: error: the secret in "), done.stderr
    assert "Traceback" not in done.stderr
