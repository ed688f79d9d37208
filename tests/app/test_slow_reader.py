"""A client too slow to read is dropped rather than stalling anyone."""

from __future__ import annotations

import socket

from server.app.settings import Settings

from .client import Client, player
from .conftest import Running, running, until, with_settings


async def test_a_spectator_that_stops_reading_is_dropped(settings: Settings) -> None:
    fast = with_settings(
        settings, max_outgoing=16 * 1024, rate=1e6, burst=10**6, progress_interval=0
    )
    async with running(fast) as server:
        await flood_past_a_stalled_reader(server)


async def flood_past_a_stalled_reader(server: Running) -> None:
    racer = await player(server.url, "racer")
    code = (await racer.call("room_create", game="gate", seed=3))["code"]
    await racer.call("start")
    start = await racer.event("race_start")
    # the spectator's socket takes little, and its client stops reading once one message
    # waits unread: TCP pushes back, and the server's buffer for it fills
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", server.web.port))
    stalled = await Client.connect(server.url, sock=sock, max_queue=1)
    await stalled.call("hello", protocol=1)
    await stalled.call("room_watch", code=code)
    stalled._reader.cancel()  # read nothing more
    room = server.service.rooms[code]
    assert len(room.watchers) == 1
    # and the kernel holds little on the server's side too (it would take megabytes)
    (session,) = room.watchers
    server_sock = session.ws.transport.get_extra_info("socket")
    server_sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    move = next(m for m in start["legal"] if m != "deal")
    moves = 0
    while not session._closing and moves < 20_000:
        # a move and its undo: two progress broadcasts to the room, the game unchanged
        await racer.call("move", move=move)
        await racer.call("undo")
        moves += 2
    assert session._closing, "the stalled spectator was never dropped"
    # the racer was never held up: still answered, still racing
    reply = await racer.call("move", move=move)
    assert reply["status"] == "playing"
    # once the closing handshake gives up, the server forgets the spectator
    await until(lambda: not room.watchers, 10)
