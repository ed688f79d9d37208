"""Settings: read once from flags and ``PATIENCE_*`` environment variables, then frozen.

Every variable is listed in ``docs/server.md``; a flag beats its variable, which beats the
default.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any


class Clock:
    """Server time in milliseconds since the Unix epoch. Tests pass their own clock."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8765
    #: ``redis://`` or ``unix://`` URL of Redis 6.2+ (or Valkey); None starts an embedded one
    redis_url: str | None = None
    data_dir: Path = Path("data")
    log_level: str = "INFO"
    #: largest incoming frame, in bytes; bigger closes the connection (1009)
    max_frame: int = 4096
    #: requests per second a connection may send on average, and the burst it may save up
    rate: float = 30.0
    burst: int = 60
    #: outgoing bytes buffered for one connection before it is dropped as too slow
    max_outgoing: int = 1 << 20
    #: seconds between the host's start and the deal
    countdown: float = 5.0
    #: seconds a finished game or room is kept; results are kept for good
    ended_ttl: int = 24 * 3600
    #: seconds an idle lobby or unfinished solo game is kept
    idle_ttl: int = 7 * 24 * 3600
    clock: Clock = field(default_factory=Clock, compare=False)

    @classmethod
    def load(
        cls, argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None
    ) -> Settings:
        env = os.environ if environ is None else environ
        parser = argparse.ArgumentParser(add_help=False)
        for f in fields(cls):
            if f.name == "clock":
                continue
            parser.add_argument("--" + f.name.replace("_", "-"), dest=f.name, default=None)
        args, _ = parser.parse_known_args(argv or [])
        values: dict[str, Any] = {}
        for f in fields(cls):
            if f.name == "clock":
                continue
            raw = getattr(args, f.name)
            if raw is None:
                raw = env.get(ENV_NAMES[f.name])
            if raw is None or raw == "":
                continue
            values[f.name] = _convert(f.name, raw)
        return cls(**values)


def _convert(name: str, raw: str) -> Any:
    default = getattr(Settings, name, None)
    try:
        if name == "data_dir":
            return Path(raw)
        if name == "redis_url":
            return raw
        if isinstance(default, bool):
            return raw.lower() in ("1", "true", "yes")
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
    except ValueError:
        raise SystemExit(f"setting {name}: cannot read {raw!r}") from None
    return raw


ENV_NAMES: dict[str, str] = {
    f.name: "PATIENCE_" + f.name.upper() for f in fields(Settings) if f.name != "clock"
}
