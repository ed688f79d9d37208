"""What a new server spends certifying the daily deals: a fresh Redis, the server started
on it with the default certification settings, and the times until today's deals are
fixed and until every deal it certifies (and, with the search for par apart, every par)
is done, with the CPU of the server and its worker processes.

    .venv/bin/python bench/certify_start.py [--tree DIR] [--cap 900]

``--tree`` runs the server of another checkout (to compare with an earlier commit).
Prints a table; the deals it waits for are those the certifier is the first to fix: the
two days past the 8 whose deals a new server fixes at once, uncertified, to publish their
commitments (``docs/commitments.md``), ten games each (``certify_ahead`` 9: days 8 and
9 ahead). With ``--tree`` an older checkout (``certify_ahead`` 1, no commitments), pass
``--days 0`` to wait for today's and tomorrow's as before.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from redis import Redis  # noqa: E402

from server.app.domain.daily import day_of, next_day  # noqa: E402
from server.app.embedded_redis import EmbeddedRedis  # noqa: E402
from server.engine import GAMES  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")


def cpu_of_tree(root: int) -> tuple[float, list[tuple[int, str, float, int]]]:
    """CPU seconds of ``root`` and its descendants (Redis left out), and each one's
    (pid, name, CPU seconds, nice)."""
    stats: dict[int, tuple[int, str, float, int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            text = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        name = text[text.index("(") + 1 : text.rindex(")")]
        fields = text[text.rindex(")") + 2 :].split()
        cpu = (int(fields[11]) + int(fields[12])) / TICKS
        stats[int(entry)] = (int(fields[1]), name, cpu, int(fields[16]))
    total, found, todo = 0.0, [], [root]
    while todo:
        pid = todo.pop()
        if pid not in stats:
            continue
        _, name, cpu, nice = stats[pid]
        if "redis" not in name:
            total += cpu
            found.append((pid, name, round(cpu, 1), nice))
        todo += [child for child, stat in stats.items() if stat[0] == pid]
    return total, found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", type=Path, default=ROOT, help="the checkout to run")
    parser.add_argument("--cap", type=float, default=900, help="seconds to wait at most")
    parser.add_argument(
        "--days", type=int, default=8, help="days ahead of the first day waited for (8)"
    )
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="patience-certify-"))
    redis = EmbeddedRedis(tmp / "redis")
    client = Redis.from_url(redis.start())
    env = {
        **os.environ,
        "PATIENCE_REDIS_URL": redis.url,
        "PATIENCE_DATA_DIR": str(tmp / "server"),
        "PATIENCE_SECRET": "certify-start",
        "PATIENCE_PORT": "0",
        "PYTHONPATH": str(args.tree.resolve()),
    }
    t0 = time.monotonic()
    log = tmp / "server.log"
    server = subprocess.Popen(
        [sys.executable, "-m", "server.cli"],
        cwd=args.tree,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=log.open("wb"),
    )
    today = day_of(time.time_ns() // 1_000_000)
    for _ in range(args.days):
        today = next_day(today)  # (the first day waited for: "today" below)
    days = [today, next_day(today)]
    first: tuple[float, float] | None = None
    settled_at = None
    pars: list[str] = []
    try:
        while time.monotonic() - t0 < args.cap:
            time.sleep(0.5)
            keys = {
                key.decode() if isinstance(key, bytes) else key for key in client.keys("deal:*")
            }
            if first is None and all(f"deal:{today}:{game}" in keys for game in GAMES):
                first = (time.monotonic() - t0, cpu_of_tree(server.pid)[0])
            fixed = all(f"deal:{day}:{game}" in keys for day in days for game in GAMES)
            claims = [key for key in keys if key.endswith(":claim")]
            pars = [key for key in keys if key.endswith(":par")]
            if fixed and not claims:
                # nothing certifying for a few seconds: done (older servers keep par in
                # the deal itself, newer ones in deal:...:par)
                settled_at = settled_at or time.monotonic()
                if time.monotonic() - settled_at > 3:
                    break
            else:
                settled_at = None
        wall = time.monotonic() - t0
        cpu, processes = cpu_of_tree(server.pid)
    finally:
        server.terminate()
        server.wait(20)
        redis.stop()
    lines = [line for line in log.read_text().splitlines() if "certif" in line.lower()]
    print("| figure | value |\n|---|---|")
    if first is not None:
        print(f"| the first day's {len(GAMES)} deals fixed | {first[0]:.1f} s "
              f"({first[1]:.1f} s of CPU) |")  # fmt: skip
    print(f"| all {len(days) * len(GAMES)} deals done (pars: {len(pars)}) | {wall:.1f} s "
          f"({cpu:.1f} s of CPU, server and workers) |")  # fmt: skip
    nices = sorted({nice for _, name, _, nice in processes})
    print(f"| nice values of the server and its workers | {', '.join(map(str, nices))} |")
    print(f"| certification log lines | {len(lines)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
