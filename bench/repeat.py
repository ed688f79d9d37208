"""The load test run several times, alternating server trees, summed up: one run is not
enough on a shared 2-CPU machine (the echo's ceiling alone moves by half from run to run).

    .venv/bin/python bench/repeat.py [--runs 3] [--server-tree DIR ...] [-- LOAD ARGS]

Each run is ``python -m bench.load --scale 0 --json-out FILE`` plus the arguments after
``--`` (``--seconds 5`` by default), run from the repository's root, for each
``--server-tree`` in turn (default: this checkout). It prints one row a run and the
medians of each tree: the echo's ceiling, the server's saturating throughput and CPU a
move, the ratio, p50 and p99 paced at half the ceiling with the server's CPU there, p99
paced at a quarter (absent with ``--quick``), and the most CPU anything else on the
machine took in any phase (a run where it is over 10% was disturbed). *CPU ratio* is
the echo's CPU a move over the server's (:func:`cpu_ratio`), beside the throughput
ratio, which the goal is stated in.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.load.servers import tree_options  # noqa: E402

COLUMNS = (
    ("echo/s", lambda r, d: r["echo, saturating"]["moves_per_s"]),
    ("server/s", lambda r, d: r["server, saturating"]["moves_per_s"]),
    ("µs/move", lambda r, d: r["server, saturating"].get("server_cpu_us_per_move")),
    ("ratio", lambda r, d: d["ratios"]["throughput_ours_over_bare"]),
    ("CPU ratio", lambda r, d: cpu_ratio(r)),
    ("half: p50 ms", lambda r, d: r["server, paced at half the ceiling"]["p50_ms"]),
    ("half: p99 ms", lambda r, d: r["server, paced at half the ceiling"]["p99_ms"]),
    ("half: CPU %", lambda r, d: r["server, paced at half the ceiling"].get("server_cpu_pct")),
    (
        "quarter: p99 ms",
        lambda r, d: r.get("server, paced at a quarter of the ceiling", {}).get("p99_ms"),
    ),
    ("other CPU %", lambda r, d: max(row.get("other_cpu_pct", 0) for row in d["rows"])),
)


def cpu_ratio(rows: dict[str, Any]) -> float | None:
    """The echo's CPU a move over the server's, each saturating: what the throughput
    ratio would be were both bound by their own CPU alone. It moves less than the ratio
    with the machine's speed, which the echo's phase and the server's meet apart."""
    echo = rows["echo, saturating"].get("server_cpu_us_per_move")
    ours = rows["server, saturating"].get("server_cpu_us_per_move")
    return round(echo / ours, 3) if echo and ours else None


def summary(report: dict[str, Any]) -> list[Any]:
    """A run's row: the value of each of :data:`COLUMNS`."""
    rows = {row["phase"]: row for row in report["rows"]}
    return [value(rows, report) for _, value in COLUMNS]


def median(values: list[Any]) -> Any:
    present = [v for v in values if v is not None]
    if not present:
        return None
    middle = statistics.median(present)
    if all(isinstance(v, int) for v in present):
        return round(middle)  # counts stay whole (the median of an even number of runs)
    return round(middle, 3) if isinstance(middle, float) else middle


def main() -> int:
    argv = sys.argv[1:]
    load_args = ["--seconds", "5"]
    if "--" in argv:
        at = argv.index("--")
        argv, load_args = argv[:at], argv[at + 1 :]
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    tree_options(parser)
    parser.set_defaults(runs=3)
    args = parser.parse_args(argv)
    trees: list[str | None] = list(args.server_tree) or [None]
    rows: dict[str | None, list[list[Any]]] = {tree: [] for tree in trees}
    header = "| server tree | run | " + " | ".join(name for name, _ in COLUMNS) + " |"
    print(header)
    print("|" + "---|" * (len(COLUMNS) + 2), flush=True)
    with tempfile.TemporaryDirectory(prefix="patience-repeat-") as tmp:
        for run in range(1, args.runs + 1):
            for tree in trees:
                out = Path(tmp) / f"run{run}.json"
                command = [sys.executable, "-m", "bench.load", "--scale", "0"]
                command += ["--json-out", str(out), *load_args]
                if tree:  # resolved here: the load test runs from the repository's root
                    command += ["--server-tree", str(Path(tree).resolve())]
                done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT)
                if done.returncode != 0:
                    print(done.stdout[-2000:] + done.stderr[-2000:], file=sys.stderr)
                    return done.returncode
                row = summary(json.loads(out.read_text()))
                rows[tree].append(row)
                cells = " | ".join("-" if v is None else str(v) for v in row)
                print(f"| {tree or ROOT} | {run} | {cells} |", flush=True)
    for tree, each in rows.items():
        medians = [median([row[i] for row in each]) for i in range(len(COLUMNS))]
        cells = " | ".join("-" if v is None else f"**{v}**" for v in medians)
        print(f"| {tree or ROOT} | median | {cells} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
