"""Server and terminal-client processes forked from one that has imported them already.

The tests start about three hundred ``python -m server.cli`` processes and as many
terminal clients (``patience-race`` in a pseudo-terminal), and each spent 0.2 to 0.3
CPU-s importing Python's, the server's or the client's modules before it did anything:
about a sixth of the suite's CPU. A *zygote* (one a pytest worker, started the first
time a test asks) imports them once; each process is then forked from it and runs as
``python -m server.cli`` or the ``patience-race`` script would, with the test's
environment, arguments, working folder and files (a client: the pseudo-terminal as its
controlling terminal, in a session of its own, as pexpect makes it), so the tests still
meet a real process of its own: its pid, signals, exit status, its own event loop and
connections.

The zygote forks a small monitor a process: the monitor forks the process, waits for it
and writes its exit status on a socket the test holds (the process is the zygote's
grandchild, not the test's child, so the test cannot wait for it itself).
:class:`Forked` reads it there and answers as :class:`subprocess.Popen` does for the
calls the tests make; :class:`spawn` is :class:`pexpect.spawn` on such a process.

Only for environments whose ``PATIENCE_NATIVE`` is the zygote's (``import server``
reads it); ``PATIENCE_FORK=0`` starts every process the plain way. Tests of a process's
own start (its imports, the installed scripts, ``make run``) start it the plain way.
"""

from __future__ import annotations

import contextlib
import fcntl
import importlib
import importlib.util
import io
import os
import pickle
import pkgutil
import pty
import select
import signal
import socket
import struct
import subprocess
import sys
import termios
import threading
from pathlib import Path
from typing import Any

import pexpect
import ptyprocess

_NATIVE = "PATIENCE_NATIVE"
#: what the zygote is asked: ``module`` (run as ``python -m``) or ``entry`` (a script's
#: ``package.module:function``), the target, the arguments, environment and working
#: folder, and whether the one file sent is a terminal to make the process's own
Request = tuple[str, str, list[str], dict[str, str], str, bool]
#: the monitor's words: the pid once forked, then its ``wait`` status when it ends
_STATUS = struct.Struct("=ii")
#: the standard streams: their file, name and errors, as Python's start makes them
_STREAMS = ((0, "stdin", "strict"), (1, "stdout", "strict"), (2, "stderr", "backslashreplace"))
ROOT = Path(__file__).resolve().parents[2]


def enabled(env: dict[str, str]) -> bool:
    """Whether a process with ``env`` may be forked from this worker's zygote: not where
    ``PATIENCE_FORK=0`` (the worker's or the process's own), nor with another compiled or
    preloaded library than the zygote's (``LD_PRELOAD``: libfaketime is loaded as a process
    starts)."""
    return env.get("PATIENCE_FORK", os.environ.get("PATIENCE_FORK", "1")) != "0" and all(
        env.get(name, "") == os.environ.get(name, "") for name in (_NATIVE, "LD_PRELOAD")
    )


class Forked:
    """A forked process, as much of :class:`subprocess.Popen` as the tests use."""

    def __init__(self, pid: int, status: socket.socket) -> None:
        self.pid = pid
        self.returncode: int | None = None
        self._status = status

    def poll(self) -> int | None:
        if self.returncode is None and select.select([self._status], [], [], 0)[0]:
            self._read()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            if not select.select([self._status], [], [], timeout)[0]:
                raise subprocess.TimeoutExpired(["forked", str(self.pid)], timeout or 0)
            self._read()
        assert self.returncode is not None
        return self.returncode

    def _read(self) -> None:
        data = self._status.recv(_STATUS.size)
        if len(data) < _STATUS.size:  # the monitor died without a word
            self.returncode = -signal.SIGKILL
        else:
            self.returncode = os.waitstatus_to_exitcode(_STATUS.unpack(data)[1])
        self._status.close()

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)


class Zygote:
    """The pytest worker's side: start the zygote once, then ask it for processes."""

    _lock = threading.Lock()
    _mine: Zygote | None = None

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.app.forked", str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            cwd=ROOT,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
        theirs.close()
        self.socket = ours

    @classmethod
    def get(cls) -> Zygote:
        with cls._lock:
            if cls._mine is None or cls._mine.process.poll() is not None:
                cls._mine = cls()
            return cls._mine

    def fork(self, request: Request, fds: list[int]) -> Forked:
        with self._lock:
            socket.send_fds(self.socket, [pickle.dumps(request)], fds)
            _, got, _, _ = socket.recv_fds(self.socket, 64, 1)
        status = socket.socket(fileno=got[0])
        pid, _ = _STATUS.unpack(status.recv(_STATUS.size))
        return Forked(pid, status)


def popen(module: str, args: list[str], env: dict[str, str], stdout: Any, stderr: Any) -> Any:
    """``python -m module args`` with ``env``, writing to the files ``stdout`` and
    ``stderr``: forked from the zygote when it can be, else a plain process."""
    if not enabled(env):
        return subprocess.Popen(
            [sys.executable, "-m", module, *args], env=env, stdout=stdout, stderr=stderr
        )
    request: Request = ("module", module, args, env, os.getcwd(), False)
    with open(os.devnull, "rb") as stdin:
        return Zygote.get().fork(request, [stdin.fileno(), stdout.fileno(), stderr.fileno()])


class ForkedPty(ptyprocess.PtyProcess):  # type: ignore[misc]
    """:class:`ptyprocess.PtyProcess` on a forked process: its end seen through
    :class:`Forked`, not ``waitpid`` (it is not this process's child)."""

    terminated: bool
    flag_eof: bool
    status: int | None
    exitstatus: int | None
    signalstatus: int | None

    def __init__(self, forked: Forked, fd: int) -> None:
        super().__init__(forked.pid, fd)
        self.forked = forked

    def isalive(self) -> bool:
        if self.terminated:
            return False
        code = self.forked.wait() if self.flag_eof else self.forked.poll()
        if code is None:
            return True
        self.terminated = True
        self.status = code
        self.exitstatus, self.signalstatus = (code, None) if code >= 0 else (None, -code)
        return False

    def wait(self) -> int | None:
        self.forked.wait()
        self.isalive()
        return self.exitstatus


class spawn(pexpect.spawn):  # type: ignore[misc]
    """:class:`pexpect.spawn` of an installed script, forked from the zygote when it can
    be: ``entry`` is the script's ``package.module:function``."""

    def __init__(self, command: str, args: list[str], *, entry: str, **kwargs: Any) -> None:
        self._entry = entry
        super().__init__(command, args, **kwargs)

    def _spawnpty(self, args: list[str], **kwargs: Any) -> Any:
        env = kwargs.get("env") or dict(os.environ)
        if not enabled(env):
            return super()._spawnpty(args, **kwargs)
        master, slave = pty.openpty()
        rows, cols = kwargs.get("dimensions") or (24, 80)
        fcntl.ioctl(master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        request: Request = ("entry", self._entry, args, env, kwargs.get("cwd") or os.getcwd(), True)
        try:
            forked = Zygote.get().fork(request, [slave])
        finally:
            os.close(slave)
        process = ForkedPty(forked, master)
        process.argv = args
        process.env = env
        return process


# the zygote's side ------------------------------------------------------------------


def _preload() -> None:
    """Every module a server or a terminal client imports, once, before any fork."""
    import client_cli

    names = ["runpy", "server.cli", "server.app.main"]
    names += [f"client_cli.{m.name}" for m in pkgutil.iter_modules(client_cli.__path__)]
    for name in names:
        importlib.import_module(name)


def _serve(fd: int) -> None:
    _preload()
    conn = socket.socket(fileno=fd)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    while True:
        try:
            data, fds, _, _ = socket.recv_fds(conn, 1 << 20, 3)
        except OSError:
            return
        if not data:  # the pytest worker has gone
            return
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        if os.fork() == 0:
            conn.close()
            ours.close()
            _monitor(pickle.loads(data), fds, theirs)
        theirs.close()
        for f in fds:
            os.close(f)
        socket.send_fds(conn, [b"s"], [ours.fileno()])
        ours.close()
        _reap()


def _reap() -> None:
    """The monitors whose process has ended."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass


def _monitor(request: Request, fds: list[int], out: socket.socket) -> None:
    pid = os.fork()
    if pid == 0:
        out.close()
        _become(request, fds)
    for f in fds:
        os.close(f)
    out.sendall(_STATUS.pack(pid, 0))
    _, status = os.waitpid(pid, 0)
    out.sendall(_STATUS.pack(pid, status))
    os._exit(0)


def _stdio() -> None:
    """Standard streams made afresh on the files now at 0, 1 and 2, as Python makes
    them at its start (line-buffered on a terminal)."""
    for fd, name, errors in (
        (0, "stdin", "strict"),
        (1, "stdout", "strict"),
        (2, "stderr", "backslashreplace"),
    ):
        raw = io.FileIO(fd, "r" if fd == 0 else "w", closefd=False)
        buffered = io.BufferedReader(raw) if fd == 0 else io.BufferedWriter(raw)
        stream = io.TextIOWrapper(
            buffered, encoding="utf-8", errors=errors, line_buffering=fd == 2 or raw.isatty()
        )
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _become(request: Request, fds: list[int]) -> None:
    """Be the process asked for from here on; never returns."""
    import atexit
    import runpy
    import traceback

    how, target, args, env, cwd, tty = request
    if tty:
        os.setsid()
        fcntl.ioctl(fds[0], termios.TIOCSCTTY, 0)
        fds = fds * 3
    for number, f in enumerate(fds):
        os.dup2(f, number)
    os.closerange(3, 1 << 16)
    _stdio()
    os.environ.clear()
    os.environ.update(env)
    os.chdir(cwd)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    code: Any = 0
    try:
        if how == "module":
            spec = importlib.util.find_spec(target)
            sys.argv = [spec.origin if spec and spec.origin else target, *args]
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        else:
            module, function = target.split(":")
            sys.argv = args
            code = getattr(importlib.import_module(module), function)()
    except SystemExit as exit:
        code = exit.code
    except BaseException:
        traceback.print_exc()
        code = 1
    try:
        threading._shutdown()  # type: ignore[attr-defined]
        atexit._run_exitfuncs()
    finally:
        if isinstance(code, str):
            print(code, file=sys.stderr)
            code = 1
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(int(code or 0))


if __name__ == "__main__":
    _serve(int(sys.argv[1]))
