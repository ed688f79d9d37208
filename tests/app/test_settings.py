"""Settings from flags and PATIENCE_* variables, checked once."""

from __future__ import annotations

from pathlib import Path

import pytest

from server.app.embedded_redis import EmbeddedRedis
from server.app.settings import ENV_NAMES, Settings


def test_flags_beat_variables_beat_defaults() -> None:
    env = {"PATIENCE_PORT": "9001", "PATIENCE_RATE": "5", "PATIENCE_COUNTDOWN": "2.5"}
    settings = Settings.load(["--port", "9002"], env)
    assert settings.port == 9002
    assert settings.rate == 5.0
    assert settings.countdown == 2.5
    assert settings.burst == Settings().burst


def test_every_setting_has_a_variable() -> None:
    assert ENV_NAMES["redis_url"] == "PATIENCE_REDIS_URL"
    assert ENV_NAMES["data_dir"] == "PATIENCE_DATA_DIR"
    settings = Settings.load([], {"PATIENCE_DATA_DIR": "/tmp/x", "PATIENCE_LOG_LEVEL": "debug"})
    assert settings.data_dir == Path("/tmp/x")
    assert settings.log_level == "DEBUG"


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        (["--bogus"], {}, "unrecognized arguments"),
        (["--rate", "0"], {}, "--rate: must be a positive number"),
        ([], {"PATIENCE_PORT": "70000"}, "PATIENCE_PORT: a port is 0 to 65535"),
        ([], {"PATIENCE_LOG_LEVEL": "loud"}, "a log level is"),
        (["--redis-url", "localhost:6379"], {}, "a Redis URL starts"),
        # an operator's typos in the URL: each was a traceback of 31 lines, or database 0
        # taken in silence for a database that is not a number
        (
            [],
            {"PATIENCE_REDIS_URL": "redis://127.0.0.1:99999/0"},
            "PATIENCE_REDIS_URL: 'redis://127.0.0.1:99999/0': its port is 0 to 65535",
        ),
        (["--redis-url", "redis://127.0.0.1:abc/0"], {}, "its port is 0 to 65535"),
        (["--redis-url", "redis://[::1/0"], {}, "'redis://[::1/0': Invalid IPv6 URL"),
        (
            ["--redis-url", "redis://:s3cret@127.0.0.1:6381/x"],
            {},
            "'redis://:***@127.0.0.1:6381/x': its database is a number (/3), not 'x'",
        ),
        (["--redis-url", "redis://h:6379?db=zz"], {}, "its database is a number (/3), not 'zz'"),
        (["--redis-url", "unix://"], {}, "'unix://': a unix:// URL names the socket's path"),
        # (taken in silence: every game's rules were its one-line summary)
        ([], {"PATIENCE_RULES_DIR": "/nonexistent/rules"}, "PATIENCE_RULES_DIR: '/nonexist"),
        # (refused once the embedded Redis had started, exit 1, named PATIENCE_SECRET)
        (["--secret", "   "], {}, "--secret: blank: give it a secret, or leave it unset"),
        ([], {"PATIENCE_SECRET": " "}, "PATIENCE_SECRET: blank: give it a secret"),
        (["--max-frame", "10"], {}, "must be 512 to 1048576"),
        # a word where a number goes: said as --burst's is (it was Python's own words,
        # "invalid literal for int() with base 10: 'abc'")
        (["--port=abc"], {}, "--port: must be a whole number, not 'abc'"),
        ([], {"PATIENCE_PORT": "80.5"}, "PATIENCE_PORT: must be a whole number, not '80.5'"),
        (["--max-frame", "abc"], {}, "--max-frame: must be a whole number, not 'abc'"),
        (["--quick-players", "abc"], {}, "--quick-players: must be a whole number, not 'abc'"),
        (["--clock-offset", "abc"], {}, "--clock-offset: must be a number, not 'abc'"),
        (["--rate", "lots"], {}, "--rate: must be a number, not 'lots'"),
        (
            [],
            {"PATIENCE_REDIS_LOAD_TIMEOUT": "0"},
            "PATIENCE_REDIS_LOAD_TIMEOUT: must be a positive",
        ),
        ([], {"PATIENCE_MAX_CONNECTIONS_PER_IP": "-1"}, "_PER_IP: must be 0 or more"),
        ([], {"PATIENCE_REDIS_FSYNC": "no"}, "PATIENCE_REDIS_FSYNC: must be always or everysec"),
        (["--redis-cluster", "maybe"], {}, "--redis-cluster: must be 1, true or yes, or 0"),
        ([], {"PATIENCE_REDIS_CLUSTER": "yes"}, "PATIENCE_REDIS_CLUSTER: a Redis Cluster needs"),
        (
            ["--redis-cluster", "1", "--redis-url", "unix:///run/redis.sock"],
            {},
            "--redis-cluster: a Redis Cluster is reached over TCP",
        ),
        (
            ["--redis-url", "redis://10.0.0.5:7000/3"],
            {"PATIENCE_REDIS_CLUSTER": "true"},
            "a Redis Cluster has database 0 only",
        ),
    ],
)
def test_bad_settings_exit_with_a_message(
    argv: list[str], env: dict[str, str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        Settings.load(argv, env)
    assert message in capsys.readouterr().err


def test_the_pauses_the_tests_shorten_are_settings() -> None:
    """The retry pause (a room's step, the bus's subscription) and the stuck check's
    settle time: a server in service keeps the defaults, the tests' servers shorten them."""
    default = Settings.load([], {})
    assert (default.retry_pause, default.stuck_settle) == (0.25, 1.0)
    env = {"PATIENCE_RETRY_PAUSE": "0.05", "PATIENCE_STUCK_SETTLE": "0"}
    short = Settings.load([], env)
    assert (short.retry_pause, short.stuck_settle) == (0.05, 0.0)
    assert Settings.load(["--stuck-settle", "0.2"], env).stuck_settle == 0.2


@pytest.mark.parametrize(
    ("argv", "env", "message"),
    [
        ([], {"PATIENCE_RETRY_PAUSE": "0"}, "PATIENCE_RETRY_PAUSE: must be a positive number"),
        (["--stuck-settle", "-1"], {}, "--stuck-settle: must be 0 or more"),
    ],
)
def test_bad_pauses_exit_with_a_message(
    argv: list[str], env: dict[str, str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        Settings.load(argv, env)
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(
    ("raw", "value"),
    [("1", True), ("TRUE", True), ("yes", True), ("0", False), ("false", False), ("No", False)],
)
def test_redis_cluster_is_yes_or_no(raw: str, value: bool) -> None:
    env = {"PATIENCE_REDIS_URL": "redis://10.0.0.5:7000", "PATIENCE_REDIS_CLUSTER": raw}
    assert Settings.load([], env).redis_cluster is value
    assert Settings.load([], {}).redis_cluster is False


def test_two_servers_cannot_share_a_data_directory(tmp_path: Path) -> None:
    with EmbeddedRedis(tmp_path):
        second = EmbeddedRedis(tmp_path)
        with pytest.raises(RuntimeError, match="another server is using"):
            second.start()


#: the checks of a number a setting may hold (a port, a frame, a level have their own)
NUMERIC = ("_positive_int", "_non_negative_int", "_positive_float", "_non_negative_float")


@pytest.mark.parametrize("raw", ["inf", "nan", "1e20", "99999999999999999999"])
def test_no_number_setting_takes_a_value_it_cannot_use(
    raw: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every count, size and time refuses what it could not use: ``--countdown inf`` and
    ``--ended-ttl 99999999999999999999`` were taken, then every race's start or game's
    end failed with ``internal_error`` (a countdown's ms no integer, a TTL Redis refused)."""
    from server.app.settings import OPTIONS

    checked = 0
    for name, (_help, check) in OPTIONS.items():
        if check.__name__ not in NUMERIC:
            continue
        checked += 1
        flag = "--" + name.replace("_", "-")
        with pytest.raises(SystemExit):
            Settings.load([flag, raw], {})
        assert f"{flag}: must be" in capsys.readouterr().err, name
    assert checked > 30


def test_the_clock_moves_at_most_ten_years(capsys: pytest.CaptureFixture[str]) -> None:
    """``--clock-offset 1e12`` was taken, and then the daily commitments failed for a
    year out of range."""
    assert Settings.load(["--clock-offset=-86400"], {}).clock_offset == -86400
    for raw in ("1e12", "-1e12", "inf", "nan"):
        with pytest.raises(SystemExit):
            Settings.load([f"--clock-offset={raw}"], {})
        assert "--clock-offset: must be seconds within ten years" in capsys.readouterr().err


def test_the_help_says_unset_of_a_setting_with_no_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # (it said "default None", where server.md and deploy/README.md say "unset")
    with pytest.raises(SystemExit):
        Settings.load(["--help"], {})
    said = " ".join(capsys.readouterr().out.split())
    assert "[PATIENCE_CLIENT_IP_HEADER; default unset]" in said
    assert "default None" not in said
