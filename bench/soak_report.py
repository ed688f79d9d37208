"""The soak's figures: one table, the must-be-zero figures and must-hold checks checked,
and JSON."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Figures:
    seconds: float = 0.0
    commit: str = ""
    frames_asked: int = 0
    fuzz_frames: int = 0
    frames: dict[str, int] = field(default_factory=dict)
    replies: dict[str, int] = field(default_factory=dict)
    closes: dict[str, int] = field(default_factory=dict)
    dropped: dict[str, int] = field(default_factory=dict)
    connections: int = 0
    kicks: int = 0
    bombs_sent: int = 0
    bombs_refused: int = 0
    floods: list[dict[str, Any]] = field(default_factory=list)
    caps: dict[str, Any] | None = None
    ballast: dict[str, Any] | None = None
    redis_loads: list[dict[str, Any]] = field(default_factory=list)
    both: dict[str, Any] | None = None
    crossed_joins: int = 0
    room_sequences: int = 0
    races_finished: int = 0
    racer_moves: int = 0
    rss_before_kib: int | None = None
    rss_after_kib: int | None = None
    rss_end_kib: int | None = None
    server_kills: int = 0
    redis_kills: int = 0
    restarts: list[str] = field(default_factory=list)
    checks: list[dict[str, Any]] = field(default_factory=list)  # lost-move checks
    tracebacks: int = 0
    traceback_kinds: dict[str, int] = field(default_factory=dict)
    unanswered: int = 0
    violations: int = 0
    stranded: int = 0
    lost: int = 0
    incomplete: list[str] = field(default_factory=list)
    samples: dict[str, list[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)

    def failures(self) -> list[str]:
        """Each must-be-zero figure that is not, and each phase that did not complete."""
        out = []
        if self.tracebacks:
            out.append(f"tracebacks in the server log: {self.tracebacks}")
        if self.unanswered:
            out.append(f"requests never answered: {self.unanswered}")
        if self.lost:
            out.append(f"acknowledged moves lost: {self.lost}")
        if self.stranded:
            out.append(f"races stranded (no race_start or results): {self.stranded}")
        if self.violations:
            out.append(f"protocol violations: {self.violations}")
        for flood in self.floods:
            if not flood["ok"]:
                who = "signed in" if flood["signed_in"] else "not signed in"
                out.append(f"the flooder ({who}): {flood['why']}")
        if self.caps is not None and not self.caps["ok"]:
            out.append(f"the cap per address: {self.caps['why']}")
        out += [f"incomplete: {what}" for what in self.incomplete]
        return out

    def json(self) -> dict[str, Any]:
        return {**asdict(self), "failures": self.failures()}


def _counts(counts: dict[str, int]) -> str:
    if not counts:
        return "none"
    return ", ".join(f"{k} {v:,}" for k, v in sorted(counts.items(), key=lambda kv: -kv[1]))


def _kib(value: int | None) -> str:
    return "?" if value is None else f"{value / 1024:.1f} MiB"


def _flood(flood: dict[str, Any]) -> list[tuple[str, str]]:
    who = "signed in" if flood["signed_in"] else "not signed in"
    close = flood.get("close")
    closed = f"closed {close[0]} {close[1]!r}" if close else "NOT CLOSED"
    before, during = flood.get("probe_before", {}), flood.get("probe_during", {})

    def rtt(probe: dict[str, Any]) -> str:
        if not probe.get("n"):
            return "none"
        return f"median {probe['median_ms']} ms, max {probe['max_ms']} ms ({probe['n']} pings)"

    return [
        (
            f"FLOODER, {who} (must be closed 1008)",
            f"{flood['sent']:,} pings in {flood['writes']} writes: {_counts(flood['replies'])}; "
            f"{closed} after {flood['seconds']:.2f} s",
        ),
        ("  probe's ping round trip during the flood", f"{rtt(during)}; before: {rtt(before)}"),
    ]


def _caps(caps: dict[str, Any]) -> str:
    again = (
        f"let in again after all closed ({caps['refused_before_again']} refused first)"
        if caps["again"]
        else "NOT let in again after all closed"
    )
    return (
        f"{caps['opened']} from {caps['address']}: {caps['admitted']} let in, "
        f"{caps['refused_1013']} closed 1013 (the reason checked); {again}"
    )


def _loads(f: Figures) -> str:
    parts = []
    for load in f.redis_loads:
        text = f"after {load['after']} {load['seconds']:.2f} s"
        if load.get("logged") is not None:
            text += f" (its log: {load['logged']:.2f} s)"
        if load.get("asked_while_loading"):
            text += (
                f", {load['asked_while_loading']} requests asked while loading: "
                f"{_counts(load['replies'])}"
            )
        parts.append(text)
    return "; ".join(parts) or "none"


def table(f: Figures) -> str:
    rows = [
        ("run", f"{f.seconds:.0f} s, commit {f.commit or '?'}"),
        ("fuzz frames sent", f"{f.fuzz_frames:,} of {f.frames_asked:,}"),
        ("frames sent, by sender", _counts(f.frames)),
        ("connections opened", f"{f.connections:,} ({f.kicks} signed in elsewhere)"),
        ("crossed joins, room sequences", f"{f.crossed_joins}, {f.room_sequences}"),
        ("races finished, racer moves acked", f"{f.races_finished}, {f.racer_moves:,}"),
        ("replies by type and error code", _counts(f.replies)),
        ("closes by code", _counts(f.closes)),
        ("requests dropped with their connection", _counts(f.dropped)),
        ("allocation bombs sent, refused", f"{f.bombs_sent:,}, {f.bombs_refused:,}"),
        ("server RSS before, after the fuzz", f"{_kib(f.rss_before_kib)}, {_kib(f.rss_after_kib)}"),
        ("server RSS at the end (restarted)", _kib(f.rss_end_kib)),
    ]
    for flood in f.floods:
        rows += _flood(flood)
    if f.caps is not None:
        rows.append(("CAP per address (must hold)", _caps(f.caps)))
    if f.ballast is not None:
        b = f.ballast
        rows.append(
            (
                "redis ballast",
                f"{b['megabytes']:g} MB: {b['keys']:,} keys, append-only file "
                f"{b['aof_bytes'] / 2**20:.1f} MiB, written in {b['seconds']:.1f} s",
            )
        )
    rows.append(("redis load time", _loads(f)))
    if f.both is not None:
        waited = f.both["server_logged_wait"]
        rows.append(
            (
                "server started on a loading redis",
                "waited for it to load its data"
                + (f" ({waited} s, its log)" if waited is not None else "")
                if f.both["server_waited"]
                else "Redis had loaded before the server asked (no wait logged)",
            )
        )
    rows.append(("kills -9: server, redis", f"{f.server_kills}, {f.redis_kills}"))
    rows += [(f"  {r.split(':')[0]}", r.split(":", 1)[1].strip()) for r in f.restarts]
    for check in f.checks:
        rows.append(
            (
                f"acked moves found after {check['after']}",
                f"{check['found']:,} of {check['sent']:,} (lost {check['sent'] - check['found']})",
            )
        )
    rows += [
        ("TRACEBACKS in the server log (must be 0)", f"{f.tracebacks}"),
        ("UNANSWERED requests (must be 0)", f"{f.unanswered}"),
        ("LOST acknowledged moves (must be 0)", f"{f.lost}"),
        ("STRANDED races (must be 0)", f"{f.stranded}"),
        ("PROTOCOL violations (must be 0)", f"{f.violations}"),
    ]
    width = max(len(k) for k, _ in rows)
    lines = [f"{k.ljust(width)}  {v}" for k, v in rows]
    if f.traceback_kinds:
        lines.append("tracebacks by message: " + _counts(f.traceback_kinds))
    for what, texts in f.samples.items():
        if texts:
            lines.append(f"{what}:")
            lines += [f"  {t}" for t in texts]
    lines += [f"note: {n}" for n in f.notes]
    failures = f.failures()
    lines.append(
        "FAILED: " + "; ".join(failures)
        if failures
        else "all must-be-zero figures are 0, and all must-hold checks held"
    )
    return "\n".join(lines)
