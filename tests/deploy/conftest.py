"""The deploy tests that run the real server (behind a real HAProxy, or alone) use the
real Redis of tests/app/conftest.py."""

from tests.app.conftest import redis_server, redis_url  # noqa: F401
