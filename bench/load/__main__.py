"""Load test of the race server against its ceiling, a bare echo server on the same stack.

The command line and the run (``python -m bench.load``): it starts Redis, the server and
the echo server, the load processes, runs the phases in order, then the scale mode, and
prints the figures. What each phase does: the package's docstring.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import secrets
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from .phases import Probe, connections_of, run_phase
from .racers import GAME
from .report import print_summary, ratios, targets_met
from .servers import Children, move_path, pin, start_echo, start_server
from .workers import raise_nofile, start_workers, stop_workers

#: the sampling profiler ``--profile`` runs (not a dependency: ``pip install py-spy``)
PY_SPY = Path(sys.executable).parent / "py-spy"
PIP = Path(sys.executable).parent / "pip"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.load", description=__doc__.splitlines()[0]
    )
    parser.add_argument("--quick", action="store_true", help="a 30-second run")
    parser.add_argument("--racers", type=int, default=64, help="racers in the load phases")
    parser.add_argument("--room", type=int, default=4, help="racers per room (k)")
    parser.add_argument("--procs", type=int, default=2, help="load processes")
    parser.add_argument("--seconds", type=float, help="measured seconds per phase")
    parser.add_argument("--warm", type=float, help="warm-up seconds per phase")
    parser.add_argument("--scale", type=int, help="racers in the scale mode (0: skip)")
    parser.add_argument(
        "--profile-paced",
        metavar="FILE",
        help="as --profile, in the paced phase (half the ceiling, or --rate)",
    )
    parser.add_argument("--rate", type=float, help="paced total rate (default: half the ceiling)")
    parser.add_argument(
        "--fsync",
        choices=("always", "everysec"),
        default="always",
        help="its Redis's appendfsync (always, as the server's embedded Redis runs)",
    )
    parser.add_argument("--url", help="a running race server instead of starting one")
    parser.add_argument("--redis-url", help="its Redis, for INFO stats")
    parser.add_argument("--server-pid", type=int, help="its pid, for CPU and RSS")
    parser.add_argument("--json-out", help="also write the JSON figures to this file")
    parser.add_argument(
        "--trace",
        metavar="FILE",
        help="write every timed move of every phase to this CSV: phase, its send time in "
        "seconds from the start of the measured window, its round trip in ms",
    )
    parser.add_argument(
        "--server-tree", help="run the server from this source tree (e.g. an older checkout)"
    )
    parser.add_argument(
        "--lean-echo",
        action="store_true",
        help="the echo reads and writes frames as the race server does (bench/echo.py --lean) "
        "instead of through websockets' asyncio API",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server (and the echo server) on the first CPU, load and Redis on the others",
    )
    parser.add_argument(
        "--profile",
        metavar="FILE",
        help="py-spy the server in its saturating phase: FILE.svg (flame graph), FILE.json "
        "(speedscope) or FILE.txt (collapsed stacks); needs .venv/bin/pip install py-spy",
    )
    args = parser.parse_args(argv)
    profiled = "--profile" if args.profile else "--profile-paced" if args.profile_paced else ""
    if profiled and not PY_SPY.exists():
        # (refused before anything starts: the run takes minutes, the profile is its point)
        parser.error(f"{profiled} needs py-spy, which is not installed: {PIP} install py-spy")
    seconds = args.seconds or (2.0 if args.quick else 5.0)
    warm = args.warm if args.warm is not None else (0.5 if args.quick else 1.0)
    scale = args.scale if args.scale is not None else (2000 if args.quick else 10_000)
    began = time.perf_counter()

    raise_nofile()
    cpus = sorted(os.sched_getaffinity(0))
    server_cpus = load_cpus = None
    if args.pin and len(cpus) >= 2:
        # the server (or the echo server) alone on the first CPU; load and Redis on the rest
        server_cpus, load_cpus = cpus[:1], cpus[1:]
    children = Children()
    children.tmp = tempfile.mkdtemp(prefix="patience-bench-")
    tmp = Path(children.tmp)

    def on_signal(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_signal)
    from redis import Redis as SyncRedis

    from server.app.embedded_redis import EmbeddedRedis

    report: dict[str, Any] = {
        "machine": {
            "cpus": os.cpu_count(),
            "python": platform.python_version(),
            "platform": platform.platform(),
        },
        "settings": {
            "racers": args.racers,
            "room": args.room,
            "procs": args.procs,
            "pinned": bool(server_cpus),
            "redis_fsync": args.fsync,
            "move_path": None if args.url else move_path(args.server_tree),
            "seconds": seconds,
            "warm": warm,
            "game": GAME,
            "server_env": "PATIENCE_RATE=1000000 PATIENCE_BURST=1000000 "
            "PATIENCE_MAX_CONNECTIONS=0 PATIENCE_MAX_CONNECTIONS_PER_IP=0 "
            "PATIENCE_REGISTER_RATE=0 PATIENCE_DEAL_RATE=0 PATIENCE_COUNTDOWN=0",
            "echo": "lean (the server's framing)" if args.lean_echo else "websockets' asyncio API",
        },
    }
    rows: list[dict[str, Any]] = []
    try:
        redis_url = args.redis_url
        server_pid = args.server_pid
        url = args.url
        if url is None:
            children.redis = EmbeddedRedis(tmp / "redis", fsync=args.fsync)
            redis_url = children.redis.start()
            server, url = start_server(children, redis_url, tmp, args.server_tree)
            server_pid = server.pid
            pin(server_pid, server_cpus)
            pin(children.redis.process.pid, load_cpus)
        echo, echo_url = start_echo(children, tmp, args.lean_echo)
        pin(echo.pid, server_cpus)
        redis = SyncRedis.from_url(redis_url) if redis_url else None
        cfg = {
            "url": url,
            "echo_url": echo_url,
            "room": args.room,
            "seed": 1,
            "prefix": secrets.token_hex(2),
            "trace": bool(args.trace),
        }
        traces: list[tuple[str, list[tuple[float, float]]]] = []
        print(
            f"load: {args.racers} racers in rooms of {args.room} from {args.procs} processes, "
            f"{seconds:g} s a phase after {warm:g} s of warm-up"
            + (
                f"; the server's move path: {report['settings']['move_path']}"
                if not args.url
                else ""
            ),
            flush=True,
        )
        pipes, ready = start_workers(children, cfg, args.procs, args.racers)
        conns = sum(r["ready"] for r in ready)
        held = connections_of(server_pid)
        worker_pids = [p.pid for p in children.procs]
        for worker in worker_pids:
            pin(worker, load_cpus)
        server_probe = Probe(server_pid, redis, worker_pids)
        echo_probe = Probe(echo.pid, None, worker_pids)

        def phase(
            name: str, target: str, rate: float | None, profile: str | None = None
        ) -> dict[str, Any]:
            probe = echo_probe if target == "echo" else server_probe
            spy = None
            if profile and server_pid:
                # py-spy (pip install py-spy) samples the server through the measured window
                spy = subprocess.Popen(
                    [
                        str(PY_SPY),
                        "record",
                        "--pid",
                        str(server_pid),
                        "--duration",
                        str(round(warm + seconds)),
                        "--rate",
                        "200",
                        "--nonblocking",
                        "--format",
                        {".json": "speedscope", ".txt": "raw"}.get(
                            Path(profile).suffix, "flamegraph"
                        ),
                        "--output",
                        profile,
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                children.popen.append(spy)
            trace: list[tuple[float, float]] | None = [] if args.trace else None
            row = run_phase(pipes, probe, target, rate, conns, warm, seconds, trace)
            if trace is not None:
                traces.append((name, sorted(trace)))
            if spy is not None:
                spy.wait(30)
                children.popen.remove(spy)
                print(f"  profile of the server: {profile}", flush=True)
            row["phase"] = name
            rows.append(row)
            print(
                f"  {name}: {row['moves_per_s']:,} moves/s, p99 {row['p99_ms']} ms",
                flush=True,
            )
            return row

        echo_sat = phase("echo, saturating", "echo", None)
        ours_sat = phase("server, saturating", "server", None, args.profile)
        half = args.rate or echo_sat["moves_per_s"] / 2
        echo_half = phase("echo, paced at half the ceiling", "echo", half)
        ours_half = phase("server, paced at half the ceiling", "server", half, args.profile_paced)
        if not args.quick:
            # where the server's p99 stands with headroom
            phase("server, paced at a quarter of the ceiling", "server", half / 2)
        stop_workers(children, pipes)
        if args.trace:
            with open(args.trace, "w") as out:
                out.write("phase,sent_s,round_trip_ms\n")
                for name, moves in traces:
                    out.writelines(f'"{name}",{t:.6f},{ms * 1000:.3f}\n' for t, ms in moves)
            print(f"  every timed move: {args.trace}", flush=True)

        report["connections_held_by_server"] = held
        report["rows"] = rows
        report["ratios"] = ratios(echo_sat, ours_sat, echo_half, ours_half)

        if scale and args.url is None:
            print(f"scale: {scale:,} idle racers in rooms of {args.room}", flush=True)
            children.stop_popen(server)
            assert redis is not None
            redis.flushall()
            server, url = start_server(children, redis_url, tmp, args.server_tree)
            time.sleep(1.0)
            import psutil

            pin(server.pid, server_cpus)
            sproc = psutil.Process(server.pid)
            idle_rss = sproc.memory_info().rss
            t0 = time.perf_counter()
            cfg = {
                **cfg,
                "url": url,
                "echo_url": None,
                "prefix": secrets.token_hex(2),
                "one_move": True,
            }
            pipes, ready = start_workers(children, cfg, args.procs, scale)
            for proc in children.procs:
                pin(proc.pid, load_cpus)
            setup_s = time.perf_counter() - t0
            time.sleep(2.0)
            rss = sproc.memory_info().rss
            held_scale = connections_of(server.pid)
            racers = sum(r["ready"] for r in ready)
            report["scale"] = {
                "racers": racers,
                "room": args.room,
                "connections_held_by_server": held_scale,
                "setup_s": round(setup_s, 1),
                "idle_server_rss_mib": round(idle_rss / 2**20, 1),
                "server_rss_mib": round(rss / 2**20, 1),
                "rss_per_racer_kib": round((rss - idle_rss) / racers / 1024, 1),
                "games_in_memory": racers,
            }
            stop_workers(children, pipes)

        report["targets_met"] = targets_met(report, ours_half)
        report["elapsed_s"] = round(time.perf_counter() - began, 1)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except Exception:
        log = tmp / "server.log"
        if log.exists():
            errors = [line for line in log.read_text().splitlines() if '"ERROR"' in line]
            print("server log, last errors:", *errors[-3:], sep="\n", file=sys.stderr)
        raise
    finally:
        children.stop_all()

    print_summary(report, echo_half, ours_half)
    text = json.dumps(report, indent=2)
    print(text)
    if args.json_out:
        Path(args.json_out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
