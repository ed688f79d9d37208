"""A server that cannot start says why in one line, with no traceback, and exits 1: its
port taken (a second ``make run``, another program on 8765), or its data directory
another server's (two servers would share one append-only file). Both printed a
traceback a new user had to read to the end."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from pathlib import Path

from server.app.embedded_redis import redis_server_binary

from .conftest import free_port


def server(*args: str) -> list[str]:
    return [sys.executable, "-m", "server.cli", *args]


def environ(**env: str) -> dict[str, str]:
    return {**os.environ, "PATIENCE_CERTIFY_AHEAD": "0", **env}


def refused(*args: str, **env: str) -> str:
    """A server started with ``args`` and ``env`` that must not start: the one line it
    ends its standard error with, once it has exited 1 with no traceback."""
    done = subprocess.run(
        server(*args), env=environ(**env), capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    return done.stderr.strip().splitlines()[-1]


def test_a_port_in_use_is_said_in_one_line(redis_url: str, tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        last = refused(
            "--port", str(port), PATIENCE_REDIS_URL=redis_url, PATIENCE_DATA_DIR=str(tmp_path)
        )
    assert last == (
        f"patience-race-server: error: 127.0.0.1:{port}: address already in use"
        " (another server? --port picks another port)"
    ), last


def test_a_data_directory_in_use_is_said_in_one_line(tmp_path: Path) -> None:
    assert redis_server_binary()
    first = subprocess.Popen(
        server("--port", str(free_port()), "--data-dir", str(tmp_path)),
        env=environ(),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert first.stdout is not None
        assert "listening on" in first.stdout.readline()  # (its embedded Redis is up)
        last = refused("--port", str(free_port()), "--data-dir", str(tmp_path))
    finally:
        first.terminate()
        first.wait(timeout=60)
    assert last == (
        f"patience-race-server: error: another server is using {tmp_path / 'redis'}"
        " (one server a data directory: stop it, or give this one --data-dir DIR,"
        " or PATIENCE_REDIS_URL for a Redis of your own)"
    ), last


def test_the_commonest_mistakes_are_said_in_one_line(redis_url: str, tmp_path: Path) -> None:
    """A Redis that does not answer, a host that is no address, and a data directory that
    is a file or cannot be written to each ended in a traceback of fifty lines."""
    port = str(free_port())
    nothing_there = refused(
        "--port", port, PATIENCE_REDIS_URL="redis://127.0.0.1:1/0", PATIENCE_DATA_DIR=str(tmp_path)
    )
    assert nothing_there.startswith(
        "patience-race-server: error: cannot reach Redis at redis://127.0.0.1:1/0"
    ), nothing_there
    no_host = refused(
        "--host",
        "nonsense.invalid",
        "--port",
        port,
        PATIENCE_REDIS_URL=redis_url,
        PATIENCE_DATA_DIR=str(tmp_path),
    )
    assert no_host.startswith("patience-race-server: error: --host nonsense.invalid: "), no_host
    # an address not this machine's: where to listen, not Redis (an OSError as Redis's are)
    elsewhere = refused(
        "--host",
        "192.0.2.1",
        "--port",
        port,
        PATIENCE_REDIS_URL=redis_url,
        PATIENCE_DATA_DIR=str(tmp_path),
    )
    assert elsewhere.startswith(f"patience-race-server: error: 192.0.2.1:{port}: "), elsewhere
    assert "where to listen" in elsewhere and "Redis" not in elsewhere, elsewhere
    a_file = tmp_path / "a-file"
    a_file.write_text("")
    not_a_dir = refused("--port", port, PATIENCE_DATA_DIR=str(a_file / "data"))
    assert not_a_dir.startswith(f"patience-race-server: error: {a_file}"), not_a_dir
    assert "Not a directory" in not_a_dir


def test_a_redis_password_is_never_printed(tmp_path: Path) -> None:
    """A Redis URL holds its password (docs/server.md's ``redis://:secret@...``, kept in
    deploy's Secret): a Redis that does not answer printed it in clear, into the journal
    or the pod's log; now the server's line and ``review``'s show it as ``***``."""
    url = "redis://:s3cret@127.0.0.1:1/0"
    line = refused(
        "--port", str(free_port()), PATIENCE_REDIS_URL=url, PATIENCE_DATA_DIR=str(tmp_path)
    )
    assert line.startswith(
        "patience-race-server: error: cannot reach Redis at redis://:***@127.0.0.1:1/0: "
    ), line
    listed = subprocess.run(
        server("review", "list"),
        env=environ(PATIENCE_REDIS_URL="redis://ann:s3cret@127.0.0.1:1/0"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert listed.returncode == 1 and "Traceback" not in listed.stderr, listed.stderr
    assert "redis://ann:***@127.0.0.1:1/0" in listed.stderr, listed.stderr
    # a URL of no scheme a Redis has, refused as a setting, is not printed whole either
    bad = subprocess.run(
        server("--port", str(free_port())),
        env=environ(PATIENCE_REDIS_URL="http://:s3cret@h/0"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert bad.returncode == 2 and "not 'http://:***@h/0'" in bad.stderr, bad.stderr
    for said in (line, listed.stderr, bad.stderr):
        assert "s3cret" not in said, said


def test_an_embedded_redis_that_will_not_start_is_said_in_one_line(tmp_path: Path) -> None:
    """A damaged append-only file: Redis exits at once. The server logged "embedded redis
    started", then two chained tracebacks; now one line, with Redis's own reason and how
    to mend the file (docs/server.md)."""
    (tmp_path / "redis").mkdir()
    (tmp_path / "redis" / "appendonly.aof").write_text("not a command\n")
    done = subprocess.run(
        server("--port", str(free_port()), "--data-dir", str(tmp_path)),
        env=environ(PATIENCE_REDIS_URL=""),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
    assert "embedded redis started" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith(
        "patience-race-server: error: the embedded Redis exited: Bad file format reading the"
        " append only file"
    ), last
    assert last.endswith(f"(see {tmp_path / 'redis' / 'redis.log'}; docs/server.md)"), last
