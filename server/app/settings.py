"""Settings: read once from flags and ``PATIENCE_*`` environment variables, then frozen.

A flag beats its variable, which beats the default. ``docs/server.md`` lists them all;
``patience-race-server --help`` prints the same table.
"""

from __future__ import annotations

import argparse
import os
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit


class Clock:
    """Server time in milliseconds since the Unix epoch. Tests pass their own clock; a
    running server keeps Redis's (``server/app/clock.py``)."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000

    def redis_ms(self) -> int:
        """Redis's own time as best known, never moved by ``clock_offset`` (what its
        streams' ids count): here this machine's clock."""
        return time.time_ns() // 1_000_000


class ShiftedClock(Clock):
    """The clock moved by a fixed number of milliseconds (the ``clock_offset`` setting):
    every process sharing a Redis must be given the same."""

    def __init__(self, shift_ms: int) -> None:
        self.shift_ms = shift_ms

    def now_ms(self) -> int:
        return super().now_ms() + self.shift_ms


@dataclass(frozen=True)
class Settings:
    host: str = "127.0.0.1"
    port: int = 8765
    redis_url: str | None = None
    redis_cluster: bool = False
    redis_load_timeout: float = 60.0
    redis_fsync: str = "always"
    data_dir: Path = Path("data")
    log_level: str = "INFO"
    max_frame: int = 4096
    rate: float = 30.0
    burst: int = 60
    max_outgoing: int = 1 << 20
    max_connections: int = 10_000
    max_connections_per_ip: int = 64
    client_ip_header: str | None = None
    countdown: float = 5.0
    ended_ttl: int = 24 * 3600
    idle_ttl: int = 7 * 24 * 3600
    forfeit_after: int = 300
    host_grace: int = 20
    sweep_interval: float = 15.0
    progress_interval: float = 0.1
    write_timeout: float = 5.0
    lock_wait: float = 10.0
    retry_pause: float = 0.25
    stuck_settle: float = 1.0
    slow_request: float = 30.0
    register_rate: int = 5
    register_burst: int = 30
    rename_days: int = 30
    name_kept_days: int = 90
    deal_rate: int = 30
    log_limit: int = 5000
    replay_ttl: int = 7 * 24 * 3600
    challenge_ttl: int = 30 * 24 * 3600
    challenge_rate: int = 20
    group_members: int = 100
    player_groups: int = 20
    rating_board_races: int = 5
    link_ttl: int = 300
    link_tries: int = 10
    secret: str | None = None
    certify_ahead: int = 9
    certify_budget: float = 10.0
    certify_candidates: int = 20
    rules_dir: Path | None = None
    quick_window: float = 3.0
    quick_widen: float = 2.0
    quick_widen_every: float = 5.0
    quick_gather: float = 3.0
    quick_ghosts_after: float = 20.0
    quick_tick: float = 1.0
    quick_players: int = 8
    quick_time_limit: int = 900
    clock_offset: float = 0.0
    clock: Clock = field(default_factory=Clock, compare=False)

    @classmethod
    def parser(cls) -> argparse.ArgumentParser:
        parser = argparse.ArgumentParser(
            prog="patience-race-server",
            description="Run the Patience Race server. Every flag has a PATIENCE_* variable.",
            epilog="Other commands (each with --help): patience-race-server games | "
            "deal GAME [--seed N] | play GAME [--seed N] | verify REPLAY_FILE | "
            "solve GAME | winnability GAME | difficulty GAME | native [build] | "
            "review (the results the pace policy held)",
        )
        for name, (help_text, _check) in OPTIONS.items():
            default = getattr(cls, name, None)
            shown = {
                "redis_url": "embedded Redis",
                "redis_cluster": "no",
                "secret": "DATA_DIR/secret",
                "rules_dir": "docs/games",
            }.get(name, default)
            shown = "unset" if shown is None else shown
            parser.add_argument(
                "--" + name.replace("_", "-"),
                dest=name,
                default=None,
                metavar=name.upper(),
                # (a setting with no default is unset, as the docs say: not "None")
                help=f"{help_text} [{ENV_NAMES[name]}; default {shown}]",
            )
        return parser

    @classmethod
    def load(
        cls, argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None
    ) -> Settings:
        """Settings from flags (``argv``) and the environment; exits with a message on an
        unknown flag or a bad value."""
        env = os.environ if environ is None else environ
        parser = cls.parser()
        args = parser.parse_args(list(argv or []))
        values: dict[str, Any] = {}
        sources: dict[str, str] = {}
        for name, (_help, check) in OPTIONS.items():
            raw = getattr(args, name)
            source = "--" + name.replace("_", "-")
            if raw is None:
                raw = env.get(ENV_NAMES[name])
                source = ENV_NAMES[name]
            if raw is None or raw == "":
                continue
            try:
                values[name] = check(raw)
            except ValueError as exc:
                parser.error(f"{source}: {exc}")
            sources[name] = source
        if values.get("redis_cluster"):
            problem = _cluster_url_problem(values.get("redis_url"))
            if problem:
                parser.error(f"{sources['redis_cluster']}: {problem}")
        if values.get("clock_offset"):
            values["clock"] = ShiftedClock(round(values["clock_offset"] * 1000))
        return cls(**values)


#: the largest a count, a size or a time in seconds may be set to (about 31 years): a
#: value past it (``inf``, 1e20) was taken, then failed when used (a TTL Redis refused,
#: a countdown's ms that are no integer)
MOST = 1_000_000_000


def _whole(raw: str) -> int:
    try:
        return int(raw)
    except ValueError:
        raise ValueError(f"must be a whole number, not {raw!r}") from None


def _positive_int(raw: str) -> int:
    value = _whole(raw)
    if not 0 < value <= MOST:
        raise ValueError(f"must be a positive integer up to {MOST:,}, not {raw!r}")
    return value


def _non_negative_int(raw: str) -> int:
    value = _whole(raw)
    if not 0 <= value <= MOST:
        raise ValueError(f"must be 0 or more, up to {MOST:,}, not {raw!r}")
    return value


def _number(raw: str) -> float:
    try:
        return float(raw)
    except ValueError:
        raise ValueError(f"must be a number, not {raw!r}") from None


def _positive_float(raw: str) -> float:
    value = _number(raw)
    if not 0 < value <= MOST:  # (nan and inf too)
        raise ValueError(f"must be a positive number up to {MOST:,}, not {raw!r}")
    return value


def _non_negative_float(raw: str) -> float:
    value = _number(raw)
    if not 0 <= value <= MOST:
        raise ValueError(f"must be 0 or more, up to {MOST:,}, not {raw!r}")
    return value


#: the clock moved at most ten years either way (seconds): the daily deals' days stay
#: real dates
CLOCK_SHIFT = 10 * 366 * 24 * 3600


def _clock_offset(raw: str) -> float:
    value = _number(raw)
    if not -CLOCK_SHIFT <= value <= CLOCK_SHIFT:  # (nan and inf too)
        raise ValueError(f"must be seconds within ten years either way, not {raw!r}")
    return value


def _quick_players(raw: str) -> int:
    value = _whole(raw)
    if not 2 <= value <= 16:
        raise ValueError(f"must be 2 to 16, not {value}")
    return value


def _port(raw: str) -> int:
    value = _whole(raw)
    if not 0 <= value <= 65535:
        raise ValueError(f"a port is 0 to 65535, not {raw!r}")
    return value


def _frame(raw: str) -> int:
    value = _whole(raw)
    if not 512 <= value <= 1 << 20:
        raise ValueError(f"must be 512 to 1048576 bytes, not {raw!r}")
    return value


def _level(raw: str) -> str:
    level = raw.upper()
    if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
        raise ValueError(f"a log level is DEBUG, INFO, WARNING, ERROR or CRITICAL, not {raw!r}")
    return level


def _fsync(raw: str) -> str:
    value = raw.strip().lower()
    if value not in ("always", "everysec"):
        raise ValueError(f"must be always or everysec, not {raw!r}")
    return value


def _header_name(raw: str) -> str:
    if not re.fullmatch(r"[A-Za-z0-9-]+", raw):
        raise ValueError(f"a header name is letters, digits and '-', not {raw!r}")
    return raw


def _secret(raw: str) -> str:
    """The daily deals' key: any text but the example Secret's placeholder
    (deploy/k8s/secret.example.yaml), which would key every deal with a text anyone
    can read."""
    if not raw.strip():  # (refused with the others, before the embedded Redis starts)
        raise ValueError("blank: give it a secret, or leave it unset")
    if raw.strip().upper().startswith("CHANGE-ME"):
        raise ValueError(
            f"{raw.strip()[:12]!r}... is the example's placeholder, not a secret: put one of "
            "your own there, e.g. python3 -c 'import secrets; print(secrets.token_hex(32))'"
        )
    return raw


def _folder(raw: str) -> Path:
    """A folder that is there (a rules folder mistyped served every game's one-line
    summary as its rules, and said nothing)."""
    path = Path(raw)
    if not path.is_dir():
        raise ValueError(f"{raw!r} is no folder here")
    return path


def shown_url(url: str) -> str:
    """A Redis URL as a log line or an error may show it: its password, if it has one,
    as ``***`` (the URL is a credential: deploy keeps it in a Secret).

    >>> shown_url("redis://:s3cret@redis.internal:6379/3")
    'redis://:***@redis.internal:6379/3'
    >>> shown_url("rediss://default:s3cret@h:6380/0?ssl_cert_reqs=none")
    'rediss://default:***@h:6380/0?ssl_cert_reqs=none'
    >>> shown_url("redis://127.0.0.1:6379/0")
    'redis://127.0.0.1:6379/0'
    >>> shown_url("unix:///tmp/redis.sock?password=s3cret&db=2")
    'unix:///tmp/redis.sock?password=***&db=2'
    """
    url = re.sub(r"(?<=[?&]password=)[^&#]*", "***", url)
    scheme, sep, rest = url.partition("://")
    if not sep:
        return url
    at = rest.rfind("@", 0, rest.find("/") if "/" in rest else len(rest))
    if at < 0:
        return url
    user, colon, _password = rest[:at].partition(":")
    return f"{scheme}://{user}{colon}{'***' if colon else ''}@{rest[at + 1 :]}"


def _redis_url(raw: str) -> str:
    shown = shown_url(raw)
    if not raw.startswith(("redis://", "rediss://", "unix://")):
        raise ValueError(f"a Redis URL starts redis://, rediss:// or unix://, not {shown!r}")
    try:
        parts = urlsplit(raw)
        parts.port  # noqa: B018 (read to check: out of range or no number raises)
    except ValueError as exc:
        why = "its port is 0 to 65535" if "ort" in str(exc) else str(exc)
        raise ValueError(f"{shown!r}: {why}") from None
    if parts.scheme == "unix" and not parts.path:
        raise ValueError(f"{shown!r}: a unix:// URL names the socket's path")
    # (redis-py reads a database that is no number as database 0, another program's)
    db = [parts.path.strip("/")] if parts.scheme != "unix" else []
    db += parse_qs(parts.query).get("db", [])
    for one in db:
        if one and not one.isdigit():
            raise ValueError(f"{shown!r}: its database is a number (/3), not {one!r}")
    return raw


def _yes_no(raw: str) -> bool:
    value = raw.strip().lower()
    if value in ("1", "true", "yes"):
        return True
    if value in ("0", "false", "no"):
        return False
    raise ValueError(f"must be 1, true or yes, or 0, false or no, not {raw!r}")


def _cluster_url_problem(url: str | None) -> str | None:
    """Why ``url`` cannot name a node of a Redis Cluster, or None if it can.

    >>> _cluster_url_problem("redis://10.0.0.5:7000")
    >>> _cluster_url_problem("redis://10.0.0.5:7000/3")
    'a Redis Cluster has database 0 only: the Redis URL names database 3'
    """
    if url is None:
        return "a Redis Cluster needs PATIENCE_REDIS_URL (--redis-url): one of its nodes"
    parts = urlsplit(url)
    if parts.scheme == "unix":
        return "a Redis Cluster is reached over TCP: redis:// or rediss://, not unix://"
    db = parts.path.strip("/") or parse_qs(parts.query).get("db", ["0"])[0]
    if db != "0":
        return f"a Redis Cluster has database 0 only: the Redis URL names database {db}"
    return None


#: every setting: what it means, and how its text is read and checked
OPTIONS: dict[str, tuple[str, Callable[[str], Any]]] = {
    "host": ("address to listen on", str),
    "port": ("port to listen on (0: any free port)", _port),
    "redis_url": ("Redis 6.2+ or Valkey to use, instead of an embedded one", _redis_url),
    "redis_cluster": ("yes: the Redis URL names one node of a Redis Cluster", _yes_no),
    "redis_load_timeout": (
        "seconds to wait at startup for Redis to load its data before giving up",
        _positive_float,
    ),
    "redis_fsync": (
        "when the embedded Redis fsyncs its append-only file: always (before it answers a "
        "write) or everysec (faster; a write Redis answered may be lost if it is killed)",
        _fsync,
    ),
    "data_dir": ("directory of the embedded Redis's files and the server's secret", Path),
    "log_level": ("DEBUG, INFO, WARNING, ERROR or CRITICAL", _level),
    "max_frame": ("largest request frame in bytes; a bigger one closes with 1009", _frame),
    "rate": ("requests a second one connection may send, on average", _positive_float),
    "burst": ("requests a connection may send at once, saved up", _positive_int),
    "max_outgoing": ("bytes queued to a client before it is dropped as too slow", _positive_int),
    "max_connections": (
        "open websocket connections; one more is closed with 1013; 0 no cap",
        _non_negative_int,
    ),
    "max_connections_per_ip": (
        "open websocket connections from one address (behind a proxy: the proxy's); 0 no cap",
        _non_negative_int,
    ),
    "client_ip_header": (
        "header a proxy in front puts the client's address in (the last one is taken), "
        "e.g. X-Forwarded-For; only when the port is reachable only through the proxy",
        _header_name,
    ),
    "countdown": ("seconds from the host's start to the deal", _non_negative_float),
    "ended_ttl": ("seconds a finished game or room is kept", _positive_int),
    "idle_ttl": ("seconds an idle lobby or unfinished game is kept", _positive_int),
    "forfeit_after": ("seconds a racer may be away before resigning; 0 never", _non_negative_int),
    "host_grace": (
        "seconds a lobby's or finished race's host may be away before the part passes on; "
        "0 at once",
        _non_negative_int,
    ),
    "sweep_interval": ("seconds between housekeeping passes", _positive_float),
    "progress_interval": (
        "seconds between a room's progress events for one racer; 0 one per move",
        _non_negative_float,
    ),
    "write_timeout": (
        "seconds Redis has to answer a batch of log writes before they fail; 0 no limit",
        _non_negative_float,
    ),
    "lock_wait": (
        "seconds a request waits for a room another change holds (else room_busy)",
        _positive_float,
    ),
    "retry_pause": (
        "seconds before a room's step or the bus's subscription that failed on Redis is "
        "tried again (a room's step: twice as long each time, up to 8 times this)",
        _positive_float,
    ),
    "stuck_settle": (
        "seconds a game stands still after a move before the stuck check looks at it",
        _non_negative_float,
    ),
    "slow_request": (
        "seconds a request may be in hand before it is logged with where it waits",
        _positive_float,
    ),
    "register_rate": (
        "players registered an hour from one client address once its burst is spent; 0 no limit",
        _non_negative_int,
    ),
    "register_burst": (
        "players one client address may register at once (a class, an office), before "
        "register_rate an hour",
        _positive_int,
    ),
    "rename_days": (
        "days a player waits between two changes of name (rename); 0 no wait",
        _non_negative_int,
    ),
    "name_kept_days": (
        "days a player's former name stays theirs after a change: nobody else may take it",
        _non_negative_int,
    ),
    "deal_rate": (
        "new solo games one player may deal a minute (new_game); 0 no limit",
        _non_negative_int,
    ),
    "log_limit": (
        "entries (moves and undos) a game's log may hold; past it they are refused "
        "(rate_limited), resigning still ends the game; 0 no limit",
        _non_negative_int,
    ),
    "replay_ttl": (
        "seconds a finished solo, practice or challenge game is kept, its replay made from "
        "it (kept longer once a challenge races it)",
        _positive_int,
    ),
    "rating_board_races": (
        "rated races a player needs to show on a game's rating board (rating/GAME)",
        _positive_int,
    ),
    "challenge_ttl": (
        "seconds a challenge, its table and the replays it races are kept from its making",
        _positive_int,
    ),
    "challenge_rate": (
        "challenges one player may make (or race from a replay) an hour; 0 no limit",
        _non_negative_int,
    ),
    "group_members": ("members a group may have (its owner one)", _positive_int),
    "player_groups": ("groups a player may be in (their own and others')", _positive_int),
    "link_ttl": (
        "seconds a link code (another device signing in as the player) may be used",
        _positive_int,
    ),
    "link_tries": (
        "link codes that may be tried from one client address in 10 minutes; 0 no limit",
        _non_negative_int,
    ),
    "secret": ("key of the daily deals' seeds (else one kept in the data directory)", _secret),
    "certify_ahead": (
        "days ahead whose daily deals are certified winnable in the background (9: "
        "each fixed before its day's commitment is published, 7 days ahead); 0 none "
        "(every day's deal is its first candidate)",
        _non_negative_int,
    ),
    "certify_budget": ("seconds of search a daily deal's candidate gets", _positive_float),
    "certify_candidates": (
        "candidates tried for a day's deal before it is used uncertified",
        _positive_int,
    ),
    "rules_dir": (
        "folder of the game pages served as rules (else the source's docs/games)",
        _folder,
    ),
    "quick_window": (
        "quick race: the rating window a waiting player looks for others in, +/- ordinal points",
        _non_negative_float,
    ),
    "quick_widen": (
        "quick race: ordinal points the window widens by every quick_widen_every seconds",
        _non_negative_float,
    ),
    "quick_widen_every": ("quick race: seconds between two widenings", _positive_float),
    "quick_gather": (
        "quick race: seconds the longest waiting of a match waits for more players (a "
        "full room goes at once)",
        _non_negative_float,
    ),
    "quick_ghosts_after": (
        "quick race: seconds a player waits unmatched before racing ghosts instead",
        _positive_float,
    ),
    "quick_tick": ("quick race: seconds between the matcher's passes", _positive_float),
    "quick_players": ("quick race: the most racers in a room (2 to 16)", _quick_players),
    "quick_time_limit": ("quick race: seconds a race lasts at most", _positive_int),
    "clock_offset": (
        "seconds added to the server clock, to try out a day's reset (every process on "
        "one Redis the same); 0 in service",
        _clock_offset,
    ),
}

ENV_NAMES: dict[str, str] = {name: "PATIENCE_" + name.upper() for name in OPTIONS}

assert set(OPTIONS) == {f.name for f in fields(Settings)} - {"clock"}
