"""Instructions a move costs the race server, counted by valgrind (callgrind): the same
figure every run, where CPU time on a shared machine varies by a quarter from run to run.

    .venv/bin/python bench/instructions.py [--clients 16] [--moves 60] [--room 1]
                                           [--runs 2] [--server-tree DIR ...]

It starts a Redis of its own and the race server under ``valgrind --tool=callgrind`` with
counting off; ``--clients`` players connect, register and each start a solo game of The
Gate (fixed seeds), play 5 moves to warm up, then counting is switched on
(``callgrind_control``) for ``--moves`` moves each (a random legal move from the last
reply, from a fixed seed; a new game after 150 moves or at the end), and off again. The
count covers everything the server process ran in user space meanwhile: the websocket
layer, the rules engine, the group commit, the event loop; not the kernel's side of its
system calls. With ``--room K`` the players race in rooms of K instead, as the load
test's racers do (``bench/load/``: race moves, progress events, resignations and
rematches; the progress ticks come every 0.1 s of wall time, many more moves' worth
under valgrind). Each ``--server-tree`` (a checkout: before/after comparisons) is
measured ``--runs`` times, alternating. Needs ``valgrind`` on the PATH.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load.client import Conn, Stats  # noqa: E402
from bench.load.racers import open_room  # noqa: E402
from bench.load.servers import alternate, server_env, tree_options  # noqa: E402

WARM_MOVES = 5


class Player:
    def __init__(self, ws: ClientConnection, seed: int) -> None:
        self.ws = ws
        self.ids = itertools.count(1)
        self.seed = seed
        self.rng = random.Random(seed)
        self.gid = ""
        self.legal: list[str] = []
        self.in_game = 0

    async def call(self, kind: str, **fields: Any) -> dict[str, Any]:
        request_id = next(self.ids)
        await self.ws.send(msgpack.packb({"type": kind, "id": request_id, **fields}))
        while True:
            reply: dict[str, Any] = msgpack.unpackb(await self.ws.recv(), raw=False)
            if reply.get("id") == request_id:
                if reply["type"] == "error":
                    raise RuntimeError(f"{kind}: {reply}")
                return reply

    async def new_game(self) -> None:
        self.seed += 1
        reply = await self.call("new_game", game="gate", seed=self.seed)
        self.gid, self.legal, self.in_game = reply["game"], reply["legal"], 0

    async def play(self, count: int) -> None:
        done = 0
        while done < count:
            if not self.legal or self.in_game >= 150:
                await self.new_game()
                continue
            move = self.legal[self.rng.randrange(len(self.legal))]
            reply = await self.call("move", move=move, game=self.gid)
            self.legal = reply["legal"] if reply["status"] == "playing" else []
            self.in_game += 1
            done += 1


async def drive_rooms(url: str, pid: int, clients: int, moves: int, room: int) -> None:
    """As :func:`drive`, with the players racing in rooms of ``room`` as the load test's
    racers do (``bench/load/``: race moves, progress events, resignations, rematches)."""
    stats = Stats()
    rng = random.Random(1)
    sem = asyncio.Semaphore(16)
    tag = f"{os.getpid() % 10000}{int(time.time()) % 1000}"
    names = [f"r{n}x{tag}" for n in range(clients)]
    groups = await asyncio.gather(
        *(open_room(url, names[at : at + room], rng, stats, sem) for at in range(0, clients, room))
    )
    racers = [racer for group in groups for racer in group]

    async def play(racer: Conn, count: int) -> None:
        for _ in range(count):
            await racer.prepare()
            await racer.move(time.perf_counter())

    await asyncio.gather(*(play(r, WARM_MOVES) for r in racers))
    subprocess.run(["callgrind_control", "-i", "on", str(pid)], check=True, capture_output=True)
    await asyncio.gather(*(play(r, moves) for r in racers))
    subprocess.run(["callgrind_control", "-i", "off", str(pid)], check=True, capture_output=True)
    subprocess.run(["callgrind_control", "-d", str(pid)], check=True, capture_output=True)
    for racer in racers:
        await racer.ws.close()


async def drive(url: str, pid: int, clients: int, moves: int, room: int = 1) -> None:
    if room > 1:
        await drive_rooms(url, pid, clients, moves, room)
        return
    players = []
    for n in range(clients):
        player = Player(await connect(url, open_timeout=120, ping_interval=None), 1000 * n)
        await player.call("hello", protocol=1)
        await player.call("register", name=f"i{n}x{os.getpid() % 10000}{int(time.time()) % 1000}")
        await player.new_game()
        players.append(player)
    await asyncio.gather(*(p.play(WARM_MOVES) for p in players))
    subprocess.run(["callgrind_control", "-i", "on", str(pid)], check=True, capture_output=True)
    await asyncio.gather(*(p.play(moves) for p in players))
    subprocess.run(["callgrind_control", "-i", "off", str(pid)], check=True, capture_output=True)
    subprocess.run(["callgrind_control", "-d", str(pid)], check=True, capture_output=True)
    for player in players:
        await player.ws.close()


def measure(tree: Path, redis_url: str, tmp: Path, clients: int, moves: int, room: int = 1) -> int:
    """One run: the instructions counted over ``clients * moves`` moves."""
    out = tmp / f"callgrind.{time.monotonic_ns()}"
    log = tmp / "server.log"
    env = server_env(redis_url, tmp, tree)
    argv = [
        "valgrind",
        "--tool=callgrind",
        "--instr-atstart=no",
        f"--callgrind-out-file={out}.%p",
        sys.executable,
        "-c",
        "from server.cli import main; main()",
    ]
    proc = subprocess.Popen(
        argv, cwd=tree, env=env, stdout=subprocess.PIPE, stderr=log.open("ab"), text=True
    )
    try:
        assert proc.stdout is not None
        url = None
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                raise RuntimeError(f"the server exited: see {log}")
            if "listening on " in line:
                url = line.split("listening on ", 1)[1].split()[0].strip('",')
                break
        if url is None:
            raise RuntimeError("the server did not start")
        asyncio.run(asyncio.wait_for(drive(url, proc.pid, clients, moves, room), 900))
    finally:
        proc.terminate()
        proc.wait(120)
    counts = []
    for dump in tmp.glob(f"{out.name}.*"):
        match = re.search(r"^totals:\s*(\d+)", dump.read_text(errors="replace"), re.M)
        if match:
            counts.append(int(match.group(1)))
    if not counts or max(counts) == 0:
        raise RuntimeError("no count was dumped")
    return max(counts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--moves", type=int, default=60, help="moves counted per client")
    parser.add_argument(
        "--room",
        type=int,
        default=1,
        help="players race in rooms of this many, as in the load test (default: solo games)",
    )
    tree_options(parser)
    args = parser.parse_args()
    if shutil.which("valgrind") is None or shutil.which("callgrind_control") is None:
        print("valgrind is not installed: apt-get install valgrind", file=sys.stderr)
        return 2
    results = alternate(
        args,
        "patience-instr-",
        lambda tree, redis_url, tmp: measure(
            tree or ROOT, redis_url, tmp, args.clients, args.moves, args.room
        ),
    )
    moves = args.clients * args.moves
    how = "solo games" if args.room <= 1 else f"races in rooms of {args.room}"
    print(f"{args.clients} players, {moves} moves counted a run (The Gate, {how})")
    print("| server tree | runs | instructions a move (each run) | mean |")
    print("|---|---|---|---|")
    for tree, counts in results.items():
        each = ", ".join(f"{c / moves / 1000:.1f}k" for c in counts)
        mean = sum(counts) / len(counts) / moves / 1000
        print(f"| {tree or ROOT} | {len(counts)} | {each} | {mean:.1f}k |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
