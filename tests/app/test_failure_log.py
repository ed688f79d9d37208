"""What the failure log calls Redis being away, and what it calls a fault: a file the
process cannot make (no usable temporary directory, on a read-only root file system with
no writable /tmp) is not "redis unavailable", and is logged with its traceback."""

from __future__ import annotations

import errno
import logging
import socket

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from server.app.store.failures import FailureLog

NO_TEMP = FileNotFoundError(
    errno.ENOENT, "No usable temporary directory found in ['/tmp', '/var/tmp', '/usr/tmp', '/']"
)


def logged(exc: BaseException, caplog: pytest.LogCaptureFixture) -> logging.LogRecord:
    logger = logging.getLogger("tests.failure_log")
    with caplog.at_level(logging.DEBUG, logger.name):
        FailureLog(logger).failed("certifying daily deals", exc)
    (record,) = caplog.records
    caplog.clear()
    return record


@pytest.mark.parametrize(
    "fault",
    [
        NO_TEMP,
        PermissionError(errno.EACCES, "Permission denied", "/data/secret"),
        OSError(errno.EROFS, "Read-only file system", "/tmp/pymp-x"),
        OSError(errno.ENOSPC, "No space left on device"),
        OSError(errno.EMFILE, "Too many open files"),
    ],
)
def test_a_file_the_process_cannot_make_is_a_fault(
    fault: OSError, caplog: pytest.LogCaptureFixture
) -> None:
    record = logged(fault, caplog)
    assert "redis unavailable" not in record.getMessage(), record.getMessage()
    assert record.levelno == logging.ERROR
    assert record.exc_info is not None and record.exc_info[1] is fault


@pytest.mark.parametrize(
    "away",
    [
        RedisConnectionError("Error 111 connecting to redis:6379. Connection refused."),
        RedisTimeoutError("Timeout reading from socket"),
        ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused"),
        ConnectionResetError(errno.ECONNRESET, "Connection reset by peer"),
        BrokenPipeError(errno.EPIPE, "Broken pipe"),
        TimeoutError(),
        OSError(errno.EHOSTUNREACH, "No route to host"),
        OSError(errno.ENETUNREACH, "Network is unreachable"),
        socket.gaierror(socket.EAI_NONAME, "Name or service not known"),
        OSError("Multiple exceptions: [Errno 111] Connect call failed ('10.0.0.5', 6379)"),
    ],
)
def test_redis_away_is_still_unavailable(away: Exception, caplog: pytest.LogCaptureFixture) -> None:
    record = logged(away, caplog)
    assert record.levelno == logging.WARNING
    assert "certifying daily deals failed: redis unavailable" in record.getMessage()
