"""The load processes: each opens its share of the racers (and as many connections to the
echo server), then runs the phases the parent sends it down a pipe and sends back what it
measured.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing as mp
import random
import resource
import signal
import time
from multiprocessing.connection import Connection
from typing import Any

from .client import Conn, EchoConn, Stats, dial
from .phases import drive_phase
from .racers import open_room
from .servers import Children


def raise_nofile() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def _worker(pipe: Connection, index: int, cfg: dict[str, Any]) -> None:
    loop = asyncio.get_running_loop()
    rng = random.Random(cfg["seed"] + index)
    stats = Stats()
    sem = asyncio.Semaphore(64)
    t0 = time.perf_counter()
    n, k = cfg["racers"], cfg["room"]
    prefix = cfg["prefix"]
    rooms = [
        [f"{prefix}{index}x{i}" for i in range(start, min(start + k, n))]
        for start in range(0, n, k)
    ]
    racers: list[Conn] = []
    for group in await asyncio.gather(
        *(open_room(cfg["url"], names, rng, stats, sem) for names in rooms)
    ):
        racers.extend(group)
    if cfg.get("one_move"):
        # the scale mode: every racer has played once, so the server holds what a racer
        # in play costs (its game's encoded view too), then all go idle
        async def one(racer: Conn) -> None:
            async with sem:
                await racer.prepare()
                await racer.move(time.perf_counter())

        await asyncio.gather(*(one(r) for r in racers))
    echoes: list[Conn] = []
    if cfg.get("echo_url"):
        for _ in range(n):
            echo = EchoConn(await dial(cfg["echo_url"]), random.Random(rng.random()), stats)
            await echo.start()
            echoes.append(echo)
    pipe.send({"ready": len(racers), "echo": len(echoes), "setup_s": time.perf_counter() - t0})

    while True:
        command = await loop.run_in_executor(None, pipe.recv)
        if command["cmd"] == "stop":
            break
        conns = echoes if command["target"] == "echo" else racers
        try:
            stats = await drive_phase(conns, command)
        except Exception as exc:  # report, do not hang the run
            pipe.send({"error": repr(exc)})
            continue
        pipe.send(
            {
                "lat": stats.lat.tobytes(),
                "sent": stats.sent.tobytes() if cfg.get("trace") else b"",
                "moves": stats.moves,
                "other": stats.other,
                "errors": stats.errors,
                "progress": stats.progress,
                "late": stats.late,
            }
        )
    for conn in racers + echoes:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(conn.ws.close(), 2)


def worker_main(pipe: Connection, index: int, cfg: dict[str, Any]) -> None:
    raise_nofile()
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops us
    import uvloop

    try:
        uvloop.run(_worker(pipe, index, cfg))
    except Exception as exc:
        with contextlib.suppress(Exception):
            pipe.send({"error": repr(exc)})
        raise


def start_workers(
    children: Children, cfg: dict[str, Any], procs: int, racers: int
) -> tuple[list[Connection], list[dict[str, Any]]]:
    ctx = mp.get_context("spawn")
    pipes = []
    shares = [racers // procs + (1 if i < racers % procs else 0) for i in range(procs)]
    for index, share in enumerate(shares):
        parent_end, child_end = ctx.Pipe()
        proc = ctx.Process(
            target=worker_main, args=(child_end, index, {**cfg, "racers": share}), daemon=True
        )
        proc.start()
        children.procs.append(proc)
        pipes.append(parent_end)
    ready = []
    for pipe in pipes:
        if not pipe.poll(600):
            raise RuntimeError("a load process did not get ready in time")
        reply = pipe.recv()
        if "error" in reply:
            raise RuntimeError(f"load process failed: {reply['error']}")
        ready.append(reply)
    return pipes, ready


def stop_workers(children: Children, pipes: list[Connection]) -> None:
    for pipe in pipes:
        with contextlib.suppress(Exception):
            pipe.send({"cmd": "stop"})
    for p in children.procs:
        p.join(15)
    for p in children.procs:
        if p.is_alive():
            p.terminate()
            p.join(5)
    children.procs.clear()
