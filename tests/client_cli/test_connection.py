"""The connection against a real server and a real Redis: replies by id, events,
reconnecting through a server restart, and staying away once signed in elsewhere."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from client_cli.connection import (
    RETRYING,
    SIGNED_OUT,
    UP,
    Connection,
    ConnectionLost,
    NotConnected,
    ServerError,
    local_ms,
)
from server.app.settings import Settings
from tests.app.conftest import Running, ServerProcess, running, with_settings


class Recorder:
    def __init__(self) -> None:
        self.events: list[dict[str, Any]] = []
        self.links: list[str] = []
        self.welcomes: list[dict[str, Any]] = []

    def connection(self, url: str, token: str | None = None) -> Connection:
        return Connection(
            url,
            token=token,
            on_event=self.events.append,
            on_link=lambda state, delay: self.links.append(state),
            on_welcome=self.welcomes.append,
            first_delay=0.1,
            max_delay=0.5,
        )

    async def wait(self, predicate: Any, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while not predicate():
            assert time.monotonic() < deadline, (self.links, [e["type"] for e in self.events])
            await asyncio.sleep(0.02)


async def register(rec: Recorder, url: str, name: str) -> tuple[Connection, str]:
    conn = rec.connection(url)
    await conn.open()
    reply = await conn.request("register", name=name)
    conn.token = reply["token"]
    return conn, reply["token"]


async def test_requests_replies_and_refusals(server: Running) -> None:
    rec = Recorder()
    conn = rec.connection(server.url)
    welcome = await conn.open()
    assert welcome["type"] == "welcome" and len(welcome["games"]) == 10
    # the server's clock as measured (the client's monotonic clock plus the offset): the
    # same machine's wall clock
    assert abs(local_ms() + conn.offset_ms - time.time() * 1000) < 1000
    with pytest.raises(ServerError) as refused:
        await conn.request("new_game", game="gate")
    assert refused.value.code == "not_authenticated"
    await conn.request("register", name="ann")
    game = await conn.request("new_game", game="gate", seed=1234)
    with pytest.raises(ServerError) as illegal:
        await conn.request("move", move="l>t1", game=game["game"])
    assert illegal.value.message.startswith("illegal move 'l>t1': 8D cannot go on KD")
    moved = await conn.request("move", move="B4>T3", game=game["game"])
    assert moved["move"] == "b4>t3" and moved["view"]["moves"] == 1
    rules = await conn.request("rules", game="wedge")
    assert rules["text"].startswith("# The Wedge")
    await conn.close()
    with pytest.raises(NotConnected):
        await conn.request("ping")


async def test_a_cancel_as_the_reply_comes_is_not_lost(server: Running) -> None:
    """Ctrl-C cancels the client's task; if that lands in the same pass of the loop as a
    request's reply, the request must still end cancelled (Python 3.11's
    ``asyncio.wait_for`` returned the reply instead: the Ctrl-C was lost, and a loop
    such as ``top --watch`` would have gone on)."""
    conn = Recorder().connection(server.url)
    await conn.open()
    task = asyncio.get_running_loop().create_task(conn.request("ping"))
    while not conn._pending:  # sent, its reply awaited
        await asyncio.sleep(0)
    ((request_id, reply),) = conn._pending.items()
    reply.set_result({"type": "pong", "id": request_id})
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert (await conn.request("ping"))["type"] == "pong"  # and the connection carries on
    await conn.close()


async def test_room_events_arrive(server: Running) -> None:
    rec_a, rec_b = Recorder(), Recorder()
    ann, _ = await register(rec_a, server.url, "ann")
    bob, _ = await register(rec_b, server.url, "bob")
    room = await ann.request("room_create", game="doubles-and-quits", seed=1)
    await bob.request("room_join", code=room["code"].lower())
    await bob.request("ready")
    await ann.request("start")
    await rec_b.wait(lambda: any(e["type"] == "race_start" for e in rec_b.events))
    start = next(e for e in rec_b.events if e["type"] == "race_start")
    await bob.request("resign", game=start["game"])
    await rec_a.wait(lambda: any(e["type"] == "progress" for e in rec_a.events))
    await ann.close()
    await bob.close()


async def test_reconnects_through_a_restart_and_resumes(server_process: ServerProcess) -> None:
    rec = Recorder()
    conn, _ = await register(rec, server_process.url, "ann")
    game = await conn.request("new_game", game="nestor", seed=2)
    await conn.request("move", move=game["legal"][0], game=game["game"])
    # SIGTERM: the server closes every connection with 1012 (in a thread: the loop must
    # stay free to answer the closing handshake)
    await asyncio.to_thread(server_process.stop)
    await rec.wait(lambda: RETRYING in rec.links)
    with pytest.raises(NotConnected):
        await conn.request("ping")
    await asyncio.to_thread(server_process.start)
    await rec.wait(lambda: UP in rec.links, timeout=20)
    solo = rec.welcomes[-1]["resume"]["solo"]
    assert solo["game"] == game["game"] and solo["view"]["moves"] == 1
    assert (await conn.request("ping"))["type"] == "pong"
    await conn.close()


async def test_signed_in_elsewhere_is_final(server: Running) -> None:
    rec = Recorder()
    first, token = await register(rec, server.url, "ann")
    other = Recorder()
    second = other.connection(server.url, token)
    await second.open()
    await rec.wait(lambda: SIGNED_OUT in rec.links)
    assert any(e["type"] == "signed_out" for e in rec.events)
    await asyncio.sleep(0.3)
    assert RETRYING not in rec.links and not first.connected
    await second.close()


async def test_a_connection_the_server_turns_away_says_why(settings: Settings) -> None:
    async with running(with_settings(settings, max_connections=1)) as server:
        first = Recorder().connection(server.url)
        await first.open()
        second = Recorder().connection(server.url)
        with pytest.raises(ConnectionLost, match="server full"):
            await second.open()
        await first.close()
