"""Fixtures for the benchmarks' tests: the server tests' real Redis and real server."""

from __future__ import annotations

from tests.app.conftest import redis_server, redis_url, server, settings  # noqa: F401
