"""The soak's figures: one table, the must-be-zero figures checked, and JSON."""

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
        ("server RSS before, after the fuzz", f"{_kib(f.rss_before_kib)}, {_kib(f.rss_after_kib)}"),
        ("server RSS at the end (restarted)", _kib(f.rss_end_kib)),
        ("kills -9: server, redis", f"{f.server_kills}, {f.redis_kills}"),
    ]
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
    lines.append("FAILED: " + "; ".join(failures) if failures else "all must-be-zero figures are 0")
    return "\n".join(lines)
