"""``bench/repeat.py``'s summary of a load test's report: the columns read from its rows."""

from __future__ import annotations

from typing import Any

from bench.repeat import COLUMNS, cpu_ratio, summary


def report(echo_us: int | None, ours_us: int | None) -> dict[str, Any]:
    rows = [
        {"phase": "echo, saturating", "moves_per_s": 30000, "server_cpu_us_per_move": echo_us},
        {
            "phase": "server, saturating",
            "moves_per_s": 18000,
            "server_cpu_us_per_move": ours_us,
        },
        {"phase": "server, paced at half the ceiling", "p50_ms": 2.0, "p99_ms": 6.0},
    ]
    return {"rows": rows, "ratios": {"throughput_ours_over_bare": 0.6}}


def test_the_cpu_ratio_is_the_echos_cpu_a_move_over_the_servers() -> None:
    rows = {row["phase"]: row for row in report(30, 42)["rows"]}
    assert cpu_ratio(rows) == 0.714
    row = dict(zip([name for name, _ in COLUMNS], summary(report(30, 42)), strict=True))
    assert (row["ratio"], row["CPU ratio"], row["server/s"]) == (0.6, 0.714, 18000)


def test_no_cpu_ratio_without_both_figures() -> None:
    for echo, ours in ((None, 42), (30, None), (30, 0)):
        rows = {row["phase"]: row for row in report(echo, ours)["rows"]}
        assert cpu_ratio(rows) is None
