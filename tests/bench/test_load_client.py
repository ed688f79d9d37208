"""The load test's own client (``bench/wsclient.py``, ``bench/load/client.py``): its
websocket framing against the real server and against websockets' own server, its move
loop, and one whole small run of the load test (``python -m bench.load``)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import msgpack
import pytest
from websockets.asyncio.server import ServerConnection, serve
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from bench.load.client import Stats
from bench.load.racers import Racer
from bench.wsclient import Closed, LeanWebSocket, connect
from server.app.settings import Settings
from tests.app.conftest import Running, running

ROOT = Path(__file__).resolve().parents[2]


async def call(ws: LeanWebSocket, message: dict[str, object]) -> dict[str, object]:
    ws.send(msgpack.packb(message))
    while True:
        reply = msgpack.unpackb(await ws.recv(), raw=False)
        if "id" in reply:
            return reply  # type: ignore[no-any-return]


async def test_it_plays_against_the_race_server(server: Running) -> None:
    ws = await connect(server.url)
    welcome = await call(ws, {"type": "hello", "id": 1, "protocol": 1, "client": "t/1"})
    assert welcome["type"] != "error", welcome
    registered = await call(ws, {"type": "register", "id": 2, "name": "lean"})
    assert registered["type"] != "error", registered
    dealt = await call(ws, {"type": "new_game", "id": 3, "game": "gate"})
    assert dealt["type"] == "game", dealt
    move = dealt["legal"][0]  # type: ignore[index]
    moved = await call(ws, {"type": "move", "id": 4, "game": dealt["game"], "move": move})
    assert moved["type"] == "moved" and moved["move"] == move and "view" in moved
    # what the server refuses comes back as its error, on the same connection
    refused = await call(ws, {"type": "no_such_thing", "id": 5})
    assert refused["type"] == "error"
    await ws.close()
    with pytest.raises(ConnectionError):
        await ws.recv()


async def test_framing_against_websockets_own_server() -> None:
    """Each length form both ways (websockets refuses a frame whose mask is wrong),
    fragmented messages joined, a ping answered, and both closing handshakes."""
    seen: dict[str, object] = {}

    async def handler(peer: ServerConnection) -> None:
        first = await peer.recv()
        assert isinstance(first, bytes)
        if first == b"close-me":
            await peer.close(1001, "going away")
            return
        await peer.send(first)  # echoed whole: up to 125, up to 65535 and beyond
        for size in (5, 300, 70_000):
            await peer.send(await peer.recv())
            assert size
        await peer.send([b"frag", b"ment", b"ed"])  # three frames, one message
        pong = await peer.ping(b"are you there")
        seen["pong"] = await asyncio.wait_for(pong, 5)
        await peer.send(b"after the ping")
        await peer.wait_closed()
        seen["close"] = peer.close_code

    async with serve(handler, "127.0.0.1", 0, max_size=None, compression=None) as ws_server:
        port = ws_server.sockets[0].getsockname()[1]
        ws = await connect(f"ws://127.0.0.1:{port}/any/path?x=1")
        for payload in (b"hello", os.urandom(125), os.urandom(300), os.urandom(70_000)):
            ws.send(payload)
            assert await ws.recv() == payload
        assert await ws.recv() == b"fragmented"
        assert await ws.recv() == b"after the ping"
        assert seen["pong"] is not None
        with pytest.raises(TimeoutError):  # nothing more is sent
            await ws.recv(0.2)
        await ws.close()
        for _ in range(50):
            if "close" in seen:
                break
            await asyncio.sleep(0.05)
        assert seen["close"] == 1000

        # the server's closing handshake: recv raises, saying why
        ws = await connect(f"ws://127.0.0.1:{port}/")
        ws.send(b"close-me")
        with pytest.raises(Closed, match="going away"):
            await ws.recv()
        with pytest.raises(Closed):
            ws.send(b"too late")


async def test_a_refused_upgrade_is_an_error() -> None:
    def refuse(connection: ServerConnection, request: Request) -> Response:
        return Response(403, "Forbidden", Headers(), b"no")

    async def handler(peer: ServerConnection) -> None:
        pass

    async with serve(handler, "127.0.0.1", 0, process_request=refuse) as ws_server:
        port = ws_server.sockets[0].getsockname()[1]
        with pytest.raises(Closed, match="403"):
            await connect(f"ws://127.0.0.1:{port}/")
    with pytest.raises(ValueError, match="ws://"):
        await connect("http://127.0.0.1:1/")


async def racer(server: Running, name: str) -> Racer:
    ws = await connect(server.url)
    one = Racer(ws, random.Random(7), Stats())
    await one.must("hello", protocol=1, client="t/1")
    await one.must("register", name=name)
    await one.prepare()  # no race: a solo game of The Gate
    return one


@pytest.fixture
async def fast(settings: Settings) -> AsyncIterator[Running]:
    """The server with no rate limit to speak of, as the load test runs it."""
    async with running(replace(settings, rate=1e6, burst=10**6)) as handle:
        yield handle


async def test_the_move_loop_saturating_and_paced(fast: Running) -> None:
    one = await racer(fast, "loop")
    one.cap = 10**6
    stats = one.stats
    stats.recording = True
    start = time.perf_counter()
    due, over = start, False
    while not over:  # handed back when a game ends (random play can end one): a new one
        due, over = await one.moves(None, due, start + 0.3)
        await one.prepare()
    assert stats.errors == 0 and stats.moves > 1
    assert len(stats.lat) == stats.moves and min(stats.lat) > 0

    # paced: one move each 20 ms, never more (a late one goes at once, within the schedule)
    before = stats.moves
    start = time.perf_counter()
    due, over = start, False
    while not over:
        due, over = await one.moves(0.02, due, start + 0.39)
        await one.prepare()
    paced = stats.moves - before
    assert 1 <= paced <= 20, paced
    # none went before its time (libuv's timers count whole milliseconds)
    sent = stats.sent[before:]
    assert all(t >= start + i * 0.02 - 0.002 for i, t in enumerate(sent)), list(sent)
    assert stats.errors == 0

    # the loop hands back when the game needs a request first: here, its resignation
    # after three more moves. Random play may end the game sooner (how far it has got
    # depends on how fast the machine was above): the loop hands back then too, and the
    # three moves are asked again of a new game
    while True:
        await one.prepare()
        one.cap = one.moves_in_game + 3
        before = stats.moves
        start = time.perf_counter()
        due, over = await one.moves(None, start, start + 30)
        assert not over
        if one.legal:  # (none: the game ended before its third move)
            break
    assert stats.moves - before == 3
    assert await one.prepare()  # resigned and dealt a new game
    assert one.moves_in_game == 0 and one.legal
    await one.ws.close()


async def test_the_move_loop_fails_when_the_connection_does(fast: Running) -> None:
    one = await racer(fast, "dropped")
    one.cap = 10**6
    start = time.perf_counter()
    loop = one.moves(0.05, start + 0.2, start + 30)
    assert one.ws.transport is not None
    one.ws.transport.abort()
    with pytest.raises(ConnectionError):
        await asyncio.wait_for(loop, 5)


def test_a_small_run_of_the_load_test(tmp_path: Path) -> None:
    """Every phase of the load test plays real moves with no error, and the scale mode
    holds its racers (figures only printed: no timing is checked)."""
    out = tmp_path / "figures.json"
    small = ["--seconds", "0.5", "--warm", "0.2", "--racers", "8", "--procs", "1", "--scale", "24"]
    subprocess.run(
        [sys.executable, "-m", "bench.load", *small, "--json-out", str(out)],
        cwd=ROOT,
        check=True,
        timeout=240,
        capture_output=True,
    )
    figures = json.loads(out.read_text())
    phases = [row["phase"] for row in figures["rows"]]
    assert phases == [
        "echo, saturating",
        "server, saturating",
        "echo, paced at half the ceiling",
        "server, paced at half the ceiling",
        "server, paced at a quarter of the ceiling",
    ]
    for row in figures["rows"]:
        assert row["moves_per_s"] > 0 and row["errors"] == 0, row
        if row["target"] == "server":
            assert row["progress_events_per_s"] > 0, row
    assert figures["scale"]["connections_held_by_server"] == 24


def test_the_benchmarked_server_limits_no_player(tmp_path: Path) -> None:
    """The load test's players deal a game every few seconds each for minutes, all from
    one address: the server it starts lifts the limits a player or an address would
    otherwise meet (``rate_limited`` in the middle of a run is no measurement)."""
    from bench.load.servers import server_env

    env = server_env("redis://127.0.0.1:1", tmp_path)
    settings = Settings.load([], env)
    assert settings.deal_rate == 0 and settings.register_rate == 0
    assert settings.rate >= 1_000_000 and settings.burst >= 1_000_000
    assert settings.max_connections == 0 and settings.max_connections_per_ip == 0


def test_a_profile_without_py_spy_is_refused_before_anything_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--profile`` and ``--profile-paced`` need py-spy, which is no dependency: where it
    is not installed the run stops at once, saying how to install it (it used to run
    the echo's phase first and then fail with a traceback)."""
    from bench.load import __main__ as load

    monkeypatch.setattr(load, "PY_SPY", tmp_path / "no-py-spy")
    for option in ("--profile", "--profile-paced"):
        with pytest.raises(SystemExit) as stopped:
            load.main(["--quick", option, str(tmp_path / "p.txt")])
        assert stopped.value.code == 2
        said = capsys.readouterr().err
        assert f"{option} needs py-spy, which is not installed" in said, said
        assert "pip install py-spy" in said
    assert not list(tmp_path.glob("p.txt"))
