"""redis-py's private parts behind one adapter (``store/redis_internals.py``): the
version installed is within the range pyproject pins and the adapter was tested against;
on a real connection to a real Redis every part it uses is there, with the shape it
expects, and the group commit takes its fast path; no other module touches them.

When this fails after an upgrade of redis-py or hiredis, the message names what changed:
adapt ``redis_internals.py`` (and only it), then widen the pin."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from redis.asyncio import Redis

from server.app import store
from server.app.store import redis_internals
from server.app.store.connect import open_redis

ROOT = Path(__file__).resolve().parents[2]


def pinned(name: str) -> Requirement:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    found = [Requirement(line) for line in project["dependencies"]]
    return next(r for r in found if r.name == name)


def test_the_installed_redis_py_is_the_one_pinned_and_tested() -> None:
    pin = pinned("redis")
    assert "hiredis" in pin.extras
    assert version("redis") in pin.specifier, (
        f"redis-py {version('redis')} is installed, outside the pin {pin.specifier} that "
        "store/redis_internals.py is tested against"
    )
    assert str(pin.specifier) == str(Requirement(redis_internals.TESTED).specifier)


async def test_every_private_part_the_adapter_uses_is_there(redis_url: str) -> None:
    redis = open_redis(redis_url)
    assert isinstance(redis, Redis)
    pool = redis.connection_pool
    conn = await pool.get_connection()  # type: ignore[no-untyped-call]
    try:
        assert redis_internals.FAST, "hiredis or redis-py's hiredis parser is missing"
        assert redis_internals.problems(conn) == []
        assert redis_internals.hiredis_reader(conn) is not None
        assert redis_internals.transport_of(conn) is not None
        await redis_internals.send_ping(conn)
        # a reply read straight from the reader, an error reply in its place
        commands: list[Any] = [("PING",), ("NOSUCH",), ("ECHO", "x")]
        await conn.send_packed_command([redis_internals.pack_command(c) for c in commands])
        replies = await redis_internals.read_replies(conn, 3)
        assert replies[0] == b"PONG" and replies[2] == b"x", replies
        assert isinstance(replies[1], Exception) and "unknown command" in str(replies[1])
    finally:
        await pool.release(conn)
        await redis.aclose()


async def test_the_group_commit_takes_its_fast_path(redis_url: str) -> None:
    redis = open_redis(redis_url)
    commit = store.GroupCommit(redis)
    try:
        await redis.set(store.fence_key("fast"), 1)
        await commit.submit(lambda c: c.append_fenced("fast", 1, "1 a"))
        # packs stays True only when the connection's reader and transport were taken
        assert commit.packs, "the group commit fell back to a task a batch"
        assert await redis.lrange(store.log_key("fast"), 0, -1) == [b"1 a"]
    finally:
        await commit.close()
        await redis.aclose()


class _Bare:
    """A connection without any of what the adapter needs."""


def test_problems_names_what_is_missing() -> None:
    found = redis_internals.problems(_Bare())
    assert any("_parser is NoneType" in line for line in found), found
    assert any("has no set_protocol()" in line for line in found), found
    assert any("has no _send_ping" in line for line in found), found
    assert redis_internals.hiredis_reader(_Bare()) is None
    assert redis_internals.transport_of(_Bare()) is None


PRIVATE = re.compile(
    r"redis\._parsers|_AsyncHiredisParser|\._send_ping\b|\._parser\b|\._writer\b|\._stream\b"
)


@pytest.mark.parametrize("folder", ["server", "bench"])
def test_no_other_module_touches_redis_pys_private_parts(folder: str) -> None:
    adapter = ROOT / "server/app/store/redis_internals.py"
    found = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in sorted((ROOT / folder).rglob("*.py"))
        if path != adapter
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if PRIVATE.search(line)
    ]
    assert found == []
