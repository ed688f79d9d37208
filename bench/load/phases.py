"""A phase, from both sides: in each load process :func:`drive_phase` drives its
connections from the phase's start to its end, recording from the end of the warm-up; in
the parent :func:`run_phase` tells the load processes when, samples the processes measured
(:class:`Probe`) around the measured window, and sums up their latencies and counts.
"""

from __future__ import annotations

import asyncio
import time
from array import array
from multiprocessing.connection import Connection
from typing import Any

from .client import Conn, Stats


async def drive_phase(conns: list[Conn], command: dict[str, Any]) -> Stats:
    """Drive ``conns`` from ``start`` to ``end``, recording from ``record_at``: as fast as
    replies come (``rate`` None), or each at ``rate`` moves a second."""
    stats = Stats()
    for conn in conns:
        conn.stats = stats
    rate: float | None = command.get("rate")
    start, end, record_at = command["start"], command["end"], command["record_at"]
    perf = time.perf_counter

    async def recorder() -> None:
        # replies that arrive inside [record_at, end) count, and their latencies
        await asyncio.sleep(max(0.0, record_at - perf()))
        stats.recording = True
        await asyncio.sleep(max(0.0, end - perf()))
        stats.recording = False

    async def run(conn: Conn) -> None:
        await asyncio.sleep(max(0.0, start - perf()))
        interval = None if rate is None else 1.0 / rate
        due = start if interval is None else start + conn.rng.random() * interval
        while True:
            if await conn.prepare() and interval is not None:
                # a racer between games (resigned, dealt a new one, waiting for the
                # rematch) does not make up for that time with a burst of moves after
                due = max(due, perf())
            due, over = await conn.moves(interval, due, end)
            if over:
                return

    rec = asyncio.get_running_loop().create_task(recorder())
    try:
        await asyncio.gather(*(run(c) for c in conns))
    finally:
        rec.cancel()
    return stats


class Probe:
    """CPU and RSS of a process, Redis commands, between two samples."""

    def __init__(self, pid: int | None, redis: Any, others: list[int]) -> None:
        import psutil

        self.proc = psutil.Process(pid) if pid else None
        self.others = [psutil.Process(p) for p in others]
        self.redis = redis

    def _cpu(self, proc: Any) -> float:
        t = proc.cpu_times()
        return float(t.user + t.system)

    def sample(self) -> dict[str, float]:
        import psutil

        t = psutil.cpu_times()
        busy = t.user + t.nice + t.system + t.irq + t.softirq + t.steal
        out: dict[str, float] = {"t": time.perf_counter(), "busy": busy}
        if self.proc is not None:
            out["cpu"] = self._cpu(self.proc)
            out["cpu_sys"] = float(self.proc.cpu_times().system)
            out["rss"] = self.proc.memory_info().rss
        out["load_cpu"] = sum(self._cpu(p) for p in self.others)
        if self.redis is not None:
            info = self.redis.info("stats")
            out["redis_cmds"] = info["total_commands_processed"]
            out["rpush"] = self.redis.info("commandstats").get("cmdstat_rpush", {}).get("calls", 0)
            cpu = self.redis.info("cpu")
            out["redis_cpu"] = float(cpu["used_cpu_sys"]) + float(cpu["used_cpu_user"])
        return out


def connections_of(pid: int | None) -> int | None:
    if not pid:
        return None
    import psutil

    return sum(1 for c in psutil.Process(pid).net_connections("tcp") if c.status == "ESTABLISHED")


def percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return float("nan")
    i = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[i]


def run_phase(
    pipes: list[Connection],
    probe: Probe,
    target: str,
    rate_total: float | None,
    conns: int,
    warm: float,
    seconds: float,
    trace: list[tuple[float, float]] | None = None,
) -> dict[str, Any]:
    """One phase; with ``trace``, each timed move's (send time from the measured window's
    start, latency) added to it, in seconds."""
    start = time.perf_counter() + 0.2
    record_at = start + warm
    end = record_at + seconds
    per_conn = rate_total / conns if rate_total else None
    for pipe in pipes:
        pipe.send(
            {
                "cmd": "run",
                "target": target,
                "rate": per_conn,
                "start": start,
                "record_at": record_at,
                "end": end,
            }
        )
    time.sleep(max(0.0, record_at - time.perf_counter()))
    before = probe.sample()
    time.sleep(max(0.0, end - time.perf_counter()))
    after = probe.sample()
    lat: list[float] = []
    totals = {"moves": 0, "other": 0, "errors": 0, "progress": 0, "late": 0}
    for pipe in pipes:
        if not pipe.poll(warm + seconds + 60):
            raise RuntimeError("a load process did not report: is the server stuck?")
        result = pipe.recv()
        if "error" in result:
            raise RuntimeError(f"load process failed: {result['error']}")
        values = array("d")
        values.frombytes(result["lat"])
        lat.extend(values)
        if trace is not None:
            sent = array("d")
            sent.frombytes(result["sent"])
            trace.extend((t - record_at, latency) for t, latency in zip(sent, values, strict=True))
        for key in totals:
            totals[key] += result[key]
    lat.sort()
    wall = after["t"] - before["t"]
    row: dict[str, Any] = {
        "target": target,
        "mode": "saturating" if rate_total is None else "paced",
        "connections": conns,
        "offered_per_s": round(rate_total) if rate_total else None,
        "moves_per_s": round(totals["moves"] / seconds),
        "p50_ms": round(percentile(lat, 0.50) * 1000, 2),
        "p95_ms": round(percentile(lat, 0.95) * 1000, 2),
        "p99_ms": round(percentile(lat, 0.99) * 1000, 2),
        "max_ms": round(lat[-1] * 1000, 2) if lat else None,
        "progress_events_per_s": round(totals["progress"] / seconds),
        "other_requests_per_s": round(totals["other"] / seconds),
        "errors": totals["errors"],
        "late_sends": totals["late"],
        "load_cpu_pct": round(100 * (after["load_cpu"] - before["load_cpu"]) / wall),
    }
    ours = after["load_cpu"] - before["load_cpu"]
    if "cpu" in before:
        cpu = after["cpu"] - before["cpu"]
        ours += cpu
        row["server_cpu_pct"] = round(100 * cpu / wall)
        row["server_cpu_us_per_move"] = round(1e6 * cpu / max(1, totals["moves"]))
        # the kernel's share: system calls (reads, writes, epoll) and what they wake
        row["server_sys_cpu_pct"] = round(100 * (after["cpu_sys"] - before["cpu_sys"]) / wall)
        row["server_rss_mib"] = round(after["rss"] / 2**20, 1)
    if "redis_cmds" in before and target == "server":
        redis_cpu = after["redis_cpu"] - before["redis_cpu"]
        ours += redis_cpu
        row["redis_cmds_per_s"] = round((after["redis_cmds"] - before["redis_cmds"]) / wall)
        row["log_writes_per_s"] = round((after["rpush"] - before["rpush"]) / wall)
        row["redis_cpu_pct"] = round(100 * redis_cpu / wall)
    # CPU this benchmark did not use: other work on the machine, which skews the figures
    row["other_cpu_pct"] = max(0, round(100 * (after["busy"] - before["busy"] - ours) / wall))
    return row
