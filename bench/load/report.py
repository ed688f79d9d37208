"""The figures: the ratios of the server to the echo, the targets, the table of the phases
and the summary printed at the end of a run.
"""

from __future__ import annotations

from typing import Any

COLUMNS = [
    ("phase", "phase"),
    ("connections", "conns"),
    ("offered_per_s", "offered/s"),
    ("moves_per_s", "moves/s"),
    ("p50_ms", "p50 ms"),
    ("p95_ms", "p95 ms"),
    ("p99_ms", "p99 ms"),
    ("max_ms", "max ms"),
    ("server_cpu_pct", "server CPU %"),
    ("server_cpu_us_per_move", "server CPU µs/move"),
    ("server_rss_mib", "server RSS MiB"),
    ("redis_cmds_per_s", "Redis cmds/s"),
    ("progress_events_per_s", "progress events/s"),
    ("load_cpu_pct", "load CPU %"),
    ("other_cpu_pct", "other CPU %"),
]


def table(rows: list[dict[str, Any]]) -> str:
    def cell(value: Any) -> str:
        if value is None:
            return "-"
        if isinstance(value, int) and not isinstance(value, bool):
            return f"{value:,}"
        return str(value)

    lines = ["| " + " | ".join(h for _, h in COLUMNS) + " |"]
    lines.append("|" + "|".join("---" for _ in COLUMNS) + "|")
    for row in rows:
        lines.append("| " + " | ".join(cell(row.get(k)) for k, _ in COLUMNS) + " |")
    return "\n".join(lines)


def ratios(
    echo_sat: dict[str, Any],
    ours_sat: dict[str, Any],
    echo_half: dict[str, Any],
    ours_half: dict[str, Any],
) -> dict[str, float]:
    """The server's figures over the echo's, saturating and at half the ceiling."""
    return {
        "throughput_ours_over_bare": round(ours_sat["moves_per_s"] / echo_sat["moves_per_s"], 3),
        "p99_ours_over_bare_saturating": round(ours_sat["p99_ms"] / echo_sat["p99_ms"], 2),
        "p99_ours_over_bare_at_half": round(ours_half["p99_ms"] / echo_half["p99_ms"], 2),
    }


def targets_met(report: dict[str, Any], ours_half: dict[str, Any]) -> dict[str, bool]:
    """Whether the run met the targets: throughput, p99 at half the ceiling, and 10,000
    racers in 1 GiB (projected from a smaller scale run)."""
    targets = {
        "throughput_at_least_half_the_ceiling": report["ratios"]["throughput_ours_over_bare"]
        >= 0.5,
        "p99_at_half_the_ceiling_at_most_10_ms": ours_half["p99_ms"] <= 10,
    }
    if "scale" in report:
        sc = report["scale"]
        if sc["racers"] >= 10_000:
            targets["10k_racers_in_1_GiB"] = sc["server_rss_mib"] <= 1024
        else:  # a smaller scale run: its figure per racer, times 10,000
            projected = sc["idle_server_rss_mib"] + sc["rss_per_racer_kib"] * 10_000 / 1024
            targets[f"10k_racers_in_1_GiB_projected_from_{sc['racers']}"] = projected <= 1024
    return targets


def print_summary(
    report: dict[str, Any], echo_half: dict[str, Any], ours_half: dict[str, Any]
) -> None:
    """The run in a few lines and the table of its phases (the JSON follows them)."""
    settings = report["settings"]
    print()
    print(
        f"{report['machine']['cpus']} cores, Python {report['machine']['python']}; "
        f"{settings['racers']} racers in rooms of {settings['room']} playing "
        f"{settings['game']}, {settings['procs']} load processes; server connections held: "
        f"{report['connections_held_by_server']}"
    )
    print(table(report["rows"]))
    r = report["ratios"]
    print(
        f"\nours/bare: throughput {r['throughput_ours_over_bare']}, "
        f"p99 at half the ceiling {r['p99_ours_over_bare_at_half']} "
        f"({ours_half['p99_ms']} ms vs {echo_half['p99_ms']} ms), "
        f"p99 saturating {r['p99_ours_over_bare_saturating']}"
    )
    if "scale" in report:
        s = report["scale"]
        print(
            f"scale: {s['racers']:,} racers connected and idle in rooms of {s['room']} "
            f"(races started, one move each), {s['connections_held_by_server']:,} connections "
            f"held; server RSS {s['server_rss_mib']} MiB ({s['idle_server_rss_mib']} MiB idle): "
            f"{s['rss_per_racer_kib']} KiB a racer; set up in {s['setup_s']} s"
        )
    targets = report["targets_met"]
    print("targets met:", ", ".join(f"{k} {'yes' if v else 'NO'}" for k, v in targets.items()))
    print(f"elapsed {report['elapsed_s']} s")
