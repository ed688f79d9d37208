"""The ceiling: a bare echo server on the race server's stack (websockets with the same
settings, msgpack, uvloop) with no game and no Redis. Every frame is decoded, and a reply
of the size and shape of a ``moved`` reply (a whole view of The Gate and a legal-move
list) is encoded afresh and sent.

    .venv/bin/python bench/echo.py [--host 127.0.0.1] [--port 0] [--lean]

By default it uses websockets' documented asyncio API (``async for`` over the messages,
``await send``). With ``--lean`` it reads and writes frames as the race server does
(``server/app/transport/session.py``: whole binary frames taken straight from the bytes
read, replies framed into the protocol's queue, one write per read), a ceiling for the
same framing.

Prints ``echo listening on ws://HOST:PORT`` once it accepts connections; stops on
SIGTERM or SIGINT. ``bench/load/`` starts it itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import signal
import sys
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.server import ServerConnection, serve
from websockets.protocol import State

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.app.transport.session import frame_head, read_frames
from server.engine import new_game


def canned_reply() -> dict[str, Any]:
    """A ``moved`` reply as the race server sends it, from a real position."""
    game = new_game("gate", seed=1234)
    return {
        "type": "moved",
        "game": "e7a9e24a5d3d245e",
        "move": "deal",
        "view": game.view(),
        "legal": [m.text for m in game.legal_moves()],
        "status": "playing",
    }


async def main(host: str, port: int, lean: bool = False) -> None:
    reply = canned_reply()
    packb, unpackb = msgpack.packb, msgpack.unpackb

    class Lean(ServerConnection):
        """The race server's framing: requests read from the bytes as they come, replies
        framed into the protocol's queue and written once per read."""

        def data_received(self, data: bytes) -> None:
            protocol = self.protocol
            if protocol.state is not State.OPEN or protocol.reader.buffer:
                super().data_received(data)
                return
            writes = protocol.writes

            def answer(frame: bytes) -> None:
                request = unpackb(frame, raw=False)
                out = packb({**reply, "move": request.get("move"), "id": request["id"]})
                writes.append(frame_head(len(out)))
                writes.append(out)

            # every frame of the read at once: the bare ceiling (the server takes a share a pass)
            at = read_frames(data, protocol.max_message_size, answer, len(data))
            if writes:
                self.transport.write(b"".join(protocol.data_to_send()))
            if at < len(data):
                super().data_received(data[at:])

    async def handler(ws: ServerConnection) -> None:
        with contextlib.suppress(Exception):
            async for frame in ws:
                request = unpackb(frame, raw=False)
                # a fresh encode per reply, as the server does
                await ws.send(packb({**reply, "move": request.get("move"), "id": request["id"]}))

    # the race server's settings (server/app/transport/ws.py)
    async with serve(
        handler,
        host,
        port,
        max_size=4096,
        max_queue=32,
        compression=None,
        ping_interval=20,
        ping_timeout=20,
        create_connection=Lean if lean else None,
    ) as server:
        bound = server.sockets[0].getsockname()[1]
        print(f"echo listening on ws://{host}:{bound}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--lean", action="store_true", help="the race server's framing")
    args = parser.parse_args()
    import uvloop

    uvloop.install()
    asyncio.run(main(args.host, args.port, args.lean))
