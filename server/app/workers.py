"""Work that takes CPU for longer than a request may hold the event loop (a hint's
search, a deal's certification, a stuck position's check): run in worker processes, each
kind in a pool of its own so that a long kind never queues a short one.

A pool's processes come from a fork server started before the first task: a clean
process, not a fork of the server with its event loop and connections. Tasks are plain
module-level functions with picklable arguments; a task that runs past its time is
abandoned (:class:`TimeoutError`; its process finishes it and is used again).

The certifying pool's processes run at a lower CPU priority than the server (:data:`NICE`):
a new server certifies days of deals in the background, and its players come first.

A worker ends when the server process that started it ends, however it ends: each watches
that process (:func:`end_with`), since a worker killed with its server's death is the only
thing that lets the fork server (kept alive by its workers) and the resource tracker
(kept alive by both) end too. Without it, a server killed outright (SIGKILL, the OOM
killer) left three processes behind for good.

>>> import asyncio, operator
>>> async def demo() -> int:
...     workers = Workers()
...     try:
...         return await workers.run("demo", operator.add, 2, 3, timeout=30)
...     finally:
...         workers.close()
>>> asyncio.run(demo())
5
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import select
import signal
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")

#: how much lower than the server's a kind's worker processes run (``os.nice``; the
#: kinds not named run as the server does): certifying the days' deals is background
#: work, while a hint or a stuck check is awaited by a player
NICE = {"certify": 10}


def end_with(pid: int) -> None:
    """A pool's initializer: this worker process ends (at once, as a signal would end it)
    when process ``pid``, the server, has ended. A thread waits on the process (a pidfd,
    readable when it ends; where there is none, a look every second)."""
    threading.Thread(target=_watch, args=(pid,), name="end-with-server", daemon=True).start()


def start_worker(pid: int, nice: int) -> None:
    """A pool's initializer: the worker ends with the server (:func:`end_with`), runs
    ``nice`` steps lower in priority, and ignores SIGINT: Ctrl-C in a terminal sends it
    to the whole process group, and each idle worker printed a ``KeyboardInterrupt``
    traceback while its server was still draining; the server stops its workers itself
    (:meth:`Workers.close`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    end_with(pid)
    if nice:
        os.nice(nice)


def timed(task: Callable[..., T], *args: Any) -> tuple[T, float]:
    """``task(*args)`` and the CPU seconds it took in this process (a worker's)."""
    started = time.process_time()
    result = task(*args)
    return result, time.process_time() - started


def _watch(pid: int) -> None:
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:
        os._exit(0)
    except (OSError, AttributeError):  # no pidfd here: look now and then
        while True:
            time.sleep(1)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:
                pass
    select.select([fd], [], [])
    os._exit(0)


class Workers:
    def __init__(
        self, sizes: dict[str, int] | None = None, nice: dict[str, int] | None = None
    ) -> None:
        #: processes a kind of work gets (1 when not named)
        self.sizes = sizes or {}
        #: how much lower in priority a kind's processes run (:data:`NICE` when not given)
        self.nice = NICE if nice is None else nice
        self._pools: dict[str, ProcessPoolExecutor] = {}

    def pool(self, kind: str) -> ProcessPoolExecutor:
        pool = self._pools.get(kind)
        if pool is None:
            context = multiprocessing.get_context("forkserver")
            pool = ProcessPoolExecutor(
                self.sizes.get(kind, 1),
                mp_context=context,
                initializer=start_worker,
                initargs=(os.getpid(), self.nice.get(kind, 0)),
            )
            self._pools[kind] = pool
        return pool

    async def run(
        self, kind: str, task: Callable[..., T], *args: Any, timeout: float | None = None
    ) -> T:
        """``task(*args)`` in a worker process of ``kind``'s pool, awaited without
        holding the event loop; :class:`TimeoutError` past ``timeout`` seconds;
        :class:`BrokenProcessPool` when a process of the pool died (the next task of the
        kind gets a new pool)."""
        pool = self.pool(kind)
        try:
            future = asyncio.get_running_loop().run_in_executor(pool, task, *args)
            return await asyncio.wait_for(future, timeout)
        except BrokenProcessPool:
            # a process of the pool died (killed, out of memory): the pool takes no more
            # work, so the next task of this kind starts a new one
            if self._pools.get(kind) is pool:
                del self._pools[kind]
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    def close(self) -> None:
        """Stop every pool: what runs is abandoned and its process ended (the server is
        stopping; without this its exit would wait for a running task, a certification's
        whole budget)."""
        managers = []
        for pool in self._pools.values():
            # the pool's processes, before shutdown lets go of them (the executor keeps
            # them in ``_processes``; Python 3.14 gives it a public terminate_workers)
            processes = list(getattr(pool, "_processes", {}).values())
            managers.append(getattr(pool, "_executor_manager_thread", None))
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                if process.is_alive():
                    process.terminate()
        self._pools.clear()
        # the pool's manager thread closes its wake-up pipe once it has seen its
        # processes go; the interpreter's exit writes to that pipe, and on Python 3.11 a
        # close at the same moment makes it fail ("Bad file descriptor", a traceback
        # after "stopped"): let the managers finish first
        deadline = time.monotonic() + 2.0
        for manager in managers:
            if manager is not None and manager.is_alive():
                manager.join(max(0.0, deadline - time.monotonic()))
