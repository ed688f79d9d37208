"""What a held connection keeps in the server between requests: ten thousand racers are
held at once (docs/performance.md, the scale mode), so each part a connection keeps for
nothing is paid ten thousand times."""

from __future__ import annotations

import sys

from websockets.asyncio.server import ServerConnection

from server.app.transport.ws import RaceConnection

from .client import player
from .conftest import Running


def _held(server: Running) -> list[RaceConnection]:
    assert server.web.server is not None
    found = [ws for ws in server.web.server.connections if isinstance(ws, RaceConnection)]
    return found


async def test_a_held_connection_keeps_only_what_it_uses(server: Running) -> None:
    """Once its handshake is done a connection no longer holds the request's headers nor
    the response, shares one stand-in for websockets' message queue (its messages
    go to the session), and keeps its instance dictionary shared with its class's others
    (its own attributes few enough: past 30 attributes CPython gives each instance a
    dictionary of its own, 1.3 KiB more); a session at rest holds no inbox."""
    ann = await player(server.url, "ann")
    bob = await player(server.url, "bob")
    game = await ann.call("new_game", game="gate", seed=3)
    await ann.call("move", game=game["game"], move=game["legal"][0])
    try:
        held = _held(server)
        assert len(held) == 2
        one, two = held
        for ws in held:
            assert ws.request is not None and not ws.request.headers
            assert ws.response is None
            assert sys.getsizeof(vars(ws)) < 1000, sorted(vars(ws))
            assert not ws.session.inbox_held()
        assert one.recv_messages is two.recv_messages
        assert isinstance(one, ServerConnection)
    finally:
        await ann.close()
        await bob.close()
