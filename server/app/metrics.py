"""``GET /metrics`` in the Prometheus text format: connections, rooms, moves, a move
latency histogram, Redis errors. Counters are plain ints on the hot path; the text is
built only when scraped.

>>> m = Metrics()
>>> m.observe_move(0.0012)
>>> 'patience_move_seconds_bucket{le="0.002"} 1' in m.render(connections=3, rooms={})
True
"""

from __future__ import annotations

import time
from typing import Final

#: upper bounds of the move latency buckets, in seconds (Final: compiled, a C variable
#: of its own rather than a lookup in the module's dictionary a move)
BUCKETS: Final[tuple[float, ...]] = (
    0.0005,
    0.001,
    0.002,
    0.005,
    0.01,
    0.02,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
)


class Metrics:
    def __init__(self) -> None:
        self.started = time.time()
        self.moves = 0
        self.requests = 0
        self.errors = 0
        self.redis_errors = 0
        self._counts = [0] * (len(BUCKETS) + 1)
        self._sum = 0.0

    def observe_move(self, seconds: float) -> None:
        """One accepted move, handled in ``seconds`` (from its frame to its reply)."""
        self.moves += 1
        # the first bucket whose bound is not below it, as ``bisect.bisect_left`` finds
        # it (a loop, compiled, over the bounds as C doubles: cheaper than the call)
        at = 0
        for bound in BUCKETS:
            if bound >= seconds:
                break
            at += 1
        self._counts[at] += 1
        self._sum += seconds

    def render(
        self,
        connections: int,
        rooms: dict[str, int],
        counters: dict[str, tuple[str, int]] | None = None,
        build: tuple[str, str] | None = None,
    ) -> str:
        """The text; ``counters`` adds ``patience_<name>_total`` counters (help, value);
        ``build``, the version and the build (``patience_build_info``)."""
        lines = [
            "# HELP patience_connections Open websocket connections.",
            "# TYPE patience_connections gauge",
            f"patience_connections {connections}",
            "# HELP patience_rooms Race rooms held by this process, by state.",
            "# TYPE patience_rooms gauge",
            *(f'patience_rooms{{state="{state}"}} {n}' for state, n in sorted(rooms.items())),
            "# HELP patience_moves_total Moves accepted (acknowledged after Redis had them).",
            "# TYPE patience_moves_total counter",
            f"patience_moves_total {self.moves}",
            "# HELP patience_requests_total Requests answered.",
            "# TYPE patience_requests_total counter",
            f"patience_requests_total {self.requests}",
            "# HELP patience_errors_total Requests answered with an error.",
            "# TYPE patience_errors_total counter",
            f"patience_errors_total {self.errors}",
            "# HELP patience_redis_errors_total Requests that failed on a Redis error.",
            "# TYPE patience_redis_errors_total counter",
            f"patience_redis_errors_total {self.redis_errors}",
            "# HELP patience_move_seconds Time from a move's frame to its reply.",
            "# TYPE patience_move_seconds histogram",
        ]
        cumulative = 0
        for bound, count in zip(BUCKETS, self._counts, strict=False):
            cumulative += count
            lines.append(f'patience_move_seconds_bucket{{le="{bound}"}} {cumulative}')
        cumulative += self._counts[-1]
        lines += [
            f'patience_move_seconds_bucket{{le="+Inf"}} {cumulative}',
            f"patience_move_seconds_sum {self._sum:.6f}",
            f"patience_move_seconds_count {cumulative}",
            "# HELP patience_uptime_seconds Seconds since the process started.",
            "# TYPE patience_uptime_seconds gauge",
            f"patience_uptime_seconds {time.time() - self.started:.0f}",
        ]
        for name, (help_text, value) in sorted((counters or {}).items()):
            lines += [
                f"# HELP patience_{name}_total {help_text}",
                f"# TYPE patience_{name}_total counter",
                f"patience_{name}_total {value}",
            ]
        if build is not None:
            version, digest = build
            lines += [
                "# HELP patience_build_info The version and the build this process runs.",
                "# TYPE patience_build_info gauge",
                f'patience_build_info{{version="{version}",build="{digest}"}} 1',
            ]
        return "\n".join(lines) + "\n"
