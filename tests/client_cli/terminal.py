"""The real ``patience-race`` in a pseudo-terminal, read as a person would see it.

pexpect runs the client on a pty of 80x24; everything it writes goes through pyte, a
terminal emulator, so a test reads the screen (not a stream of escape codes) and waits for
text to appear on it. pyte also answers the client's cursor-position queries.
"""

from __future__ import annotations

import os
import re
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pexpect
import pyte

from tests.app import forked

if TYPE_CHECKING:
    from tests.app.conftest import ServerProcess

CLIENT = str(Path(sys.executable).parent / "patience-race")
#: the first legal move, once the line under it (the keys) is drawn too
LEGAL = r"legal: #?1 (\S+).*\n.*q (?:quit|leave)"


def as_in_a_shell() -> None:
    """Ctrl-C interrupts, as in a person's terminal, even when the tests themselves were
    started where it is ignored (a shell's background job): Python leaves an ignored
    SIGINT ignored, and the client would never hear it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Terminal:
    def __init__(
        self,
        args: list[str],
        *,
        server: str,
        config: Path,
        rows: int = 24,
        cols: int = 80,
        preexec: Callable[[], None] | None = None,
    ) -> None:
        """``preexec``: run in the client's process before it starts (a limit set on it);
        such a client is started the plain way, not forked from one started already."""
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        env = {
            **os.environ,
            "PATIENCE_SERVER": server,
            "XDG_CONFIG_HOME": str(config),
            "TERM": "xterm-256color",
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
        }
        env.pop("NO_COLOR", None)
        # the size is the pseudo-terminal's: LINES and COLUMNS would override it (a
        # pytest-xdist worker has them set, 24 by 80)
        env.pop("LINES", None)
        env.pop("COLUMNS", None)
        if preexec is not None:
            env["PATIENCE_FORK"] = "0"
            env["PYTHONDONTWRITEBYTECODE"] = "1"

        def before() -> None:
            as_in_a_shell()
            if preexec is not None:
                preexec()

        self.child = forked.spawn(
            CLIENT,
            args,
            entry="client_cli.cli:main",
            env=env,
            dimensions=(rows, cols),
            preexec_fn=before,
        )
        self.screen.write_process_input = self._answer  # type: ignore[method-assign]
        self.output = b""

    def _answer(self, data: str) -> None:
        self.child.send(data)

    def pump(self, timeout: float = 0.05) -> bool:
        """Read what the client wrote; False once it has exited."""
        try:
            data = self.child.read_nonblocking(1 << 16, timeout)
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False
        self.output += data
        self.stream.feed(data)
        return True

    def settle(self, quiet: float = 0.3, most: float = 10) -> None:
        """Read until the screen has not changed for ``quiet`` seconds: a screen read then
        is whole, never half repainted. (Bytes are no sign of change: the client's
        renderer writes its cursor's show and hide four times a second, repainting
        nothing, so waiting for silence waited the whole ``most``.)"""
        now = time.monotonic()
        deadline = now + most
        last, still_since = self.text, now
        while now < deadline:
            left = min(quiet - (now - still_since), deadline - now)
            if left <= 0:
                return
            try:
                data = self.child.read_nonblocking(1 << 16, left)
            except (pexpect.TIMEOUT, pexpect.EOF):
                return
            self.output += data
            self.stream.feed(data)
            now = time.monotonic()
            text = self.text
            if text != last:
                last, still_since = text, now

    @property
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, pattern: str, timeout: float = 10) -> re.Match[str]:
        """Wait until the screen shows ``pattern`` (a regular expression)."""
        deadline = time.monotonic() + timeout
        regex = re.compile(pattern)
        while True:
            match = regex.search(self.text)
            if match:
                return match
            alive = self.pump()
            if time.monotonic() > deadline or not alive:
                if not alive:  # the last words, on the screen or not
                    self.pump()
                raise AssertionError(f"no {pattern!r} on the screen:\n{self.text}")

    def resize(self, rows: int, cols: int) -> None:
        """The terminal made ``rows`` by ``cols``, as a person drags its window (the
        client hears SIGWINCH)."""
        self.screen.resize(rows, cols)
        self.child.setwinsize(rows, cols)

    def type(self, line: str, enter: bool = True) -> None:
        self.child.send(line + ("\r" if enter else ""))

    def exit_code(self, timeout: float = 10) -> int:
        deadline = time.monotonic() + timeout
        while self.pump():
            if time.monotonic() > deadline:
                raise AssertionError(f"the client did not exit:\n{self.text}")
        self.child.wait()
        self.child.close()
        return int(self.child.exitstatus if self.child.exitstatus is not None else -1)

    def close(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)


def start(
    terminals: list[Terminal],
    server: ServerProcess,
    config: Path,
    *args: str,
    rows: int = 24,
    cols: int = 80,
) -> Terminal:
    """The client run with ``args`` against ``server``, its settings in ``config``; kept
    in ``terminals`` (the fixture of that name closes them at the test's end)."""
    terminal = Terminal(list(args), server=server.url, config=config, rows=rows, cols=cols)
    terminals.append(terminal)
    return terminal


def flat(text: str) -> str:
    """The screen's words with the terminal's line breaks taken out."""
    return re.sub(r"\s+", " ", text)


def unwrapped(text: str) -> str:
    """Text without its spaces and line ends: a line longer than the terminal is wrapped
    by it, anywhere, a word or an address cut in two."""
    return re.sub(r"\s", "", text)


def continued(text: str) -> str:
    r"""``text`` with a shell's line continuations (`` \`` at a line's end) joined, as a
    shell joins them: a command to copy too wide for the full screen is broken so."""
    return re.sub(r" \\\n\s*", " ", text)
