"""The server's move path without the websocket layer: CPU microseconds a move spent in
the service (request handling, the rules engine, the group commit to a real Redis, the
encoded view and the reply), with ``--profile`` a table of where they go.

    .venv/bin/python bench/move_path.py [--moves N] [--players P] [--game gate] [--profile]
        [--via move_now|handle]

P players each play random legal moves of their own solo game, one request at a time, all
at once on one event loop (so the group commit batches as under load), against an
embedded Redis of its own. CPU time is this process's (Redis runs apart), over the moves
accepted; a move's reply comes encoded (the stand-in decodes it), any other is encoded as
the websocket layer would. Sessions are stand-ins that keep what they are sent: no sockets
are involved.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import msgpack
from redis.asyncio import Redis

from server.app.embedded_redis import EmbeddedRedis
from server.app.service import Service
from server.app.settings import Settings
from server.protocol import encode, parse_request
from server.protocol.messages import Move


class Seat:
    def __init__(self) -> None:
        self.player: str | None = None
        self.name: str | None = None
        self.hello = False
        self.side = False
        self.watching: set[str] = set()
        self.address: str | None = None
        self.frames = 0

    def send(self, message: dict[str, Any]) -> None:
        encode(message)
        self.frames += 1

    def send_encoded(self, data: bytes) -> None:
        self.frames += 1

    def close(self, code: int, reason: str) -> None:
        pass


async def run(args: argparse.Namespace) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        redis_server = EmbeddedRedis(Path(tmp) / "redis")
        url = redis_server.start()
        redis = Redis.from_url(url)
        settings = Settings(
            redis_url=url,
            data_dir=Path(tmp),
            rate=1e9,
            burst=10**9,
            register_rate=0,
            certify_ahead=0,
        )
        service = Service(settings, redis)
        await service.start()
        try:
            return await measure(service, args)
        finally:
            await service.shutdown()
            await redis.aclose()
            redis_server.stop()


async def measure(service: Service, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(1)
    seats = []
    ids = iter(range(1, 10**9))

    loop = asyncio.get_running_loop()

    async def call(seat: Seat, kind: str, **fields: Any) -> dict[str, Any]:
        request = parse_request({"type": kind, "id": next(ids), **fields})
        if isinstance(request, Move) and args.via == "move_now":
            # as the websocket layer does: the move path without a coroutine, the
            # coroutine only when the service cannot take it so
            outcome: asyncio.Future[bytes | BaseException] = loop.create_future()
            if service.moves.move_now(
                seat, request.id, request.game, request.move, outcome.set_result
            ):
                result = await outcome
                if isinstance(result, BaseException):
                    raise result
                # the reply comes encoded: this decode is the stand-in player's work
                moved: dict[str, Any] = msgpack.unpackb(result)
                return moved
        reply = await service.handle(seat, request)
        encode(reply)
        return reply

    for n in range(args.players):
        seat = Seat()
        await call(seat, "hello", protocol=1)
        await call(seat, "register", name=f"p{n}")
        seats.append(seat)
    per_player = args.moves // args.players

    async def play(seat: Seat) -> int:
        done = in_game = 0
        legal: list[str] = []
        gid = ""
        while done < per_player:
            if not legal or in_game == 150:  # a game that ends, or shifts cards for ever
                game = await call(seat, "new_game", game=args.game, seed=rng.getrandbits(64))
                legal, gid, in_game = game["legal"], game["game"], 0
                continue
            reply = await call(seat, "move", move=rng.choice(legal), game=gid)
            legal = reply["legal"] if reply["status"] == "playing" else []
            done += 1
            in_game += 1
        return done

    profiler = cProfile.Profile() if args.profile else None
    cpu, wall = time.process_time(), time.perf_counter()
    if profiler:
        profiler.enable()
    moves = sum(await asyncio.gather(*(play(seat) for seat in seats)))
    if profiler:
        profiler.disable()
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    result = {
        "game": args.game,
        "via": args.via,
        "players": args.players,
        "moves": moves,
        "cpu_us_per_move": round(cpu / moves * 1e6, 1),
        "moves_per_s": round(moves / wall),
        "mean_batch": round(service.commit.writes / max(1, service.commit.batches), 1),
    }
    if profiler:
        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out)
        stats.sort_stats("tottime").print_stats(25)
        result["profile"] = out.getvalue()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=40_000)
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--game", default="gate")
    parser.add_argument("--profile", action="store_true", help="cProfile: the top 25")
    parser.add_argument(
        "--via",
        choices=("move_now", "handle"),
        default="move_now",
        help="moves by MovePath.move_now, as the server takes them (default), or by the "
        "coroutine path, Service.handle",
    )
    args = parser.parse_args()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    result = asyncio.run(run(args))
    profile = result.pop("profile", None)
    print("| " + " | ".join(result) + " |")
    print("|" + "---|" * len(result))
    print("| " + " | ".join(str(v) for v in result.values()) + " |")
    if profile:
        print(profile)


if __name__ == "__main__":
    main()
