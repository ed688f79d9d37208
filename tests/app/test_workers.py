"""The worker pools (``server.app.workers``): real processes from a fork server."""

from __future__ import annotations

import operator
import os
import time
from concurrent.futures.process import BrokenProcessPool

import pytest

from server.app.workers import Workers


async def test_a_pool_whose_process_died_is_replaced() -> None:
    workers = Workers()
    try:
        assert await workers.run("demo", operator.add, 2, 3, timeout=30) == 5
        with pytest.raises(BrokenProcessPool):
            await workers.run("demo", os._exit, 1, timeout=30)  # the process dies
        assert await workers.run("demo", operator.mul, 2, 3, timeout=30) == 6
    finally:
        workers.close()


async def test_a_task_past_its_time_is_abandoned() -> None:
    workers = Workers()
    try:
        with pytest.raises(TimeoutError):
            await workers.run("demo", time.sleep, 2, timeout=0.2)
    finally:
        workers.close()
