"""A periodic step (the certifier's and the commitments' looks, housekeeping) stops when
told, also when the cancel lands in a Redis call: on CPython 3.11 ``asyncio.wait_for``,
which redis-py sends every command through, loses a cancel that lands as the command's
reply arrives (server/app/periodic.py), and a loop that relied on the cancel alone went
on after its service had shut down."""

from __future__ import annotations

import asyncio
import logging
from concurrent.futures.process import BrokenProcessPool

import pytest

from server.app.periodic import Periodic
from server.app.store.connect import open_redis
from server.app.store.failures import FailureLog


async def test_a_stopped_loop_of_redis_calls_ends(redis_url: str) -> None:
    redis = open_redis(redis_url)
    failures = FailureLog(logging.getLogger("test.periodic"))
    steps = 0

    async def step() -> None:
        nonlocal steps
        steps += 1
        for n in range(200):  # (a stop lands in one of these, not in the sleep)
            await redis.get(f"periodic:{n}")

    try:
        for _ in range(10):  # each time: a cancel lost by wait_for, in most of them
            looks = Periodic("a test loop", step, lambda: 0.0, failures)
            looks.start()
            started = steps
            while steps < started + 2:
                await asyncio.sleep(0.001)
            task = looks.stop()
            assert task is not None
            # (a deadline for a hang, not a timing: the loop ends after the step under way)
            done, _ = await asyncio.wait({task}, timeout=30)
            assert done == {task}, "the loop went on after it was stopped"
            assert not looks.running
            ended = steps
            await asyncio.sleep(0.01)
            assert steps == ended  # no step started after the stop
    finally:
        await redis.aclose()


async def test_a_loop_started_again_after_a_stop_runs_once(redis_url: str) -> None:
    failures = FailureLog(logging.getLogger("test.periodic"))
    runs: list[asyncio.Task[object] | None] = []

    async def step() -> None:
        runs.append(asyncio.current_task())
        await asyncio.sleep(0)

    looks = Periodic("a test loop", step, lambda: 0.0, failures)
    looks.start()
    while not runs:
        await asyncio.sleep(0.001)
    first = looks.stop()
    looks.start()
    assert first is not None
    await asyncio.wait({first}, timeout=30)
    second = len(runs)
    while len(runs) < second + 3:
        await asyncio.sleep(0.001)
    assert {id(t) for t in runs[second:]} == {id(looks._task)}  # the new task only
    looks.stop()


async def test_a_worker_that_died_is_one_line_and_the_next_run_tries_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A worker process that died under a step (``BrokenProcessPool``: killed, out of
    memory, or Ctrl-C reaching it as it started, before it could ignore it) is no fault
    of the code: one WARNING line, no traceback (a Ctrl-C test's server logged
    "certifying daily deals failed" with one), and the next run goes on (its pool is
    made again)."""
    failures = FailureLog(logging.getLogger("test.periodic"))
    runs = 0

    async def step() -> None:
        nonlocal runs
        runs += 1
        if runs == 1:
            raise BrokenProcessPool("A process in the process pool was terminated abruptly")

    caplog.set_level(logging.INFO)
    looks = Periodic("certifying daily deals", step, lambda: 0.0, failures)
    looks.start()
    while runs < 2:
        await asyncio.sleep(0.001)
    looks.stop()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "Traceback" not in caplog.text
    said = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(said) == 1 and "a worker process died" in said[0].getMessage(), caplog.text
